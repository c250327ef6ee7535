/*
 * vis_stride.h -- Strided VIS metadata: the stride optimizer and the chunk
 * walker (gex_VIS_Strided*, seed 003's "metadata stride optimizer").
 *
 * Pure code: no network, no MPI, no UCX, no GASNet call, no global state.
 * The API layer hands it a Strided description as the client gave it; it
 * answers with a shape, an equivalent description that is cheaper to walk,
 * and walks it chunk by chunk for whoever moves the bytes (a loopback
 * memcpy, RDMA per chunk, packing into an AM payload and unpacking at the
 * peer).
 *
 * The description (GASNet-EX API, "Strided Puts and Gets"): chunks of
 * elemsz contiguous bytes; count[i] is the extent of dimension i (0 is the
 * innermost), srcstrides[i] and dststrides[i] the byte distance between
 * neighbours along it on each end.  Strides may be negative (reflection)
 * and the dimensions need not be in storage order (transpose).  Chunk
 * (i_0, ..., i_{n-1}) is read at srcaddr + sum i_d * srcstrides[d] and
 * written at dstaddr + sum i_d * dststrides[d].  elemsz 0, or any count 0,
 * is a no-op; stridelevels 0 is one chunk of elemsz bytes (no array is
 * read then).  Destination bytes must not repeat; source bytes may (a
 * source stride 0 reads the same chunk again).
 *
 * The invariant: every transformation keeps exactly the multiset of
 * (source byte, destination byte) pairs; only the order of the walk, the
 * number of dimensions and the size of the chunks change.  The four, in
 * this order, each chosen by an STP_VIS_OPT_* bit (the API layer's knob
 * turns the lot off to measure them; the unit test compares every subset):
 *
 *   NULLDIM  Null dimension removal: a dimension of extent 1 contributes
 *            offset 0 on both ends; it is dropped.
 *   INVERT   Stride inversion: a dimension whose stride on the peer end
 *            is negative (or 0 there and negative on the other end) is
 *            walked from its far end: on BOTH ends the base offset moves
 *            to element count-1 of that dimension and the stride is
 *            negated.  Skipped for a dimension where that is not
 *            representable (a stride of PTRDIFF_MIN, an offset that would
 *            overflow ptrdiff_t).
 *   SORT     Dimensional sort: the dimensions are permuted, identically on
 *            both ends, so that the peer end's strides do not decrease
 *            (ties: the other end's stride, then the extent).
 *   FOLD     Dimensional folding: dimension k+1 merges into dimension k
 *            (extent count[k] * count[k+1], k's strides) when
 *            stride[k+1] == stride[k] * count[k] on both ends; then
 *            dimension 0 merges into the chunk (elemsz *= count[0]) when
 *            stride[0] == elemsz on both ends.  A product that would not
 *            fit is not folded.  A source stride 0 never folds into the
 *            chunk (elemsz > 0), though two zero-stride source dimensions
 *            may merge with each other.
 *
 * The peer end is the one inversion and sort normalize: the remote end
 * (STP_VIS_END_DST for a Put, STP_VIS_END_SRC for a Get), so that remote
 * memory is touched in increasing addresses, in the longest runs -- what
 * RDMA per chunk and an unpacking handler at the peer want.  Folding does
 * not depend on it.  The first three passes mostly serve the fourth: a
 * 3-d or 32-d description of a 1-d strided pattern, transposed and
 * reflected, sorts back to storage order and folds to one dimension; a
 * dense block of any shape folds to one chunk.
 *
 * Arithmetic: the total, elemsz * product of the extents, must fit in
 * size_t (it does for every valid description: that many distinct
 * destination bytes exist); otherwise stp_vis_shape_init says
 * STP_VIS_EOVERFLOW.  Every decision of the optimizer uses checked
 * arithmetic (refusing a fold or an inversion that would overflow); the
 * walker adds offsets modulo 2^N, so an offset it returns is exact
 * whenever it is representable, and the walk never traps.
 *
 * No limit on stridelevels: up to STP_VIS_INLINE_DIMS dimensions live in
 * the shape (and the walker's indices in the walker), more on the heap;
 * hence the _fini calls (harmless after a failed _init).
 */
#ifndef STP_VIS_STRIDE_H
#define STP_VIS_STRIDE_H

#include <stddef.h>

/* The transformations (any subset). */
#define STP_VIS_OPT_NULLDIM 0x1u
#define STP_VIS_OPT_INVERT 0x2u
#define STP_VIS_OPT_SORT 0x4u
#define STP_VIS_OPT_FOLD 0x8u
#define STP_VIS_OPT_NONE 0x0u
#define STP_VIS_OPT_ALL 0xfu

