package fileset

import (
	"slices"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

func TestPartitions(t *testing.T) {
	for _, tc := range []struct {
		path string
		want []kv
	}{
		{"data/a.parquet", nil},
		{"d/year=2024/month=01/x.csv", []kv{{"year", "2024"}, {"month", "01"}}},
		{`d\k=v\x.csv`, []kv{{"k", "v"}}},
		{"k=1/k=2/x", []kv{{"k", "2"}}},
		{"s=a%2Fb/x", []kv{{"s", "a/b"}}},
		{"=v/x", nil},
		{"k=v.parquet", nil}, // the file name is not a partition
	} {
		if got := partitions(tc.path); !slices.Equal(got, tc.want) {
			t.Errorf("partitions(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

func TestHiveKeys(t *testing.T) {
	same := []string{"a=1/b=2/x", "b=3/a=4/y"}
	if got, _ := hiveKeys(same, HiveAuto); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("keys = %v, want [a b]", got)
	}
	mixed := []string{"a=1/x", "b=1/y"}
	if got, err := hiveKeys(mixed, HiveAuto); got != nil || err != nil {
		t.Errorf("auto on mismatched keys = %v, %v; want none", got, err)
	}
	if _, err := hiveKeys(mixed, HiveOn); err == nil {
		t.Error("hive_partitioning = true on mismatched keys: no error")
	}
	if got, _ := hiveKeys(same, HiveOff); got != nil {
		t.Errorf("off = %v", got)
	}
}

func TestDetectHiveType(t *testing.T) {
	for _, tc := range []struct {
		vals []string
		want columnar.Type
	}{
		{[]string{"1", "-20", "NULL"}, columnar.TInt64},
		{[]string{"1", "1.5"}, columnar.TVarchar},
		{[]string{"2024-01-01", "2024-02-29"}, columnar.TDate},
		{[]string{"2024-01-01", "2024-01-01 10:00:00"}, columnar.TTimestamp},
		{[]string{"2024-02-30"}, columnar.TVarchar},
		{[]string{"x"}, columnar.TVarchar},
		{[]string{" 1"}, columnar.TVarchar},
	} {
		var names []string
		for _, v := range tc.vals {
			names = append(names, "k="+v+"/f")
		}
		if got := detectHiveType(names, "k"); got != tc.want {
			t.Errorf("%q: %s, want %s", tc.vals, got, tc.want)
		}
	}
}

func TestUnionSchema(t *testing.T) {
	f := func(n string, t columnar.Type) columnar.Field { return columnar.Field{Name: n, Type: t} }
	got := unionSchema([]columnar.Schema{
		{f("a", columnar.TInt32), f("b", columnar.TVarchar)},
		{f("A", columnar.TInt64), f("c", columnar.TFloat64)},
		{f("c", columnar.TVarchar), f("b", columnar.TDate)},
	})
	want := []columnar.Type{columnar.TInt64, columnar.TVarchar, columnar.TVarchar}
	if len(got) != 3 || got[0].Name != "a" || got[1].Name != "b" || got[2].Name != "c" {
		t.Fatalf("columns %v", got)
	}
	for i, w := range want {
		if got[i].Type != w {
			t.Errorf("%s: %s, want %s", got[i].Name, got[i].Type, w)
		}
	}
}
