/*
 * ex_rma.c -- the RMA entry points (gex_RMA_*).
 *
 * Every variant is a thin wrapper over one path per operation: the
 * variants differ only in the event they count into (a stack record for
 * blocking calls, a pooled root for NB, the thread's NBI set or its open
 * access region for NBI), in where a put's local completion is counted
 * (lc_opt: stp_lc_begin) and in whether they wait.  Loopback and
 * zero-length transfers never reach the backend; a loopback word is one
 * store (stp_copy.h: another process may be watching it).
 *
 * STAGEPORT_LC=reference: local completion is not reported apart from
 * remote completion (seed 003's reference behaviour, to measure the
 * specialization against): GEX_EVENT_NOW waits for the operation to
 * complete, a leaf completes with its root, GEX_EC_LC with GEX_EC_PUT.
 */
#include "api.h"

#include <stdlib.h>


int stp_lc_reference;

/* ------------------------------------------------------------------ */
/* local completion                                                    */
/* ------------------------------------------------------------------ */
stp_ev_t *stp_lc_begin(const char *fn, gex_Event_t *lc_opt, stp_ev_t *root, stp_ev_t *now, int allow_defer,
                       int allow_group) {
  if (lc_opt == GEX_EVENT_NOW) {
    stp_ev_init(now, STP_EV_BLOCKING);
    return now;
  }
  if (lc_opt == GEX_EVENT_DEFER) {
    if (STP_UNLIKELY(!allow_defer)) stp_fatal("%s: GEX_EVENT_DEFER is not a valid lc_opt here", fn);
    return NULL;
  }
  if (lc_opt == GEX_EVENT_GROUP) {
    if (STP_UNLIKELY(!allow_group)) stp_fatal("%s: GEX_EVENT_GROUP is not a valid lc_opt here", fn);
    return stp_lc_reference ? NULL : stp_nbi_ev();
  }
  if (STP_UNLIKELY(!lc_opt || !root)) stp_fatal("%s: lc_opt %p is not valid here", fn, (void *)lc_opt);
  root->leaf = 1;
  return stp_lc_reference ? NULL : root;
}

void stp_lc_end(gex_Event_t *lc_opt, stp_ev_t *root, stp_ev_t *lc) {
  if (lc_opt == GEX_EVENT_NOW) {
    stp_ev_wait(lc, STP_EC_MASK(STP_EC_LC));
    return;
  }
  if (lc_opt == GEX_EVENT_DEFER || lc_opt == GEX_EVENT_GROUP) return;
  *lc_opt = root && root->kind == STP_EV_ROOT ? stp_ev_leaf_handle(root) : GEX_EVENT_INVALID;
}

/* A root that completed during initiation needs no handle (and neither
 * does its leaf: the caller writes the leaf afterwards, from the kind). */
static inline int ev_idle(const stp_ev_t *e) {
  for (int c = 0; c < STP_EC_N; c++)
    if (e->n[c]) return 0;
  return !e->put_sync;
}

gex_Event_t stp_ev_root_handle(stp_ev_t *e) {
  if (ev_idle(e)) {
    stp_ev_free(e);
    return GEX_EVENT_INVALID;
  }
  return stp_ev_handle(e);
}

/* Flags an RMA call takes; the segment-disposition ones are not
 * implemented (the defaults are the only behaviour), so they are refused. */
#define RMA_FLAGS (GEX_FLAG_IMMEDIATE | GEX_FLAG_PEER_NEVER_SELF | GEX_FLAG_PEER_NEVER_NBRHD)
static inline void check_flags(const char *fn, gex_Flags_t flags) {
  if (STP_UNLIKELY(flags & ~RMA_FLAGS))
    stp_fatal("%s: flags 0x%x: only GEX_FLAG_IMMEDIATE and GEX_FLAG_PEER_NEVER_* are supported", fn, (unsigned)flags);
}

/* (rank: a rank of tm, made the job rank here) */
#define CHECK_PUT(fn, tm, rank, dest, src, n, flags) \
  do {                                               \
    rank = STP_TM_JOBRANK(fn, tm, rank);             \
    STP_CHECK_XFER(fn, tm, rank, dest, n);           \
    STP_CHECK_LOCAL(fn, "source", src, n);           \
    check_flags(fn, flags);                          \
  } while (0)
#define CHECK_GET(fn, tm, dest, rank, src, n, flags) \
  do {                                               \
    rank = STP_TM_JOBRANK(fn, tm, rank);             \
    STP_CHECK_XFER(fn, tm, rank, src, n);            \
    STP_CHECK_LOCAL(fn, "destination", dest, n);     \
    check_flags(fn, flags);                          \
  } while (0)

