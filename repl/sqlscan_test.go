package repl

import "testing"

func TestCompleteAndBlank(t *testing.T) {
	cases := []struct {
		text            string
		complete, blank bool
	}{
		{"SELECT 1;", true, false},
		{"SELECT 1; -- done\n", true, false},
		{"SELECT ';'", false, false},
		{"SELECT 1 /* ; */", false, false},
		{"SELECT `a;`;", true, false},
		{"SELECT 'it''s';", true, false},
		{"-- only a comment\n", false, true},
		{"  \n\t", false, true},
		{"/* open", false, false},
	}
	for _, c := range cases {
		if got := Complete(c.text); got != c.complete {
			t.Errorf("Complete(%q) = %v", c.text, got)
		}
		if got := blank(c.text); got != c.blank {
			t.Errorf("blank(%q) = %v", c.text, got)
		}
	}
}
