package hashtab

// Seal frees what finding keys takes in m, for a Map whose keys will only
// be read back: afterwards m answers Len, Keys and Bytes, and nothing may
// be assigned or found in it. A GROUP BY emitting its groups needs only
// their keys; the integer Map's direct table and hash table are most of
// what it holds (a partial of TPC-H Q18's GROUP BY l_orderkey: a direct
// table over the 6M order keys, 24 MB, beside 6 MB of keys), and they
// were held while every group was copied out to the exchange. Maps of
// other kinds are left as they are.
func Seal(m Map) {
	if im, ok := m.(*intMap); ok {
		im.seal()
	}
}
