package blosclz_test

import "math"

func uint64FromFloat(f float64) uint64 { return math.Float64bits(f) }
