package executor

import (
	"bytes"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The BIT functions and operators, as DuckDB 1.5.6 has them (the BIT
// layout: columnar/bit.go). Bits are numbered from 0 at the left, as
// their text reads. The BIT overloads of length, bit_length, octet_length
// and bit_count sit in those sets (bitOverloads) where Set.Choose reaches
// them: before an overload whose rule takes any type (bit_length's,
// bit_count's), after a VARCHAR one (length's, octet_length's), which
// stays the one a type no overload takes falls back to (a BLOB's
// octet_length).
func init() {
	bits, i32 := param{"bitstring", function.Bit}, columnar.TInt32
	index := param{"index", function.Int32}
	function.Register(
		scalar("bit", "get_bit", "The bit at index (0 is the leftmost) of the bitstring", ex("get_bit('0110010'::BIT, 2)"),
			over(i32, rows(fnGetBit), bits, index)),
		scalar("bit", "set_bit", "The bitstring with the bit at index (0 is the leftmost) set to new_value (0 or 1)", ex("set_bit('0110010'::BIT, 2, 0)"),
			over(columnar.TBit, rows(fnSetBit), bits, index, param{"new_value", function.Int32})),
		scalar("bit", "bit_position", "The 1-based position of the first occurrence of substring in bitstring, 0 if none", ex("bit_position('010'::BIT, '1110101'::BIT)"),
			over(i32, rows(fnBitPosition), param{"substring", function.Bit}, bits)),
		scalar("bit", "bitstring", "The bitstring padded on the left with 0s to length bits", ex("bitstring('1010', 7)"),
			over(columnar.TBit, rows(fnBitstring), bits, param{"length", function.Int32}),
			over(columnar.TBit, rows(fnBitstring), param{"bitstring", function.Varchar}, param{"length", function.Int32})),
		customBind(scalar("bit", "xor", "The bitwise exclusive or of two integers, or of two bitstrings of one length", ex("xor(5, 3)", "xor('101'::BIT, '001'::BIT)"),
			over(columnar.TBit, rows(fnBitsBinary('^')), bits, param{"bitstring2", function.Bit}),
			sameAs(over(columnar.Type{}, rows(fnXorInt), param{"a", function.Integer}, param{"b", function.Integer}), 1))),
		internal(scalar("bit", "bits_and", "a & b of two bitstrings of one length", nil,
			over(columnar.TBit, rows(fnBitsBinary('&')), bits, param{"bitstring2", function.Bit}))),
		internal(scalar("bit", "bits_or", "a | b of two bitstrings of one length", nil,
			over(columnar.TBit, rows(fnBitsBinary('|')), bits, param{"bitstring2", function.Bit}))),
		internal(scalar("bit", "bits_not", "~a of a bitstring", nil, over(columnar.TBit, rows(fnBitsNot), bits))),
		internal(scalar("bit", "bits_shift_left", "a << n of a bitstring, its length kept", nil,
			over(columnar.TBit, rows(fnBitsShift(true)), bits, param{"n", function.Int32}))),
		internal(scalar("bit", "bits_shift_right", "a >> n of a bitstring, its length kept", nil,
			over(columnar.TBit, rows(fnBitsShift(false)), bits, param{"n", function.Int32}))),
	)
}

// bitOverloads are the BIT overloads of length, bit_length, octet_length
// and bit_count (all BIGINT), for those sets to put first.
func bitOverloads(fn string) function.Overload {
	bits := param{"bitstring", function.Bit}
	switch fn {
	case "octet_length":
		return over(columnar.TInt64, rows(func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
			return columnar.IntValue(t, int64(len(a[0].S)-1)), nil
		}), bits)
	case "bit_count":
		return over(columnar.TInt64, rows(func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
			n := 0
			for i := range columnar.BitLen([]byte(a[0].S)) {
				n += columnar.BitAt([]byte(a[0].S), i)
			}
			return columnar.IntValue(t, int64(n)), nil
		}), bits)
	}
	return over(columnar.TInt64, rows(func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		return columnar.IntValue(t, int64(columnar.BitLen([]byte(a[0].S)))), nil
	}), bits)
}

func bitValue(b []byte) columnar.Value { return columnar.Value{Type: columnar.TBit, S: string(b)} }

// bitIndex checks index i of a BIT of n bits, with DuckDB's error.
func bitIndex(i int64, n int) error {
	if i < 0 || i >= int64(n) {
		return errorf("bit index %d out of valid range (0..%d)", i, n-1)
	}
	return nil
}

