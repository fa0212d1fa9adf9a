package sql

import "testing"

func TestDidYouMean(t *testing.T) {
	cands := []string{"price", "name", "id", "City"}
	for _, tc := range []struct{ name, want string }{
		{"pricee", ` (did you mean "price"?)`},
		{"nmae", ` (did you mean "name"?)`},
		{"prise", ` (did you mean "price"?)`},
		{"idd", ` (did you mean "id"?)`},
		{"city", ` (did you mean "City"?)`},
		{"x", ""},
		{"zzz", ""},
		{"nombre", ""},
	} {
		if got := didYouMean(tc.name, cands); got != tc.want {
			t.Errorf("didYouMean(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := editDistance("abc", "acb"); got != 1 {
		t.Errorf("transposition distance %d, want 1", got)
	}
	if got := editDistance("kitten", "sitting"); got != 3 {
		t.Errorf("distance %d, want 3", got)
	}
}
