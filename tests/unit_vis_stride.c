/*
 * unit_vis_stride.c -- the Strided VIS stride optimizer and walker
 * (common/vis_stride.h) against a naive walk of the raw description.
 *
 * The invariant under test: whatever subset of the four transformations
 * runs, and whichever end is the peer, the shape moves exactly the
 * (source byte, destination byte) pairs the client described.  The naive
 * walk (written here, sharing nothing with the module) computes each
 * chunk's offsets from its index; both walks write a map "destination
 * byte -> source offset", every destination byte at most once, and the
 * maps must agree (where offsets are too far apart for a map: the sorted
 * lists of pairs).  Plus what each pass promises (no extent 1 left; the
 * peer's strides non-negative, non-decreasing; no fold left undone), that
 * fragments of any byte size walk the whole walk, and how far a layout
 * must fold: a 1-d strided pattern described in 3, 8 or 32 dimensions,
 * transposed and reflected, to 1 dimension; a dense block to one chunk.
 *
 * Random cases: RAND_DESCS descriptions (up to 32 dimensions; extents
 * including 1 and 0; destinations dense sub-blocks of a larger array in a
 * random dimension order with reflections -- never overlapping; sources
 * the same layout, another one, random strides or some strides 0), each
 * under all 16 subsets for both peers.  Description i is drawn from
 * (seed, i) alone: a failure names it and repeats with --seed.
 *
 *   unit_vis_stride [--seed N] [--quick] [--case SUBSTRING]
 *
 * One line per case, "PASS name ..." or "FAIL name: why"; exit 1 on any FAIL.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 too */
#define UNIT_PROG "unit_vis_stride"

#include <stddef.h>
#include <stdint.h>

#include "unit_harness.h"
#include "vis_stride.h"

#define MAXD 1024             /* dimensions of a description here */
#define RAND_DIMS 32          /* the random descriptions' most */
#define RAND_CHUNKS 1024      /* ... chunks */
#define RAND_EXTENT 8192      /* ... product of the array extents around them */
#define RAND_DESCS 4000
#define BATCHES 8
#define MAP_MAX ((size_t)1 << 22) /* widest destination range checked by a map */

typedef struct desc {
  size_t elemsz, n;
  size_t count[MAXD];
  ptrdiff_t src[MAXD], dst[MAXD];
} desc_t;

static const stp_vis_end_t ends[2] = {STP_VIS_END_DST, STP_VIS_END_SRC};

static const char *end_name(stp_vis_end_t e) { return e == STP_VIS_END_SRC ? "src" : "dst"; }

static const char *opts_name(unsigned opts) {
  static const char *names[16] = {
      "none",           "null",           "invert",           "null+invert",           "sort",
      "null+sort",      "invert+sort",    "null+invert+sort", "fold",                  "null+fold",
      "invert+fold",    "null+invert+fold", "sort+fold",      "null+sort+fold",        "invert+sort+fold",
      "all"};
  return names[opts & 15];
}

/* ------------------------------------------------------------------ */
/* printing, for failure messages                                      */
/* ------------------------------------------------------------------ */
/* Dimension k of n into buf at *at; the first 12 only. */
static void put_dim(char *buf, size_t len, size_t *at, size_t k, size_t n, size_t count, ptrdiff_t s, ptrdiff_t t) {
  if (*at + 48 >= len || k > 12) return;
  if (k == 12 && n > 13) *at += (size_t)snprintf(buf + *at, len - *at, " ... (%zu dims)", n);
  else *at += (size_t)snprintf(buf + *at, len - *at, " %zux(%td,%td)", count, s, t);
}

static const char *desc_str(const desc_t *D) {
  static char buf[700];
  size_t at = (size_t)snprintf(buf, sizeof buf, "elemsz %zu, count x (src, dst):", D->elemsz);
  for (size_t k = 0; k < D->n; k++) put_dim(buf, sizeof buf, &at, k, D->n, D->count[k], D->src[k], D->dst[k]);
  return buf;
}

static const char *shape_str(const stp_vis_shape_t *sh) {
  static char buf[700];
  size_t at = (size_t)snprintf(buf, sizeof buf, "%selemsz %zu, off (%td, %td), %zu chunks:", sh->empty ? "empty, " : "",
                               sh->elemsz, sh->srcoff, sh->dstoff, sh->nchunks);
  for (size_t k = 0; k < sh->ndims; k++)
    put_dim(buf, sizeof buf, &at, k, sh->ndims, sh->dim[k].count, sh->dim[k].src, sh->dim[k].dst);
  return buf;
}

/* ------------------------------------------------------------------ */
/* walks into sinks                                                    */
/* ------------------------------------------------------------------ */
typedef void chunk_fn(void *arg, uint64_t src, uint64_t dst, size_t len);

/* The raw description, chunk k's offsets from k's digits (no state kept
 * between chunks), offsets modulo 2^64.  The total must fit size_t. */
static void naive_walk(const desc_t *D, chunk_fn *fn, void *arg) {
  size_t total = 1;
  if (!D->elemsz) return;
  for (size_t d = 0; d < D->n; d++) total *= D->count[d];
  for (size_t k = 0; k < total; k++) {
    uint64_t s = 0, t = 0;
    size_t q = k;
    for (size_t d = 0; d < D->n; d++) {
      size_t i = q % D->count[d];
      q /= D->count[d];
      s += (uint64_t)i * (uint64_t)D->src[d];
      t += (uint64_t)i * (uint64_t)D->dst[d];
    }
    fn(arg, s, t, D->elemsz);
  }
}

static int shape_walk(const stp_vis_shape_t *sh, size_t first, size_t n, chunk_fn *fn, void *arg) {
  stp_vis_iter_t it;
  stp_vis_chunk_t c;
  if (stp_vis_iter_init(&it, sh, first, n) != STP_VIS_OK) return -1;
  while (stp_vis_iter_next(&it, &c)) fn(arg, (uint64_t)c.src, (uint64_t)c.dst, c.len);
  stp_vis_iter_fini(&it);
  return 0;
}

/* Where a walk's bytes go: a log of (src, dst) per byte, in walk order,
 * and when span > 0 a map (destination byte - lo -> source offset), each
 * byte written once.  hit[] is all 0 between walks (sink_reset clears
 * what the last walk set, through its log). */
