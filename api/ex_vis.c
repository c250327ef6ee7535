/*
 * ex_vis.c -- non-contiguous RMA (gex_VIS_*, gasnet_vis.h).
 *
 * Every call turns its description into pieces -- (local address, remote
 * address, length), each contiguous on both ends -- and moves them through
 * one path.  Vector and Indexed lists are walked side by side (a piece ends
 * where an entry on either side ends); Strided descriptions go through the
 * stride optimizer (common/vis_stride.h), whose walk gives the pieces.  The
 * variants differ only in the event the pieces count into, as for
 * contiguous RMA (ex_rma.c): a stack record (Blocking), a pooled root (NB),
 * the thread's NBI set or open access region (NBI); a put's local
 * completion is counted only when GEX_FLAG_ENABLE_LEAF_LC asks (the root's
 * leaf, or the NBI set's GEX_EC_LC), else it is folded into the
 * operation's (a put's sources stay the client's until then).
 *
 * Three mechanisms (STAGEPORT_VIS=auto|reference|ampipe|iovec; choose()
 * says which auto takes): seed 003's reference -- one RMA per piece (pieces
 * that continue each other on both ends merged), through the stage's RMA backend (stp_put_path / stp_get_path: loopback
 * is a copy); the AM pipeline: a put's pieces packed into AM Mediums (into
 * the Core's own send memory where it lends it: negotiated payload, no
 * copy at injection) and unpacked by a handler at the peer, a get's named
 * in a Medium request and packed by the peer into the Medium reply; a
 * Strided operation sends the optimized shape, not a list of pieces; and,
 * where the stage's RMA has one (the ptl stages), the network's own
 * gather/scatter: the pieces that are contiguous at the peer make one run,
 * and a run of several local pieces is one network operation over all of
 * them (on ptl, one Put or Get from a scatter/gather MD, PTL_MD_IOVEC).
 *
 * GEX_FLAG_IMMEDIATE: only the first piece may be refused (then nothing was
 * started, and the call says so); once one piece is out, the rest wait for
 * what they need.
 *
 * Peer completion (gex_VIS_SetPeerCompletionHandler): the put's pieces are
 * waited for (remote completion) in a record of the call's own, then one
 * library AM (STP_H_VIS_PC) carries the client's payload and handler index
 * to the peer, whose handler runs the client's handler as a reply from the
 * initiator and acknowledges; the call waits for that too, so the put is
 * complete -- its handler has run -- when the call returns (NB:
 * GEX_EVENT_INVALID).
 */
#include "api.h"

#include <stdlib.h>

#include "gasnet_vis.h"
#include "vis_stride.h"

/* STAGEPORT_VIS_OPT=off: Strided descriptions are walked as given */
static unsigned vis_opts = STP_VIS_OPT_ALL;

/* ------------------------------------------------------------------ */
/* an operation's pieces                                               */
/* ------------------------------------------------------------------ */
typedef struct vis_op {
  const char *fn;
  int is_put;
  gex_Rank_t rank;    /* the peer's job rank */
  stp_ev_t *rc, *lc;  /* where pieces count (lc: a put's local completion, or NULL) */
  gex_Flags_t flags;  /* IMMEDIATE is dropped after the first piece */
  int mech;           /* VIS_REF, VIS_AMPIPE or VIS_IOV */
} vis_op_t;

/* The mechanisms (STAGEPORT_VIS=auto chooses per operation). */
enum { VIS_AUTO = 0, VIS_REF, VIS_AMPIPE, VIS_IOV };
static int vis_mech = VIS_AUTO;
/* auto: the AM pipeline for operations whose pieces average at most this
 * many bytes (STAGEPORT_VIS_AMPIPE_MAX; unset: the stage's RMA's, see
 * choose) */
static size_t vis_ampipe_max, vis_ampipe_shape_max;
/* auto: the network's gather/scatter for operations whose runs average at
 * least this many local pieces (STAGEPORT_VIS_IOV_MIN; unset: the stage's
 * RMA's; 0 where it has none) */
static size_t vis_iov_min;

/* Pieces on their way to the RMA backend (reference and iovec) are first
 * gathered into a run, the bytes that are contiguous at the peer: in the
 * reference a run holds one local piece (a piece that continues the last
 * one on both ends is merged into it, so adjacent pieces -- a dense list,
 * a dense block the optimizer did not fold -- are one RMA); under iovec
 * it holds up to STP_VIS_RUN_MAX local pieces and, with more than one,
 * goes out as one operation of the RMA backend's own (stp_rma_ops_t
 * putv/getv: on ptl, one Put or Get from a scatter/gather MD).  The
 * thread's run: */
typedef struct vis_run {
  char *remote;
  size_t n, niov;
  gex_Memvec_t iov[STP_VIS_RUN_MAX];
} vis_run_t;
static __thread vis_run_t *vis_run;

static int run_add(vis_op_t *op, char *local, char *remote, size_t n);

/* One piece (into the run): 0, or 1 when the first RMA was refused (IMMEDIATE). */
static inline int piece(vis_op_t *op, char *local, char *remote, size_t n) {
  STP_CHECK_REMOTE(op->fn, op->rank, remote, n);
  STP_CHECK_LOCAL(op->fn, op->is_put ? "source" : "destination", local, n);
  return run_add(op, local, remote, n);
}

/* The run out, emptied: 0, or 1 when the operation's first was refused. */
static int run_flush(vis_op_t *op) {
  vis_run_t *r = vis_run;
  int rc;
  if (!r->niov) return 0;
  if (r->niov == 1)
    rc = op->is_put ? stp_put_path(op->rc, op->lc, op->rank, r->remote, r->iov[0].gex_addr, r->n, op->flags)
                    : stp_get_path(op->rc, r->iov[0].gex_addr, op->rank, r->remote, r->n, op->flags);
  else
    rc = op->is_put ? stp.rma->putv(op->rc, op->lc, op->rank, r->remote, r->iov, r->niov, r->n, op->flags)
                    : stp.rma->getv(op->rc, r->iov, r->niov, op->rank, r->remote, r->n, op->flags);
  op->flags &= ~GEX_FLAG_IMMEDIATE;
  r->niov = 0;
  return rc;
}

/* A checked piece into the run: it extends the run when it continues it at
 * the peer (merged with the last local piece when it continues that too),
 * else the run goes out and the piece starts the next. */
static int run_add(vis_op_t *op, char *local, char *remote, size_t n) {
  vis_run_t *r = vis_run;
  if (r->niov && remote == r->remote + r->n && n <= SIZE_MAX - r->n) {
    gex_Memvec_t *last = &r->iov[r->niov - 1];
    if ((char *)last->gex_addr + last->gex_len == local) {
      last->gex_len += n;
      r->n += n;
      return 0;
    }
    if (r->niov < (op->mech == VIS_IOV ? STP_VIS_RUN_MAX : 1)) {
      r->iov[r->niov++] = (gex_Memvec_t){local, n};
      r->n += n;
      return 0;
    }
  }
  if (run_flush(op)) return 1;
  r->remote = remote;
  r->n = n;
  r->iov[0] = (gex_Memvec_t){local, n};
  r->niov = 1;
  return 0;
}

/* One side of a Vector or Indexed operation: a cursor over its entries. */
typedef struct side {
  size_t count, i, off;        /* entries, the current one, bytes of it done */
  const gex_Memvec_t *mv;      /* Vector */
  void *const *idx;            /* Indexed: addresses of len bytes each */
  size_t len;
} side_t;

