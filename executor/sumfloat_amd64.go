//go:build !purego

package executor

import "golang.org/x/sys/cpu"

// useAVX is a variable so that tests can compare the Go loop with the
// vector one (sumfloat_amd64.s) on the same input.
var useAVX = cpu.X86.HasAVX

//go:noescape
func twoSum4AVX(xs *float64, groups int, s, c *[4]float64)

// sumDense4Vec adds the longest prefix of xs whose length is a multiple of
// 4 to sumDense4's chains with the vector kernel and returns how many
// values it added (0 where the CPU has no AVX).
func sumDense4Vec(xs []float64, s, c *[4]float64) int {
	if !useAVX || len(xs) < 4 {
		return 0
	}
	g := len(xs) / 4
	twoSum4AVX(&xs[0], g, s, c)
	return 4 * g
}
