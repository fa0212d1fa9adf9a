package ctable

import (
	"context"
	"encoding/binary"
	"io"
	"strings"

	"github.com/b2sql/b2sql/storage"
)

// Opening a member of a remote .b2z reads its local header (where its data
// starts: archive/zip's DataOffset), the frame header behind it, and then
// the frame's tail (offsets chunk and trailer, b2.OpenReaderAt): two round
// trips one after the other per member, and a query opens its columns,
// _valid_rows and index sidecars that way. The central directory, already
// fetched with the zip's tail, says where every local header is; with it a
// member's head window and tail window are asked for together before the
// member is located, and its open is one round trip.

// memberWindow is how much of a member's start (local header and frame
// header) and end (offsets chunk and trailer) is fetched ahead of its open;
// a longer tail (a frame of very many chunks) is read by the open itself.
const memberWindow = 64 << 10

// localHeaderSlack covers a local header's name and extra field past its
// fixed 30 bytes, which the central directory does not size.
const localHeaderSlack = 1 << 10

// prefetchMember has a remote zip fetch, in one round of parallel requests,
// the windows the open of the stored member m (named name) reads. A no-op
// for a local zip or an unknown header offset.
func (z *zipStore) prefetchMember(name string, m zipMember) {
	if p, ok := z.file.(storage.Prefetcher); ok {
		// Errors are left to the open, which reads the same bytes again.
		p.Prefetch(context.Background(), z.memberWindows(name, m))
	}
}

// prefetchPrefixed fetches, in one round, the windows of every member not
// located yet whose name starts with one of prefixes (a column's data,
// string blob and NULL mask: "_cols/price."), so that opening them in
// parallel costs one round trip, not one per frame that a column's open
// finds it needs.
func (z *zipStore) prefetchPrefixed(prefixes []string) {
	p, ok := z.file.(storage.Prefetcher)
	if !ok || z.headers == nil {
		return
	}
	var ranges []storage.Range
	z.mu.Lock()
	for name, m := range z.members {
		if m.zf == nil {
			continue // located: its open reads what it read before
		}
		for _, pre := range prefixes {
			if strings.HasPrefix(name, pre) {
				ranges = append(ranges, z.memberWindows(name, m)...)
				break
			}
		}
	}
	z.mu.Unlock()
	if len(ranges) > 0 {
		p.Prefetch(context.Background(), ranges)
	}
}

// memberWindows returns the head and tail windows of member m (named name),
// or none when its local header offset is unknown.
func (z *zipStore) memberWindows(name string, m zipMember) []storage.Range {
	hdr, known := z.headers[name]
	if !known {
		return nil
	}
	data := hdr + 30 + int64(len(name)) // data start, if the local extra field is empty
	head := storage.Range{Off: hdr, Len: min(memberWindow, data+m.size-hdr+localHeaderSlack)}
	tailEnd := data + m.size + localHeaderSlack
	tailOff := max(hdr, tailEnd-memberWindow-localHeaderSlack)
	return []storage.Range{head, {Off: tailOff, Len: tailEnd - tailOff}}
}

// localHeaders returns where each member's local header starts, by name,
// from the central directory of the zip in the size bytes of ra (zip64
// included), or nil when it cannot tell: the offsets only let opens fetch
// ahead, so anything unexpected just leaves them to locate.
func localHeaders(ra io.ReaderAt, size int64) map[string]int64 {
	const eocdLen, maxComment = 22, 65535
	tailLen := min(size, eocdLen+maxComment)
	tail := make([]byte, tailLen)
	if _, err := ra.ReadAt(tail, size-tailLen); err != nil && err != io.EOF {
		return nil
	}
	e := -1
	for i := len(tail) - eocdLen; i >= 0; i-- {
		if binary.LittleEndian.Uint32(tail[i:]) == 0x06054b50 {
			e = i
			break
		}
	}
	if e < 0 {
		return nil
	}
	entries := int64(binary.LittleEndian.Uint16(tail[e+10:]))
	cdSize := int64(binary.LittleEndian.Uint32(tail[e+12:]))
	cdOff := int64(binary.LittleEndian.Uint32(tail[e+16:]))
	if entries == 0xffff || cdSize == 0xffffffff || cdOff == 0xffffffff {
		// zip64: the locator before the end record names the zip64 end record.
		var loc [20]byte
		locAt := size - tailLen + int64(e) - 20
		if locAt < 0 || readFull(ra, loc[:], locAt) != nil || binary.LittleEndian.Uint32(loc[:]) != 0x07064b50 {
			return nil
		}
		var rec [56]byte
		if readFull(ra, rec[:], int64(binary.LittleEndian.Uint64(loc[8:]))) != nil || binary.LittleEndian.Uint32(rec[:]) != 0x06064b50 {
			return nil
		}
		entries = int64(binary.LittleEndian.Uint64(rec[32:]))
		cdSize = int64(binary.LittleEndian.Uint64(rec[40:]))
		cdOff = int64(binary.LittleEndian.Uint64(rec[48:]))
	}
	if cdOff < 0 || cdSize < 0 || cdSize > size || cdOff > size-cdSize || entries > cdSize/46 {
		return nil
	}
	cd := make([]byte, cdSize)
	if readFull(ra, cd, cdOff) != nil {
		return nil
	}
	out := make(map[string]int64, entries)
	for len(cd) >= 46 && binary.LittleEndian.Uint32(cd) == 0x02014b50 {
		nameLen := int(binary.LittleEndian.Uint16(cd[28:]))
		extraLen := int(binary.LittleEndian.Uint16(cd[30:]))
		commentLen := int(binary.LittleEndian.Uint16(cd[32:]))
		if 46+nameLen+extraLen+commentLen > len(cd) {
			return nil
		}
		name := string(cd[46 : 46+nameLen])
		off := int64(binary.LittleEndian.Uint32(cd[42:]))
		if off == 0xffffffff {
			off = zip64Offset(cd, cd[46+nameLen:46+nameLen+extraLen])
		}
		if off >= 0 && off < size {
			out[name] = off
		}
		cd = cd[46+nameLen+extraLen+commentLen:]
	}
	return out
}

// zip64Offset reads the local header offset from the zip64 extra field of
// the central directory entry h: its 8-byte values follow in the order
// uncompressed size, compressed size, offset, each present only where the
// entry's 32-bit field is all ones. -1 when it is not there.
func zip64Offset(h, extra []byte) int64 {
	for len(extra) >= 4 {
		id, n := binary.LittleEndian.Uint16(extra), int(binary.LittleEndian.Uint16(extra[2:]))
		if 4+n > len(extra) {
			return -1
		}
		if id == 0x0001 {
			field := extra[4 : 4+n]
			skip := 0
			if binary.LittleEndian.Uint32(h[24:]) == 0xffffffff {
				skip += 8
			}
			if binary.LittleEndian.Uint32(h[20:]) == 0xffffffff {
				skip += 8
			}
			if len(field) < skip+8 {
				return -1
			}
			return int64(binary.LittleEndian.Uint64(field[skip:]))
		}
		extra = extra[4+n:]
	}
	return -1
}

func readFull(ra io.ReaderAt, buf []byte, off int64) error {
	_, err := ra.ReadAt(buf, off)
	if err == io.EOF {
		return nil // a ReaderAt may report EOF with the last byte read
	}
	return err
}
