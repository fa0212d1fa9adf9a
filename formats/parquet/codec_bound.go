package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
)

// checkDecodedLen refuses a compressed page whose own header says it
// decompresses to more than want bytes, the page header's uncompressed
// size that arrow-go sized dst with. Snappy blocks start with their
// decoded length, and zstd frames usually carry their content size; a
// codec decoding into a dst too small for them allocates what they say,
// whatever the page header says. Codecs without such a length (gzip,
// brotli, LZ4) write into dst and stop at its end.
func checkDecodedLen(kind compress.Compression, src []byte, want int) error {
	switch kind {
	case compress.Codecs.Snappy:
		n, err := s2.DecodedLen(src)
		if err != nil {
			return fmt.Errorf("snappy: %w", err)
		}
		if n > want {
			return fmt.Errorf("snappy block decodes to %d bytes, the page header says %d", n, want)
		}
	case compress.Codecs.Zstd:
		var h zstd.Header
		if h.Decode(src) == nil && h.HasFCS && h.FrameContentSize > uint64(want) {
			return fmt.Errorf("zstd frame decodes to %d bytes, the page header says %d", h.FrameContentSize, want)
		}
	}
	return nil
}