static inline size_t side_len(const side_t *s, size_t i) { return s->mv ? s->mv[i].gex_len : s->len; }
static inline char *side_addr(const side_t *s, size_t i) {
  return (char *)(s->mv ? s->mv[i].gex_addr : s->idx[i]);
}
static size_t side_total(const char *fn, const side_t *s) {
  size_t t = 0;
  if (!s->mv) {
    if (s->len && s->count > SIZE_MAX / s->len) stp_fatal("%s: %zu entries of %zu bytes overflow", fn, s->count, s->len);
    return s->count * s->len;
  }
  for (size_t i = 0; i < s->count; i++) {
    if (s->mv[i].gex_len > SIZE_MAX - t) stp_fatal("%s: the list's lengths overflow size_t", fn);
    t += s->mv[i].gex_len;
  }
  return t;
}
/* The current entry's rest (*p, *n); 0 once the side is done. */
static inline int side_cur(side_t *s, char **p, size_t *n) {
  while (s->i < s->count && s->off == side_len(s, s->i)) {
    s->i++;
    s->off = 0;
  }
  if (s->i == s->count) return 0;
  *p = side_addr(s, s->i) + s->off;
  *n = side_len(s, s->i) - s->off;
  return 1;
}

static int move_lists(vis_op_t *op, side_t *loc, side_t *rem) {
  char *lp, *rp;
  size_t ln, rn;
  while (side_cur(loc, &lp, &ln) && side_cur(rem, &rp, &rn)) {
    size_t n = ln < rn ? ln : rn;
    if (piece(op, lp, rp, n)) return 1;
    loc->off += n;
    rem->off += n;
  }
  return 0;
}

static int move_shape(vis_op_t *op, const stp_vis_shape_t *sh, char *srcaddr, char *dstaddr) {
  stp_vis_iter_t it;
  stp_vis_chunk_t c;
  int rc = 0;
  if (stp_vis_iter_init(&it, sh, 0, sh->nbytes) != STP_VIS_OK) stp_fatal("%s: out of memory", op->fn);
  while (stp_vis_iter_next(&it, &c)) {
    char *s = srcaddr + c.src, *d = dstaddr + c.dst;
    if ((rc = piece(op, op->is_put ? s : d, op->is_put ? d : s, c.len))) break;
  }
  stp_vis_iter_fini(&it);
  return rc;
}

/* What an operation moves: two lists, or a shape. */
typedef struct vis_desc {
  side_t loc, rem;
  const stp_vis_shape_t *sh;
  char *srcaddr, *dstaddr;
} vis_desc_t;

/* ------------------------------------------------------------------ */
/* the AM pipeline: pieces packed into AM Mediums                      */
/* ------------------------------------------------------------------ */
/* A put fragment is one AM Medium request (STP_H_VIS_PUT) whose handler
 * unpacks it and acknowledges with a Short (STP_H_VIS_PUT_ACK), finishing
 * the fragment's STP_EC_PUT count.  A get fragment is a Medium request
 * (STP_H_VIS_GET) naming remote bytes, answered by a Medium reply
 * (STP_H_VIS_GET_REPLY) that carries them and says where they go, so no
 * state outlives the call at the initiator but the record's STP_EC_GET
 * count.  Both carry the operation's record in two arguments.  Payloads,
 * in 8-byte words at any alignment:
 *   shape: PIPE_SHAPE, ndims, elemsz, first, n, the source and destination
 *     addresses of chunk (0, ..., 0), then per dimension (extent, source
 *     stride, destination stride) -- the optimized Strided description,
 *     not its pieces -- and (put request, get reply) the bytes
 *     [first, first + n) of its walk;
 *   list: PIPE_LIST, then groups of pieces of one length: a word holding
 *     the group's piece count (high 32 bits), a delta flag (bit 31) and
 *     length L (low 31), then per piece its destination address and (a
 *     put request, a get reply) its L bytes, unpadded, or (a get request)
 *     its source address and destination address; in a delta group (put
 *     requests) the first piece's destination address follows the word,
 *     and each piece has a signed 32-bit delta from it instead of an
 *     address.  An Indexed list -- or a Vector one of equal lengths -- is
 *     one delta group per fragment while the deltas fit: 4 + L bytes a
 *     put piece (8-byte elements: 12 bytes, so 8 KiB of them fit one
 *     Portals Core Medium of 8 KiB where 16-byte pieces took two).
 * A request is packed straight into the Core's send memory where the Core
 * lends it (its np_prepare: negotiated payload, no copy at injection), else
 * into a buffer of the thread's that the Core copies (STAGEPORT_NP=
 * reference forces that); so is a get's reply, into a second buffer (a
 * request's send may poll, and run a handler that replies, before the
 * Core has copied the request). */
enum { PIPE_SHAPE = 1, PIPE_LIST = 2 };
#define PIPE_SHAPE_HDR(ndims) ((7 + 3 * (size_t)(ndims)) * sizeof(uint64_t))

/* (words at any alignment: a Core's memory and a delivered payload need
 * not be 8-byte aligned) */
static inline void wr64(char *p, size_t i, uint64_t v) { memcpy(p + 8 * i, &v, 8); }
static inline uint64_t rd64(const char *p, size_t i) {
  uint64_t v;
  memcpy(&v, p + 8 * i, 8);
  return v;
}

static size_t wr_shape(char *p, const stp_vis_shape_t *sh, size_t first, size_t n, char *srcaddr, char *dstaddr) {
  wr64(p, 0, PIPE_SHAPE);
  wr64(p, 1, sh->ndims);
  wr64(p, 2, sh->elemsz);
  wr64(p, 3, first);
  wr64(p, 4, n);
  wr64(p, 5, (uint64_t)(uintptr_t)(srcaddr + sh->srcoff));
  wr64(p, 6, (uint64_t)(uintptr_t)(dstaddr + sh->dstoff));
  for (size_t k = 0; k < sh->ndims; k++) {
    wr64(p, 7 + 3 * k, sh->dim[k].count);
    wr64(p, 8 + 3 * k, (uint64_t)sh->dim[k].src);
    wr64(p, 9 + 3 * k, (uint64_t)sh->dim[k].dst);
  }
  return PIPE_SHAPE_HDR(sh->ndims);
}

/* A shape header back (its size), or 0: malformed (too short, too deep,
 * a range past the shape).  *it walks [first, first + n); the addresses
 * in it are relative to *src and *dst. */
static size_t rd_shape(const char *p, size_t nbytes, stp_vis_shape_t *sh, stp_vis_iter_t *it, char **src, char **dst,
                       size_t *n) {
  size_t ndims, first, hdr;
  if (nbytes < PIPE_SHAPE_HDR(0) || rd64(p, 0) != PIPE_SHAPE || (ndims = rd64(p, 1)) > STP_VIS_INLINE_DIMS ||
      nbytes < (hdr = PIPE_SHAPE_HDR(ndims)))
    return 0;
  memset(sh, 0, sizeof(*sh));
  sh->elemsz = rd64(p, 2);
  sh->ndims = ndims;
  sh->dim = sh->inl;
  sh->nchunks = 1;
  for (size_t k = 0; k < ndims; k++) {
    sh->dim[k].count = rd64(p, 7 + 3 * k);
    sh->dim[k].src = (ptrdiff_t)rd64(p, 8 + 3 * k);
    sh->dim[k].dst = (ptrdiff_t)rd64(p, 9 + 3 * k);
    if (sh->dim[k].count && sh->nchunks > SIZE_MAX / sh->dim[k].count) return 0;
    sh->nchunks *= sh->dim[k].count;
  }
  if (sh->elemsz && sh->nchunks > SIZE_MAX / sh->elemsz) return 0;
  sh->nbytes = sh->nchunks * sh->elemsz;
  first = rd64(p, 3);
  *n = rd64(p, 4);
  if (first > sh->nbytes || *n > sh->nbytes - first) return 0;
  *src = (char *)(uintptr_t)rd64(p, 5);
  *dst = (char *)(uintptr_t)rd64(p, 6);
  if (stp_vis_iter_init(it, sh, first, *n) != STP_VIS_OK) return 0;
  return hdr;
}

