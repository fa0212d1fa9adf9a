package demo_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/b2sql/b2sql/demo"
	"github.com/b2sql/b2sql/formats/parquet"
)

func ExampleGenerate() {
	dir, _ := os.MkdirTemp("", "demo")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "events.parquet")
	if err := demo.Generate(path, 1000); err != nil {
		panic(err)
	}
	t, err := parquet.Open(path)
	if err != nil {
		panic(err)
	}
	defer t.Close()
	fmt.Println(t.Name(), t.RowCount())
	for _, f := range t.Schema() {
		fmt.Println(f.Name, f.Type)
	}
	// Output:
	// events 1000
	// id BIGINT
	// ts TIMESTAMP
	// user_id INTEGER
	// region SMALLINT
	// category VARCHAR
	// title VARCHAR
	// price DOUBLE
	// qty INTEGER
	// temperature DOUBLE
	// flag BOOLEAN
}
