package tpch

import (
	"time"

	"github.com/b2sql/b2sql/columnar"
)

// Counts are the row counts of the scaled tables at one scale factor.
type Counts struct {
	Supplier, Customer, Part, Orders int64
}

// Scale returns the row counts at scale factor sf (each at least 1).
// partsupp has 4·Part rows, lineitem 1..7 per order (about 4·Orders).
func Scale(sf float64) Counts {
	n := func(base float64) int64 { return max(1, int64(base*sf+0.5)) }
	return Counts{Supplier: n(10_000), Customer: n(150_000), Part: n(200_000), Orders: n(1_500_000)}
}

func day(y int, m time.Month, d int) int64 {
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// The spec's dates (clause 4.2.2.12), in days since 1970-01-01.
var (
	startDate   = day(1992, 1, 1)
	endDate     = day(1998, 12, 31)
	currentDate = day(1995, 6, 17)
)

// orderKey maps the i-th order (from 0) to its sparse key: the first 8 of
// every 32 keys, as dbgen does, so that refresh streams would have room.
func orderKey(i int64) int64 { return i/8*32 + i%8 + 1 }

// retailPrice is p_retailprice of part p in cents (clause 4.2.3).
func retailPrice(p int64) int64 { return 90000 + (p/10)%20001 + 100*(p%1000) }

// partSupplier is the i-th (0..3) supplier of part p (clause 4.2.3).
func partSupplier(p, i, s int64) int64 { return (p+i*(s/4+(p-1)/s))%s + 1 }

// chunk is a batch being filled: columns by position, and an arena for its
// strings.
type chunk struct {
	b *columnar.Batch
	a arena
}

func newChunk(s columnar.Schema, n int) *chunk {
	b := columnar.NewBatch(types(s), n)
	b.Len = n
	return &chunk{b: b}
}

func (c *chunk) ints(col int) []int64  { return c.b.Cols[col].Ints }
func (c *chunk) strs(col int) [][]byte { return c.b.Cols[col].Bytes }

// constant strings, converted once.
func bytesOf(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

var (
	bSegments     = bytesOf(segments)
	bPriorities   = bytesOf(priorities)
	bInstructions = bytesOf(instructions)
	bShipModes    = bytesOf(shipModes)
	bFlags        = bytesOf([]string{"R", "A", "N", "F", "O", "P"})
)

func genRegion(first, n int64, r *rng) []*columnar.Batch {
	c := newChunk(Schemas["region"], int(n))
	for j := range n {
		k := first + j
		c.ints(0)[j] = k
		c.strs(1)[j] = []byte(regionNames[k])
		c.strs(2)[j] = c.a.add(func(b []byte) []byte { return appendText(b, r, 31, 115) })
	}
	return []*columnar.Batch{c.b}
}

func genNation(first, n int64, r *rng) []*columnar.Batch {
	c := newChunk(Schemas["nation"], int(n))
	for j := range n {
		k := first + j
		c.ints(0)[j] = k
		c.strs(1)[j] = []byte(nations[k].name)
		c.ints(2)[j] = nations[k].region
		c.strs(3)[j] = c.a.add(func(b []byte) []byte { return appendText(b, r, 31, 114) })
	}
	return []*columnar.Batch{c.b}
}

func genSupplier(first, n int64, r *rng) []*columnar.Batch {
	c := newChunk(Schemas["supplier"], int(n))
	for j := range n {
		k := first + j + 1
		nk := r.intn(25)
		c.ints(0)[j] = k
		c.strs(1)[j] = c.a.add(func(b []byte) []byte { return appendPadded(append(b, "Supplier#"...), k, 9) })
		c.strs(2)[j] = c.a.add(func(b []byte) []byte { return appendAlnum(b, r, 10, 40) })
		c.ints(3)[j] = nk
		c.strs(4)[j] = c.a.add(func(b []byte) []byte { return appendPhone(b, r, nk) })
		c.ints(5)[j] = r.between(-99_999, 999_999)
		// Clause 4.2.3: 5 suppliers in 10,000 have "Customer … Complaints"
		// in their comment, 5 "Customer … Recommends" (Q16 skips the former).
		kind := r.intn(10_000)
		c.strs(6)[j] = c.a.add(func(b []byte) []byte {
			b = appendText(b, r, 25, 100)
			switch {
			case kind < 5:
				b = append(b, " Customer slyly Complaints"...)
			case kind < 10:
				b = append(b, " Customer even Recommends"...)
			}
			return b
		})
	}
	return []*columnar.Batch{c.b}
}

func genCustomer(first, n int64, r *rng) []*columnar.Batch {
	c := newChunk(Schemas["customer"], int(n))
	for j := range n {
		k := first + j + 1
		nk := r.intn(25)
		c.ints(0)[j] = k
		c.strs(1)[j] = c.a.add(func(b []byte) []byte { return appendPadded(append(b, "Customer#"...), k, 9) })
		c.strs(2)[j] = c.a.add(func(b []byte) []byte { return appendAlnum(b, r, 10, 40) })
		c.ints(3)[j] = nk
		c.strs(4)[j] = c.a.add(func(b []byte) []byte { return appendPhone(b, r, nk) })
		c.ints(5)[j] = r.between(-99_999, 999_999)
		c.strs(6)[j] = bSegments[r.intn(int64(len(segments)))]
		c.strs(7)[j] = c.a.add(func(b []byte) []byte { return appendText(b, r, 29, 116) })
	}
	return []*columnar.Batch{c.b}
}

func genPart(first, n int64, r *rng) []*columnar.Batch {
	c := newChunk(Schemas["part"], int(n))
	for j := range n {
		k := first + j + 1
		c.ints(0)[j] = k
		// p_name: 5 distinct colors.
		var pick [5]int64
		for i := range pick {
		again:
			pick[i] = r.intn(int64(len(colors)))
			for _, p := range pick[:i] {
				if p == pick[i] {
					goto again
				}
			}
		}
		c.strs(1)[j] = c.a.add(func(b []byte) []byte {
			for i, p := range pick {
				if i > 0 {
					b = append(b, ' ')
				}
				b = append(b, colors[p]...)
			}
			return b
		})
		m, bn := r.between(1, 5), r.between(1, 5)
		c.strs(2)[j] = c.a.add(func(b []byte) []byte { return append(append(b, "Manufacturer#"...), byte('0'+m)) })
		c.strs(3)[j] = c.a.add(func(b []byte) []byte { return append(append(b, "Brand#"...), byte('0'+m), byte('0'+bn)) })
		t1, t2, t3 := r.intn(6), r.intn(5), r.intn(5)
		c.strs(4)[j] = c.a.add(func(b []byte) []byte {
			b = append(append(b, typeS1[t1]...), ' ')
			return append(append(append(b, typeS2[t2]...), ' '), typeS3[t3]...)
		})
		c.ints(5)[j] = r.between(1, 50)
		c1, c2 := r.intn(5), r.intn(8)
		c.strs(6)[j] = c.a.add(func(b []byte) []byte {
			return append(append(append(b, containerS1[c1]...), ' '), containerS2[c2]...)
		})
		c.ints(7)[j] = retailPrice(k)
		c.strs(8)[j] = c.a.add(func(b []byte) []byte { return appendText(b, r, 5, 22) })
	}
	return []*columnar.Batch{c.b}
}

// genPartSupp makes the 4 rows of each part in [first, first+n).
func genPartSupp(s int64) func(first, n int64, r *rng) []*columnar.Batch {
	return func(first, n int64, r *rng) []*columnar.Batch {
		c := newChunk(Schemas["partsupp"], int(4*n))
		for j := range n {
			p := first + j + 1
			for i := range int64(4) {
				row := 4*j + i
				c.ints(0)[row] = p
				c.ints(1)[row] = partSupplier(p, i, s)
				c.ints(2)[row] = r.between(1, 9999)
				c.ints(3)[row] = r.between(100, 100_000)
				c.strs(4)[row] = c.a.add(func(b []byte) []byte { return appendText(b, r, 49, 198) })
			}
		}
		return []*columnar.Batch{c.b}
	}
}

// genOrders makes orders [first, first+n) and all their lines: an order's
// status and total price come from its lines.
func genOrders(cn Counts) func(first, n int64, r *rng) []*columnar.Batch {
	// Customers whose key is a multiple of 3 place no orders (clause 4.2.3).
	placing := cn.Customer - cn.Customer/3
	clerks := max(1, cn.Supplier/10)
	lastOrderDay := endDate - 151
	return func(first, n int64, r *rng) []*columnar.Batch {
		o := newChunk(Schemas["orders"], int(n))
		l := newChunk(Schemas["lineitem"], int(7*n))
		rows := 0
		for j := range n {
			ok := orderKey(first + j)
			od := r.between(startDate, lastOrderDay)
			lines := r.between(1, 7)
			var total int64
			var nF, nO int64
			for ln := range lines {
				p := r.between(1, cn.Part)
				q := r.between(1, 50)
				disc := r.between(0, 10)
				tax := r.between(0, 8)
				ship := od + r.between(1, 121)
				commit := od + r.between(30, 90)
				recv := ship + r.between(1, 30)
				ext := q * retailPrice(p)
				l.ints(0)[rows] = ok
				l.ints(1)[rows] = p
				l.ints(2)[rows] = partSupplier(p, r.intn(4), cn.Supplier)
				l.ints(3)[rows] = ln + 1
				l.ints(4)[rows] = q * 100
				l.ints(5)[rows] = ext
				l.ints(6)[rows] = disc
				l.ints(7)[rows] = tax
				switch {
				case recv > currentDate:
					l.strs(8)[rows] = bFlags[2] // N
				case r.intn(2) == 0:
					l.strs(8)[rows] = bFlags[0] // R
				default:
					l.strs(8)[rows] = bFlags[1] // A
				}
				if ship > currentDate {
					l.strs(9)[rows] = bFlags[4] // O
					nO++
				} else {
					l.strs(9)[rows] = bFlags[3] // F
					nF++
				}
				l.ints(10)[rows] = ship
				l.ints(11)[rows] = commit
				l.ints(12)[rows] = recv
				l.strs(13)[rows] = bInstructions[r.intn(int64(len(instructions)))]
				l.strs(14)[rows] = bShipModes[r.intn(int64(len(shipModes)))]
				l.strs(15)[rows] = l.a.add(func(b []byte) []byte { return appendText(b, r, 10, 43) })
				// cents · (100+tax)% · (100−disc)%, rounded half up.
				total += (ext*(100+tax)*(100-disc) + 5000) / 10000
				rows++
			}
			o.ints(0)[j] = ok
			ck := r.intn(placing)
			o.ints(1)[j] = ck/2*3 + ck%2 + 1
			switch {
			case nO == 0:
				o.strs(2)[j] = bFlags[3] // F
			case nF == 0:
				o.strs(2)[j] = bFlags[4] // O
			default:
				o.strs(2)[j] = bFlags[5] // P
			}
			o.ints(3)[j] = total
			o.ints(4)[j] = od
			o.strs(5)[j] = bPriorities[r.intn(int64(len(priorities)))]
			clerk := r.between(1, clerks)
			o.strs(6)[j] = o.a.add(func(b []byte) []byte { return appendPadded(append(b, "Clerk#"...), clerk, 9) })
			o.ints(7)[j] = 0
			o.strs(8)[j] = o.a.add(func(b []byte) []byte { return appendText(b, r, 19, 78) })
		}
		l.b.Len = rows
		return []*columnar.Batch{o.b, l.b}
	}
}