func fnGetBit(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	b := []byte(a[0].S)
	if err := bitIndex(a[1].I, columnar.BitLen(b)); err != nil {
		return columnar.Value{}, err
	}
	return columnar.IntValue(t, int64(columnar.BitAt(b, int(a[1].I)))), nil
}

func fnSetBit(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
	b := []byte(a[0].S) // a copy: the value's string is not changed
	if err := bitIndex(a[1].I, columnar.BitLen(b)); err != nil {
		return columnar.Value{}, err
	}
	if v := a[2].I; v != 0 && v != 1 {
		return columnar.Value{}, errorf("the new bit must be 1 or 0")
	}
	columnar.SetBitAt(b, int(a[1].I), int(a[2].I))
	return bitValue(b), nil
}

// fnBitPosition finds the bits of a[0] in a[1], by their text.
func fnBitPosition(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	sub := columnar.AppendBit(nil, []byte(a[0].S))
	in := columnar.AppendBit(nil, []byte(a[1].S))
	return columnar.IntValue(t, int64(bytes.Index(in, sub)+1)), nil
}

// fnBitstring pads a bitstring (or the BIT its text reads as) with 0s
// on the left to a[1] bits.
func fnBitstring(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
	b := []byte(a[0].S)
	if a[0].Type.ID != columnar.Bit {
		var err error
		if b, err = columnar.ParseBit(a[0].S); err != nil {
			return columnar.Value{}, errorf("could not cast %s to BIT: %v", quoteVal(a[0]), err)
		}
	}
	n, have := a[1].I, columnar.BitLen(b)
	if n < int64(have) {
		return columnar.Value{}, errorf("length must be equal or larger than input string")
	}
	out := columnar.NewBit(int(n))
	for i := range have {
		columnar.SetBitAt(out, int(n)-have+i, columnar.BitAt(b, i))
	}
	return bitValue(out), nil
}

// fnBitsBinary is a & b, a | b or xor(a, b) of two BITs of one length.
func fnBitsBinary(op byte) rowFunc {
	name := map[byte]string{'&': "AND", '|': "OR", '^': "XOR"}[op]
	return func(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
		out, err := bitsCombine(op, name, []byte(a[0].S), []byte(a[1].S))
		if err != nil {
			return columnar.Value{}, err
		}
		return bitValue(out), nil
	}
}

// bitsCombine returns x op y, a new BIT; the padding stays set (AND and
// OR keep it, XOR would clear it). name is the operation for the error.
func bitsCombine(op byte, name string, x, y []byte) ([]byte, error) {
	if len(x) != len(y) || x[0] != y[0] {
		return nil, errorf("cannot %s bit strings of different sizes", name)
	}
	out := make([]byte, len(x))
	out[0] = x[0]
	for i := 1; i < len(x); i++ {
		switch op {
		case '&':
			out[i] = x[i] & y[i]
		case '|':
			out[i] = x[i] | y[i]
		default:
			out[i] = x[i] ^ y[i]
		}
	}
	out[1] |= ^byte(0xff >> x[0])
	return out, nil
}

func fnBitsNot(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
	b := []byte(a[0].S)
	for i := 1; i < len(b); i++ {
		b[i] = ^b[i]
	}
	b[1] |= ^byte(0xff >> b[0])
	return bitValue(b), nil
}

// fnBitsShift shifts a BIT by a[1] places, its length kept, 0s shifted
// in. As DuckDB: a negative left shift is an error, a negative right
// shift gives all 0s.
func fnBitsShift(left bool) rowFunc {
	return func(a []columnar.Value, _ columnar.Type) (columnar.Value, error) {
		b, k := []byte(a[0].S), a[1].I
		if left && k < 0 {
			return columnar.Value{}, errorf("cannot left-shift by negative number %d", k)
		}
		n := columnar.BitLen(b)
		out := columnar.NewBit(n)
		if k < 0 || k >= int64(n) {
			return bitValue(out), nil
		}
		for i := range n {
			from := i + int(k)
			if !left {
				from = i - int(k)
			}
			if from >= 0 && from < n {
				columnar.SetBitAt(out, i, columnar.BitAt(b, from))
			}
		}
		return bitValue(out), nil
	}
}

// fnXorInt is xor(a, b) of two integers in their common type.
func fnXorInt(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, a[0].I^a[1].I), nil
}
