package executor

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
)

// The UUID functions, as DuckDB has them: random version 4 and
// time-ordered version 7 UUIDs, and the version and time a UUID carries.
func init() {
	u := param{"uuid", function.UUID}
	function.Register(
		volatile(aka(scalar("uuid", "uuid", "A random (version 4) UUID, new for every row", ex("uuid()"),
			over(columnar.TUuid, stateless(uuidV4Kernel))), "gen_random_uuid", "uuidv4")),
		volatile(scalar("uuid", "uuidv7", "A time-ordered (version 7) UUID, new and increasing for every row", ex("uuidv7()"),
			over(columnar.TUuid, stateless(uuidV7Kernel)))),
		scalar("uuid", "uuid_extract_version", "The version of a UUID (its 4 version bits)", ex("uuid_extract_version(uuidv7())"),
			over(columnar.TUint32, rows(fnUUIDVersion), u)),
		scalar("uuid", "uuid_extract_timestamp", "The time a version 7 UUID was made, to the millisecond", ex("uuid_extract_timestamp(uuidv7())"),
			over(columnar.TTimestampTZ, rows(fnUUIDTimestamp), u)),
	)
}

// uuidV4Kernel is uuid(): 122 random bits, the version and the RFC 9562
// variant.
func uuidV4Kernel(_ []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	buf := make([]byte, columnar.UUIDSize*b.Len)
	b.ForEach(func(i int) {
		u := buf[i*columnar.UUIDSize : (i+1)*columnar.UUIDSize : (i+1)*columnar.UUIDSize]
		binary.BigEndian.PutUint64(u[:8], rand.Uint64())
		binary.BigEndian.PutUint64(u[8:], rand.Uint64())
		u[6] = u[6]&0x0f | 0x40
		u[8] = u[8]&0x3f | 0x80
		out.Bytes[i] = u
	})

	return nil
}

// uuidV7 hands out version 7 UUIDs: 48 bits of Unix milliseconds, then 12
// bits that count up within a millisecond (RFC 9562's method 1), so that
// UUIDs made one after another increase, then 62 random bits.
var uuidV7 struct {
	sync.Mutex
	ms, seq uint64
}

func uuidV7Kernel(_ []*columnar.Vector, b *columnar.Batch, out *columnar.Vector) error {
	buf := make([]byte, columnar.UUIDSize*b.Len)
	uuidV7.Lock()
	defer uuidV7.Unlock()
	b.ForEach(func(i int) {
		ms := uint64(time.Now().UnixMilli())
		if ms <= uuidV7.ms {
			ms = uuidV7.ms
			uuidV7.seq++
			if uuidV7.seq > 0xfff {
				ms++
				uuidV7.seq = 0
			}
		} else {
			uuidV7.seq = rand.Uint64N(0x800)
		}
		uuidV7.ms = ms
		u := buf[i*columnar.UUIDSize : (i+1)*columnar.UUIDSize : (i+1)*columnar.UUIDSize]
		binary.BigEndian.PutUint64(u[:8], ms<<16|0x7000|uuidV7.seq)
		binary.BigEndian.PutUint64(u[8:], rand.Uint64()&(1<<62-1)|1<<63)
		out.Bytes[i] = u
	})

	return nil
}

func fnUUIDVersion(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.IntValue(t, int64(a[0].S[6]>>4)), nil
}

func fnUUIDTimestamp(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	if v := a[0].S[6] >> 4; v != 7 {
		return columnar.Value{}, fmt.Errorf("uuid_extract_timestamp: given UUID is with version %d, not version 7", v)
	}
	ms := int64(binary.BigEndian.Uint64([]byte(a[0].S[:8])) >> 16)
	return columnar.IntValue(t, ms*1000), nil
}
