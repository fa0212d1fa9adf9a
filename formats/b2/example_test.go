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

// ExampleCreateArray streams a 3-D array chunk by chunk: only one chunk
// is ever built in memory, and the writer pads the edge chunks.
func ExampleCreateArray() {
	dir, _ := os.MkdirTemp("", "b2example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "cube.b2nd")

	shape := []int64{5, 4, 3}
	w, err := b2.CreateArray(path, "<i4", shape, &b2.ArrayOptions{ChunkShape: []int{2, 4, 2}, BlockShape: []int{1, 2, 2}})
	if err != nil {
		panic(err)
	}
	grid := w.NChunks() // [3 1 2]
	for i := int64(0); i < grid[0]; i++ {
		for k := int64(0); k < grid[2]; k++ {
			// The chunk's logical content, C order: element (x, y, z)
			// holds 100x + 10y + z.
			var chunk []byte
			for x := 2 * i; x < min(2*i+2, shape[0]); x++ {
				for y := int64(0); y < 4; y++ {
					for z := 2 * k; z < min(2*k+2, shape[2]); z++ {
						chunk = binary.LittleEndian.AppendUint32(chunk, uint32(100*x+10*y+z))
					}
				}
			}
			if err := w.WriteChunk([]int64{i, 0, k}, chunk); err != nil {
				panic(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		panic(err)
	}

	a, err := b2.OpenArray(path)
	if err != nil {
		panic(err)
	}
	defer a.Close()
	part, _ := a.Slice([]int64{3, 1, 1}, []int64{5, 2, 3})
	fmt.Println(a.Shape(), a.NChunks(), b2.Items[int32](part))
	// Output: [5 4 3] 6 [311 312 411 412]
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
