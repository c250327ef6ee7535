/*
 * vis_stride.c -- the Strided VIS stride optimizer and chunk walker
 * (vis_stride.h has the contract).
 */
#include "vis_stride.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Checked arithmetic for the optimizer's decisions: 1 when the exact
 * result fits in *out. */
static int mul_sz(ptrdiff_t s, size_t c, ptrdiff_t *out) { return !__builtin_mul_overflow(s, c, out); }
static int add_pd(ptrdiff_t a, ptrdiff_t b, ptrdiff_t *out) { return !__builtin_add_overflow(a, b, out); }

static ptrdiff_t peer_of(const stp_vis_dim_t *d, stp_vis_end_t peer) { return peer == STP_VIS_END_SRC ? d->src : d->dst; }
static ptrdiff_t other_of(const stp_vis_dim_t *d, stp_vis_end_t peer) { return peer == STP_VIS_END_SRC ? d->dst : d->src; }

static void drop_null_dims(stp_vis_shape_t *sh) {
  size_t n = 0;
  for (size_t k = 0; k < sh->ndims; k++)
    if (sh->dim[k].count != 1) sh->dim[n++] = sh->dim[k];
  sh->ndims = n;
}

static void invert(stp_vis_shape_t *sh, stp_vis_end_t peer) {
  for (size_t k = 0; k < sh->ndims; k++) {
    stp_vis_dim_t *d = &sh->dim[k];
    ptrdiff_t p = peer_of(d, peer), o = other_of(d, peer), far_src, far_dst, srcoff, dstoff;
    if (!(p < 0 || (p == 0 && o < 0))) continue;
    if (d->src == PTRDIFF_MIN || d->dst == PTRDIFF_MIN) continue;
    if (!mul_sz(d->src, d->count - 1, &far_src) || !mul_sz(d->dst, d->count - 1, &far_dst) ||
        !add_pd(sh->srcoff, far_src, &srcoff) || !add_pd(sh->dstoff, far_dst, &dstoff))
      continue;
    sh->srcoff = srcoff;
    sh->dstoff = dstoff;
    d->src = -d->src;
    d->dst = -d->dst;
  }
}

static int order(ptrdiff_t a, ptrdiff_t b) { return (a > b) - (a < b); }
static int order_count(const stp_vis_dim_t *x, const stp_vis_dim_t *y) { return (x->count > y->count) - (x->count < y->count); }
static int by_dst(const void *a, const void *b) {
  const stp_vis_dim_t *x = a, *y = b;
  int c = order(x->dst, y->dst);
  if (!c) c = order(x->src, y->src);
  return c ? c : order_count(x, y);
}
static int by_src(const void *a, const void *b) {
  const stp_vis_dim_t *x = a, *y = b;
  int c = order(x->src, y->src);
  if (!c) c = order(x->dst, y->dst);
  return c ? c : order_count(x, y);
}

/* May dimension n continue dimension d on both ends (n's stride is d's
 * whole extent), the product of their extents representable? */
static int continues(const stp_vis_dim_t *d, const stp_vis_dim_t *n, size_t *count) {
  ptrdiff_t span_src, span_dst;
  return mul_sz(d->src, d->count, &span_src) && span_src == n->src && mul_sz(d->dst, d->count, &span_dst) &&
         span_dst == n->dst && !__builtin_mul_overflow(d->count, n->count, count);
}

static void fold(stp_vis_shape_t *sh) {
  size_t n = 0, count, elemsz;
  for (size_t k = 0; k < sh->ndims; k++) {
    if (n && continues(&sh->dim[n - 1], &sh->dim[k], &count)) sh->dim[n - 1].count = count;
    else sh->dim[n++] = sh->dim[k];
  }
  sh->ndims = n;
  /* One pass leaves no dimension that continues its neighbour, so once the
   * first is in the chunk the next cannot be; the loop only says so. */
  while (sh->ndims && sh->elemsz <= PTRDIFF_MAX && sh->dim[0].src == (ptrdiff_t)sh->elemsz &&
         sh->dim[0].dst == (ptrdiff_t)sh->elemsz && !__builtin_mul_overflow(sh->elemsz, sh->dim[0].count, &elemsz)) {
    sh->elemsz = elemsz;
    sh->nchunks /= sh->dim[0].count;
    memmove(sh->dim, sh->dim + 1, --sh->ndims * sizeof(*sh->dim));
  }
}