typedef struct pipe_frag {
  stp_np_t np; /* the Core's memory (np.hold != 0), else the thread's buffer */
  char *buf;
  size_t size, used;
} pipe_frag_t;

static __thread char *pipe_tbuf[2]; /* [0] requests, [1] get replies */

/* A fragment's buffer of least bytes at least -- a request to op's peer
 * (token NULL) or the reply to token: 0, or 1 refused (IMMEDIATE, nothing
 * taken; never a reply). */
static int pipe_open(const vis_op_t *op, stp_token_t *token, pipe_frag_t *f, size_t least) {
  size_t max = stp.core->max_medium;
  memset(f, 0, sizeof(*f));
  if (stp.core->np_prepare && !stp_np_reference) {
    stp_np_t np = {token == NULL, STP_AM_MEDIUM, 2, token ? 0 : op->rank, token, least, max,
                   token ? 0 : op->flags & GEX_FLAG_IMMEDIATE, NULL, 0, 0};
    if (stp.core->np_prepare(&np)) return 1;
    if (np.addr) {
      f->np = np;
      f->buf = np.addr;
      f->size = np.size;
      return 0;
    }
  }
  if (!pipe_tbuf[token != NULL] && posix_memalign((void **)&pipe_tbuf[token != NULL], 64, max))
    stp_fatal("VIS: out of memory for a %zu-byte buffer", max);
  f->buf = pipe_tbuf[token != NULL];
  f->size = max;
  return 0;
}

/* Send a request fragment, counted in op->rc's cat until answered: 0, or
 * 1 refused (IMMEDIATE: the Core's memory handed back). */
static int pipe_send(vis_op_t *op, pipe_frag_t *f, gex_AM_Index_t handler, int cat) {
  gex_AM_Arg_t args[2] = {STP_ARG_LO(op->rc), STP_ARG_HI(op->rc)};
  stp_am_t am = {STP_AM_MEDIUM, 0, handler, 2, args, f->buf, f->used, NULL, op->flags & GEX_FLAG_IMMEDIATE, NULL,
                 f->np.hold};
  stp_ev_start(op->rc, cat);
  if (STP_UNLIKELY(stp_am_request(op->rank, &am))) {
    stp_ev_finish(op->rc, cat);
    if (f->np.hold) stp.core->np_cancel(&f->np);
    return 1;
  }
  op->flags &= ~GEX_FLAG_IMMEDIATE;
  return 0;
}

/* A walk of whole chunks of a 1-d shape (what the optimizer leaves of a
 * description that folds to one strided dimension): its k chunks of el
 * bytes on one end (dst_side or the source's) start at *first and are
 * stride apart; *lo and *len: the bytes they span.  0: another walk (more
 * dimensions, a partial chunk, or a span that does not fit the address
 * space -- a peer's malformed shape: the chunk-by-chunk walk checks it). */
typedef struct span1 {
  char *first, *lo;
  size_t len, el, k;
  ptrdiff_t stride;
} span1_t;

static int walk_span1(const stp_vis_iter_t *it, char *base, int dst_side, span1_t *s) {
  const stp_vis_shape_t *sh = it->sh;
  uintptr_t a, far, mag;
  if (sh->ndims != 1 || it->skip || !sh->elemsz || !it->left || it->left % sh->elemsz) return 0;
  s->el = sh->elemsz;
  s->k = it->left / s->el;
  s->stride = dst_side ? sh->dim[0].dst : sh->dim[0].src;
  s->first = base + (ptrdiff_t)(dst_side ? it->dst : it->src);
  a = (uintptr_t)s->first;
  mag = s->stride < 0 ? (uintptr_t)0 - (uintptr_t)s->stride : (uintptr_t)s->stride;
  if (__builtin_mul_overflow(mag, (uintptr_t)(s->k - 1), &far)) return 0;
  if (s->stride < 0 ? far > a : __builtin_add_overflow(a, far, &far)) return 0;
  s->lo = s->stride < 0 ? (char *)(a - far) : s->first;
  s->len = (s->stride < 0 ? a - (uintptr_t)s->lo : far - a) + s->el;
  return s->len >= s->el; /* (wrapped: no) */
}

/* The chunks of a 1-d walk between the payload and memory, in a tight
 * loop (8-byte elements -- seed 003's -- with fixed-size copies). */
static void copy_span1(const span1_t *s, char *payload, int to_mem) {
  char *m = s->first;
  if (s->el == 8) {
    if (to_mem)
      for (size_t i = 0; i < s->k; i++, m += s->stride, payload += 8) memcpy(m, payload, 8);
    else
      for (size_t i = 0; i < s->k; i++, m += s->stride, payload += 8) memcpy(payload, m, 8);
    return;
  }
  for (size_t i = 0; i < s->k; i++, m += s->stride, payload += s->el) {
    if (to_mem) memcpy(m, payload, s->el);
    else memcpy(payload, m, s->el);
  }
}

/* Copy a walk between the payload and memory: into memory at base (to_mem),
 * or out of memory at base into the payload; bounds: the node's own segment
 * for memory a peer named (check), none for the caller's own. */
static void walk_copy(stp_vis_iter_t *it, char *payload, char *base, int dst_side, int to_mem, gex_Rank_t from,
                      int check) {
  stp_vis_chunk_t c;
  span1_t s;
  if (walk_span1(it, base, dst_side, &s)) {
    if (check && STP_UNLIKELY(!stp_in_my_segment(s.lo, s.len))) stp_bad_address("VIS", from, s.lo, s.len);
    copy_span1(&s, payload, to_mem);
    stp_vis_iter_fini(it);
    return;
  }
  while (stp_vis_iter_next(it, &c)) {
    char *m = base + (dst_side ? c.dst : c.src);
    if (check && STP_UNLIKELY(!stp_in_my_segment(m, c.len))) stp_bad_address("VIS", from, m, c.len);
    if (to_mem) memcpy(m, payload, c.len);
    else memcpy(payload, m, c.len);
    payload += c.len;
  }
  stp_vis_iter_fini(it);
}

/* Shape fragments: puts carry bytes, gets name them (the reply carries
 * them back under the same header). */
static int pipe_shape(vis_op_t *op, const stp_vis_shape_t *sh, char *srcaddr, char *dstaddr) {
  size_t first = 0, hdr = PIPE_SHAPE_HDR(sh->ndims);
  while (first < sh->nbytes) {
    pipe_frag_t f;
    size_t n;
    if (pipe_open(op, NULL, &f, hdr + 8)) return 1;
    n = STP_MIN(sh->nbytes - first, f.size - hdr);
    if (n < sh->nbytes - first && n >= sh->elemsz) n -= n % sh->elemsz; /* whole chunks: the 1-d fast walk */
    f.used = wr_shape(f.buf, sh, first, n, srcaddr, dstaddr);
    if (op->is_put) {
      stp_vis_iter_t it;
      stp_vis_chunk_t c;
      span1_t rs;
      if (stp_vis_iter_init(&it, sh, first, n) != STP_VIS_OK) stp_fatal("%s: out of memory", op->fn);
      if (walk_span1(&it, dstaddr, 1, &rs)) { /* (1-d: the span checked once, the chunks copied in a tight loop) */
        STP_CHECK_REMOTE(op->fn, op->rank, rs.lo, rs.len);
        walk_copy(&it, f.buf + f.used, srcaddr, 0, 0, 0, 0);
        f.used += n;
      } else {
        while (stp_vis_iter_next(&it, &c)) {
          STP_CHECK_REMOTE(op->fn, op->rank, dstaddr + c.dst, c.len);
          memcpy(f.buf + f.used, srcaddr + c.src, c.len);
          f.used += c.len;
        }
        stp_vis_iter_fini(&it);
      }
    }
    if (pipe_send(op, &f, op->is_put ? STP_H_VIS_PUT : STP_H_VIS_GET, op->is_put ? STP_EC_PUT : STP_EC_GET)) return 1;
    first += n;
  }
  return 0;
}

