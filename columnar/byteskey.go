package columnar

import (
	"bytes"
	"encoding/binary"
)

// BytesKey is a string constant prepared for comparing many values with
// it in VARCHAR order (bytes.Compare): its first 8 bytes as a big-endian
// number decide most comparisons with one integer test, sparing the
// byte comparison's call. Scans filtering a string column by a constant
// (CTable late materialization, the Parquet row filter) test every row
// this way.
type BytesKey struct {
	k    []byte
	p    uint64 // k's first 8 bytes, zero-padded, big-endian
	mask uint64 // the bits of p that k's bytes fill (k shorter than 8 bytes)
}

// NewBytesKey prepares k.
func NewBytesKey(k []byte) BytesKey {
	var pad [8]byte
	copy(pad[:], k)
	key := BytesKey{k: k, p: binary.BigEndian.Uint64(pad[:])}
	if len(k) < 8 {
		key.mask = ^(^uint64(0) >> (8 * len(k)))
	}
	return key
}

// IsPrefixOf reports whether s starts with k: for k shorter than 8 bytes
// and s of 8 or more, one masked integer comparison.
func (k *BytesKey) IsPrefixOf(s []byte) bool {
	if k.mask != 0 && len(s) >= 8 {
		return binary.BigEndian.Uint64(s)&k.mask == k.p
	}
	return bytes.HasPrefix(s, k.k)
}

// PrefixSuccessor returns the least string above every string that
// starts with p: p with its last byte below 0xFF incremented and the
// bytes after it dropped; false when p has no such byte (every string
// starting with p is then above the others). In VARCHAR order the
// strings starting with p are exactly those in [p, PrefixSuccessor(p)).
func PrefixSuccessor(p []byte) ([]byte, bool) {
	up := bytes.Clone(p)
	for len(up) > 0 && up[len(up)-1] == 0xFF {
		up = up[:len(up)-1]
	}
	if len(up) == 0 {
		return nil, false
	}
	up[len(up)-1]++
	return up, true
}

// Compare returns bytes.Compare(s, k). A value of 8 bytes or more whose
// first 8 differ from k's (zero-padded) is ordered by them: zeros pad k,
// so the first difference lies within k's own bytes and orders the
// strings as it orders the numbers.
func (k *BytesKey) Compare(s []byte) int {
	if len(s) >= 8 {
		if sp := binary.BigEndian.Uint64(s); sp != k.p {
			if sp < k.p {
				return -1
			}
			return 1
		}
	}
	return bytes.Compare(s, k.k)
}
