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
 * The mechanism (seed 003's reference): one RMA per piece, through the
 * stage's RMA backend (stp_put_path / stp_get_path: loopback is a copy).
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
} vis_op_t;

/* One piece: 0, or 1 when the first one was refused (IMMEDIATE). */
static inline int piece(vis_op_t *op, char *local, char *remote, size_t n) {
  STP_CHECK_REMOTE(op->fn, op->rank, remote, n);
  STP_CHECK_LOCAL(op->fn, op->is_put ? "source" : "destination", local, n);
  int rc = op->is_put ? stp_put_path(op->rc, op->lc, op->rank, remote, local, n, op->flags)
                      : stp_get_path(op->rc, local, op->rank, remote, n, op->flags);
  op->flags &= ~GEX_FLAG_IMMEDIATE;
  return rc;
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

static int move(vis_op_t *op, vis_desc_t *d) {
  return d->sh ? move_shape(op, d->sh, d->srcaddr, d->dstaddr) : move_lists(op, &d->loc, &d->rem);
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
  vis_op_t op = {fn, is_put, 0, NULL, NULL, flags};
  vis_desc_t d;
  memset(&d, 0, sizeof(d));
  op.rank = vis_check(fn, tm, rank, is_put, flags);
  if (STP_UNLIKELY((dst->count && !(dst->mv || dst->idx)) || (src->count && !(src->mv || src->idx))))
    stp_fatal("%s: a NULL list of entries", fn);
  if (!lists_total(fn, dst, src) && !vis_pc.handler) {
    if (ev) *ev = GEX_EVENT_INVALID;
    return 0;
  }
  d.loc = is_put ? *src : *dst;
  d.rem = is_put ? *dst : *src;
  return run(&op, &d, sync, ev);
}

static int strided(const char *fn, int is_put, int sync, gex_TM_t tm, gex_Rank_t rank, void *dstaddr,
                   const ptrdiff_t dststrides[], void *srcaddr, const ptrdiff_t srcstrides[], size_t elemsz,
                   const size_t count[], size_t stridelevels, gex_Flags_t flags, gex_Event_t *ev) {
  vis_op_t op = {fn, is_put, 0, NULL, NULL, flags};
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
                                           {STP_H_VIS_PC_ACK, (gex_AM_Fn_t)pc_ack_handler}};
  const char *v = getenv("STAGEPORT_VIS_OPT");
  if (!v || !*v || !strcmp(v, "on") || !strcmp(v, "1")) vis_opts = STP_VIS_OPT_ALL;
  else if (!strcmp(v, "off") || !strcmp(v, "0")) vis_opts = STP_VIS_OPT_NONE;
  else stp_fatal("STAGEPORT_VIS_OPT=\"%s\": use on (the stride optimizer, default) or off (descriptions as given)", v);
  stp_register_internal(regs, (int)(sizeof(regs) / sizeof(regs[0])));
}
