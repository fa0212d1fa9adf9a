package b2

import "math"

// DecompressAll decodes every chunk of the frame into one buffer of
// Header.Nbytes bytes, decompressing chunks in parallel on all cores.
func (f *Frame) DecompressAll() ([]byte, error) {
	n := f.nchunks
	starts := make([]int64, n+1)
	for i := 0; i < n; i++ {
		nb, err := f.ChunkNbytes(i)
		if err != nil {
			return nil, err
		}
		starts[i+1] = starts[i] + int64(nb)
	}
	if starts[n] != f.Header.Nbytes && n > 0 || starts[n] > math.MaxInt {
		return nil, fileError(f.name, corruptf("chunks hold %d bytes, header nbytes is %d", starts[n], f.Header.Nbytes))
	}
	out := make([]byte, starts[n])
	decs := make([]*Decoder, workerCount(n))
	for i := range decs {
		decs[i] = getDecoder()
	}
	defer func() {
		for _, d := range decs {
			putDecoder(d)
		}
	}()
	err := parallelFor(n, func(w, i int) error {
		_, err := f.DecompressChunk(decs[w], out[starts[i]:starts[i+1]], i)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