/* A put counted in rc whose local completion lc_opt asks for; NOW under
 * STAGEPORT_LC=reference: the whole put, waited for, in a record of its
 * own.  Non-zero: refused (IMMEDIATE). */
static int put_lc(const char *fn, stp_ev_t *rc, stp_ev_t *root, gex_Rank_t rank, void *dest, const void *src,
                  size_t n, gex_Event_t *lc_opt, gex_Flags_t flags, int allow_defer, int allow_group) {
  stp_ev_t now, *lc;
  if (STP_UNLIKELY(stp_lc_reference) && lc_opt == GEX_EVENT_NOW) {
    stp_ev_t whole;
    stp_ev_init(&whole, STP_EV_BLOCKING);
    if (stp_put_path(&whole, NULL, rank, dest, src, n, flags)) return 1;
    stp_ev_wait(&whole, STP_EC_ALL_MASK);
    return 0;
  }
  lc = stp_lc_begin(fn, lc_opt, root, &now, allow_defer, allow_group);
  if (stp_put_path(rc, lc, rank, dest, src, n, flags)) return 1;
  stp_lc_end(lc_opt, root, lc);
  return 0;
}

/* ------------------------------------------------------------------ */
/* puts                                                                */
/* ------------------------------------------------------------------ */
/* Blocking calls make progress even when their operations complete at once
 * (an RMA network's put into shared memory): every 32nd of a thread's polls
 * after its wait, so that a thread looping on blocking puts still runs the
 * AMs others send it (GASNet-EX's testcontend: a flag set by a handler ends
 * such a loop) -- not every one, which cost the ucx stage's 8-byte put
 * 0.029 -> 0.052 us.  Not from a handler, which may not poll. */
static __thread unsigned blocking_calls;
static inline void blocking_progress(void) {
  if (STP_UNLIKELY((++blocking_calls & 31u) == 0) && !stp.in_handler) (void)stp_poll();
}

int gex_RMA_PutBlocking(gex_TM_t tm, gex_Rank_t rank, void *dest, const void *src, size_t nbytes, gex_Flags_t flags) {
  STP_API_GUARD();
  stp_ev_t e;
  CHECK_PUT("gex_RMA_PutBlocking", tm, rank, dest, src, nbytes, flags);
  if (!nbytes) return 0;
  stp_ev_init(&e, STP_EV_BLOCKING);
  if (rank != stp.mynode && stp.rma->put_blocking) {
    if (stp.rma->put_blocking(&e, rank, dest, src, nbytes, flags)) return 1;
  } else if (stp_put_path(&e, NULL, rank, dest, src, nbytes, flags)) {
    return 1;
  }
  if (!stp_ev_idle(&e)) stp_ev_wait(&e, STP_EC_ALL_MASK);
  blocking_progress();
  return 0;
}

int gex_RMA_PutNBI(gex_TM_t tm, gex_Rank_t rank, void *dest, const void *src, size_t nbytes, gex_Event_t *lc_opt,
                   gex_Flags_t flags) {
  STP_API_GUARD();
  CHECK_PUT("gex_RMA_PutNBI", tm, rank, dest, src, nbytes, flags);
  if (!nbytes) return 0;
  return put_lc("gex_RMA_PutNBI", stp_nbi_ev(), NULL, rank, dest, src, nbytes, lc_opt, flags, 1, 1);
}

gex_Event_t gex_RMA_PutNB(gex_TM_t tm, gex_Rank_t rank, void *dest, const void *src, size_t nbytes,
                          gex_Event_t *lc_opt, gex_Flags_t flags) {
  STP_API_GUARD();
  stp_ev_t *root;
  gex_Event_t h;
  CHECK_PUT("gex_RMA_PutNB", tm, rank, dest, src, nbytes, flags);
  if (!nbytes) {
    if (lc_opt != GEX_EVENT_NOW && lc_opt != GEX_EVENT_DEFER && lc_opt) *lc_opt = GEX_EVENT_INVALID;
    return GEX_EVENT_INVALID;
  }
  root = stp_ev_alloc(STP_EV_ROOT);
  if (put_lc("gex_RMA_PutNB", root, root, rank, dest, src, nbytes, lc_opt, flags, 1, 0)) {
    stp_ev_free(root);
    return GEX_EVENT_NO_OP;
  }
  h = stp_ev_root_handle(root);
  if (h == GEX_EVENT_INVALID && lc_opt != GEX_EVENT_NOW && lc_opt != GEX_EVENT_DEFER) *lc_opt = GEX_EVENT_INVALID;
  return h;
}

