package filter_test

import (
	"fmt"

	"github.com/b2sql/b2sql/formats/b2/filter"
)

func ExampleBitShuffle() {
	// Eight 1-byte elements form one 8×8 bit matrix: row k collects bit k
	// of every element (element i at bit i of the row byte).
	src := []byte{1, 1, 1, 1, 0, 0, 0, 0xFF}
	dst := make([]byte, len(src))
	if err := filter.BitShuffle(dst, src, 1); err != nil {
		panic(err)
	}
	fmt.Printf("%08b\n", dst)
	// Output: [10001111 10000000 10000000 10000000 10000000 10000000 10000000 10000000]
}

func ExampleDeltaDecode() {
	// Block 0 of a DELTA chunk (uint16 words 5, 5^7, 7^7) decodes by a
	// running XOR; later blocks XOR against the decoded block 0.
	block0 := []byte{5, 0, 2, 0, 0, 0}
	filter.DeltaDecode(block0, block0, nil, 2, true)
	block1 := []byte{1, 0, 1, 0, 1, 0}
	filter.DeltaDecode(block1, block1, block0, 2, false)
	fmt.Println(block0, block1)
	// Output: [5 0 7 0 7 0] [4 0 6 0 6 0]
}
