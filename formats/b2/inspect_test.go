package b2

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestInspectGolden(t *testing.T) {
	for _, name := range []string{"sc_special_chunks_f64.b2frame", "nd_i32_2d_edges_zstd.b2nd",
		"sc_sparse_zstd_i32.b2frame", "sc_vlblocks_lz4.b2frame", "sc_zstd_dict_i64.b2frame",
		"nd_zeros_f4_2d.b2nd", "compat_blosc-1.3.0-blosclz.cdata"} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Inspect(&buf, filepath.Join("testdata", name)); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "inspect", strings.TrimSuffix(name, filepath.Ext(name))+".txt")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("inspect output differs from %s:\n%s", golden, buf.String())
			}
		})
	}
}
