package ctable

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/columnar"
)

// Stage leaves the table as it was and writes the changed version where
// it is told; a second change of the staged version commits over it, and
// PublishStaged puts the staged version in place of the table.
func TestStagePublish(t *testing.T) {
	for _, ext := range []string{".b2d", ".b2z"} {
		t.Run(ext, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "t"+ext)
			if err := CreateEmpty(path, []ColumnDef{{Name: "id", Type: columnar.TInt64}}, CreateOptions{ChunkRows: 4, BlockRows: 2}); err != nil {
				t.Fatal(err)
			}
			types := []columnar.Type{columnar.TInt64}
			commitChange(t, path, nil, valuesBatch(types, [][]columnar.Value{{vi64(1)}, {vi64(2)}}))
			sdir, err := os.MkdirTemp(dir, ".t.tx-")
			if err != nil {
				t.Fatal(err)
			}
			staged := filepath.Join(sdir, "t"+ext)
			c, err := Begin(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.DeleteLive([]bool{true, false}); err != nil {
				t.Fatal(err)
			}
			if err := c.Append(valuesBatch(types, [][]columnar.Value{{vi64(3)}})); err != nil {
				t.Fatal(err)
			}
			if err := c.Stage(staged); err != nil {
				t.Fatal(err)
			}
			if rows, _ := readAll(t, path); rowsText(rows) != "1\n2\n" {
				t.Errorf("table after Stage:\n%swant 1, 2", rowsText(rows))
			}
			if rows, _ := readAll(t, staged); rowsText(rows) != "2\n3\n" {
				t.Errorf("staged version:\n%swant 2, 3", rowsText(rows))
			}
			commitChange(t, staged, nil, valuesBatch(types, [][]columnar.Value{{vi64(4)}}))
			if err := PublishStaged(staged, path); err != nil {
				t.Fatal(err)
			}
			if rows, _ := readAll(t, path); rowsText(rows) != "2\n3\n4\n" {
				t.Errorf("table after PublishStaged:\n%swant 2, 3, 4", rowsText(rows))
			}
			if _, err := os.Stat(staged); !os.IsNotExist(err) {
				t.Errorf("staged version still there after PublishStaged: %v", err)
			}
		})
	}
}

// StageCopy of a Change without changes stages the table as it is; an
// index built on the staged copy leaves the table without one until
// PublishStaged.
func TestStageCopy(t *testing.T) {
	for _, ext := range []string{".b2d", ".b2z"} {
		t.Run(ext, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "t"+ext)
			if err := CreateEmpty(path, []ColumnDef{{Name: "id", Type: columnar.TInt64}}, CreateOptions{ChunkRows: 4, BlockRows: 2}); err != nil {
				t.Fatal(err)
			}
			types := []columnar.Type{columnar.TInt64}
			commitChange(t, path, nil, valuesBatch(types, [][]columnar.Value{{vi64(1)}, {vi64(2)}, {vi64(3)}}))
			commitChange(t, path, []bool{false, true, false}, nil)
			sdir, err := os.MkdirTemp(dir, ".t.tx-")
			if err != nil {
				t.Fatal(err)
			}
			staged := filepath.Join(sdir, "t"+ext)
			c, err := Begin(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.StageCopy(staged); err != nil {
				t.Fatal(err)
			}
			if rows, _ := readAll(t, staged); rowsText(rows) != "1\n3\n" {
				t.Errorf("staged copy:\n%swant 1, 3", rowsText(rows))
			}
			if err := CreateIndex(staged, IndexOptions{Column: "id"}); err != nil {
				t.Fatal(err)
			}
			if _, tb := readAll(t, path); len(tb.Indexes()) != 0 {
				t.Errorf("the table has an index before PublishStaged: %v", tb.Indexes())
			}
			if err := PublishStaged(staged, path); err != nil {
				t.Fatal(err)
			}
			rows, tb := readAll(t, path)
			if rowsText(rows) != "1\n3\n" || len(tb.Indexes()) != 1 {
				t.Errorf("after PublishStaged:\n%s%d indexes; want 1, 3 and one index", rowsText(rows), len(tb.Indexes()))
			}
		})
	}
}
