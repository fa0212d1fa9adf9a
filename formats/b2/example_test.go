package b2_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/b2sql/b2sql/formats/b2"
)

func ExampleWriteArray() {
	dir, _ := os.MkdirTemp("", "b2example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "x.b2nd")

	data := make([]byte, 8*1000)
	for i := 0; i < 1000; i++ {
		binary.LittleEndian.PutUint64(data[8*i:], math.Float64bits(float64(i)*1.5))
	}
	if err := b2.WriteArray(path, "<f8", []int64{1000}, data, &b2.ArrayOptions{ChunkShape: []int{400}, BlockShape: []int{100}}); err != nil {
		panic(err)
	}

	a, err := b2.OpenArray(path)
	if err != nil {
		panic(err)
	}
	defer a.Close()
	part, _ := a.Slice([]int64{10}, []int64{13})
	fmt.Println(a.Shape(), a.DType, a.NChunks(), b2.Items[float64](part))
	// Output: [1000] <f8 3 [15 16.5 18]
}

func ExampleArray_Chunks() {
	a, err := b2.OpenArray("testdata/nd_i8_1d.b2nd")
	if err != nil {
		panic(err)
	}
	defer a.Close()
	it := a.Chunks()
	defer it.Close()
	for it.Next() {
		v := b2.Items[int64](it.Bytes())
		fmt.Println(it.Chunk(), it.Start(), it.Len(), v[1])
	}
	if err := it.Err(); err != nil {
		panic(err)
	}
	// Output:
	// 0 0 4000 -123456789
	// 1 4000 4000 -493950612789
	// 2 8000 2000 -987777768789
}

func ExampleGetItems() {
	src, _ := os.ReadFile("testdata/compat_blosc-lz4-3.0.0.cdata")
	dst := make([]byte, 3*4)
	if err := b2.GetItems(dst, src, 500000, 3); err != nil {
		panic(err)
	}
	fmt.Println(b2.Items[int32](dst))
	// Output: [500000 500001 500002]
}