/* ------------------------------------------------------------------ */
/* gets                                                                */
/* ------------------------------------------------------------------ */
int gex_RMA_GetBlocking(gex_TM_t tm, void *dest, gex_Rank_t rank, void *src, size_t nbytes, gex_Flags_t flags) {
  STP_API_GUARD();
  stp_ev_t e;
  CHECK_GET("gex_RMA_GetBlocking", tm, dest, rank, src, nbytes, flags);
  if (!nbytes) return 0;
  stp_ev_init(&e, STP_EV_BLOCKING);
  if (stp_get_path(&e, dest, rank, src, nbytes, flags)) return 1;
  if (!stp_ev_idle(&e)) stp_ev_wait(&e, STP_EC_ALL_MASK);
  blocking_progress();
  return 0;
}

int gex_RMA_GetNBI(gex_TM_t tm, void *dest, gex_Rank_t rank, void *src, size_t nbytes, gex_Flags_t flags) {
  STP_API_GUARD();
  CHECK_GET("gex_RMA_GetNBI", tm, dest, rank, src, nbytes, flags);
  if (!nbytes) return 0;
  return stp_get_path(stp_nbi_ev(), dest, rank, src, nbytes, flags);
}

gex_Event_t gex_RMA_GetNB(gex_TM_t tm, void *dest, gex_Rank_t rank, void *src, size_t nbytes, gex_Flags_t flags) {
  STP_API_GUARD();
  stp_ev_t *root;
  CHECK_GET("gex_RMA_GetNB", tm, dest, rank, src, nbytes, flags);
  if (!nbytes) return GEX_EVENT_INVALID;
  root = stp_ev_alloc(STP_EV_ROOT);
  if (stp_get_path(root, dest, rank, src, nbytes, flags)) {
    stp_ev_free(root);
    return GEX_EVENT_NO_OP;
  }
  return stp_ev_root_handle(root);
}

/* ------------------------------------------------------------------ */
/* value forms                                                         */
/* ------------------------------------------------------------------ */
static inline void check_val_size(const char *fn, size_t n) {
  if (STP_UNLIKELY(n == 0 || n > SIZEOF_GEX_RMA_VALUE_T))
    stp_fatal("%s: nbytes = %zu, must be 1..%d", fn, n, SIZEOF_GEX_RMA_VALUE_T);
}

int gex_RMA_PutBlockingVal(gex_TM_t tm, gex_Rank_t rank, void *dest, gex_RMA_Value_t value, size_t nbytes,
                           gex_Flags_t flags) {
  uint64_t buf;
  check_val_size("gex_RMA_PutBlockingVal", nbytes);
  _stp_val_store(&buf, value, nbytes);
  return gex_RMA_PutBlocking(tm, rank, dest, &buf, nbytes, flags);
}

/* (the value is on the stack: its local completion is waited for) */
int gex_RMA_PutNBIVal(gex_TM_t tm, gex_Rank_t rank, void *dest, gex_RMA_Value_t value, size_t nbytes,
                      gex_Flags_t flags) {
  uint64_t buf;
  check_val_size("gex_RMA_PutNBIVal", nbytes);
  _stp_val_store(&buf, value, nbytes);
  return gex_RMA_PutNBI(tm, rank, dest, &buf, nbytes, GEX_EVENT_NOW, flags);
}

gex_Event_t gex_RMA_PutNBVal(gex_TM_t tm, gex_Rank_t rank, void *dest, gex_RMA_Value_t value, size_t nbytes,
                             gex_Flags_t flags) {
  uint64_t buf;
  check_val_size("gex_RMA_PutNBVal", nbytes);
  _stp_val_store(&buf, value, nbytes);
  return gex_RMA_PutNB(tm, rank, dest, &buf, nbytes, GEX_EVENT_NOW, flags);
}

gex_RMA_Value_t gex_RMA_GetBlockingVal(gex_TM_t tm, gex_Rank_t rank, void *src, size_t nbytes, gex_Flags_t flags) {
  uint64_t buf = 0;
  check_val_size("gex_RMA_GetBlockingVal", nbytes);
  /* (a value cannot say "refused": IMMEDIATE is not taken up here) */
  gex_RMA_GetBlocking(tm, &buf, rank, src, nbytes, flags & ~GEX_FLAG_IMMEDIATE);
  return _stp_val_load(&buf, nbytes);
}
