package tpch

import "strconv"

// The spec's enumerations (TPC-H v3 clause 4.2.2.13 and 4.2.3). They are
// what the queries' substitution parameters name.
var (
	regionNames = []string{"AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"}
	nations     = []struct {
		name   string
		region int64
	}{
		{"ALGERIA", 0}, {"ARGENTINA", 1}, {"BRAZIL", 1}, {"CANADA", 1}, {"EGYPT", 4},
		{"ETHIOPIA", 0}, {"FRANCE", 3}, {"GERMANY", 3}, {"INDIA", 2}, {"INDONESIA", 2},
		{"IRAN", 4}, {"IRAQ", 4}, {"JAPAN", 2}, {"JORDAN", 4}, {"KENYA", 0},
		{"MOROCCO", 0}, {"MOZAMBIQUE", 0}, {"PERU", 1}, {"CHINA", 2}, {"ROMANIA", 3},
		{"SAUDI ARABIA", 4}, {"VIETNAM", 2}, {"RUSSIA", 3}, {"UNITED KINGDOM", 3}, {"UNITED STATES", 1},
	}
	segments     = []string{"AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"}
	priorities   = []string{"1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"}
	instructions = []string{"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"}
	shipModes    = []string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
	typeS1       = []string{"STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"}
	typeS2       = []string{"ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"}
	typeS3       = []string{"TIN", "NICKEL", "BRASS", "STEEL", "COPPER"}
	containerS1  = []string{"SM", "LG", "MED", "JUMBO", "WRAP"}
	containerS2  = []string{"CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"}
	colors       = []string{
		"almond", "antique", "aquamarine", "azure", "beige", "bisque", "black", "blanched",
		"blue", "blush", "brown", "burlywood", "burnished", "chartreuse", "chiffon", "chocolate",
		"coral", "cornflower", "cornsilk", "cream", "cyan", "dark", "deep", "dim",
		"dodger", "drab", "firebrick", "floral", "forest", "frosted", "gainsboro", "ghost",
		"goldenrod", "green", "grey", "honeydew", "hot", "indian", "ivory", "khaki",
		"lace", "lavender", "lawn", "lemon", "light", "lime", "linen", "magenta",
		"maroon", "medium", "metallic", "midnight", "mint", "misty", "moccasin", "navajo",
		"navy", "olive", "orange", "orchid", "pale", "papaya", "peach", "peru",
		"pink", "plum", "powder", "puff", "purple", "red", "rose", "rosy",
		"royal", "saddle", "salmon", "sandy", "seashell", "sienna", "sky", "slate",
		"smoke", "snow", "spring", "steel", "tan", "thistle", "tomato", "turquoise",
		"violet", "wheat", "white", "yellow",
	}
	// commentWords is the comment vocabulary: dbgen's grammar reduced to a
	// word list. It holds "special" and "requests" (Q13 excludes orders
	// whose comment has both, in that order) and never "Customer",
	// "Complaints" or "Recommends", which only the suppliers Q16 excludes
	// get, spliced in by supplierComment.
	commentWords = []string{
		"furiously", "carefully", "quickly", "slyly", "blithely", "fluffily", "boldly", "evenly",
		"regular", "final", "express", "ironic", "pending", "even", "special", "unusual",
		"bold", "silent", "idle", "ruthless", "careful", "close", "daring", "busy",
		"accounts", "deposits", "packages", "requests", "instructions", "foxes", "ideas", "theodolites",
		"pinto", "beans", "platelets", "asymptotes", "dependencies", "excuses", "courts", "dolphins",
		"sleep", "wake", "are", "cajole", "haggle", "nag", "use", "boost",
		"affix", "detect", "integrate", "maintain", "nod", "was", "hinder", "along",
		"above", "according", "across", "after", "against", "among", "around", "at",
	}
	alnum = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ,"
)

// appendText appends random comment text of lo..hi bytes (words, the last
// one cut to the length drawn, as dbgen cuts its text).
func appendText(dst []byte, r *rng, lo, hi int64) []byte {
	n := int(r.between(lo, hi))
	start := len(dst)
	for len(dst)-start < n {
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		dst = append(dst, commentWords[r.intn(int64(len(commentWords)))]...)
	}
	dst = dst[:start+n]
	for len(dst) > start+1 && dst[len(dst)-1] == ' ' {
		dst = dst[:len(dst)-1]
	}
	return dst
}

// appendAlnum appends a random address-like string of lo..hi bytes.
func appendAlnum(dst []byte, r *rng, lo, hi int64) []byte {
	n := r.between(lo, hi)
	for range n {
		dst = append(dst, alnum[r.intn(int64(len(alnum)))])
	}
	return dst
}

// appendPadded appends v in decimal, left-padded with zeros to width.
func appendPadded(dst []byte, v int64, width int) []byte {
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], v, 10)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// appendPhone appends a phone number whose country code is nationkey+10
// (Q22 selects customers by it).
func appendPhone(dst []byte, r *rng, nationkey int64) []byte {
	dst = appendPadded(dst, nationkey+10, 2)
	dst = append(dst, '-')
	dst = appendPadded(dst, r.between(100, 999), 3)
	dst = append(dst, '-')
	dst = appendPadded(dst, r.between(100, 999), 3)
	dst = append(dst, '-')
	return appendPadded(dst, r.between(1000, 9999), 4)
}

// arena hands out byte slices carved from large blocks, so that a chunk's
// strings cost a few allocations rather than one per value.
type arena struct{ buf []byte }

// add appends the bytes made by f and returns them as a capped slice.
func (a *arena) add(f func([]byte) []byte) []byte {
	if cap(a.buf)-len(a.buf) < 256 {
		a.buf = make([]byte, 0, 1<<16)
	}
	start := len(a.buf)
	a.buf = f(a.buf)
	return a.buf[start:len(a.buf):len(a.buf)]
}
