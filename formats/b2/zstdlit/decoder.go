package zstdlit

const (
	magic        = 0xFD2FB528
	maxTableLog  = 11  // Huffman codes are at most 11 bits
	maxWeightLog = 6   // accuracy of the FSE table of Huffman weights
	maxWeights   = 255 // weights sent for at most 256 symbols: the last is implied
)

// Decoder holds the tables one frame builds, reused by the next. The zero
// value is ready; a Decoder is for one goroutine at a time.
type Decoder struct {
	weights [maxWeights + 2]byte
	norm    [16]int16
	fse     [1 << maxWeightLog]fseEntry
	huf     [1 << maxTableLog]uint16 // symbol<<8 | code length
}

type fseEntry struct {
	symbol   uint8
	nbBits   uint8
	baseline uint16
}
