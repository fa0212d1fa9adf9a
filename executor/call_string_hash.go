package executor

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/fnv"
	"math"

	"github.com/b2sql/b2sql/columnar"
)

// Digests and hash (registered in func_*.go):
//
//	md5, sha1, sha256 (VARCHAR|BLOB)  VARCHAR  lower-case hex digest of the bytes
//	hash(x, …)                        UBIGINT  equal for equal values; never NULL
//
// The digests md5, sha1 and sha256 compute over a value's bytes.
var (
	digestMD5    = func(b []byte) []byte { s := md5.Sum(b); return s[:] }
	digestSHA1   = func(b []byte) []byte { s := sha1.Sum(b); return s[:] }
	digestSHA256 = func(b []byte) []byte { s := sha256.Sum256(b); return s[:] }
)

func fnDigest(sum func([]byte) []byte) rowFunc {
	return func(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
		return columnar.StringValue(hex.EncodeToString(sum([]byte(a[0].S)))), nil
	}
}

// fnHash hashes a canonical encoding of its arguments with FNV-1a, so the
// value is the same in every run and on every machine: every integer type
// as its int64 value (hash(1) = hash(1::BIGINT), as in DuckDB), floats by
// their bits with -0 and NaN made canonical, strings length-prefixed so
// that ('ab', 'c') and ('a', 'bc') differ, NULL as a tag of its own.
func fnHash(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	h := fnv.New64a()
	var buf [9]byte
	for _, v := range a {
		switch {
		case v.Null:
			buf[0] = 0
			h.Write(buf[:1])
			continue
		case v.Type.Phys() == columnar.PhysFloat:
			f := v.F
			if f == 0 {
				f = 0
			} else if math.IsNaN(f) {
				f = math.NaN()
			}
			buf[0] = 2
			binary.LittleEndian.PutUint64(buf[1:], math.Float64bits(f))
		case v.Type.Phys() == columnar.PhysBytes:
			buf[0] = 3
			binary.LittleEndian.PutUint64(buf[1:], uint64(len(v.S)))
			h.Write(buf[:])
			h.Write([]byte(v.S))
			continue
		default:
			buf[0] = 1
			binary.LittleEndian.PutUint64(buf[1:], uint64(v.I))
		}
		h.Write(buf[:])
	}
	return columnar.UintValue(mix64(h.Sum64())), nil
}

// mix64 is the 64-bit finalizer of MurmurHash3: FNV's low bits alone are
// weak for small integers.
func mix64(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}