/* List fragments.  A piece costs 8 bytes and its data in a put request
 * (4 in a delta group), 16 in a get request (8 and its data in the
 * reply), and each group of pieces of one length 8 more (16 a delta
 * group) -- a get fragment stops where either the request or its reply
 * would overflow a Medium. */
#define PIPE_GROUP(k, len, delta) (((uint64_t)(k) << 32) | ((uint64_t)(delta) << 31) | (uint64_t)(len))
#define PIPE_GROUP_MAX UINT32_MAX
#define PIPE_DELTA ((uint64_t)1 << 31)

static inline void wr32(char *p, int32_t v) { memcpy(p, &v, 4); }
static inline int32_t rd32(const char *p) {
  int32_t v;
  memcpy(&v, p, 4);
  return v;
}

/* Copy one piece: the common small lengths as fixed-size copies. */
static inline void pipe_copy(char *dst, const char *src, size_t n) {
  switch (n) {
  case 4: memcpy(dst, src, 4); break;
  case 8: memcpy(dst, src, 8); break;
  case 16: memcpy(dst, src, 16); break;
  default: memcpy(dst, src, n);
  }
}

static int pipe_lists(vis_op_t *op, side_t *loc, side_t *rem) {
  size_t max = stp.core->max_medium;
  char *lp, *rp;
  size_t ln, rn;
  int more = side_cur(loc, &lp, &ln) && side_cur(rem, &rp, &rn);
  while (more) {
    pipe_frag_t f;
    size_t reply = 8;                 /* a get's reply so far */
    size_t grp = 0, glen = 0, gk = 0; /* the open group: its word's offset, length, pieces */
    int gdelta = 0;                   /* ... and whether its addresses are deltas from gbase */
    uintptr_t gbase = 0;
    if (pipe_open(op, NULL, &f, 32)) return 1;
    wr64(f.buf, 0, PIPE_LIST);
    f.used = 8;
    while (more) {
      size_t n = STP_MIN(ln, rn);
      char *w;
      if (!loc->off && !rem->off && ln == rn) {
        /* whole entries of one length on both sides (an Indexed list, a
         * Vector one of equal lengths): as many as fit, in one group, in
         * one tight loop */
        intptr_t d0 = (intptr_t)((uintptr_t)rp - gbase);
        int grow = gk && glen == n && gdelta == op->is_put && (!gdelta || (d0 >= INT32_MIN && d0 <= INT32_MAX));
        size_t k = STP_MIN(loc->count - loc->i, rem->count - rem->i), hdr = grow ? 0 : op->is_put ? 16 : 8;
        k = f.used + hdr < f.size ? STP_MIN(k, (f.size - f.used - hdr) / (op->is_put ? 4 + n : 16)) : 0;
        if (!op->is_put) k = reply + hdr < max ? STP_MIN(k, (max - reply - hdr) / (8 + n)) : 0;
        if (k) {
          uintptr_t rlo = UINTPTR_MAX, rhi = 0, llo = UINTPTR_MAX;
          size_t j;
          if (!grow) {
            if (gk) wr64(f.buf + grp, 0, PIPE_GROUP(gk, glen, gdelta));
            grp = f.used;
            glen = n;
            gk = 0;
            gdelta = op->is_put;
            f.used += 8;
            reply += 8;
            if (gdelta) { /* a put's: the first piece's address, then deltas from it */
              gbase = (uintptr_t)side_addr(rem, rem->i);
              wr64(f.buf + f.used, 0, (uint64_t)gbase);
              f.used += 8;
            }
          }
          w = f.buf + f.used;
          for (j = 0; j < k; j++) {
            char *r = side_addr(rem, rem->i + j), *l = side_addr(loc, loc->i + j);
            if (side_len(rem, rem->i + j) != n || side_len(loc, loc->i + j) != n) break;
            /* (checked as one range below) */
            rlo = STP_MIN(rlo, (uintptr_t)r);
            rhi = (uintptr_t)r > rhi ? (uintptr_t)r : rhi;
            llo = STP_MIN(llo, (uintptr_t)l);
            if (op->is_put) {
              intptr_t d = (intptr_t)((uintptr_t)r - gbase);
              if (d < INT32_MIN || d > INT32_MAX) break; /* (the next group's base) */
              wr32(w, (int32_t)d);
              pipe_copy(w + 4, l, n);
              w += 4 + n;
            } else {
              wr64(w, 0, (uint64_t)(uintptr_t)r);
              wr64(w, 1, (uint64_t)(uintptr_t)l);
              w += 16;
            }
          }
          k = j;
          /* the pieces' span in the peer's segment (so is each piece: the
           * segment is one range), no NULL local piece; else the first
           * bad piece's error */
#if STP_CHECKS
          if (STP_UNLIKELY(!llo || rhi - rlo > SIZE_MAX - n ||
                           !stp_seg_contains(op->rank, (void *)rlo, rhi - rlo + n))) {
            for (j = 0; j < k; j++) {
              STP_CHECK_REMOTE(op->fn, op->rank, side_addr(rem, rem->i + j), n);
              STP_CHECK_LOCAL(op->fn, op->is_put ? "source" : "destination", side_addr(loc, loc->i + j), n);
            }
          }
#else
          (void)llo, (void)rhi, (void)rlo;
#endif
          f.used = (size_t)(w - f.buf);
          if (!op->is_put) reply += k * (8 + n);
          gk += k;
          loc->i += k;
          rem->i += k;
          more = side_cur(loc, &lp, &ln) && side_cur(rem, &rp, &rn);
          continue;
        }
      }
      if (!(gk && n == glen && !gdelta && gk < PIPE_GROUP_MAX && f.used + (op->is_put ? 8 + n : 16) <= f.size &&
            (op->is_put || reply + 8 + n <= max))) {
        /* a new group: room for its word, an address and some bytes */
        if (op->is_put ? f.used + 16 + STP_MIN(n, 8) > f.size
                       : f.used + 24 > f.size || reply + 16 + STP_MIN(n, 8) > max)
          break;
        n = STP_MIN(n, op->is_put ? f.size - f.used - 16 : max - reply - 16);
        if (gk) wr64(f.buf + grp, 0, PIPE_GROUP(gk, glen, gdelta));
        grp = f.used;
        glen = n;
        gk = 0;
        gdelta = 0;
        f.used += 8;
        reply += 8;
      }
      STP_CHECK_REMOTE(op->fn, op->rank, rp, n);
      STP_CHECK_LOCAL(op->fn, op->is_put ? "source" : "destination", lp, n);
      w = f.buf + f.used;
      if (op->is_put) {
        wr64(w, 0, (uint64_t)(uintptr_t)rp);
        pipe_copy(w + 8, lp, n);
        f.used += 8 + n;
      } else {
        wr64(w, 0, (uint64_t)(uintptr_t)rp);
        wr64(w, 1, (uint64_t)(uintptr_t)lp);
        f.used += 16;
        reply += 8 + n;
      }
      gk++;
      loc->off += n;
      rem->off += n;
      more = side_cur(loc, &lp, &ln) && side_cur(rem, &rp, &rn);
    }
    if (gk) wr64(f.buf + grp, 0, PIPE_GROUP(gk, glen, gdelta));
    if (pipe_send(op, &f, op->is_put ? STP_H_VIS_PUT : STP_H_VIS_GET, op->is_put ? STP_EC_PUT : STP_EC_GET)) return 1;
  }
  return 0;
}

