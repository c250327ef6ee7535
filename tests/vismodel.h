/*
 * vismodel.h -- the byte model of the VIS tests (tests/exvis.c, GASNet-EX;
 * tests/vis1.c, GASNet-1): seeded random descriptions of Vector, Indexed
 * and Strided transfers between two areas, and what each one does to the
 * destination area, byte by byte.
 *
 * A description names offsets in a destination area of `da` bytes and a
 * source area of `sa` bytes.  Destination pieces never overlap (the API
 * leaves that undefined); source pieces may (a source byte named twice is
 * allowed).  vm_apply() writes into a copy of the destination area what
 * the transfer must leave there: the k-th byte the destination side names
 * gets the k-th byte the source side names (Vector, Indexed), or element
 * (i0, i1, ...) of the source its counterpart (Strided); every other byte
 * is left as it was.
 *
 * Plain C, no GASNet header.
 */
#ifndef VISMODEL_H
#define VISMODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define VM_MAXENT 256 /* list entries per side */
#define VM_MAXDIM 10  /* strided dimensions */

enum { VM_VECTOR, VM_INDEXED, VM_STRIDED, VM_NKINDS };
static const char *const vm_kind_names[VM_NKINDS] = {"vector", "indexed", "strided"};

/* splitmix64 */
typedef struct {
  uint64_t s;
} vm_rng_t;
static inline uint64_t vm_next(vm_rng_t *r) {
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
/* 0..n-1 (0 for n 0) */
static inline size_t vm_below(vm_rng_t *r, size_t n) { return n ? (size_t)(vm_next(r) % n) : 0; }
/* 1 with probability pct % */
static inline int vm_pct(vm_rng_t *r, unsigned pct) { return vm_below(r, 100) < pct; }

typedef struct {
  int kind;
  /* Vector: entries (offset, length); Indexed: offsets, one length per side */
  size_t dcount, scount;
  size_t doff[VM_MAXENT], dlen[VM_MAXENT], soff[VM_MAXENT], slen[VM_MAXENT];
  size_t dstlen, srclen;
  /* Strided: elemsz-byte chunks, count[0] innermost, strides in bytes,
   * dbase/sbase: the offsets of dstaddr/srcaddr in their areas */
  size_t elemsz, levels, count[VM_MAXDIM];
  ptrdiff_t dstride[VM_MAXDIM], sstride[VM_MAXDIM];
  size_t dbase, sbase;
} vm_desc_t;

static void vm_shuffle(vm_rng_t *r, size_t *a, size_t n) {
  for (size_t i = n; i > 1; i--) {
    size_t j = vm_below(r, i), t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
  }
}

/* n disjoint pieces of the given lengths in an area of `area` bytes, in a
 * random order, with gaps (the lengths' sum must fit) */
static void vm_place_disjoint(vm_rng_t *r, size_t *off, const size_t *len, size_t n, size_t area) {
  size_t order[VM_MAXENT], sum = 0, pos, slack;
  for (size_t i = 0; i < n; i++) order[i] = i, sum += len[i];
  vm_shuffle(r, order, n);
  slack = area - sum;
  pos = 0;
  for (size_t k = 0; k < n; k++) {
    size_t gap = vm_below(r, slack / (n + 1) + 1);
    if (vm_pct(r, 30)) gap = 0; /* (pieces that touch) */
    pos += gap;
    slack -= gap;
    off[order[k]] = pos;
    pos += len[order[k]];
  }
}

/* Vector: the destination in up to 16 pieces (some of length 0, sometimes
 * none at all), the source a different cut of the same total, anywhere in
 * its area (pieces may overlap) */
static void vm_gen_vector(vm_rng_t *r, vm_desc_t *d, size_t da, size_t sa) {
  size_t total = 0, maxlen;
  memset(d, 0, sizeof(*d));
  d->kind = VM_VECTOR;
  d->dcount = vm_pct(r, 5) ? 0 : 1 + vm_below(r, 16);
  maxlen = (da < sa ? da : sa) / (2 * (d->dcount + 1)); /* (the total fits either area) */
  if (vm_pct(r, 30)) maxlen = maxlen < 16 ? maxlen : 16; /* small pieces */
  for (size_t i = 0; i < d->dcount; i++) {
    d->dlen[i] = vm_pct(r, 15) ? 0 : vm_below(r, maxlen + 1);
    total += d->dlen[i];
  }
  vm_place_disjoint(r, d->doff, d->dlen, d->dcount, da);
  if (!total && vm_pct(r, 50)) {
    d->scount = vm_below(r, 3); /* (zero-length entries, or none) */
  } else {
    size_t cuts[VM_MAXENT + 1];
    d->scount = 1 + vm_below(r, 16);
    cuts[0] = 0;
    cuts[d->scount] = total;
    for (size_t i = 1; i < d->scount; i++) cuts[i] = vm_below(r, total + 1);
    /* (sort the inner cuts: equal ones make zero-length entries) */
    for (size_t i = 1; i < d->scount; i++)
      for (size_t j = i + 1; j < d->scount; j++)
        if (cuts[j] < cuts[i]) {
          size_t t = cuts[i];
          cuts[i] = cuts[j];
          cuts[j] = t;
        }
    for (size_t i = 0; i < d->scount; i++) d->slen[i] = cuts[i + 1] - cuts[i];
  }
  for (size_t i = 0; i < d->scount; i++) d->soff[i] = vm_below(r, sa - d->slen[i] + 1);
}

static size_t vm_gcd(size_t a, size_t b) {
  while (b) {
    size_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* Indexed: dstcount x dstlen == srccount x srclen, the lengths usually
 * different; sometimes lengths of 0 or counts of 0 */
static void vm_gen_indexed(vm_rng_t *r, vm_desc_t *d, size_t da, size_t sa) {
  memset(d, 0, sizeof(*d));
  d->kind = VM_INDEXED;
  if (vm_pct(r, 8)) { /* nothing to move: lengths 0 with entries, or no entries */
    if (vm_pct(r, 50)) {
      d->dcount = vm_below(r, 4), d->scount = vm_below(r, 4);
      d->dstlen = 0, d->srclen = 0;
    } else {
      d->dcount = 0, d->scount = 0;
      d->dstlen = 1 + vm_below(r, 8), d->srclen = 1 + vm_below(r, 8);
    }
  } else {
    size_t a, b, l, k, lim = da / 4 < sa / 2 ? da / 4 : sa / 2;
    do {
      a = 1 + vm_below(r, vm_pct(r, 50) ? 8 : 64);
      b = vm_pct(r, 15) ? a : 1 + vm_below(r, vm_pct(r, 50) ? 8 : 64);
      l = a / vm_gcd(a, b) * b;
    } while (l > lim || l / a > VM_MAXENT || l / b > VM_MAXENT);
    k = 1 + vm_below(r, lim / l);
    while (k > 1 && (k * l / a > VM_MAXENT || k * l / b > VM_MAXENT)) k--;
    d->dstlen = a, d->srclen = b;
    d->dcount = k * l / a, d->scount = k * l / b;
  }
  for (size_t i = 0; i < d->dcount; i++) d->dlen[i] = d->dstlen;
  vm_place_disjoint(r, d->doff, d->dlen, d->dcount, da);
  for (size_t i = 0; i < d->scount; i++) d->soff[i] = vm_below(r, sa - d->srclen + 1);
}

/* the offsets a strided side reaches, relative to its base: [lo, hi) */
static void vm_span(const vm_desc_t *d, const ptrdiff_t *stride, ptrdiff_t *lo, ptrdiff_t *hi) {
  ptrdiff_t a = 0, b = (ptrdiff_t)d->elemsz;
  for (size_t i = 0; i < d->levels; i++) {
    ptrdiff_t ext = stride[i] * (ptrdiff_t)(d->count[i] - 1);
    if (ext < 0) a += ext;
    else b += ext;
  }
  *lo = a, *hi = b;
}

/* One strided side.  disjoint: the chunks never overlap (dimensions in a
 * random order -- a transpose of the other side's -- with gaps, each
 * stride's sign random: reflections); else strides of any size, 0 too (the
 * source: bytes named several times).  Extent-1 dimensions get any stride.
 * 0 if the side does not fit in `area` bytes. */
static int vm_gen_side(vm_rng_t *r, vm_desc_t *d, ptrdiff_t *stride, size_t *base, size_t area, int disjoint,
                       int legacy) {
  ptrdiff_t lo, hi;
  if (disjoint || legacy) {
    size_t order[VM_MAXDIM];
    ptrdiff_t span = (ptrdiff_t)d->elemsz;
    for (size_t i = 0; i < d->levels; i++) order[i] = i;
    if (!legacy) vm_shuffle(r, order, d->levels);
    for (size_t k = 0; k < d->levels; k++) {
      size_t i = order[k];
      ptrdiff_t s = span + (ptrdiff_t)(vm_pct(r, 50) ? 0 : vm_below(r, 8));
      if (d->count[i] == 1 && !legacy && vm_pct(r, 50)) {
        stride[i] = (ptrdiff_t)vm_below(r, 4096) - 2048; /* (never used: extent 1) */
        continue;
      }
      stride[i] = !legacy && vm_pct(r, 30) ? -s : s;
      /* (legacy: each stride at least the previous one times its extent) */
      span = legacy ? s * (ptrdiff_t)d->count[i] : s * (ptrdiff_t)(d->count[i] - 1) + span;
    }
  } else {
    for (size_t i = 0; i < d->levels; i++) {
      ptrdiff_t s = (ptrdiff_t)vm_below(r, 2 * d->elemsz + 3);
      stride[i] = vm_pct(r, 30) ? -s : s;
    }
  }
  vm_span(d, stride, &lo, &hi);
  if ((size_t)(hi - lo) > area) return 0;
  *base = (size_t)(-lo) + vm_below(r, area - (size_t)(hi - lo) + 1);
  return 1;
}

/* Strided: 0..VM_MAXDIM dimensions, extents mostly 1..3, chunks of 1..24
 * bytes (larger with few dimensions), the two sides' dimensions in
 * different orders with reflections; sometimes elemsz 0 or an extent 0 (a
 * no-op).  legacy: what GASNet-1's strided calls take (strides positive and
 * increasing, no overlap on either side, elemsz and every extent >= 1). */
static void vm_gen_strided(vm_rng_t *r, vm_desc_t *d, size_t da, size_t sa, int legacy) {
  for (;;) {
    size_t elems = 1;
    memset(d, 0, sizeof(*d));
    d->kind = VM_STRIDED;
    d->levels = vm_pct(r, 10) ? 0 : 1 + vm_below(r, legacy ? 5 : VM_MAXDIM);
    d->elemsz = 1 + vm_below(r, d->levels <= 2 ? 200 : 24);
    if (vm_pct(r, 20)) d->elemsz = 1 + vm_below(r, 4);
    for (size_t i = 0; i < d->levels; i++) {
      d->count[i] = vm_pct(r, 25) ? 1 : 1 + vm_below(r, d->levels <= 2 ? 24 : 3);
      elems *= d->count[i];
    }
    if (elems * d->elemsz > da / 3 || elems > 4096) continue;
    if (!legacy && vm_pct(r, 4)) d->elemsz = 0;
    if (!legacy && d->levels && vm_pct(r, 4)) d->count[vm_below(r, d->levels)] = 0;
    if (!d->elemsz || elems == 0) return; /* (no-op: no layout needed) */
    {
      int empty = 0;
      for (size_t i = 0; i < d->levels; i++) empty |= d->count[i] == 0;
      if (empty) {
        for (size_t i = 0; i < d->levels; i++) d->dstride[i] = d->sstride[i] = (ptrdiff_t)vm_below(r, 64);
        return;
      }
    }
    if (!vm_gen_side(r, d, d->dstride, &d->dbase, da, 1, legacy)) continue;
    if (!vm_gen_side(r, d, d->sstride, &d->sbase, sa, legacy || vm_pct(r, 60), legacy)) continue;
    return;
  }
}

/* no bytes move (for Strided: elemsz 0 or an extent 0) */
static int vm_empty(const vm_desc_t *d) {
  if (d->kind == VM_STRIDED) {
    if (!d->elemsz) return 1;
    for (size_t i = 0; i < d->levels; i++)
      if (!d->count[i]) return 1;
    return 0;
  }
  if (d->kind == VM_INDEXED) return d->dcount * d->dstlen == 0;
  for (size_t i = 0; i < d->dcount; i++)
    if (d->dlen[i]) return 0;
  return 1;
}
static size_t vm_total(const vm_desc_t *d) {
  size_t t = 0;
  if (d->kind == VM_STRIDED) {
    if (vm_empty(d)) return 0;
    t = d->elemsz;
    for (size_t i = 0; i < d->levels; i++) t *= d->count[i];
    return t;
  }
  if (d->kind == VM_INDEXED) return d->dcount * d->dstlen;
  for (size_t i = 0; i < d->dcount; i++) t += d->dlen[i];
  return t;
}

/* The model: dst (a copy of the destination area before the transfer)
 * becomes what the transfer leaves there; src is the source area. */
static void vm_apply(const vm_desc_t *d, uint8_t *dst, const uint8_t *src) {
  if (vm_empty(d)) return;
  if (d->kind == VM_STRIDED) {
    size_t idx[VM_MAXDIM] = {0};
    for (;;) {
      ptrdiff_t doff = (ptrdiff_t)d->dbase, soff = (ptrdiff_t)d->sbase;
      size_t i;
      for (i = 0; i < d->levels; i++) {
        doff += (ptrdiff_t)idx[i] * d->dstride[i];
        soff += (ptrdiff_t)idx[i] * d->sstride[i];
      }
      memcpy(dst + doff, src + soff, d->elemsz);
      for (i = 0; i < d->levels; i++) {
        if (++idx[i] < d->count[i]) break;
        idx[i] = 0;
      }
      if (i == d->levels) return;
    }
  } else {
    int ix = d->kind == VM_INDEXED;
    size_t di = 0, dpos = 0, si = 0, spos = 0;
    for (;;) {
      size_t dl, sl, n;
      while (di < d->dcount && dpos == (dl = ix ? d->dstlen : d->dlen[di])) di++, dpos = 0;
      while (si < d->scount && spos == (sl = ix ? d->srclen : d->slen[si])) si++, spos = 0;
      if (di == d->dcount || si == d->scount) return;
      dl = ix ? d->dstlen : d->dlen[di];
      sl = ix ? d->srclen : d->slen[si];
      n = dl - dpos < sl - spos ? dl - dpos : sl - spos;
      memcpy(dst + d->doff[di] + dpos, src + d->soff[si] + spos, n);
      dpos += n, spos += n;
    }
  }
}

/* a short description, for failure messages */
static void vm_describe(const vm_desc_t *d, char *buf, size_t n) {
  size_t k = 0;
#define VM_PUT(...)                                                         \
  do {                                                                      \
    if (k < n) k += (size_t)snprintf(buf + k, n - k, __VA_ARGS__);         \
  } while (0)
  if (d->kind == VM_STRIDED) {
    VM_PUT("strided elemsz %zu levels %zu count [", d->elemsz, d->levels);
    for (size_t i = 0; i < d->levels; i++) VM_PUT("%s%zu", i ? " " : "", d->count[i]);
    VM_PUT("] dst +%zu [", d->dbase);
    for (size_t i = 0; i < d->levels; i++) VM_PUT("%s%td", i ? " " : "", d->dstride[i]);
    VM_PUT("] src +%zu [", d->sbase);
    for (size_t i = 0; i < d->levels; i++) VM_PUT("%s%td", i ? " " : "", d->sstride[i]);
    VM_PUT("]");
  } else if (d->kind == VM_INDEXED) {
    VM_PUT("indexed dst %zu x %zu, src %zu x %zu", d->dcount, d->dstlen, d->scount, d->srclen);
  } else {
    VM_PUT("vector dst %zu entries [", d->dcount);
    for (size_t i = 0; i < d->dcount && i < 6; i++) VM_PUT("%s%zu+%zu", i ? " " : "", d->doff[i], d->dlen[i]);
    VM_PUT("%s] src %zu entries [", d->dcount > 6 ? " ..." : "", d->scount);
    for (size_t i = 0; i < d->scount && i < 6; i++) VM_PUT("%s%zu+%zu", i ? " " : "", d->soff[i], d->slen[i]);
    VM_PUT("%s] (%zu bytes)", d->scount > 6 ? " ..." : "", vm_total(d));
  }
#undef VM_PUT
}

#endif /* VISMODEL_H */
