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
		// dollar quotes, nested comments and E'' escapes, as the parser lexes them
		{"SELECT $$a;", false, false},
		{"SELECT $$a;$$", false, false},
		{"SELECT $$a;$$;", true, false},
		{"SELECT $tag$ $$; $tag$;", true, false},
		{"SELECT $tag$ ; $$", false, false},
		{"SELECT 1 /* a /* b */ ; */", false, false},
		{"SELECT 1 /* a /* b */ ; */;", true, false},
		{"/* a /* b */ c */", false, true},
		{"/* a /* b */ ; */ SELECT 1;", true, false},
		{"SELECT E'it\\'s;", false, false},
		{"SELECT E'it\\'s;';", true, false},
		{"SELECT 1; /* open", false, false},
		{"SELECT 1; -- a ; comment", true, false},
		{"SELECT \"\";", true, false}, // does not lex: run, to show the error
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

// TestScriptSplitsAsParser: a script read from a file or a pipe is cut
// into statements where the parser's lexer ends them: a ';' in a dollar
// quote or a nested comment ends nothing, so a line that starts with '.'
// inside them is SQL, not a meta-command.
func TestScriptSplitsAsParser(t *testing.T) {
	r, out, errb := testRunner(eventsDB(t))
	failed := run(t, r, ".headers off\n.mode csv\nSELECT $$a;\n.mode json\n$$ AS x;\n/* c /* d */ ;\n.mode json\n */ SELECT $t$;$t$ AS y;\n")
	if failed != 0 {
		t.Fatalf("%d failures, stderr %q", failed, errb)
	}
	if want := "\"a;\n.mode json\n\"\n;\n"; out.String() != want {
		t.Fatalf("stdout %q, want %q", out, want)
	}
}