typedef struct sink {
  uint64_t lo;
  size_t span, mapcap;
  uint64_t *map;
  uint8_t *hit;
  uint64_t *ls, *ld;
  size_t n, cap;
  size_t bytes;
  char err[256];
} sink_t;

static void sink_chunk(void *arg, uint64_t s, uint64_t d, size_t len) {
  sink_t *k = arg;
  if (k->n + len > k->cap) {
    k->cap = (k->n + len) * 2;
    k->ls = xrealloc(k->ls, k->cap * sizeof(*k->ls));
    k->ld = xrealloc(k->ld, k->cap * sizeof(*k->ld));
  }
  for (size_t b = 0; b < len; b++) {
    uint64_t p = d + b - k->lo;
    k->ls[k->n] = s + b;
    k->ld[k->n++] = d + b;
    if (!k->span) continue;
    if (p >= k->span) {
      if (!k->err[0]) snprintf(k->err, sizeof k->err, "dst byte %" PRId64 " outside the described range", (int64_t)(d + b));
      continue;
    }
    if (k->hit[p] && !k->err[0]) snprintf(k->err, sizeof k->err, "dst byte %" PRId64 " written twice", (int64_t)(d + b));
    k->hit[p] = 1;
    k->map[p] = s + b;
  }
  k->bytes += len;
}

static void sink_reset(sink_t *k, size_t span, uint64_t lo) {
  for (size_t i = 0; k->span && i < k->n; i++)
    if (k->ld[i] - k->lo < k->span) k->hit[k->ld[i] - k->lo] = 0;
  if (span > k->mapcap) {
    k->map = xrealloc(k->map, span * sizeof(*k->map));
    k->hit = xrealloc(k->hit, span);
    memset(k->hit + k->mapcap, 0, span - k->mapcap);
    k->mapcap = span;
  }
  k->span = span;
  k->lo = lo;
  k->n = k->bytes = 0;
  k->err[0] = 0;
}

static void sink_free(sink_t *k) {
  free(k->map), free(k->hit), free(k->ls), free(k->ld);
  memset(k, 0, sizeof(*k));
}

