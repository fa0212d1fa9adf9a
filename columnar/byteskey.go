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
	k []byte
	p uint64 // k's first 8 bytes, zero-padded, big-endian
}

// NewBytesKey prepares k.
func NewBytesKey(k []byte) BytesKey {
	var pad [8]byte
	copy(pad[:], k)
	return BytesKey{k: k, p: binary.BigEndian.Uint64(pad[:])}
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
