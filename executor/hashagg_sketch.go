package executor

import (
	"math"
	"math/bits"
)

// keySketch estimates how many distinct keys were dealt to one partition
// of a PartitionMerge (HyperLogLog with 256 one-byte registers: about 6%
// error, 256 bytes a partition and worker), so that the partition's final
// can size its table once (hashtab.Reserve) instead of doubling it from
// nothing. The dealer has each row's 64-bit key hash already; adding it
// costs a shift, a count of zeros and a byte compare.
type keySketch [256]uint8

// add counts a key whose spread hash (spread) is h: the low 8 bits pick
// the register, the run of zeros above them is the rank. The partition
// was chosen from the high bits, so the two do not overlap but for ranks
// past 50, which no realistic count reaches.
func (k *keySketch) add(h uint64) {
	r := uint8(bits.TrailingZeros64(h>>8|1<<56)) + 1
	if j := h & 255; r > k[j] {
		k[j] = r
	}
}

// merge folds o into k: the sketch of both sets of keys.
func (k *keySketch) merge(o *keySketch) {
	for j, r := range o {
		k[j] = max(k[j], r)
	}
}

// estimate returns the number of distinct keys added, estimated.
func (k *keySketch) estimate() int {
	const m = float64(len(keySketch{}))
	var sum float64
	zeros := 0
	for _, r := range k {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	e := 0.7213 / (1 + 1.079/m) * m * m / sum
	if e <= 2.5*m && zeros > 0 {
		e = m * math.Log(m/float64(zeros)) // linear counting: small sets
	}
	return int(e + 0.5)
}
