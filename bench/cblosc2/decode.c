// decode.c: c-blosc2's side of the decode comparison of issue 19. For each
// codec x filter pipeline x column shape of the table it compresses
// one 2 MiB chunk with c-blosc2 itself (clevel 5, automatic blocksize,
// AUTO_SPLIT: python-blosc2's defaults), writes the chunk to DIR, and times
// c-blosc2's single-threaded decompression of it: the best CPU time of the
// thread over RUNS decodes (CPU time, not elapsed, so that other load on a
// shared machine does not count). The Go side,
// bench/cmd/b2decode, decodes the same chunk files (checking them against the
// DIR/<shape>.raw data written here) and prints both speeds.
//
// Build against a c-blosc2 install outside the repo, e.g.
//   cc -O2 -I$P/include decode.c -L$P/lib -lblosc2 -Wl,-rpath,$P/lib -o decode
// Run: ./decode DIR [RUNS] > DIR/c.tsv
#include <blosc2.h>
#include <blosc2/filters-registry.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NBYTES (2 << 20)

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

// fill writes the column shape named by data: the issue table's price
// (float64, cents), qty (int32 < 1000), region (int16 < 10), id (sorted
// int64).
static int fill(const char *data, uint8_t *buf) {
  if (!strcmp(data, "price_f8")) {
    double *v = (double *)buf;
    for (int i = 0; i < NBYTES / 8; i++) v[i] = (double)(next() % 1000000) / 100.0;
    return 8;
  }
  if (!strcmp(data, "qty_i4")) {
    int32_t *v = (int32_t *)buf;
    for (int i = 0; i < NBYTES / 4; i++) v[i] = (int32_t)(next() % 1000);
    return 4;
  }
  if (!strcmp(data, "region_i2")) {
    int16_t *v = (int16_t *)buf;
    for (int i = 0; i < NBYTES / 2; i++) v[i] = (int16_t)(next() % 10);
    return 2;
  }
  int64_t *v = (int64_t *)buf;
  for (int i = 0; i < NBYTES / 8; i++) v[i] = 1000000 + i;
  return 8;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: decode DIR [RUNS]\n");
    return 2;
  }
  const char *dir = argv[1];
  int runs = argc > 2 ? atoi(argv[2]) : 20;
  const char *datas[] = {"price_f8", "qty_i4", "region_i2", "id_i8"};
  struct { const char *name; int code; } codecs[] = {
      {"blosclz", BLOSC_BLOSCLZ}, {"lz4", BLOSC_LZ4}, {"zstd", BLOSC_ZSTD}, {"zlib", BLOSC_ZLIB}};
  struct { const char *name; uint8_t f[6]; int bytedelta; } filters[] = {
      {"nofilter", {0, 0, 0, 0, 0, 0}, 0},
      {"shuffle", {0, 0, 0, 0, 0, BLOSC_SHUFFLE}, 0},
      {"bitshuffle", {0, 0, 0, 0, 0, BLOSC_BITSHUFFLE}, 0},
      {"delta+shuffle", {0, 0, 0, 0, BLOSC_DELTA, BLOSC_SHUFFLE}, 0},
      {"shuffle+bytedelta", {0, 0, 0, 0, BLOSC_SHUFFLE, BLOSC_FILTER_BYTEDELTA}, 1},
  };
  blosc2_init();
  uint8_t *src = malloc(NBYTES), *dst = malloc(NBYTES);
  uint8_t *chunk = malloc(NBYTES + BLOSC2_MAX_OVERHEAD);
  printf("name\tnbytes\tcbytes\tblocksize\tbest_ns\n");
  for (size_t d = 0; d < sizeof datas / sizeof *datas; d++) {
    rng = 88172645463325252ull;
    int ts = fill(datas[d], src);
    char rawpath[1024];
    snprintf(rawpath, sizeof rawpath, "%s/%s.raw", dir, datas[d]);
    FILE *rf = fopen(rawpath, "wb");
    if (!rf || fwrite(src, 1, NBYTES, rf) != NBYTES || fclose(rf)) {
      perror(rawpath);
      return 1;
    }
    for (size_t c = 0; c < sizeof codecs / sizeof *codecs; c++) {
      for (size_t f = 0; f < sizeof filters / sizeof *filters; f++) {
        blosc2_cparams cp = BLOSC2_CPARAMS_DEFAULTS;
        cp.compcode = codecs[c].code;
        cp.clevel = 5;
        cp.typesize = ts;
        cp.nthreads = 1;
        cp.splitmode = BLOSC_AUTO_SPLIT;
        memcpy(cp.filters, filters[f].f, 6);
        if (filters[f].bytedelta) cp.filters_meta[5] = ts;
        blosc2_context *cctx = blosc2_create_cctx(cp);
        int cb = blosc2_compress_ctx(cctx, src, NBYTES, chunk, NBYTES + BLOSC2_MAX_OVERHEAD);
        blosc2_free_ctx(cctx);
        if (cb <= 0) {
          fprintf(stderr, "compress %s %s %s: %d\n", datas[d], codecs[c].name, filters[f].name, cb);
          return 1;
        }
        char name[256], path[1024];
        snprintf(name, sizeof name, "%s_%s_%s", codecs[c].name, filters[f].name, datas[d]);
        snprintf(path, sizeof path, "%s/%s.chunk", dir, name);
        FILE *fp = fopen(path, "wb");
        if (!fp || fwrite(chunk, 1, cb, fp) != (size_t)cb || fclose(fp)) {
          perror(path);
          return 1;
        }
        blosc2_dparams dp = BLOSC2_DPARAMS_DEFAULTS;
        dp.nthreads = 1;
        blosc2_context *dctx = blosc2_create_dctx(dp);
        double best = 1e9;
        for (int r = 0; r < runs; r++) {
          double t0 = now();
          int n = blosc2_decompress_ctx(dctx, chunk, cb, dst, NBYTES);
          double t = now() - t0;
          if (n != NBYTES || memcmp(src, dst, NBYTES)) {
            fprintf(stderr, "%s: bad round trip\n", name);
            return 1;
          }
          if (t < best) best = t;
        }
        blosc2_free_ctx(dctx);
        int32_t nb, cbytes, bs;
        blosc2_cbuffer_sizes(chunk, &nb, &cbytes, &bs);
        printf("%s\t%d\t%d\t%d\t%.0f\n", name, NBYTES, cb, bs, best * 1e9);
        fflush(stdout);
      }
    }
  }
  blosc2_destroy();
  return 0;
}
