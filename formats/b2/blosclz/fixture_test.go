package blosclz_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/b2sql/b2sql/formats/b2/internal/chunktest"
)

// The chunk walker is shared with the other codec/filter tests.
type (
	testChunk  = chunktest.Chunk
	testStream = chunktest.Stream
)

var (
	frameChunk = chunktest.FrameChunk
	parseChunk = chunktest.ParseChunk
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