/* A list fragment's group, read: its pieces, their length, each piece's
 * bytes in the fragment (step) and, a delta group, the address the
 * pieces' 32-bit deltas are from. */
typedef struct pipe_grp {
  size_t k, len, step;
  int delta;
  uintptr_t base;
} pipe_grp_t;

/* The next group of a list fragment at *p into *g, its pieces following
 * at *p on return: each of 8 bytes (an address) and (data: a put request
 * or get reply) its bytes, else 16 (a get request: two addresses); in a
 * delta group (data only) 4 bytes and its bytes, after the base.  0:
 * malformed (no word, no pieces, more than the rest holds, a delta group
 * in a get request). */
static int pipe_group(const char **p, const char *end, int data, pipe_grp_t *g) {
  uint64_t h;
  if (STP_UNLIKELY((size_t)(end - *p) < 8)) return 0;
  h = rd64(*p, 0);
  *p += 8;
  g->k = (size_t)(h >> 32);
  g->len = (size_t)(h & (PIPE_DELTA - 1));
  g->delta = (h & PIPE_DELTA) != 0;
  g->step = 8 + (data ? g->len : 8);
  if (g->delta) {
    if (!data || (size_t)(end - *p) < 8) return 0;
    g->base = (uintptr_t)rd64(*p, 0);
    *p += 8;
    g->step = 4 + g->len;
  }
  return g->k && g->k <= (size_t)(end - *p) / g->step;
}

/* A piece's destination address in a group of a put request or get reply. */
static inline char *pipe_dst(const pipe_grp_t *g, const char *piece) {
  return (char *)(g->delta ? g->base + (uintptr_t)(intptr_t)rd32(piece) : (uintptr_t)rd64(piece, 0));
}

/* A piece of n bytes at a, in this node's segment as room says
 * (stp_seg_room), else a fatal error naming what and from. */
static inline void seg_room_check(const stp_seg_room_t *room, const char *what, gex_Rank_t from, char *a, size_t n) {
  if (STP_UNLIKELY(!stp_seg_room_has(room, a))) stp_bad_address(what, from, a, n);
}

/* Unpack a list payload: into the node's segment, checked (a put), or
 * into the initiator's own memory (a get's reply: addresses it sent
 * itself). */
static void unpack_list(const char *p, const char *end, gex_Rank_t from, int check) {
  for (p += 8; p < end;) {
    pipe_grp_t g;
    stp_seg_room_t room;
    size_t off;
    if (STP_UNLIKELY(!pipe_group(&p, end, 1, &g)))
      stp_fatal("VIS from node %u: a malformed list fragment", (unsigned)from);
    room = stp_seg_room(stp.mynode, g.len);
    off = g.step - g.len; /* (the piece's bytes after its address) */
    for (size_t k = g.k; k; k--, p += g.step) {
      char *dst = pipe_dst(&g, p);
      if (check) seg_room_check(&room, "VIS put", from, dst, g.len);
      pipe_copy(dst, p + off, g.len);
    }
  }
}

/* Unpack a fragment that carries bytes -- a put's request (into this
 * node's segment, checked) or a get's reply (into the initiator's own
 * memory) -- whichever its format. */
static void unpack(const char *what, char *p, size_t nbytes, gex_Rank_t from, int check) {
  if (nbytes >= 8 && rd64(p, 0) == PIPE_LIST) {
    unpack_list(p, p + nbytes, from, check);
  } else {
    stp_vis_shape_t sh;
    stp_vis_iter_t it;
    char *src, *dst;
    size_t n, hdr = rd_shape(p, nbytes, &sh, &it, &src, &dst, &n);
    if (STP_UNLIKELY(!hdr || nbytes - hdr != n))
      stp_fatal("%s from node %u: a malformed fragment (%zu bytes)", what, (unsigned)from, nbytes);
    walk_copy(&it, p + hdr, dst, 1, 1, from, check);
  }
}

static void pipe_put_handler(gex_Token_t token, void *buf, size_t nbytes, gex_AM_Arg_t ev_lo, gex_AM_Arg_t ev_hi) {
  gex_AM_Arg_t args[2] = {ev_lo, ev_hi};
  stp_am_t am = {STP_AM_SHORT, 0, STP_H_VIS_PUT_ACK, 2, args, NULL, 0, NULL, 0, NULL, 0};
  unpack("VIS put", buf, nbytes, ((stp_token_t *)token)->src, 1);
  stp_am_reply(token, &am);
}

static void pipe_put_ack_handler(gex_Token_t token, gex_AM_Arg_t ev_lo, gex_AM_Arg_t ev_hi) {
  (void)token;
  stp_ev_finish(STP_ARG_PTR(ev_lo, ev_hi), STP_EC_PUT);
}

/* At the get's peer: gather into the reply (a list: (local address,
 * length, bytes) per piece; a shape: the request's header and the bytes). */
static void pipe_get_handler(gex_Token_t token, void *buf, size_t nbytes, gex_AM_Arg_t ev_lo, gex_AM_Arg_t ev_hi) {
  gex_AM_Arg_t args[2] = {ev_lo, ev_hi};
  stp_token_t *t = token;
  gex_Rank_t from = t->src;
  size_t max = stp.core->max_medium;
  char *p = buf, *end = p + nbytes;
  pipe_frag_t f;
  if (nbytes >= 8 && rd64(p, 0) == PIPE_LIST) {
    size_t need = 8;
    const char *q;
    pipe_grp_t g;
    for (q = p + 8; q < end; q += g.k * g.step) {
      if (STP_UNLIKELY(!pipe_group(&q, end, 0, &g) || max - need < 8 || 8 + g.len > (max - need - 8) / g.k))
        stp_fatal("VIS get from node %u: a malformed list fragment (or one whose reply overflows a Medium)",
                  (unsigned)from);
      need += 8 + g.k * (8 + g.len);
    }
    (void)pipe_open(NULL, t, &f, need);
    wr64(f.buf, 0, PIPE_LIST);
    f.used = 8;
    for (q = p + 8; q < end;) {
      stp_seg_room_t room;
      (void)pipe_group(&q, end, 0, &g);
      wr64(f.buf + f.used, 0, PIPE_GROUP(g.k, g.len, 0));
      f.used += 8;
      room = stp_seg_room(stp.mynode, g.len);
      for (size_t k = g.k; k; k--, q += 16) {
        char *src = (char *)(uintptr_t)rd64(q, 0);
        seg_room_check(&room, "VIS get", from, src, g.len);
        wr64(f.buf + f.used, 0, rd64(q, 1));
        pipe_copy(f.buf + f.used + 8, src, g.len);
        f.used += 8 + g.len;
      }
    }
  } else {
    stp_vis_shape_t sh;
    stp_vis_iter_t it;
    char *src, *dst;
    size_t n, hdr = rd_shape(p, nbytes, &sh, &it, &src, &dst, &n);
    if (STP_UNLIKELY(!hdr || nbytes != hdr || n > max - hdr))
      stp_fatal("VIS get from node %u: a malformed fragment (%zu bytes)", (unsigned)from, nbytes);
    (void)pipe_open(NULL, t, &f, hdr + n);
    memcpy(f.buf, p, hdr);
    walk_copy(&it, f.buf + hdr, src, 0, 0, from, 1);
    f.used = hdr + n;
  }
  {
    stp_am_t am = {STP_AM_MEDIUM, 0, STP_H_VIS_GET_REPLY, 2, args, f.buf, f.used, NULL, 0, NULL, f.np.hold};
    stp_am_reply(token, &am);
  }
}

