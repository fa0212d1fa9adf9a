package columnar

import "testing"

func TestEnumOf(t *testing.T) {
	a := EnumOf("sad", "ok", "it's")
	if b := EnumOf("sad", "ok", "it's"); a != b {
		t.Fatalf("equal ENUMs are not one type: %v, %v", a, b)
	}
	if a == EnumOf("ok", "sad", "it's") {
		t.Fatal("ENUMs with other orders are one type")
	}
	if got, want := a.String(), `ENUM('sad', 'ok', 'it''s')`; got != want {
		t.Fatalf("String() = %s, want %s", got, want)
	}
	if c, ok := a.EnumCode("ok"); !ok || c != 1 {
		t.Fatalf("EnumCode(ok) = %d, %v", c, ok)
	}
	if _, ok := a.EnumCode("happy"); ok {
		t.Fatal("EnumCode(happy) found")
	}
	if got := EnumValue(a, 2).String(); got != "it's" {
		t.Fatalf("value 2 prints %q", got)
	}
	if a.Phys() != PhysInt || a.IsNested() {
		t.Fatalf("ENUM is %v, nested %v", a.Phys(), a.IsNested())
	}
	for _, tc := range []struct {
		n    int
		want Type
	}{{0, TUint8}, {255, TUint8}, {256, TUint16}, {65535, TUint16}, {65536, TUint32}} {
		vals := make([]string, tc.n)
		for i := range vals {
			vals[i] = string(rune('a'+i%26)) + string(rune(0x100+i))
		}
		if got := EnumOf(vals...).EnumCodeType(); got != tc.want {
			t.Errorf("%d values: codes are %s, want %s", tc.n, got, tc.want)
		}
	}
}
