package sql

import "testing"

func TestNullOrder(t *testing.T) {
	for _, tc := range []struct {
		in               string
		want             NullOrder
		ascFirst, dFirst bool
	}{
		{"nulls_last", NullsLast, false, false},
		{"NULLS LAST", NullsLast, false, false},
		{"Nulls_First", NullsFirst, true, true},
		{"sqlite", NullsFirstAscLastDesc, true, false},
		{"mysql", NullsFirstAscLastDesc, true, false},
		{"nulls_first_on_asc_last_on_desc", NullsFirstAscLastDesc, true, false},
		{"postgres", NullsLastAscFirstDesc, false, true},
		{"NULLS_LAST_ON_ASC_FIRST_ON_DESC", NullsLastAscFirstDesc, false, true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			o, ok := ParseNullOrder(tc.in)
			if !ok || o != tc.want {
				t.Fatalf("ParseNullOrder(%q) = %v, %v; want %v", tc.in, o, ok, tc.want)
			}
			if o.First(false) != tc.ascFirst || o.First(true) != tc.dFirst {
				t.Errorf("%v: first asc/desc = %v/%v, want %v/%v", o, o.First(false), o.First(true), tc.ascFirst, tc.dFirst)
			}
		})
	}
	if _, ok := ParseNullOrder("nulls_middle"); ok {
		t.Error("nulls_middle accepted")
	}
	for in, want := range map[string]bool{"asc": false, "ASCENDING": false, "Desc": true, "descending": true} {
		if d, ok := ParseOrder(in); !ok || d != want {
			t.Errorf("ParseOrder(%q) = %v, %v", in, d, ok)
		}
	}
	if _, ok := ParseOrder("up"); ok {
		t.Error("up accepted")
	}
}