static void pipe_get_reply_handler(gex_Token_t token, void *buf, size_t nbytes, gex_AM_Arg_t ev_lo,
                                   gex_AM_Arg_t ev_hi) {
  unpack("VIS get reply", buf, nbytes, ((stp_token_t *)token)->src, 0);
  stp_ev_finish(STP_ARG_PTR(ev_lo, ev_hi), STP_EC_GET);
}

static int move(vis_op_t *op, vis_desc_t *d) {
  int rc;
  if (op->mech == VIS_AMPIPE)
    return d->sh ? pipe_shape(op, d->sh, d->srcaddr, d->dstaddr) : pipe_lists(op, &d->loc, &d->rem);
  if (!vis_run && !(vis_run = malloc(sizeof(*vis_run)))) stp_fatal("%s: out of memory", op->fn);
  vis_run->niov = 0;
  rc = d->sh ? move_shape(op, d->sh, d->srcaddr, d->dstaddr) : move_lists(op, &d->loc, &d->rem);
  if (!rc) rc = run_flush(op);
  return rc;
}

/* The mechanism for an operation of nbytes in about npieces pieces, which
 * make rruns runs at the peer's end and lruns at the local end (pieces
 * that continue each other there); shape: a Strided one.  auto: the
 * network's gather/scatter where the stage's RMA has one, runs at the peer
 * average at least vis_iov_min pieces (stp_rma_ops_t.vis_iov_min), and
 * the local runs average more than the packing threshold (else packing is
 * cheaper per byte); else the AM pipeline for pieces of at most the
 * packing threshold on average, by default the stage's RMA's
 * (stp_rma_ops_t.vis_ampipe_max for lists: 4096 over ext-ref, 512 over
 * ext-portals, 128 over ext-ucx; vis_ampipe_shape_max for Strided: 256
 * over ext-portals, 32 over ext-ucx; each from testvisperf with 64 KiB
 * operations, 50 % density, 2 processes, one host) and, a list, with at
 * least the RMA's vis_ampipe_min_pieces entries (32 over ext-ucx); else
 * the reference.
 * Loopback: always the reference; shapes of more than STP_VIS_INLINE_DIMS
 * dimensions: never the AM pipeline. */
static int choose(const vis_op_t *op, size_t nbytes, size_t npieces, size_t rruns, size_t lruns, size_t ndims,
                  int shape) {
  size_t pack_max = shape ? vis_ampipe_shape_max : vis_ampipe_max;
  if (op->rank == stp.mynode) return VIS_REF;
  if (vis_mech == VIS_IOV || (vis_mech == VIS_AUTO && vis_iov_min && rruns && lruns && npieces / rruns >= vis_iov_min &&
                              nbytes / lruns > pack_max))
    return VIS_IOV;
  if (ndims > STP_VIS_INLINE_DIMS) return VIS_REF;
  if (vis_mech != VIS_AUTO) return vis_mech;
  if (!shape && npieces < stp.rma->vis_ampipe_min_pieces) return VIS_REF;
  return pack_max && npieces && nbytes / npieces <= pack_max ? VIS_AMPIPE : VIS_REF;
}

/* Runs of a list: its entries, those that continue the one before (in
 * memory) counted with it. */
static size_t side_runs(const side_t *s) {
  size_t runs = 0;
  const char *end = NULL;
  for (size_t i = 0; i < s->count; i++) {
    size_t len = side_len(s, i);
    if (!len) continue;
    if (!runs || side_addr(s, i) != end) runs++;
    end = side_addr(s, i) + len;
  }
  return runs;
}

/* Runs of a shape at one end (the destination's, or the source's): the
 * chunks of the innermost dimensions that continue each other there make
 * one. */
static size_t shape_runs(const stp_vis_shape_t *sh, int at_dst) {
  size_t run = sh->elemsz, per = 1;
  for (size_t k = 0; k < sh->ndims; k++) {
    ptrdiff_t stride = at_dst ? sh->dim[k].dst : sh->dim[k].src;
    if (stride < 0 || (size_t)stride != run || (sh->dim[k].count && run > SIZE_MAX / sh->dim[k].count)) break;
    run *= sh->dim[k].count;
    per *= sh->dim[k].count;
  }
  return per ? sh->nchunks / per : 0;
}

/* ------------------------------------------------------------------ */
/* peer completion                                                     */
/* ------------------------------------------------------------------ */
static __thread struct {
  gex_AM_Index_t handler; /* 0: not armed */
  const void *src;
  size_t n;
} vis_pc;

void gex_VIS_SetPeerCompletionHandler(gex_AM_Index_t handler, const void *source_addr, size_t nbytes,
                                      gex_Flags_t flags) {
  static const char fn[] = "gex_VIS_SetPeerCompletionHandler";
  STP_CHECK_INITED(fn);
  if (STP_UNLIKELY(flags)) stp_fatal("%s: flags 0x%x: none is defined (pass 0)", fn, (unsigned)flags);
  if (handler) {
    if (STP_UNLIKELY(handler < STP_H_FIRST_CLIENT))
      stp_fatal("%s: handler index %u is not a client handler (128..255)", fn, (unsigned)handler);
    if (STP_UNLIKELY(nbytes > GEX_VIS_MAX_PEERCOMPLETION))
      stp_fatal("%s: %zu bytes, more than GEX_VIS_MAX_PEERCOMPLETION (%zu)", fn, nbytes,
                (size_t)GEX_VIS_MAX_PEERCOMPLETION);
    STP_CHECK_LOCAL(fn, "payload", source_addr, nbytes);
  }
  vis_pc.handler = handler;
  vis_pc.src = nbytes ? source_addr : NULL;
  vis_pc.n = nbytes;
}

/* At the peer: the client's handler, as a Medium reply from the initiator;
 * then the acknowledgement that completes the put at the initiator (so a
 * client that synchronized the put knows its handler has run). */
static void pc_handler(gex_Token_t token, void *buf, size_t nbytes, gex_AM_Arg_t handler, gex_AM_Arg_t ev_lo,
                       gex_AM_Arg_t ev_hi) {
  gex_AM_Arg_t args[2] = {ev_lo, ev_hi};
  stp_am_t am = {STP_AM_SHORT, 0, STP_H_VIS_PC_ACK, 2, args, NULL, 0, NULL, 0, NULL, 0};
  stp_token_t tok;
  memset(&tok, 0, sizeof(tok));
  tok.src = ((stp_token_t *)token)->src;
  tok.is_request = 0;
  stp_am_run(&tok, (gex_AM_Index_t)handler, STP_AM_MEDIUM, NULL, 0, buf, nbytes);
  stp_am_reply(token, &am);
}

static void pc_ack_handler(gex_Token_t token, gex_AM_Arg_t ev_lo, gex_AM_Arg_t ev_hi) {
  (void)token;
  stp_ev_finish(STP_ARG_PTR(ev_lo, ev_hi), STP_EC_PUT);
}

/* The notification, counted in e's STP_EC_PUT until acknowledged. */
static void pc_send(stp_ev_t *e, gex_Rank_t rank, gex_AM_Index_t handler, const void *src, size_t n) {
  gex_AM_Arg_t args[3] = {handler, STP_ARG_LO(e), STP_ARG_HI(e)};
  stp_am_t am = {STP_AM_MEDIUM, 0, STP_H_VIS_PC, 3, args, src, n, NULL, 0, NULL, 0};
  stp_ev_start(e, STP_EC_PUT);
  (void)stp_am_request(rank, &am); /* (lc NULL: returns once src is free) */
}

/* ------------------------------------------------------------------ */
/* the three synchronization kinds                                     */
/* ------------------------------------------------------------------ */
enum { VIS_BLOCKING, VIS_NBI, VIS_NB };

/* Run an operation: its pieces counted as sync asks.  Blocking and NBI:
 * 0, or 1 for an IMMEDIATE refusal; NB: *ev, GEX_EVENT_NO_OP for one. */