/* Which end is the peer's (the remote one). */
typedef enum { STP_VIS_END_DST = 0, STP_VIS_END_SRC = 1 } stp_vis_end_t;

/* stp_vis_shape_init and stp_vis_iter_init's results. */
enum {
  STP_VIS_OK = 0,
  STP_VIS_EOVERFLOW = -1, /* elemsz * the extents' product does not fit size_t */
  STP_VIS_ENOMEM = -2     /* more than STP_VIS_INLINE_DIMS dimensions and no memory */
};

#define STP_VIS_INLINE_DIMS 32

/* One dimension: its extent and its stride on each end, in bytes. */
typedef struct stp_vis_dim {
  size_t count;
  ptrdiff_t src, dst;
} stp_vis_dim_t;

/*
 * A shape: the chunks of an operation.  Chunk (i_0, ..., i_{ndims-1}) of
 * elemsz bytes is read at srcaddr + srcoff + sum i_d * dim[d].src and
 * written at dstaddr + dstoff + sum i_d * dim[d].dst (srcaddr, dstaddr: the
 * API's).  ndims 0 with nchunks 1: one contiguous chunk.  empty: nothing
 * to move (nchunks, nbytes, ndims 0).
 */
typedef struct stp_vis_shape {
  size_t elemsz;        /* bytes per chunk, contiguous on both ends */
  size_t ndims;         /* dimensions left, dim[0] innermost */
  stp_vis_dim_t *dim;   /* inl, or the heap beyond STP_VIS_INLINE_DIMS */
  ptrdiff_t srcoff;     /* from inversion: where chunk (0, ..., 0) is */
  ptrdiff_t dstoff;
  size_t nchunks;       /* product of dim[].count */
  size_t nbytes;        /* nchunks * elemsz: the operation's payload */
  int empty;            /* a no-op (elemsz 0 or an extent 0) */
  stp_vis_dim_t inl[STP_VIS_INLINE_DIMS];
} stp_vis_shape_t;

/*
 * Build the shape of a Strided description (the API's arguments, unchanged)
 * with the transformations opts, peer naming the remote end.  count[] and
 * the strides are read only when stridelevels > 0 and elemsz > 0, the
 * strides only when no extent is 0; none is kept.  Returns STP_VIS_OK, or
 * an error with sh empty.
 */
int stp_vis_shape_init(stp_vis_shape_t *sh, size_t elemsz, const size_t count[], size_t stridelevels,
                       const ptrdiff_t srcstrides[], const ptrdiff_t dststrides[], unsigned opts, stp_vis_end_t peer);
void stp_vis_shape_fini(stp_vis_shape_t *sh);

/* One piece of the walk: len bytes from srcaddr + src to dstaddr + dst. */
typedef struct stp_vis_chunk {
  ptrdiff_t src, dst;
  size_t len;
} stp_vis_chunk_t;

/*
 * A walk over bytes [first, first + n) of a shape's payload, in shape
 * order (byte b is byte b % elemsz of chunk b / elemsz; chunks in
 * row-major order, dim[0] fastest).  Each step gives one chunk, or the
 * part of one where the range starts or ends inside it, so that a
 * transfer split into fragments of any byte size walks each fragment on
 * its own and the fragments' walks together are the whole walk.  O(ndims)
 * to start, O(1) amortized per chunk (when no extent 1 is left: each one
 * below the dimension that moves costs a step).  The shape must outlive
 * the walk.
 */
typedef struct stp_vis_iter {
  const stp_vis_shape_t *sh;
  size_t left;      /* bytes still to give */
  size_t skip;      /* bytes of the current chunk before the range */
  size_t src, dst;  /* the current chunk's offsets, modulo 2^N */
  size_t *idx;      /* its index along each dimension: inl or the heap */
  size_t inl[STP_VIS_INLINE_DIMS];
} stp_vis_iter_t;

/* n is cut to the payload's end; first beyond it walks nothing. */
int stp_vis_iter_init(stp_vis_iter_t *it, const stp_vis_shape_t *sh, size_t first, size_t n);
/* The next piece in *c: 1, or 0 once the range is walked. */
int stp_vis_iter_next(stp_vis_iter_t *it, stp_vis_chunk_t *c);
void stp_vis_iter_fini(stp_vis_iter_t *it);

/* Chunks [k, k + n) (cut to the shape's), whole chunks each. */
static inline int stp_vis_iter_init_chunks(stp_vis_iter_t *it, const stp_vis_shape_t *sh, size_t k, size_t n) {
  if (k > sh->nchunks) k = sh->nchunks;
  if (n > sh->nchunks - k) n = sh->nchunks - k;
  return stp_vis_iter_init(it, sh, k * sh->elemsz, n * sh->elemsz);
}

#endif /* STP_VIS_STRIDE_H */