int stp_vis_shape_init(stp_vis_shape_t *sh, size_t elemsz, const size_t count[], size_t stridelevels,
                       const ptrdiff_t srcstrides[], const ptrdiff_t dststrides[], unsigned opts, stp_vis_end_t peer) {
  size_t total = elemsz;
  sh->elemsz = sh->ndims = sh->nchunks = sh->nbytes = 0;
  sh->dim = sh->inl;
  sh->srcoff = sh->dstoff = 0;
  sh->empty = 1;
  if (!elemsz) return STP_VIS_OK;
  for (size_t k = 0; k < stridelevels; k++)
    if (!count[k]) return STP_VIS_OK;
  for (size_t k = 0; k < stridelevels; k++)
    if (__builtin_mul_overflow(total, count[k], &total)) return STP_VIS_EOVERFLOW;
  if (stridelevels > STP_VIS_INLINE_DIMS && !(sh->dim = calloc(stridelevels, sizeof(*sh->dim)))) {
    sh->dim = sh->inl;
    return STP_VIS_ENOMEM;
  }
  for (size_t k = 0; k < stridelevels; k++) {
    sh->dim[k].count = count[k];
    sh->dim[k].src = srcstrides[k];
    sh->dim[k].dst = dststrides[k];
  }
  sh->ndims = stridelevels;
  sh->elemsz = elemsz;
  sh->nbytes = total;
  sh->nchunks = total / elemsz;
  sh->empty = 0;
  if (opts & STP_VIS_OPT_NULLDIM) drop_null_dims(sh);
  if (opts & STP_VIS_OPT_INVERT) invert(sh, peer);
  if (opts & STP_VIS_OPT_SORT) qsort(sh->dim, sh->ndims, sizeof(*sh->dim), peer == STP_VIS_END_SRC ? by_src : by_dst);
  if (opts & STP_VIS_OPT_FOLD) fold(sh);
  return STP_VIS_OK;
}

void stp_vis_shape_fini(stp_vis_shape_t *sh) {
  if (sh->dim != sh->inl) free(sh->dim);
  sh->dim = sh->inl;
  sh->ndims = 0;
}

/* ------------------------------------------------------------------ */
/* the walker: offsets in size_t, modulo 2^N (vis_stride.h)            */
/* ------------------------------------------------------------------ */
int stp_vis_iter_init(stp_vis_iter_t *it, const stp_vis_shape_t *sh, size_t first, size_t n) {
  const size_t nd = sh->ndims;
  size_t k;
  it->sh = sh;
  it->left = it->skip = 0;
  it->src = (size_t)sh->srcoff;
  it->dst = (size_t)sh->dstoff;
  it->idx = it->inl;
  if (sh->empty || first >= sh->nbytes) return STP_VIS_OK;
  if (nd > STP_VIS_INLINE_DIMS && !(it->idx = malloc(nd * sizeof(*it->idx)))) {
    it->idx = it->inl;
    return STP_VIS_ENOMEM;
  }
  it->left = n < sh->nbytes - first ? n : sh->nbytes - first;
  it->skip = first % sh->elemsz;
  k = first / sh->elemsz;
  for (size_t d = 0; d < nd; d++) {
    it->idx[d] = k % sh->dim[d].count;
    k /= sh->dim[d].count;
    it->src += it->idx[d] * (size_t)sh->dim[d].src;
    it->dst += it->idx[d] * (size_t)sh->dim[d].dst;
  }
  return STP_VIS_OK;
}

int stp_vis_iter_next(stp_vis_iter_t *it, stp_vis_chunk_t *c) {
  const stp_vis_shape_t *sh = it->sh;
  size_t len = sh->elemsz - it->skip;
  if (!it->left) return 0;
  if (len > it->left) len = it->left;
  c->src = (ptrdiff_t)(it->src + it->skip);
  c->dst = (ptrdiff_t)(it->dst + it->skip);
  c->len = len;
  it->left -= len;
  it->skip = 0;
  if (!it->left) return 1;
  /* the next chunk: an odometer, dim[0] fastest */
  for (size_t d = 0; d < sh->ndims; d++) {
    const stp_vis_dim_t *dm = &sh->dim[d];
    if (++it->idx[d] < dm->count) {
      it->src += (size_t)dm->src;
      it->dst += (size_t)dm->dst;
      return 1;
    }
    it->idx[d] = 0;
    it->src -= (size_t)dm->src * (dm->count - 1);
    it->dst -= (size_t)dm->dst * (dm->count - 1);
  }
  return 1;
}

void stp_vis_iter_fini(stp_vis_iter_t *it) {
  if (it->idx != it->inl) free(it->idx);
  it->idx = it->inl;
  it->left = 0;
}
