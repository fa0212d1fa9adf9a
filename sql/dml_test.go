package sql

import (
	"errors"
	"strings"
	"testing"

	"github.com/b2sql/b2sql/internal/fuzzguard"
)

// dmlSeeds are statements of every form of the statements that write.
var dmlSeeds = []string{
	"CREATE TABLE t (a INTEGER NOT NULL CHECK (a >= 0 AND a < 10), b VARCHAR(8) USING string, PRIMARY KEY (a)) WITH (FORMAT b2d)",
	"CREATE OR REPLACE TABLE IF NOT EXISTS t (a DECIMAL(10, 2) CHECK (a BETWEEN -1.5 AND 2), CONSTRAINT c CHECK (0 <= a))",
	"CREATE TABLE t WITH (format parquet) AS SELECT 1",
	"INSERT OR REPLACE INTO t (a, b) VALUES (1, 'x'), (?, NULL) WITH (validate = false)",
	"INSERT INTO t SELECT * FROM u WHERE a IN (SELECT a FROM v)",
	"REPLACE INTO t VALUES (1)",
	"DELETE FROM t WHERE a = 1 AND b LIKE 'x%'",
	"UPDATE t SET a = a + 1, b = upper(b) WHERE (a, b) IS NOT NULL",
	"ATTACH DATABASE 'dir' AS d",
	"COPY t FROM 'x.parquet' (validate false)",
}

// FuzzParseDML: Parse never panics on the statements that write, and every error it returns
// is positioned inside the input.
func FuzzParseDML(f *testing.F) {
	for _, s := range dmlSeeds {
		f.Add(s)
	}
	addTestSeeds(f, "../tests/sql/write")
	addTestSeeds(f, "../tests/sql/statement")
	f.Fuzz(func(t *testing.T, text string) {
		g := fuzzguard.Start(t, len(text))
		defer g.Done()
		g.Allow(parseAllocPerByte * len(text))
		_, err := Parse(Source{Text: text, Line: 1, Col: 1})
		var e *Error
		if err != nil && errors.As(err, &e) && !posInside(text, e.Pos) {
			t.Fatalf("%q: error %v outside the input", text, err)
		}
	})
}

// TestParseDMLPrefixes parses every token prefix of the seeds: no panic,
// positioned errors.
func TestParseDMLPrefixes(t *testing.T) {
	for _, s := range dmlSeeds {
		for i := 1; i <= len(s); i++ {
			text := s[:i]
			_, err := Parse(Source{Text: text, Line: 1, Col: 1})
			var e *Error
			if err != nil && errors.As(err, &e) && !posInside(text, e.Pos) {
				t.Errorf("%q: error %v outside the input", text, err)
			}
		}
	}
}

// TestParseDML checks what the statements parse to.
func TestParseDML(t *testing.T) {
	st, err := Parse(Source{Text: dmlSeeds[0], Line: 1, Col: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := st.(*CreateTable)
	if len(c.Cols) != 2 || !c.Cols[0].NotNull || len(c.Cols[0].Checks) != 2 || c.Cols[0].Checks[1].Op != "lt" ||
		c.Cols[1].Length != 8 || c.Cols[1].Flavour != "string" || len(c.Keys) != 1 || c.Options[0].Value != "b2d" {
		t.Errorf("CREATE TABLE: %+v", c)
	}
	st, err = Parse(Source{Text: dmlSeeds[1], Line: 1, Col: 1})
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, ch := range st.(*CreateTable).Cols[0].Checks {
		ops = append(ops, ch.Op+"="+ch.Val.String())
	}
	if got := strings.Join(ops, " "); got != "ge=-1.5 le=2 ge=0" {
		t.Errorf("checks: %s", got)
	}
	st, err = Parse(Source{Text: dmlSeeds[3], Line: 1, Col: 1})
	if err != nil {
		t.Fatal(err)
	}
	ins := st.(*Insert)
	if !ins.Replace || strings.Join(ins.Cols, ",") != "a,b" || NumParams(ins.Query) != 1 || ins.Options[0].Value != "false" {
		t.Errorf("INSERT: %+v", ins)
	}
	st, err = Parse(Source{Text: dmlSeeds[7], Line: 1, Col: 1})
	if err != nil {
		t.Fatal(err)
	}
	if u := st.(*Update); strings.Join(u.Sets, ",") != "a,b" || !u.HasWhere {
		t.Errorf("UPDATE: %+v", u)
	}
}
