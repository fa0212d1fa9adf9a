package b2

import "encoding/binary"

// NDLZ (compcode 32) is c-blosc2's plugin codec for 2-D b2nd arrays of
// one-byte items. A block's stream starts with ndim (always 2) and the
// block shape as two little-endian int32; then comes one token per cell of
// cell×cell items (cell = the compcode meta, 4 or 8), cells in row-major
// order, the cells on the far edges cut to the block. A token says how
// the cell's rows are rebuilt: from literal bytes, a copy of bytes earlier
// in the stream (by a 16-bit backward offset from the token), or one
// repeated byte. Rows matched from earlier bytes are assembled in a full
// cell×cell buffer and then, as in c-blosc2, read back cut to the edge
// cell's width row after row.
const codecNDLZ = 32

// Tokens shared by both cell sizes.
const (
	ndlzLiteral   = 0x00 // cell's items follow, cut to the edge
	ndlzSameByte  = 0x40 // one byte fills the cell
	ndlzCellMatch = 0xC0 // the cell's (cut) bytes at an earlier offset
)

// ndlzDecode decodes one NDLZ stream src into dst, which must be exactly
// the block (its product of the block shape). Every back reference and
// literal run is bounds-checked against src, so a hostile stream reads
// nothing outside it and allocates nothing.
func ndlzDecode(dst, src []byte, cell int) error {
	if cell != 4 && cell != 8 {
		return unsupportedf("NDLZ cell size %d (c-blosc2 has 4 and 8)", cell)
	}
	if len(src) < 9 {
		return corruptf("NDLZ stream of %d bytes, shorter than its header", len(src))
	}
	if src[0] != 2 {
		return corruptf("NDLZ stream for %d dimensions (the codec is 2-D)", src[0])
	}
	b0 := int64(int32(binary.LittleEndian.Uint32(src[1:])))
	b1 := int64(int32(binary.LittleEndian.Uint32(src[5:])))
	if b0 <= 0 || b1 <= 0 || b0*b1 != int64(len(dst)) {
		return corruptf("NDLZ block shape %d×%d for a block of %d bytes", b0, b1, len(dst))
	}
	rows, cols := int(b0), int(b1)
	var local, same [64]byte
	p := 9
	grid0, grid1 := (rows+cell-1)/cell, (cols+cell-1)/cell
	for c0 := range grid0 {
		pad0 := cell
		if c0 == grid0-1 && rows%cell != 0 {
			pad0 = rows % cell
		}
		for c1 := range grid1 {
			pad1 := cell
			if c1 == grid1-1 && cols%cell != 0 {
				pad1 = cols % cell
			}
			if p >= len(src) {
				return corruptf("NDLZ cell (%d, %d): stream ends before its token", c0, c1)
			}
			at, token := p, src[p]
			p++
			var buf []byte
			switch token {
			case ndlzLiteral:
				n := pad0 * pad1
				if p+n > len(src) {
					return corruptf("NDLZ cell (%d, %d): %d literal bytes past the end", c0, c1, n)
				}
				buf, p = src[p:p+n], p+n
			case ndlzCellMatch:
				ref, err := ndlzRef(src, at, pad0*pad1)
				if err != nil {
					return corruptf("NDLZ cell (%d, %d): %v", c0, c1, err)
				}
				buf, p = ref, p+2
			case ndlzSameByte:
				if p >= len(src) {
					return corruptf("NDLZ cell (%d, %d): repeated byte past the end", c0, c1)
				}
				fillByte(same[:], src[p])
				buf, p = same[:], p+1
			default:
				var err error
				if cell == 4 {
					p, err = ndlz4Rows(local[:16], src, at, token)
				} else {
					p, err = ndlz8Rows(local[:], src, at, token)
				}
				if err != nil {
					return corruptf("NDLZ cell (%d, %d): %v", c0, c1, err)
				}
				buf = local[:]
			}
			orig := c0*cell*cols + c1*cell
			for r := range pad0 {
				copy(dst[orig+r*cols:orig+r*cols+pad1], buf[r*pad1:(r+1)*pad1])
			}
		}
	}
	return nil
}

