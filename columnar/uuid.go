package columnar

import "encoding/hex"

// A UUID is held as its 16 bytes in big-endian order. DuckDB keeps a UUID
// in a HUGEINT with the top bit flipped so that UUIDs sort as their text
// does; unsigned big-endian bytes compare the same way, so PhysBytes
// comparison, hashing and sorting need no case of their own.

// UUIDSize is the length of a UUID's payload.
const UUIDSize = 16

// ParseUUID reads DuckDB's UUID text: 32 hex digits in either case, with
// hyphens anywhere and optionally inside braces ('{…}'); false for any
// other text (spaces included, as in DuckDB).
func ParseUUID(s string) ([UUIDSize]byte, bool) {
	var u [UUIDSize]byte
	if len(s) > 0 && s[0] == '{' {
		if s[len(s)-1] != '}' || len(s) < 2 {
			return u, false
		}
		s = s[1 : len(s)-1]
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '-' {
			continue
		}
		d, ok := hexDigit(c)
		if !ok || n == 2*UUIDSize {
			return u, false
		}
		u[n/2] |= d << (4 * (1 - n%2))
		n++
	}
	return u, n == 2*UUIDSize
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// AppendUUID appends the canonical text of a 16-byte UUID payload:
// lower-case hex in groups of 8-4-4-4-12.
func AppendUUID(dst, u []byte) []byte {
	if len(u) != UUIDSize {
		return append(dst, "<bad uuid>"...)
	}
	var buf [36]byte
	hex.Encode(buf[0:8], u[0:4])
	buf[8] = '-'
	hex.Encode(buf[9:13], u[4:6])
	buf[13] = '-'
	hex.Encode(buf[14:18], u[6:8])
	buf[18] = '-'
	hex.Encode(buf[19:23], u[8:10])
	buf[23] = '-'
	hex.Encode(buf[24:36], u[10:16])
	return append(dst, buf[:]...)
}

// UUIDValue returns a UUID value of the 16 bytes u.
func UUIDValue(u [UUIDSize]byte) Value { return Value{Type: TUuid, S: string(u[:])} }
