package parser

import "testing"

// TestScan: what a text leaves open at its end, where the open part's
// content starts, and the last token before it.
func TestScan(t *testing.T) {
	cases := []struct {
		text string
		open Open
		body int
		last string
		bad  bool
	}{
		{"SELECT 1;", OpenNone, 0, ";", false},
		{"SELECT 'a;", OpenString, 8, "SELECT", false},
		{"SELECT E'a\\';", OpenString, 9, "SELECT", false},
		{"SELECT \"a;", OpenIdent, 8, "SELECT", false},
		{"SELECT $q$ a;", OpenDollar, 10, "SELECT", false},
		{"SELECT $$;", OpenDollar, 9, "SELECT", false},
		{"SELECT 1 /* /* */ ;", OpenBlockComment, 11, "1", false},
		{"SELECT 1; -- x", OpenLineComment, 0, ";", false},
		{"SELECT 1; /* -- */\n", OpenNone, 0, ";", false},
		{"SELECT 1; -- x\n", OpenNone, 0, ";", false},
		{"SELECT \"\";", OpenNone, 0, "SELECT", true},
	}
	for _, c := range cases {
		s := Scan(c.text)
		if s.Open != c.open || s.Open != OpenNone && s.Open != OpenLineComment && s.Body != c.body || s.Bad != c.bad ||
			s.Tokens > 0 && s.Last.Val != c.last {
			t.Errorf("Scan(%q) = %+v, want open %d body %d last %q bad %v", c.text, s, c.open, c.body, c.last, c.bad)
		}
	}
}