// ndlzRef returns the n bytes that the 16-bit offset stored right after
// the token at src[at] points to: that many bytes before the token.
func ndlzRef(src []byte, at, n int) ([]byte, error) {
	if at+3 > len(src) {
		return nil, corruptf("offset past the end")
	}
	pos := at - int(binary.LittleEndian.Uint16(src[at+1:]))
	if pos < 0 || pos+n > len(src) {
		return nil, corruptf("back reference to [%d, %d) outside the stream", pos, pos+n)
	}
	return src[pos : pos+n], nil
}

// ndlz4Rows assembles a 4×4 cell whose token matches some rows earlier in
// the stream (4 bytes per row); the other rows follow as literals. It
// returns where the next token starts.
func ndlz4Rows(cellBuf, src []byte, at int, token byte) (int, error) {
	switch {
	case token >= 224: // three rows from one offset, the fourth literal
		var r [3]int
		switch t := token >> 3; {
		case t == 28:
			r = [3]int{1, 2, 3}
		case t < 30:
			r = [3]int{0, 1, 2}
		case t == 30:
			r = [3]int{0, 1, 3}
		default:
			r = [3]int{0, 2, 3}
		}
		ref, err := ndlzRef(src, at, 12)
		if err != nil {
			return 0, err
		}
		for k, row := range r {
			copy(cellBuf[row*4:row*4+4], ref[k*4:])
		}
		p := at + 3
		for row := range 4 {
			if row != r[0] && row != r[1] && row != r[2] {
				if p+4 > len(src) {
					return 0, corruptf("literal row past the end")
				}
				copy(cellBuf[row*4:row*4+4], src[p:])
				return p + 4, nil
			}
		}
		return p, nil
	case token >= 128 && token <= 191: // two rows from one offset
		i, j := 2, 3
		if token != 128 {
			i = int(token-128) >> 5
			j = int(token-128)>>3 - i<<2
		}
		ref, err := ndlzRef(src, at, 8)
		if err != nil {
			return 0, err
		}
		copy(cellBuf[i*4:i*4+4], ref[0:4])
		copy(cellBuf[j*4:j*4+4], ref[4:8])
		p := at + 3
		for row := range 4 {
			if row != i && row != j {
				if p+4 > len(src) {
					return 0, corruptf("literal row past the end")
				}
				copy(cellBuf[row*4:row*4+4], src[p:])
				p += 4
			}
		}
		return p, nil
	case token >= 40 && token <= 63: // rows 0 and j from one offset, the others from a second
		j := int(token-32) >> 3
		var rest [2]int // rows 1..3 other than j, in order
		k := 0
		for row := 1; row < 4; row++ {
			if row != j {
				rest[k] = row
				k++
			}
		}
		if at+5 > len(src) {
			return 0, corruptf("offsets past the end")
		}
		ref1, err := ndlzRef(src, at, 8)
		if err != nil {
			return 0, err
		}
		pos2 := at - int(binary.LittleEndian.Uint16(src[at+3:]))
		if pos2 < 0 || pos2+8 > len(src) {
			return 0, corruptf("back reference to [%d, %d) outside the stream", pos2, pos2+8)
		}
		copy(cellBuf[0:4], ref1[0:4])
		copy(cellBuf[j*4:j*4+4], ref1[4:8])
		copy(cellBuf[rest[0]*4:rest[0]*4+4], src[pos2:pos2+4])
		copy(cellBuf[rest[1]*4:rest[1]*4+4], src[pos2+4:pos2+8])
		return at + 5, nil
	}
	return 0, corruptf("invalid token %d", token)
}

// ndlz8Rows is ndlz4Rows for 8×8 cells: a token 168–175 matches three
// consecutive rows starting at row token&7, 136–143 two; the other rows
// follow as 8-byte literals.
func ndlz8Rows(cellBuf, src []byte, at int, token byte) (int, error) {
	var n int
	switch token >> 3 {
	case 21:
		n = 3
	case 17:
		n = 2
	default:
		return 0, corruptf("invalid token %d", token)
	}
	row := int(token & 7)
	if row+n > 8 {
		return 0, corruptf("token %d matches rows past the cell", token)
	}
	ref, err := ndlzRef(src, at, n*8)
	if err != nil {
		return 0, err
	}
	copy(cellBuf[row*8:(row+n)*8], ref)
	p := at + 3
	for l := range 8 {
		if l < row || l >= row+n {
			if p+8 > len(src) {
				return 0, corruptf("literal row past the end")
			}
			copy(cellBuf[l*8:l*8+8], src[p:])
			p += 8
		}
	}
	return p, nil
}