static int run(vis_op_t *op, vis_desc_t *d, int sync, gex_Event_t *ev) {
  stp_ev_t e, *root = NULL;
  int leaf_lc = op->is_put && (op->flags & GEX_FLAG_ENABLE_LEAF_LC) && sync != VIS_BLOCKING;
  if (STP_UNLIKELY(vis_pc.handler)) {
    gex_AM_Index_t h = vis_pc.handler;
    if (!op->is_put) stp_fatal("%s: a peer completion handler is armed, and only VIS puts take one", op->fn);
    if (op->flags & GEX_FLAG_IMMEDIATE)
      stp_fatal("%s: GEX_FLAG_IMMEDIATE with a peer completion handler armed (not allowed)", op->fn);
    vis_pc.handler = 0;
    stp_ev_init(&e, STP_EV_BLOCKING);
    op->rc = &e;
    op->lc = NULL;
    (void)move(op, d);
    if (!stp_ev_idle(&e)) stp_ev_wait(&e, STP_EC_ALL_MASK);
    pc_send(&e, op->rank, h, vis_pc.src, vis_pc.n);
    stp_ev_wait(&e, STP_EC_ALL_MASK);
    if (ev) *ev = GEX_EVENT_INVALID;
    return 0;
  }
  switch (sync) {
  case VIS_BLOCKING:
    stp_ev_init(&e, STP_EV_BLOCKING);
    op->rc = &e;
    op->lc = NULL;
    if (move(op, d)) return 1;
    if (!stp_ev_idle(&e)) stp_ev_wait(&e, STP_EC_ALL_MASK);
    return 0;
  case VIS_NBI:
    op->rc = stp_nbi_ev();
    op->lc = leaf_lc && !stp_lc_reference ? op->rc : NULL;
    return move(op, d);
  default:
    root = stp_ev_alloc(STP_EV_ROOT);
    op->rc = root;
    op->lc = NULL;
    if (leaf_lc) {
      root->leaf = 1;
      op->lc = stp_lc_reference ? NULL : root;
    }
    if (move(op, d)) {
      stp_ev_free(root);
      *ev = GEX_EVENT_NO_OP;
      return 1;
    }
    *ev = stp_ev_root_handle(root);
    return 0;
  }
}

#define VIS_FLAGS (GEX_FLAG_IMMEDIATE | GEX_FLAG_ENABLE_LEAF_LC | GEX_FLAG_PEER_NEVER_SELF | GEX_FLAG_PEER_NEVER_NBRHD)

/* The checks every call makes; the peer's job rank. */
static gex_Rank_t vis_check(const char *fn, gex_TM_t tm, gex_Rank_t rank, int is_put, gex_Flags_t flags) {
  rank = STP_TM_JOBRANK(fn, tm, rank);
  STP_CHECK_XFER(fn, tm, rank, NULL, 0);
  if (STP_UNLIKELY(flags & ~VIS_FLAGS))
    stp_fatal("%s: flags 0x%x: only GEX_FLAG_IMMEDIATE, GEX_FLAG_ENABLE_LEAF_LC and GEX_FLAG_PEER_NEVER_* are "
              "supported",
              fn, (unsigned)flags);
  if (STP_UNLIKELY(!is_put && (flags & GEX_FLAG_ENABLE_LEAF_LC)))
    stp_fatal("%s: GEX_FLAG_ENABLE_LEAF_LC is for VIS puts only", fn);
  return rank;
}

/* Vector and Indexed: both sides' totals agree (a fatal error otherwise);
 * 0 when there is nothing to move. */
static size_t lists_total(const char *fn, const side_t *dst, const side_t *src) {
  size_t a = side_total(fn, dst), b = side_total(fn, src);
  if (STP_UNLIKELY(a != b))
    stp_fatal("%s: the destination list describes %zu bytes and the source list %zu (they must be equal)", fn, a, b);
  return a;
}

static int lists(const char *fn, int is_put, int sync, gex_TM_t tm, gex_Rank_t rank, side_t *dst, side_t *src,
                 gex_Flags_t flags, gex_Event_t *ev) {
  vis_op_t op = {fn, is_put, 0, NULL, NULL, flags, VIS_REF};
  vis_desc_t d;
  memset(&d, 0, sizeof(d));
  op.rank = vis_check(fn, tm, rank, is_put, flags);
  if (STP_UNLIKELY((dst->count && !(dst->mv || dst->idx)) || (src->count && !(src->mv || src->idx))))
    stp_fatal("%s: a NULL list of entries", fn);
  size_t total = lists_total(fn, dst, src);
  if (!total && !vis_pc.handler) {
    if (ev) *ev = GEX_EVENT_INVALID;
    return 0;
  }
  d.loc = is_put ? *src : *dst;
  d.rem = is_put ? *dst : *src;
  op.mech = choose(&op, total, dst->count > src->count ? dst->count : src->count,
                   vis_iov_min ? side_runs(is_put ? dst : src) : 0, vis_iov_min ? side_runs(is_put ? src : dst) : 0,
                   0, 0);
  return run(&op, &d, sync, ev);
}

static int strided(const char *fn, int is_put, int sync, gex_TM_t tm, gex_Rank_t rank, void *dstaddr,
                   const ptrdiff_t dststrides[], void *srcaddr, const ptrdiff_t srcstrides[], size_t elemsz,
                   const size_t count[], size_t stridelevels, gex_Flags_t flags, gex_Event_t *ev) {
  vis_op_t op = {fn, is_put, 0, NULL, NULL, flags, VIS_REF};
  vis_desc_t d;
  stp_vis_shape_t sh;
  int rc;
  STP_CHECK_INITED(fn);
  if (STP_UNLIKELY(stridelevels && elemsz && (!count || !srcstrides || !dststrides)))
    stp_fatal("%s: a NULL count or stride array with stridelevels %zu", fn, stridelevels);
  rc = stp_vis_shape_init(&sh, elemsz, count, stridelevels, srcstrides, dststrides, vis_opts,
                          is_put ? STP_VIS_END_DST : STP_VIS_END_SRC);
  if (STP_UNLIKELY(rc != STP_VIS_OK))
    stp_fatal("%s: %s", fn, rc == STP_VIS_EOVERFLOW ? "the description's size overflows size_t" : "out of memory");
  if (sh.empty && !vis_pc.handler) { /* (no-op: tm, rank and the addresses are not looked at) */
    if (ev) *ev = GEX_EVENT_INVALID;
    return 0;
  }
  op.rank = vis_check(fn, tm, rank, is_put, flags);
  memset(&d, 0, sizeof(d));
  d.sh = &sh;
  d.srcaddr = (char *)srcaddr;
  d.dstaddr = (char *)dstaddr;
  op.mech = choose(&op, sh.nbytes, sh.nchunks, vis_iov_min ? shape_runs(&sh, is_put) : 0,
                   vis_iov_min ? shape_runs(&sh, !is_put) : 0, sh.ndims, 1);
  rc = run(&op, &d, sync, ev);
  stp_vis_shape_fini(&sh);
  return rc;
}

/* ------------------------------------------------------------------ */
/* entry points                                                        */
/* ------------------------------------------------------------------ */
#define VEC(list, n) {(n), 0, 0, (list), NULL, 0}
#define IDX(list, n, len) {(n), 0, 0, NULL, (list), (len)}