static int cmp_pair(const void *a, const void *b) {
  const uint64_t *x = a, *y = b;
  if (x[1] != y[1]) return x[1] < y[1] ? -1 : 1;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

/* The log as sorted (src, dst) pairs: pairs[2i], pairs[2i+1]. */
static uint64_t *sorted_pairs(const sink_t *k) {
  uint64_t *p = xcalloc(2 * k->n + 2, sizeof(*p));
  for (size_t i = 0; i < k->n; i++) {
    p[2 * i] = k->ls[i];
    p[2 * i + 1] = k->ld[i];
  }
  qsort(p, k->n, 2 * sizeof(*p), cmp_pair);
  return p;
}

/* The naive walk of the current description, and a shape's walk. */
static sink_t ref, got;

/* Walk D naively into ref: with a map when its destination range is
 * narrow enough (else the pairs are compared sorted).  0, or -1 having
 * failed the case (the generator's fault: it promised distinct
 * destination bytes). */
static int ref_build(const desc_t *D, const char *ctx) {
  uint64_t lo = 0, hi = 0;
  int mapped = 1;
  for (size_t d = 0; d < D->n; d++) {
    if (D->count[d] < 2) continue;
    if (D->dst[d] > ((ptrdiff_t)1 << 40) || D->dst[d] < -((ptrdiff_t)1 << 40) || D->count[d] > ((size_t)1 << 20))
      mapped = 0;
    else if (D->dst[d] < 0) lo += (uint64_t)D->dst[d] * (D->count[d] - 1);
    else hi += (uint64_t)D->dst[d] * (D->count[d] - 1);
  }
  hi += D->elemsz;
  if (mapped && hi - lo > MAP_MAX) mapped = 0;
  sink_reset(&ref, mapped ? (size_t)(hi - lo) : 0, lo);
  naive_walk(D, sink_chunk, &ref);
  if (ref.err[0]) {
    EXPECT(0, "%s: the generator's description writes twice: %s (%s)", ctx, ref.err, desc_str(D));
    return -1;
  }
  return 0;
}

/* Walk sh into got and compare with ref.  0, or -1 having failed. */
static int ref_compare(const stp_vis_shape_t *sh, const desc_t *D, const char *ctx) {
  char msg[300] = "";
  sink_reset(&got, ref.span, ref.lo);
  if (shape_walk(sh, 0, SIZE_MAX, sink_chunk, &got)) snprintf(msg, sizeof msg, "stp_vis_iter_init failed");
  else if (got.err[0]) snprintf(msg, sizeof msg, "%s", got.err);
  else if (got.bytes != ref.bytes) snprintf(msg, sizeof msg, "walked %zu bytes, naive %zu", got.bytes, ref.bytes);
  else if (ref.span) {
    /* as many bytes, none twice, none outside: the same set if ref's are all there */
    for (size_t i = 0; i < ref.n && !msg[0]; i++) {
      uint64_t p = ref.ld[i] - ref.lo;
      if (!got.hit[p]) snprintf(msg, sizeof msg, "dst byte %" PRId64 " not written", (int64_t)ref.ld[i]);
      else if (got.map[p] != ref.ls[i])
        snprintf(msg, sizeof msg, "dst byte %" PRId64 " from src %" PRId64 ", naive src %" PRId64, (int64_t)ref.ld[i],
                 (int64_t)got.map[p], (int64_t)ref.ls[i]);
    }
  } else {
    uint64_t *a = sorted_pairs(&ref), *b = sorted_pairs(&got);
    for (size_t i = 0; i < ref.n && !msg[0]; i++)
      if (a[2 * i] != b[2 * i] || a[2 * i + 1] != b[2 * i + 1])
        snprintf(msg, sizeof msg,
                 "pair %zu (sorted by dst): (%" PRId64 ", %" PRId64 "), naive (%" PRId64 ", %" PRId64 ")", i,
                 (int64_t)b[2 * i], (int64_t)b[2 * i + 1], (int64_t)a[2 * i], (int64_t)a[2 * i + 1]);
    free(a);
    free(b);
  }
  if (!msg[0]) return 0;
  EXPECT(0, "%s: %s; described %s; shape %s", ctx, msg, desc_str(D), shape_str(sh));
  return -1;
}

/* ------------------------------------------------------------------ */
/* what each pass promises                                             */
/* ------------------------------------------------------------------ */
static ptrdiff_t peer_stride(const stp_vis_dim_t *d, stp_vis_end_t e) { return e == STP_VIS_END_SRC ? d->src : d->dst; }
static ptrdiff_t other_stride(const stp_vis_dim_t *d, stp_vis_end_t e) { return e == STP_VIS_END_SRC ? d->dst : d->src; }

/* Does b continue a on both ends (the module's fold condition, here again)? */
static int continues(const stp_vis_dim_t *a, const stp_vis_dim_t *b) {
  ptrdiff_t s, t;
  size_t c;
  return !__builtin_mul_overflow(a->src, a->count, &s) && s == b->src && !__builtin_mul_overflow(a->dst, a->count, &t) &&
         t == b->dst && !__builtin_mul_overflow(a->count, b->count, &c);
}

/* The overflow case's inversions may be refused. */
static int lax_invert;

/* 0, or -1 having failed. */
static int check_passes(const stp_vis_shape_t *sh, const desc_t *D, unsigned opts, stp_vis_end_t peer,
                        const char *ctx) {
  char msg[200] = "";
  const stp_vis_dim_t *d = sh->dim;
  if (sh->nbytes != ref.bytes || sh->empty != !ref.bytes)
    snprintf(msg, sizeof msg, "nbytes %zu empty %d, naive %zu bytes", sh->nbytes, sh->empty, ref.bytes);
  else if (!sh->empty && sh->nchunks * sh->elemsz != sh->nbytes)
    snprintf(msg, sizeof msg, "nchunks %zu x elemsz %zu != nbytes", sh->nchunks, sh->elemsz);
  else if (sh->ndims > D->n) snprintf(msg, sizeof msg, "%zu dims, described %zu", sh->ndims, D->n);
  else if (!opts && !sh->empty && (sh->ndims != D->n || sh->srcoff || sh->dstoff))
    snprintf(msg, sizeof msg, "no transformation asked, yet the shape differs");
  for (size_t k = 0; k < sh->ndims && !msg[0]; k++) {
    if ((opts & STP_VIS_OPT_NULLDIM) && d[k].count == 1)
      snprintf(msg, sizeof msg, "null removal: dim %zu has extent 1", k);
    else if ((opts & STP_VIS_OPT_INVERT) && !lax_invert &&
             (peer_stride(&d[k], peer) < 0 || (!peer_stride(&d[k], peer) && other_stride(&d[k], peer) < 0)))
      snprintf(msg, sizeof msg, "inversion: dim %zu's strides (%td, %td)", k, d[k].src, d[k].dst);
    else if ((opts & STP_VIS_OPT_SORT) && k && peer_stride(&d[k], peer) < peer_stride(&d[k - 1], peer))
      snprintf(msg, sizeof msg, "sort: peer strides %td then %td", peer_stride(&d[k - 1], peer),
               peer_stride(&d[k], peer));
    else if ((opts & STP_VIS_OPT_FOLD) && k && continues(&d[k - 1], &d[k]))
      snprintf(msg, sizeof msg, "fold: dim %zu continues dim %zu on both ends", k, k - 1);
    else if ((opts & STP_VIS_OPT_FOLD) && !k && d[0].src == (ptrdiff_t)sh->elemsz && d[0].dst == (ptrdiff_t)sh->elemsz)
      snprintf(msg, sizeof msg, "fold: dim 0 continues the chunk on both ends");
  }
  if (!msg[0]) return 0;
  EXPECT(0, "%s: %s; described %s; shape %s", ctx, msg, desc_str(D), shape_str(sh));
  return -1;
}

/* Build D's shape under opts and peer into *keep (the caller's to fini)
 * or a shape of its own, check the passes and the walk.  Returns the
 * shape's ndims, or -1 having failed. */
static long check_one(const desc_t *D, unsigned opts, stp_vis_end_t peer, const char *what, stp_vis_shape_t *keep) {
  stp_vis_shape_t own, *sh = keep ? keep : &own;
  char ctx[160];
  long nd = -1;
  int rc;
  snprintf(ctx, sizeof ctx, "%s, opts %s, peer %s", what, opts_name(opts), end_name(peer));
  rc = stp_vis_shape_init(sh, D->elemsz, D->count, D->n, D->src, D->dst, opts, peer);
  if (rc != STP_VIS_OK) EXPECT(0, "%s: stp_vis_shape_init %d; described %s", ctx, rc, desc_str(D));
  else if (!check_passes(sh, D, opts, peer, ctx) && !ref_compare(sh, D, ctx)) nd = (long)sh->ndims;
  if (!keep) stp_vis_shape_fini(sh);
  return nd;
}

/* Every subset and both peers; 0, or -1 having failed. */
static int check_all(const desc_t *D, const char *what) {
  if (ref_build(D, what)) return -1;
  for (int e = 0; e < 2; e++)
    for (unsigned o = 0; o < 16; o++)
      if (check_one(D, o, ends[e], what, NULL) < 0) return -1;
  return 0;
}

/* ------------------------------------------------------------------ */
/* fragments: any byte ranges, and chunk ranges, walk the whole walk    */
/* ------------------------------------------------------------------ */
static sink_t whole, parts;

static int check_fragments(const stp_vis_shape_t *sh, uint64_t *r, const char *what) {
  char msg[200] = "";
  size_t first = 0, n;
  sink_reset(&whole, 0, 0);
  sink_reset(&parts, 0, 0);
  shape_walk(sh, 0, SIZE_MAX, sink_chunk, &whole);
  for (int pass = 0; pass < 2 && !msg[0]; pass++) {
    /* pass 0: random byte ranges; pass 1: random chunk ranges */
    parts.n = parts.bytes = 0;
    for (first = 0; first < sh->nbytes && !msg[0]; first += n) {
      stp_vis_iter_t it;
      stp_vis_chunk_t c;
      size_t got_bytes = 0;
      n = pass ? sh->elemsz * (1 + below(r, 1 + (uint32_t)(sh->nchunks > 40 ? 40 : sh->nchunks)))
               : 1 + below(r, 1 + (uint32_t)(sh->nbytes > 300 ? 300 : sh->nbytes));
      if (pass) stp_vis_iter_init_chunks(&it, sh, first / sh->elemsz, n / sh->elemsz);
      else stp_vis_iter_init(&it, sh, first, n);
      while (stp_vis_iter_next(&it, &c)) {
        if (pass && c.len != sh->elemsz)
          snprintf(msg, sizeof msg, "chunk range [%zu, +%zu): a piece of %zu bytes", first / sh->elemsz,
                   n / sh->elemsz, c.len);
        sink_chunk(&parts, (uint64_t)c.src, (uint64_t)c.dst, c.len);
        got_bytes += c.len;
      }
      stp_vis_iter_fini(&it);
      if (!msg[0] && got_bytes != (n < sh->nbytes - first ? n : sh->nbytes - first))
        snprintf(msg, sizeof msg, "range [%zu, +%zu) of %zu bytes walked %zu", first, n, sh->nbytes, got_bytes);
    }
    if (!msg[0] && parts.n != whole.n) snprintf(msg, sizeof msg, "fragments walked %zu bytes, whole %zu", parts.n, whole.n);
    for (size_t i = 0; i < whole.n && !msg[0]; i++)
      if (parts.ls[i] != whole.ls[i] || parts.ld[i] != whole.ld[i])
        snprintf(msg, sizeof msg, "%s ranges: byte %zu of the walk differs", pass ? "chunk" : "byte", i);
  }
  if (!msg[0]) return 0;
  EXPECT(0, "%s: fragments: %s; shape %s", what, msg, shape_str(sh));
  return -1;
}

/* ------------------------------------------------------------------ */
/* layouts                                                             */
/* ------------------------------------------------------------------ */
static void shuffle(size_t *a, size_t n, uint64_t *r) {
  for (size_t i = 0; i < n; i++) a[i] = i;
  for (size_t i = n; i > 1; i--) {
    size_t j = below(r, (uint32_t)i), t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
  }
}

/* One end of D as a dense sub-block of a larger array: dimensions stored
 * in order perm (innermost first), array extents ext[] >= count[], chunks
 * at pitch u, the dimensions in refl reflected (strides negative: the
 * API's address is the block's far corner along them). */
static void nested(const desc_t *D, const size_t *perm, const size_t *ext, size_t u, const uint8_t *refl,
                   ptrdiff_t *stride) {
  ptrdiff_t s = (ptrdiff_t)u;
  for (size_t j = 0; j < D->n; j++) {
    size_t d = perm[j];
    stride[d] = refl[d] ? -s : s;
    s *= (ptrdiff_t)ext[d];
  }
}

/* A 1-d strided pattern, N = product of count[] chunks at pitch (ps, pd),
 * described in n dimensions: storage dimension j (extent count[j], stride
 * pitch x the extents below it) listed at position perm[j] (a transpose),
 * reflected on both ends with probability 1/2; extent-1 dimensions get
 * strides of any value.  *rs, *rd: where the API's addresses are from the
 * pattern's first chunk (the reflections' far corners). */
static void make_1d(desc_t *D, size_t n, const size_t *count, size_t elemsz, ptrdiff_t ps, ptrdiff_t pd, uint64_t *r,
                    ptrdiff_t *rs, ptrdiff_t *rd) {
  static size_t perm[MAXD];
  ptrdiff_t below_s = ps, below_d = pd;
  D->n = n;
  D->elemsz = elemsz;
  *rs = *rd = 0;
  shuffle(perm, n, r);
  for (size_t j = 0; j < n; j++) {
    size_t p = perm[j];
    D->count[p] = count[j];
    D->src[p] = below_s;
    D->dst[p] = below_d;
    if (count[j] == 1) {
      D->src[p] = (ptrdiff_t)rnd(r); /* never used: any value */
      D->dst[p] = (ptrdiff_t)rnd(r);
    } else if (below(r, 2)) {
      *rs += below_s * (ptrdiff_t)(count[j] - 1);
      *rd += below_d * (ptrdiff_t)(count[j] - 1);
      D->src[p] = -below_s;
      D->dst[p] = -below_d;
    }
    below_s *= (ptrdiff_t)count[j];
    below_d *= (ptrdiff_t)count[j];
  }
}

/* make_1d's pattern under all the transformations: one dimension of
 * extent N (none if N is 1; none either, elemsz N times larger, when the
 * pitch is elemsz on both ends), the base at the pattern's first chunk. */
static int expect_1d(const stp_vis_shape_t *sh, size_t N, size_t elemsz, ptrdiff_t ps, ptrdiff_t pd, ptrdiff_t rs,
                     ptrdiff_t rd, const char *what) {
  int dense = ps == (ptrdiff_t)elemsz && pd == (ptrdiff_t)elemsz;
  size_t want_dims = N == 1 || dense ? 0 : 1;
  size_t want_elemsz = dense ? elemsz * N : elemsz;
  int ok = sh->ndims == want_dims && sh->elemsz == want_elemsz && sh->srcoff == -rs && sh->dstoff == -rd &&
           (!want_dims || (sh->dim[0].count == N && sh->dim[0].src == ps && sh->dim[0].dst == pd));
  EXPECT(ok, "%s: want %zu dims (%zu x (%td, %td)), elemsz %zu, offsets (%td, %td); got %s", what, want_dims, N, ps,
         pd, want_elemsz, -rs, -rd, shape_str(sh));
  return ok ? 0 : -1;
}

/* ------------------------------------------------------------------ */
/* random descriptions                                                 */
/* ------------------------------------------------------------------ */
typedef struct gen_info {
  int twin;          /* the source is the destination's layout: its folds are known */
  size_t twin_dims;  /* ... the dimensions left after all four passes */
  size_t nonnull;    /* extents > 1 */
} gen_info_t;

static size_t draw_elemsz(uint64_t *r) {
  uint32_t p = below(r, 100);
  return p < 60 ? 1 + below(r, 4) : p < 90 ? 5 + below(r, 12) : 17 + below(r, 48);
}

/* Description i of the run: drawn from (seed, i) only. */
static void gen_desc(desc_t *D, size_t i, gen_info_t *g) {
  static size_t perm[RAND_DIMS], sperm[RAND_DIMS], ext[RAND_DIMS], sext[RAND_DIMS], order[RAND_DIMS];
  static uint8_t refl[RAND_DIMS], srefl[RAND_DIMS];
  uint64_t rs = seed ^ (0x9e3779b97f4a7c15ull * (i + 1)), *r = &rs;
  size_t chunks = 1, extent, u, su, gap;
  uint32_t mode;
  rnd(r);
  memset(g, 0, sizeof(*g));
  D->n = below(r, RAND_DIMS + 1);
  D->elemsz = draw_elemsz(r);
  /* extents, in a random order of positions so that no position is favoured */
  shuffle(order, D->n, r);
  for (size_t j = 0; j < D->n; j++) {
    uint32_t p = below(r, 100);
    size_t c = p < 55 ? 1 : p < 90 ? 2 + below(r, 3) : 5 + below(r, 8);
    if (chunks * c > RAND_CHUNKS) c = 1;
    chunks *= c;
    D->count[order[j]] = c;
    g->nonnull += c > 1;
  }
  if (D->n && below(r, 50) == 0) D->count[below(r, (uint32_t)D->n)] = 0;
  /* the destination: a sub-block of an array padded here and there */
  shuffle(perm, D->n, r);
  extent = chunks;
  for (size_t j = 0; j < D->n; j++) {
    size_t d = perm[j], c = D->count[d] ? D->count[d] : 1, pad = below(r, 4) == 0 ? 1 + below(r, 2) : 0;
    if (extent / c * (c + pad) > RAND_EXTENT) pad = 0;
    ext[d] = c + pad;
    extent = extent / c * (c + pad);
    refl[d] = below(r, 10) < 3;
  }
  u = D->elemsz + (below(r, 10) < 3 ? 1 + below(r, 3) : 0);
  nested(D, perm, ext, u, refl, D->dst);
  /* the source */
  mode = below(r, 100);
  if (mode < 30) { /* twin: the same layout, so everything the pads allow folds */
    memcpy(D->src, D->dst, D->n * sizeof(*D->src));
    g->twin = 1;
    gap = u != D->elemsz;
    for (size_t j = 0; j < D->n; j++) {
      size_t d = perm[j];
      if (D->count[d] == 1) {
        gap |= ext[d] != 1;
        continue;
      }
      g->twin_dims += gap;
      gap = ext[d] != D->count[d];
    }
  } else if (mode < 45) { /* the same layout, reflected elsewhere */
    for (size_t d = 0; d < D->n; d++) srefl[d] = below(r, 2);
    nested(D, perm, ext, u, srefl, D->src);
  } else if (mode < 70) { /* another layout: a transpose */
    shuffle(sperm, D->n, r);
    for (size_t d = 0; d < D->n; d++) {
      sext[d] = D->count[d] + (below(r, 4) == 0);
      srefl[d] = below(r, 10) < 3;
    }
    su = D->elemsz + (below(r, 2) ? 0 : below(r, 3));
    nested(D, sperm, sext, su, srefl, D->src);
  } else if (mode < 85) { /* any strides: overlapping, zero, negative */
    for (size_t d = 0; d < D->n; d++)
      D->src[d] = below(r, 10) == 0 ? 0 : (ptrdiff_t)below(r, 129) - 64;
  } else { /* the destination's layout, some dimensions read again (stride 0) */
    memcpy(D->src, D->dst, D->n * sizeof(*D->src));
    for (size_t d = 0; d < D->n; d++)
      if (below(r, 3) == 0) D->src[d] = 0;
  }
}

typedef struct rand_stats {
  size_t descs, empty, twins, to1, rawdims, optdims;
} rand_stats_t;

static int check_random(size_t i, rand_stats_t *st) {
  static desc_t D;
  gen_info_t g;
  char what[64];
  uint64_t fr = seed + i;
  gen_desc(&D, i, &g);
  snprintf(what, sizeof what, "description #%zu", i);
  if (ref_build(&D, what)) return -1;
  st->descs++;
  st->empty += !ref.bytes;
  for (int e = 0; e < 2; e++)
    for (unsigned o = 0; o < 16; o++) {
      stp_vis_shape_t sh;
      long nd = check_one(&D, o, ends[e], what, o == STP_VIS_OPT_ALL ? &sh : NULL);
      if (o != STP_VIS_OPT_ALL) {
        if (nd < 0) return -1;
        continue;
      }
      if (nd < 0) {
        stp_vis_shape_fini(&sh);
        return -1;
      }
      if (!ref.bytes) {
        stp_vis_shape_fini(&sh);
        continue;
      }
      if (e == 0) {
        st->rawdims += g.nonnull;
        st->optdims += (size_t)nd;
        st->to1 += nd <= 1;
      }
      if (g.twin && (size_t)nd != g.twin_dims)
        EXPECT(0, "%s (same layout on both ends), opts all, peer %s: %ld dims, want %zu; described %s; shape %s",
               what, end_name(ends[e]), nd, g.twin_dims, desc_str(&D), shape_str(&sh));
      st->twins += g.twin && e == 0;
      if (!failed) check_fragments(&sh, &fr, what);
      stp_vis_shape_fini(&sh);
      if (failed) return -1;
    }
  return 0;
}

static size_t rand_descs(void) { return quick ? RAND_DESCS / 10 : RAND_DESCS; }

static const char *batch_name(size_t b) {
  static char name[64];
  snprintf(name, sizeof name, "random_batch%zu", b);
  return name;
}

static void batch_run(size_t b) {
  size_t per = rand_descs() / BATCHES;
  rand_stats_t st = {0};
  for (size_t i = b * per; i < (b + 1) * per; i++)
    if (check_random(i, &st)) return;
  snprintf(detail, sizeof detail,
           "descriptions %zu-%zu x 16 subsets x 2 peers: %zu (%zu empty, %zu with the same layout on both ends "
           "folded as predicted); extents > 1 per description %.1f -> dims after all passes %.1f, %zu to <= 1 dim",
           b * per, (b + 1) * per - 1, st.descs, st.empty, st.twins,
           (double)st.rawdims / (double)(st.descs - st.empty ? st.descs - st.empty : 1),
           (double)st.optdims / (double)(st.descs - st.empty ? st.descs - st.empty : 1), st.to1);
}

/* ------------------------------------------------------------------ */
/* direct cases                                                        */
/* ------------------------------------------------------------------ */
static void case_degenerate(void) {
  static const size_t zero_count[] = {5, 0, SIZE_MAX}, ones[] = {1, 1, 1};
  static const ptrdiff_t st3[] = {PTRDIFF_MIN, 7, -3};
  for (int e = 0; e < 2; e++)
    for (unsigned o = 0; o < 16; o++) {
      stp_vis_shape_t sh;
      stp_vis_iter_t it;
      stp_vis_chunk_t c;
      int rc, n;
      /* elemsz 0: a no-op, nothing read */
      rc = stp_vis_shape_init(&sh, 0, NULL, 3, NULL, NULL, o, ends[e]);
      EXPECT(rc == STP_VIS_OK && sh.empty && !sh.nbytes && !sh.nchunks && !sh.ndims, "elemsz 0, %s: rc %d, %s",
             opts_name(o), rc, shape_str(&sh));
      stp_vis_iter_init(&it, &sh, 0, SIZE_MAX);
      EXPECT(!stp_vis_iter_next(&it, &c), "elemsz 0: the walk gives a piece");
      stp_vis_shape_fini(&sh);
      /* stridelevels 0: one chunk, no array read */
      rc = stp_vis_shape_init(&sh, 7, NULL, 0, NULL, NULL, o, ends[e]);
      EXPECT(rc == STP_VIS_OK && !sh.empty && sh.nbytes == 7 && sh.nchunks == 1 && !sh.ndims && sh.elemsz == 7,
             "stridelevels 0, %s: rc %d, %s", opts_name(o), rc, shape_str(&sh));
      stp_vis_iter_init(&it, &sh, 0, SIZE_MAX);
      n = stp_vis_iter_next(&it, &c);
      EXPECT(n && c.src == 0 && c.dst == 0 && c.len == 7 && !stp_vis_iter_next(&it, &c),
             "stridelevels 0: not one piece (0, 0, 7)");
      stp_vis_iter_init(&it, &sh, 2, 3);
      n = stp_vis_iter_next(&it, &c);
      EXPECT(n && c.src == 2 && c.dst == 2 && c.len == 3 && !stp_vis_iter_next(&it, &c),
             "stridelevels 0, bytes [2, +3): not one piece (2, 2, 3)");
      stp_vis_iter_init(&it, &sh, 7, 1);
      EXPECT(!stp_vis_iter_next(&it, &c), "bytes [7, +1) of 7: a piece");
      stp_vis_shape_fini(&sh);
      /* an extent 0: a no-op, though the others' product overflows */
      rc = stp_vis_shape_init(&sh, 4, zero_count, 3, st3, st3, o, ends[e]);
      EXPECT(rc == STP_VIS_OK && sh.empty && !sh.nbytes, "an extent 0, %s: rc %d, %s", opts_name(o), rc,
             shape_str(&sh));
      stp_vis_iter_init(&it, &sh, 0, SIZE_MAX);
      EXPECT(!stp_vis_iter_next(&it, &c), "an extent 0: the walk gives a piece");
      stp_vis_shape_fini(&sh);
      /* every extent 1: one chunk, whatever the strides */
      rc = stp_vis_shape_init(&sh, 5, ones, 3, st3, st3, o, ends[e]);
      EXPECT(rc == STP_VIS_OK && !sh.empty && sh.nchunks == 1 && sh.nbytes == 5 &&
                 (!(o & STP_VIS_OPT_NULLDIM) || !sh.ndims),
             "extents 1 1 1, %s: rc %d, %s", opts_name(o), rc, shape_str(&sh));
      stp_vis_iter_init(&it, &sh, 0, SIZE_MAX);
      n = stp_vis_iter_next(&it, &c);
      EXPECT(n && c.src == 0 && c.dst == 0 && c.len == 5 && !stp_vis_iter_next(&it, &c),
             "extents 1 1 1, %s: not one piece (0, 0, 5)", opts_name(o));
      stp_vis_shape_fini(&sh);
    }
  snprintf(detail, sizeof detail, "elemsz 0, stridelevels 0, an extent 0, all extents 1; 16 subsets x 2 peers");
}

/* 32 dimensions of extent 2: the shape's walk sampled in windows, and
 * chunks of the raw description (offsets from their digits) checked to
 * lie in the pattern -- 2^32 chunks are not walked. */
static void sample_1d(const desc_t *D, const stp_vis_shape_t *sh, size_t N, ptrdiff_t ps, ptrdiff_t pd, ptrdiff_t rs,
                      ptrdiff_t rd, uint64_t *r, const char *what) {
  for (int w = 0; w < 64 && !failed; w++) {
    stp_vis_iter_t it;
    stp_vis_chunk_t c;
    size_t j = (size_t)(rnd(r) % N);
    stp_vis_iter_init_chunks(&it, sh, j, 16);
    for (; stp_vis_iter_next(&it, &c) && !failed; j++)
      EXPECT(c.src == -rs + (ptrdiff_t)j * ps && c.dst == -rd + (ptrdiff_t)j * pd && c.len == D->elemsz,
             "%s: chunk %zu of the walk at (%td, %td, %zu)", what, j, c.src, c.dst, c.len);
    stp_vis_iter_fini(&it);
  }
  for (int w = 0; w < 256 && !failed; w++) {
    size_t q = (size_t)(rnd(r) % N);
    ptrdiff_t s = 0, t = 0, j;
    for (size_t d = 0; d < D->n; d++) {
      s += (ptrdiff_t)(q % D->count[d]) * D->src[d];
      t += (ptrdiff_t)(q % D->count[d]) * D->dst[d];
      q /= D->count[d];
    }
    j = (s + rs) / ps;
    EXPECT((s + rs) % ps == 0 && j >= 0 && (size_t)j < N && t == -rd + j * pd,
           "%s: a raw chunk at (%td, %td) is not in the pattern", what, s, t);
  }
}

/* The seed's case: a 1-d strided pattern described in 3, 8 and 32
 * dimensions, transposed and reflected, folds to exactly one. */
static void case_fold_1d(void) {
  static desc_t D;
  static size_t count[MAXD];
  static const size_t ns[] = {3, 8, 32, 32};
  char what[96], out[600] = "";
  uint64_t rs = seed ^ 0x1d1d1d1dull, *r = &rs;
  for (size_t v = 0; v < sizeof(ns) / sizeof(*ns) && !failed; v++) {
    size_t n = ns[v], N = 1, elemsz = 1 + below(r, 8), at = strlen(out);
    ptrdiff_t ps = (ptrdiff_t)elemsz + 1 + below(r, 5), pd = (ptrdiff_t)elemsz * (2 + below(r, 2)), rs_, rd_;
    int huge = v == 2; /* 32 dimensions of extent 2; v 3: 16 of them 1 */
    for (size_t j = 0; j < n; j++) {
      count[j] = n == 3 ? 4 + j : n == 8 ? 2 + below(r, 2) : huge ? 2 : 1 + j % 2;
      N *= count[j];
    }
    if (huge) {
      elemsz = 1;
      ps = 3;
      pd = 2;
    }
    make_1d(&D, n, count, elemsz, ps, pd, r, &rs_, &rd_);
    snprintf(what, sizeof what, "%zu-d 1-d pattern #%zu (%zu chunks%s)", n, v, N, huge ? ", sampled" : "");
    for (int e = 0; e < 2 && !failed; e++) {
      stp_vis_shape_t sh;
      int rc = stp_vis_shape_init(&sh, D.elemsz, D.count, D.n, D.src, D.dst, STP_VIS_OPT_ALL, ends[e]);
      EXPECT(rc == STP_VIS_OK, "%s: rc %d", what, rc);
      if (!rc) expect_1d(&sh, N, elemsz, ps, pd, rs_, rd_, what);
      if (!failed && huge) sample_1d(&D, &sh, N, ps, pd, rs_, rd_, r, what);
      if (e == 0 && !failed)
        snprintf(out + at, sizeof out - at, "%s#%zu %zu-d (%zu chunks, elemsz %zu) -> %zu dim (%zu x (%td, %td))%s",
                 at ? "; " : "", v, n, N, elemsz, sh.ndims, sh.ndims ? sh.dim[0].count : 0,
                 sh.ndims ? sh.dim[0].src : 0, sh.ndims ? sh.dim[0].dst : 0, huge ? " sampled" : "");
      stp_vis_shape_fini(&sh);
    }
    if (!failed && !huge) check_all(&D, what);
  }
  snprintf(detail, sizeof detail, "%s", out);
}

/* A dense block (pitch elemsz on both ends), any shape, transposed and
 * reflected: one chunk. */
static void case_dense_block(void) {
  static desc_t D;
  static size_t count[MAXD];
  uint64_t rs = seed ^ 0xdeb5eull, *r = &rs;
  size_t maxn = 0;
  for (int v = 0; v < 200 && !failed; v++) {
    size_t n = 1 + below(r, 12), N = 1, elemsz = 1 + below(r, 16);
    ptrdiff_t rs_, rd_;
    char what[64];
    for (size_t j = 0; j < n; j++) {
      count[j] = N * 5 > 4096 ? 1 : 1 + below(r, 5);
      N *= count[j];
    }
    make_1d(&D, n, count, elemsz, (ptrdiff_t)elemsz, (ptrdiff_t)elemsz, r, &rs_, &rd_);
    snprintf(what, sizeof what, "dense block #%d (%zu-d, %zu chunks)", v, n, N);
    for (int e = 0; e < 2 && !failed; e++) {
      stp_vis_shape_t sh;
      stp_vis_shape_init(&sh, D.elemsz, D.count, D.n, D.src, D.dst, STP_VIS_OPT_ALL, ends[e]);
      if (!expect_1d(&sh, N, elemsz, (ptrdiff_t)elemsz, (ptrdiff_t)elemsz, rs_, rd_, what))
        EXPECT(sh.nchunks == 1, "%s: %zu chunks", what, sh.nchunks);
      stp_vis_shape_fini(&sh);
    }
    if (!failed) check_all(&D, what);
    if (n > maxn) maxn = n;
  }
  snprintf(detail, sizeof detail, "200 blocks of 1-%zu dims: 0 dims, one chunk of every byte", maxn);
}

/* A transposed, reflected 2-d Get and Put whose shapes are known. */
static void case_peer_normal(void) {
  static desc_t D = {.elemsz = 4, .n = 2, .count = {4, 3}, .src = {20, -4}, .dst = {4, 16}};
  stp_vis_shape_t sh;
  /* Get: the source (a 4 x 3 block of a 5-wide array, read down its
   * columns, right to left) sorted and made non-negative; no fold (the
   * destination runs backwards along the source's rows) */
  stp_vis_shape_init(&sh, D.elemsz, D.count, D.n, D.src, D.dst, STP_VIS_OPT_ALL, STP_VIS_END_SRC);
  EXPECT(sh.ndims == 2 && sh.srcoff == -8 && sh.dstoff == 32 && sh.dim[0].count == 3 && sh.dim[0].src == 4 &&
             sh.dim[0].dst == -16 && sh.dim[1].count == 4 && sh.dim[1].src == 20 && sh.dim[1].dst == 4,
         "get: want off (-8, 32), 3x(4,-16) 4x(20,4); got %s", shape_str(&sh));
  stp_vis_shape_fini(&sh);
  /* Put: the destination is already in order; the source's rows do not fold */
  stp_vis_shape_init(&sh, D.elemsz, D.count, D.n, D.src, D.dst, STP_VIS_OPT_ALL, STP_VIS_END_DST);
  EXPECT(sh.ndims == 2 && !sh.srcoff && !sh.dstoff && sh.dim[0].count == 4 && sh.dim[0].src == 20 &&
             sh.dim[0].dst == 4 && sh.dim[1].count == 3 && sh.dim[1].src == -4 && sh.dim[1].dst == 16,
         "put: want off (0, 0), 4x(20,4) 3x(-4,16); got %s", shape_str(&sh));
  stp_vis_shape_fini(&sh);
  if (!failed) check_all(&D, "2-d transpose");
  snprintf(detail, sizeof detail, "get: off (-8, 32) 3x(4,-16) 4x(20,4); put: unchanged");
}

/* Offsets and products past ptrdiff_t: refused folds and inversions, the
 * walk still exact (compared as sorted pairs, modulo 2^64); totals past
 * size_t refused. */
static void case_overflow(void) {
  static desc_t D;
  static const struct {
    const char *name;
    size_t elemsz, n, count[3];
    ptrdiff_t src[3], dst[3];
    size_t fold_dims; /* ndims under fold alone */
  } t[] = {
      /* 2^62 x 2 wraps to PTRDIFF_MIN, the next stride: no fold */
      {"fold product", 1, 2, {2, 2}, {(ptrdiff_t)1 << 62, PTRDIFF_MIN}, {(ptrdiff_t)1 << 62, PTRDIFF_MIN}, 2},
      /* PTRDIFF_MIN cannot be negated: not inverted */
      {"invert PTRDIFF_MIN", 2, 2, {2, 3}, {PTRDIFF_MIN, 8}, {PTRDIFF_MIN, 8}, 2},
      /* -2^62 x 3: the far end past PTRDIFF_MIN */
      {"invert far end", 1, 2, {4, 2}, {-((ptrdiff_t)1 << 62), 1}, {-((ptrdiff_t)1 << 62), 1}, 2},
      /* two inversions whose offsets add past PTRDIFF_MAX */
      {"invert offsets", 1, 3, {2, 2, 2}, {-((ptrdiff_t)1 << 62) - 1, -((ptrdiff_t)1 << 62) - 1, 3},
       {-((ptrdiff_t)1 << 62) - 1, -((ptrdiff_t)1 << 62) - 1, 3}, 3},
  };
  size_t nshapes = 0;
  lax_invert = 1;
  for (size_t v = 0; v < sizeof(t) / sizeof(*t) && !failed; v++) {
    stp_vis_shape_t sh;
    D.elemsz = t[v].elemsz;
    D.n = t[v].n;
    memcpy(D.count, t[v].count, sizeof(t[v].count));
    memcpy(D.src, t[v].src, sizeof(t[v].src));
    memcpy(D.dst, t[v].dst, sizeof(t[v].dst));
    stp_vis_shape_init(&sh, D.elemsz, D.count, D.n, D.src, D.dst, STP_VIS_OPT_FOLD, STP_VIS_END_DST);
    EXPECT(sh.ndims == t[v].fold_dims, "%s: fold alone leaves %zu dims, want %zu: %s", t[v].name, sh.ndims,
           t[v].fold_dims, shape_str(&sh));
    stp_vis_shape_fini(&sh);
    if (!failed) check_all(&D, t[v].name);
    nshapes += 32;
  }
  lax_invert = 0;
  /* totals past size_t: refused, the shape empty and safe to walk */
  {
    static const size_t c1[] = {SIZE_MAX / 2, 3}, c2[] = {2};
    static const ptrdiff_t s2[] = {1, 1};
    stp_vis_shape_t sh;
    stp_vis_iter_t it;
    stp_vis_chunk_t c;
    int rc = stp_vis_shape_init(&sh, 1, c1, 2, s2, s2, STP_VIS_OPT_ALL, STP_VIS_END_DST);
    EXPECT(rc == STP_VIS_EOVERFLOW && sh.empty && !sh.nbytes, "extents SIZE_MAX/2 x 3: rc %d, %s", rc, shape_str(&sh));
    stp_vis_iter_init(&it, &sh, 0, SIZE_MAX);
    EXPECT(!stp_vis_iter_next(&it, &c), "a refused shape's walk gives a piece");
    stp_vis_shape_fini(&sh);
    rc = stp_vis_shape_init(&sh, SIZE_MAX, c2, 1, s2, s2, STP_VIS_OPT_ALL, STP_VIS_END_SRC);
    EXPECT(rc == STP_VIS_EOVERFLOW && sh.empty, "elemsz SIZE_MAX x 2: rc %d", rc);
    stp_vis_shape_fini(&sh);
    /* a chunk past PTRDIFF_MAX bytes: stride == elemsz cannot be compared, walked as one piece */
    rc = stp_vis_shape_init(&sh, (size_t)1 << 63, c2, 1, (const ptrdiff_t[]){PTRDIFF_MIN}, s2, STP_VIS_OPT_ALL,
                            STP_VIS_END_DST);
    EXPECT(rc == STP_VIS_EOVERFLOW, "elemsz 2^63 x 2: rc %d", rc);
    stp_vis_shape_fini(&sh);
    rc = stp_vis_shape_init(&sh, (size_t)1 << 63, (const size_t[]){1}, 1, s2, s2, STP_VIS_OPT_ALL, STP_VIS_END_DST);
    EXPECT(rc == STP_VIS_OK && sh.nbytes == (size_t)1 << 63 && !sh.ndims, "elemsz 2^63 x 1: rc %d, %s", rc,
           shape_str(&sh));
    stp_vis_iter_init(&it, &sh, 0, SIZE_MAX);
    EXPECT(stp_vis_iter_next(&it, &c) && c.len == (size_t)1 << 63 && !stp_vis_iter_next(&it, &c),
           "elemsz 2^63: not one piece");
    stp_vis_shape_fini(&sh);
  }
  snprintf(detail, sizeof detail, "%zu shapes with products past ptrdiff_t exact; totals past size_t refused",
           nshapes);
}

/* Past STP_VIS_INLINE_DIMS: the heap, in the shape and in the walker. */
static void case_many_dims(void) {
  static desc_t D;
  static size_t count[MAXD];
  static const size_t ns[] = {33, 100, 1000};
  uint64_t rs = seed ^ 0x3a3a3aull, *r = &rs;
  for (size_t v = 0; v < sizeof(ns) / sizeof(*ns) && !failed; v++) {
    size_t n = ns[v], N = 1;
    ptrdiff_t rs_, rd_;
    char what[64];
    for (size_t j = 0; j < n; j++) {
      count[j] = N < 2048 && below(r, (uint32_t)n) < 12 ? 2 : 1;
      N *= count[j];
    }
    make_1d(&D, n, count, 2, 3, 4, r, &rs_, &rd_);
    snprintf(what, sizeof what, "%zu-d (%zu chunks)", n, N);
    for (int e = 0; e < 2 && !failed; e++) {
      stp_vis_shape_t sh;
      stp_vis_shape_init(&sh, D.elemsz, D.count, D.n, D.src, D.dst, STP_VIS_OPT_ALL, ends[e]);
      expect_1d(&sh, N, 2, 3, 4, rs_, rd_, what);
      stp_vis_shape_fini(&sh);
    }
    if (!failed) check_all(&D, what);
  }
  snprintf(detail, sizeof detail, "33, 100, 1000 dims: every subset exact; all passes -> 1 dim");
}

static const unit_case_t units[] = {
    {"degenerate", case_degenerate}, {"fold_1d", case_fold_1d},   {"dense_block", case_dense_block},
    {"peer_normal", case_peer_normal}, {"overflow", case_overflow}, {"many_dims", case_many_dims},
};

int main(int argc, char **argv) {
  int rc = unit_main(argc, argv, units, sizeof(units) / sizeof(*units), BATCHES, batch_name, batch_run);
  sink_free(&ref);
  sink_free(&got);
  sink_free(&whole);
  sink_free(&parts);
  return rc;
}
