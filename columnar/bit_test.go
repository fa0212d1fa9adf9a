package columnar

import (
	"bytes"
	"testing"
)

// TestBitOrder: the payloads order as DuckDB 1.5.6 orders these BIT
// values (SELECT b FROM (VALUES …) ORDER BY b): by padding first.
func TestBitOrder(t *testing.T) {
	sorted := []string{"00000000", "11111111", "1111111", "001", "01", "10", "0", "000000001", "1"}
	for i := 1; i < len(sorted); i++ {
		a, err1 := ParseBit(sorted[i-1])
		b, err2 := ParseBit(sorted[i])
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if bytes.Compare(a, b) >= 0 {
			t.Errorf("%s does not sort before %s", sorted[i-1], sorted[i])
		}
	}
}

func TestBitText(t *testing.T) {
	for _, s := range []string{"0", "1", "101", "00000000", "111111111", "0110011001100"} {
		b, err := ParseBit(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(AppendBit(nil, b)); got != s || BitLen(b) != len(s) {
			t.Errorf("%s: printed %q, %d bits", s, got, BitLen(b))
		}
	}
	for _, s := range []string{"", "012", " 1", "1 0"} {
		if _, err := ParseBit(s); err == nil {
			t.Errorf("%q read as a BIT", s)
		}
	}
}

// TestBitBytes: the BLOBs and numbers of DuckDB 1.5.6's casts
// ('101'::BIT::BLOB is \x05, '1000000001'::BIT::BLOB \x02\x01, 300::
// USMALLINT::BIT 0000000100101100).
func TestBitBytes(t *testing.T) {
	b, _ := ParseBit("101")
	if got := BitBytes(b); !bytes.Equal(got, []byte{5}) {
		t.Errorf("101: %x", got)
	}
	b, _ = ParseBit("1000000001")
	if got := BitBytes(b); !bytes.Equal(got, []byte{2, 1}) {
		t.Errorf("1000000001: %x", got)
	}
	if hi, lo := BitUint128(b); hi != 0 || lo != 513 {
		t.Errorf("1000000001 = %d:%d", hi, lo)
	}
	if got := string(AppendBit(nil, BitFromUint(300, 16))); got != "0000000100101100" {
		t.Errorf("300: %s", got)
	}
	if got := string(AppendBit(nil, BitFromUint128(0, 1))); len(got) != 128 || got[127] != '1' || got[126] != '0' {
		t.Errorf("1 as 128 bits: %s", got)
	}
}