#define VECTOR_GET(name, sync, ret, val)                                                                         \
  ret name(gex_TM_t tm, size_t dstcount, gex_Memvec_t const dstlist[], gex_Rank_t srcrank, size_t srccount,  \
           gex_Memvec_t const srclist[], gex_Flags_t flags) {                                                 \
    STP_API_GUARD();                                                                                           \
    side_t dst = VEC(dstlist, dstcount), src = VEC(srclist, srccount);                                         \
    gex_Event_t ev = GEX_EVENT_INVALID;                                                                        \
    int rc = lists(#name, 0, sync, tm, srcrank, &dst, &src, flags, &ev);                                       \
    (void)rc, (void)ev;                                                                                        \
    return val;                                                                                                \
  }
#define VECTOR_PUT(name, sync, ret, val)                                                                         \
  ret name(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount, gex_Memvec_t const dstlist[], size_t srccount,  \
           gex_Memvec_t const srclist[], gex_Flags_t flags) {                                                 \
    STP_API_GUARD();                                                                                           \
    side_t dst = VEC(dstlist, dstcount), src = VEC(srclist, srccount);                                         \
    gex_Event_t ev = GEX_EVENT_INVALID;                                                                        \
    int rc = lists(#name, 1, sync, tm, dstrank, &dst, &src, flags, &ev);                                       \
    (void)rc, (void)ev;                                                                                        \
    return val;                                                                                                \
  }
#define INDEXED_GET(name, sync, ret, val)                                                                         \
  ret name(gex_TM_t tm, size_t dstcount, void *const dstlist[], size_t dstlen, gex_Rank_t srcrank,            \
           size_t srccount, void *const srclist[], size_t srclen, gex_Flags_t flags) {                         \
    STP_API_GUARD();                                                                                            \
    side_t dst = IDX(dstlist, dstcount, dstlen), src = IDX(srclist, srccount, srclen);                          \
    gex_Event_t ev = GEX_EVENT_INVALID;                                                                         \
    int rc = lists(#name, 0, sync, tm, srcrank, &dst, &src, flags, &ev);                                        \
    (void)rc, (void)ev;                                                                                         \
    return val;                                                                                                 \
  }
#define INDEXED_PUT(name, sync, ret, val)                                                                         \
  ret name(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount, void *const dstlist[], size_t dstlen,            \
           size_t srccount, void *const srclist[], size_t srclen, gex_Flags_t flags) {                         \
    STP_API_GUARD();                                                                                            \
    side_t dst = IDX(dstlist, dstcount, dstlen), src = IDX(srclist, srccount, srclen);                          \
    gex_Event_t ev = GEX_EVENT_INVALID;                                                                         \
    int rc = lists(#name, 1, sync, tm, dstrank, &dst, &src, flags, &ev);                                        \
    (void)rc, (void)ev;                                                                                         \
    return val;                                                                                                 \
  }
#define STRIDED_GET(name, sync, ret, val)                                                                          \
  ret name(gex_TM_t tm, void *dstaddr, const ptrdiff_t dststrides[], gex_Rank_t srcrank, void *srcaddr,        \
           const ptrdiff_t srcstrides[], size_t elemsz, const size_t count[], size_t stridelevels,             \
           gex_Flags_t flags) {                                                                                 \
    STP_API_GUARD();                                                                                             \
    gex_Event_t ev = GEX_EVENT_INVALID;                                                                          \
    int rc = strided(#name, 0, sync, tm, srcrank, dstaddr, dststrides, srcaddr, srcstrides, elemsz, count,      \
                     stridelevels, flags, &ev);                                                                  \
    (void)rc, (void)ev;                                                                                          \
    return val;                                                                                                  \
  }
#define STRIDED_PUT(name, sync, ret, val)                                                                          \
  ret name(gex_TM_t tm, gex_Rank_t dstrank, void *dstaddr, const ptrdiff_t dststrides[], void *srcaddr,        \
           const ptrdiff_t srcstrides[], size_t elemsz, const size_t count[], size_t stridelevels,             \
           gex_Flags_t flags) {                                                                                 \
    STP_API_GUARD();                                                                                             \
    gex_Event_t ev = GEX_EVENT_INVALID;                                                                          \
    int rc = strided(#name, 1, sync, tm, dstrank, dstaddr, dststrides, srcaddr, srcstrides, elemsz, count,      \
                     stridelevels, flags, &ev);                                                                  \
    (void)rc, (void)ev;                                                                                          \
    return val;                                                                                                  \
  }

#define ALL3(M, base)                       \
  M(base##NB, VIS_NB, gex_Event_t, ev)      \
  M(base##NBI, VIS_NBI, int, rc)            \
  M(base##Blocking, VIS_BLOCKING, int, rc)

ALL3(VECTOR_GET, gex_VIS_VectorGet)
ALL3(VECTOR_PUT, gex_VIS_VectorPut)
ALL3(INDEXED_GET, gex_VIS_IndexedGet)
ALL3(INDEXED_PUT, gex_VIS_IndexedPut)
ALL3(STRIDED_GET, gex_VIS_StridedGet)
ALL3(STRIDED_PUT, gex_VIS_StridedPut)

/* ------------------------------------------------------------------ */
/* setup                                                               */
/* ------------------------------------------------------------------ */
void stp_vis_init(void) {
  static const stp_handler_reg_t regs[] = {{STP_H_VIS_PC, (gex_AM_Fn_t)pc_handler},
                                           {STP_H_VIS_PC_ACK, (gex_AM_Fn_t)pc_ack_handler},
                                           {STP_H_VIS_PUT, (gex_AM_Fn_t)pipe_put_handler},
                                           {STP_H_VIS_PUT_ACK, (gex_AM_Fn_t)pipe_put_ack_handler},
                                           {STP_H_VIS_GET, (gex_AM_Fn_t)pipe_get_handler},
                                           {STP_H_VIS_GET_REPLY, (gex_AM_Fn_t)pipe_get_reply_handler}};
  const char *v = getenv("STAGEPORT_VIS_OPT");
  if (!v || !*v || !strcmp(v, "on") || !strcmp(v, "1")) vis_opts = STP_VIS_OPT_ALL;
  else if (!strcmp(v, "off") || !strcmp(v, "0")) vis_opts = STP_VIS_OPT_NONE;
  else stp_fatal("STAGEPORT_VIS_OPT=\"%s\": use on (the stride optimizer, default) or off (descriptions as given)", v);
  v = getenv("STAGEPORT_VIS");
  if (!v || !*v || !strcmp(v, "auto")) vis_mech = VIS_AUTO;
  else if (!strcmp(v, "reference")) vis_mech = VIS_REF;
  else if (!strcmp(v, "ampipe")) vis_mech = VIS_AMPIPE;
  else if (!strcmp(v, "iovec")) vis_mech = VIS_IOV;
  else stp_fatal("STAGEPORT_VIS=\"%s\": use auto (chosen per operation), reference (one RMA per piece), ampipe "
                 "(pieces packed into AM Mediums) or iovec (the network's gather/scatter)", v);
  /* (stp.rma is chosen; the variable, when set, is both thresholds) */
  vis_ampipe_max = (size_t)stp_env_u64("STAGEPORT_VIS_AMPIPE_MAX", stp.rma->vis_ampipe_max);
  vis_ampipe_shape_max = (size_t)stp_env_u64(
      "STAGEPORT_VIS_AMPIPE_MAX", stp.rma->vis_ampipe_shape_max ? stp.rma->vis_ampipe_shape_max : stp.rma->vis_ampipe_max);
  if (stp.rma->putv) {
    vis_iov_min = (size_t)stp_env_u64("STAGEPORT_VIS_IOV_MIN", stp.rma->vis_iov_min);
  } else if (vis_mech == VIS_IOV) {
    stp_fatal("STAGEPORT_VIS=iovec: this stage's RMA (%s) has no gather/scatter of its own (the ptl stages do); use "
              "auto, reference or ampipe", stp.rma->name);
  }
  stp_register_internal(regs, (int)(sizeof(regs) / sizeof(regs[0])));
}
