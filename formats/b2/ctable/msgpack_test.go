package ctable

import (
	"math"
	"testing"
)

func TestMsgpackRoundTrip(t *testing.T) {
	v := mpMap{
		{"a", int64(1)}, {"neg", int64(-200)}, {"big", int64(math.MinInt64)}, {"u", uint64(math.MaxUint64)},
		{"f", 2.5}, {"s", "héllo"}, {"b", []byte{0, 1}}, {"l", []any{nil, true, false, []any{"__tuple__", int64(1)}}},
		{"long", string(make([]byte, 70000))},
	}
	got, err := mpDecode(mpAppend(nil, v))
	if err != nil {
		t.Fatal(err)
	}
	if render(got) != render(v) {
		t.Fatalf("round trip:\n%s\n%s", render(got), render(v))
	}
	if r := render(mpMap{{"t", []any{"__tuple__", int64(1), int64(2)}}, {"nan", math.NaN()}, {"x", 3.0}}); r != `{"t": [1, 2], "nan": NaN, "x": 3.0}` {
		t.Fatalf("render %s", r)
	}
}

func TestMsgpackHostile(t *testing.T) {
	for _, in := range [][]byte{
		{0xdd, 0xff, 0xff, 0xff, 0xff},       // array of 4G elements in 5 bytes
		{0xdf, 0xff, 0xff, 0xff, 0xff},       // same for a map
		{0xdb, 0xff, 0xff, 0xff, 0xff, 0x41}, // str32 longer than the input
		{0xc1},                               // reserved
		{0x91},                               // truncated array
		{0x01, 0x02},                         // trailing bytes
	} {
		if _, err := mpDecode(in); !isCorrupt(err) {
			t.Errorf("% x: err %v", in, err)
		}
	}
	deep := make([]byte, 1000)
	for i := range deep {
		deep[i] = 0x91
	}
	if _, err := mpDecode(deep); !isCorrupt(err) {
		t.Errorf("deep nesting: %v", err)
	}
}
