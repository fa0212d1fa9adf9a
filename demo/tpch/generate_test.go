package tpch

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/formats/b2/ctable"
	"github.com/b2sql/b2sql/formats/parquet"
)

func TestScale(t *testing.T) {
	for _, tc := range []struct {
		sf   float64
		want Counts
	}{
		{1, Counts{Supplier: 10_000, Customer: 150_000, Part: 200_000, Orders: 1_500_000}},
		{0.01, Counts{Supplier: 100, Customer: 1_500, Part: 2_000, Orders: 15_000}},
		{10, Counts{Supplier: 100_000, Customer: 1_500_000, Part: 2_000_000, Orders: 15_000_000}},
	} {
		if got := Scale(tc.sf); got != tc.want {
			t.Errorf("Scale(%g) = %+v, want %+v", tc.sf, got, tc.want)
		}
	}
}

// collect returns every row of table at sf, values by column name.
func collect(t *testing.T, sf float64, table string) map[string][]columnar.Value {
	t.Helper()
	out := map[string][]columnar.Value{}
	s := Schemas[table]
	err := Stream(sf, table, func(b *columnar.Batch) error {
		for c, f := range s {
			for i := range b.Len {
				out[f.Name] = append(out[f.Name], b.Cols[c].Value(i))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestKeysAndRules(t *testing.T) {
	const sf = 0.01
	cn := Scale(sf)
	orders, lines := collect(t, sf, "orders"), collect(t, sf, "lineitem")
	ps, supp, cust := collect(t, sf, "partsupp"), collect(t, sf, "supplier"), collect(t, sf, "customer")

	if n := len(orders["o_orderkey"]); int64(n) != cn.Orders {
		t.Fatalf("%d orders, want %d", n, cn.Orders)
	}
	if n := len(ps["ps_partkey"]); int64(n) != 4*cn.Part {
		t.Fatalf("%d partsupp rows, want %d", n, 4*cn.Part)
	}
	if n := len(supp["s_suppkey"]); int64(n) != cn.Supplier {
		t.Fatalf("%d suppliers, want %d", n, cn.Supplier)
	}
	// Lines per order are uniform in 1..7: mean 4.
	if n, lo, hi := len(lines["l_orderkey"]), 3.9*float64(cn.Orders), 4.1*float64(cn.Orders); float64(n) < lo || float64(n) > hi {
		t.Errorf("%d lines for %d orders, want about 4 per order", n, cn.Orders)
	}

	type order struct {
		date, total  int64
		status       string
		lines, nextL int64
		nF, nO       int64
		sumCents     float64
	}
	byKey := map[int64]*order{}
	prev := int64(0)
	for i, k := range orders["o_orderkey"] {
		key := k.I
		if key <= prev {
			t.Fatalf("order keys not increasing: %d after %d", key, prev)
		}
		prev = key
		if m := (key - 1) % 32; m >= 8 {
			t.Fatalf("order key %d outside the sparse key space", key)
		}
		ck := orders["o_custkey"][i].I
		if ck < 1 || ck > cn.Customer || ck%3 == 0 {
			t.Fatalf("order %d: customer %d", key, ck)
		}
		d := orders["o_orderdate"][i].I
		if d < day(1992, 1, 1) || d > day(1998, 8, 2) {
			t.Fatalf("order %d: date %d outside 1992-01-01..1998-08-02", key, d)
		}
		byKey[key] = &order{date: d, total: orders["o_totalprice"][i].I, status: orders["o_orderstatus"][i].S, nextL: 1}
	}

	pairs := map[[2]int64]bool{}
	for i := range ps["ps_partkey"] {
		p, s := ps["ps_partkey"][i].I, ps["ps_suppkey"][i].I
		if s < 1 || s > cn.Supplier || p < 1 || p > cn.Part {
			t.Fatalf("partsupp (%d, %d) out of range", p, s)
		}
		if pairs[[2]int64{p, s}] {
			t.Fatalf("partsupp (%d, %d) twice", p, s)
		}
		pairs[[2]int64{p, s}] = true
	}

	cutoff := day(1995, 6, 17)
	for i, k := range lines["l_orderkey"] {
		o := byKey[k.I]
		if o == nil {
			t.Fatalf("line %d: order %d does not exist", i, k.I)
		}
		if ln := lines["l_linenumber"][i].I; ln != o.nextL {
			t.Fatalf("order %d: line number %d, want %d", k.I, ln, o.nextL)
		}
		o.nextL++
		p, s := lines["l_partkey"][i].I, lines["l_suppkey"][i].I
		if !pairs[[2]int64{p, s}] {
			t.Fatalf("line %d: (part %d, supplier %d) not in partsupp", i, p, s)
		}
		q, ext := lines["l_quantity"][i].I, lines["l_extendedprice"][i].I
		// p_retailprice = (90000 + (p/10) mod 20001 + 100·(p mod 1000)) / 100.
		if want := q / 100 * (90000 + (p/10)%20001 + 100*(p%1000)); ext != want {
			t.Fatalf("line %d: extended price %d cents, want %d", i, ext, want)
		}
		disc, tax := lines["l_discount"][i].I, lines["l_tax"][i].I
		if q < 100 || q > 5000 || disc < 0 || disc > 10 || tax < 0 || tax > 8 {
			t.Fatalf("line %d: quantity %d discount %d tax %d (cents) out of range", i, q, disc, tax)
		}
		ship, commit, recv := lines["l_shipdate"][i].I, lines["l_commitdate"][i].I, lines["l_receiptdate"][i].I
		if ship-o.date < 1 || ship-o.date > 121 || commit-o.date < 30 || commit-o.date > 90 || recv-ship < 1 || recv-ship > 30 {
			t.Fatalf("line %d: dates order %d ship %d commit %d receipt %d", i, o.date, ship, commit, recv)
		}
		flag, status := lines["l_returnflag"][i].S, lines["l_linestatus"][i].S
		if (recv > cutoff) != (flag == "N") || (flag != "N" && flag != "R" && flag != "A") {
			t.Fatalf("line %d: return flag %q with receipt %d", i, flag, recv)
		}
		if (ship > cutoff) != (status == "O") || (status != "O" && status != "F") {
			t.Fatalf("line %d: line status %q with ship date %d", i, status, ship)
		}
		if status == "O" {
			o.nO++
		} else {
			o.nF++
		}
		o.lines++
		o.sumCents += float64(ext) * (1 + float64(tax)/100) * (1 - float64(disc)/100)
	}
	for k, o := range byKey {
		if o.lines < 1 || o.lines > 7 {
			t.Fatalf("order %d has %d lines", k, o.lines)
		}
		want := "P"
		if o.nO == 0 {
			want = "F"
		} else if o.nF == 0 {
			want = "O"
		}
		if o.status != want {
			t.Fatalf("order %d: status %q, want %q (%d F, %d O lines)", k, o.status, want, o.nF, o.nO)
		}
		// Each line's charge is rounded to a cent.
		if d := float64(o.total) - o.sumCents; d > float64(o.lines) || d < -float64(o.lines) {
			t.Fatalf("order %d: total %d cents, lines sum to %.2f", k, o.total, o.sumCents)
		}
	}
	for i, nk := range cust["c_nationkey"] {
		if nk.I < 0 || nk.I > 24 {
			t.Fatalf("customer %d: nation %d", i, nk.I)
		}
		if ph := cust["c_phone"][i].S; len(ph) != 15 || ph[:2] != string(rune('0'+(nk.I+10)/10))+string(rune('0'+(nk.I+10)%10)) {
			t.Fatalf("customer %d: phone %q for nation %d", i, ph, nk.I)
		}
	}
}

// TestGenerateFiles writes SF 0.01 as Parquet with 1 and 3 goroutines (and
// a small row group size for one of them): the row counts are the spec's
// and the files are byte-identical whatever the goroutine count.
func TestGenerateFiles(t *testing.T) {
	const sf = 0.01
	a, b := t.TempDir(), t.TempDir()
	if err := Generate(a, sf, Options{Threads: 1}); err != nil {
		t.Fatal(err)
	}
	if err := Generate(b, sf, Options{Threads: 3}); err != nil {
		t.Fatal(err)
	}
	var lines int64
	if err := Stream(sf, "lineitem", func(b *columnar.Batch) error { lines += int64(b.Len); return nil }); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"region": 5, "nation": 25, "supplier": 100, "customer": 1500, "part": 2000,
		"partsupp": 8000, "orders": 15000, "lineitem": lines}
	for _, name := range Tables {
		pa, pb := Path(a, name, Parquet), Path(b, name, Parquet)
		ba, err := os.ReadFile(pa)
		if err != nil {
			t.Fatal(err)
		}
		bb, err := os.ReadFile(pb)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ba, bb) {
			t.Errorf("%s: 1 and 3 goroutines wrote different files (sha256 %x vs %x)", name, sha256.Sum256(ba), sha256.Sum256(bb))
		}
		tab, err := parquet.Open(pa)
		if err != nil {
			t.Fatal(err)
		}
		if got := tab.RowCount(); got != want[name] {
			t.Errorf("%s: %d rows, want %d", name, got, want[name])
		}
		if got, w := len(tab.Schema()), len(Schemas[name]); got != w {
			t.Errorf("%s: %d columns, want %d", name, got, w)
		}
		tab.Close()
	}
}

func TestGenerateB2D(t *testing.T) {
	dir := t.TempDir()
	if err := Generate(dir, 0.01, Options{Format: B2D, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]int64{"nation": 25, "part": 2000, "orders": 15000} {
		tab, err := ctable.Open(Path(dir, name, B2D))
		if err != nil {
			t.Fatal(err)
		}
		if got := tab.RowCount(); got != want {
			t.Errorf("%s.b2d: %d rows, want %d", name, got, want)
		}
		tab.Close()
	}
	if _, err := os.Stat(filepath.Join(dir, "lineitem.b2d")); err != nil {
		t.Error(err)
	}
}

func TestGenerateErrors(t *testing.T) {
	if err := Generate(t.TempDir(), 0, Options{}); err == nil {
		t.Error("SF 0: no error")
	}
	if err := Generate(t.TempDir(), 0.01, Options{Format: "csv"}); err == nil {
		t.Error("format csv: no error")
	}
	if err := Stream(0.01, "nope", func(*columnar.Batch) error { return nil }); err == nil {
		t.Error("unknown table: no error")
	}
}
