/*
 * rma.h -- the RMA seam: how the library moves Put/Get data (gex_RMA_*).
 *
 * An RMA backend is one const stp_rma_ops_t, named by a stage's row; a
 * row with none (NULL) gets the reference implementation, RMA over the
 * Core's AMs (ext-ref: stp_rma_ref_ops).  The API layer (api/ex_rma.c)
 * owns everything the many variants have in common -- argument checks,
 * loopback (a process's own segment is a memcpy), zero-length transfers,
 * events, NBI sets, access regions, value forms, lc_opt -- and calls the
 * backend through two initiation slots.
 *
 * Completion is counted in event records (event.h): rc for the operation
 * (STP_EC_PUT or STP_EC_GET), lc for a put's local completion.
 *
 *  - put(rc, lc, ...): counts remote completion in rc (STP_EC_PUT: the
 *    data is written at the target, visible to later gets and loads
 *    there), or leaves rc->put_sync set (see sync).  lc NULL: the source
 *    may be read until rc completes (GEX_EVENT_DEFER).  lc non-NULL: count
 *    the put's local completion in lc's STP_EC_LC -- start before returning
 *    and finish when the network no longer reads the source (UCX send
 *    completion; ptl's SEND_END; at once when the data was copied).  The
 *    API layer makes GEX_EVENT_NOW of it by waiting on a stack lc.
 *  - get(rc, ...): counts in rc's STP_EC_GET until the data is local.
 *  - flags: GEX_FLAG_IMMEDIATE -- return 1, having done nothing (no count,
 *    no side effect), instead of waiting for a resource the network is
 *    short of (send tokens, operation records, bounce buffers,
 *    flow-control credits); else 0.  Without it, an initiation may wait, polling (stp_wait_step),
 *    so two processes putting to each other cannot deadlock.
 *  - sync(rc): for backends whose puts complete locally before remotely;
 *    called by the first test that finds rc otherwise drained with
 *    put_sync set; starts whatever makes its puts remotely complete (a
 *    flush), counting it in STP_EC_PUT, and clears put_sync.  NULL for
 *    backends that never set it.
 *  - Progress: completions arrive through the network's poll (net.h) or the
 *    Core's AM handlers (ext-ref); counts change only from those, never
 *    from another thread.
 */
#ifndef STP_RMA_H
#define STP_RMA_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "gasnetex.h"

/* An internal AM handler a module registers in the reserved range 1..127. */
typedef struct stp_handler_reg {
  gex_AM_Index_t index;
  gex_AM_Fn_t fn;
} stp_handler_reg_t;

typedef struct stp_rma_ops {
  const char *name;

  /* setup and teardown (NULL: nothing to do) ---------------------------- */
  int (*attach)(void);  /* at gex_Segment_Attach, after the Core's; before its barrier */
  void (*detach)(void); /* at exit, before the Core's; must not wait for peers */

  /* internal AM handlers this backend uses (may be NULL/0) */
  const stp_handler_reg_t *handlers;
  int nhandlers;

  /* initiation: 0, or 1 for an IMMEDIATE refusal ----------------------- */
  int (*put)(stp_ev_t *rc, stp_ev_t *lc, gex_Rank_t node, void *dst, const void *src, size_t n, gex_Flags_t flags);
  int (*get)(stp_ev_t *rc, void *dst, gex_Rank_t node, const void *src, size_t n, gex_Flags_t flags);
  /* a blocking put (gex_RMA_PutBlocking, gasnet_put) counted in rc, remotely
   * complete once rc drains, by a shorter path than put() and sync() (NULL:
   * those) */
  int (*put_blocking)(stp_ev_t *rc, gex_Rank_t node, void *dst, const void *src, size_t n, gex_Flags_t flags);

  /* completion -------------------------------------------------------- */
  void (*sync)(stp_ev_t *rc);

  /* remote atomics (ratomic.h): this backend's specialization, chosen per
   * domain when it supports the domain's type and whole operation set
   * (NULL: the reference for every domain) */
  const struct stp_ad_impl *ad;

  /* VIS (api/ex_vis.c): STAGEPORT_VIS=auto packs an operation into AM
   * Mediums when its pieces average at most this many bytes, 0: never --
   * a Vector or Indexed list's (vis_ampipe_max), a Strided description's
   * once optimized (vis_ampipe_shape_max: it packs in a tight loop when it
   * folds to one dimension; 0: vis_ampipe_max) -- each table says what its
   * values were measured from; vis_ampipe_min_pieces: a list of fewer
   * entries is not packed (where one RMA per piece is cheap, packing costs
   * an AM round trip that few pieces do not repay) */
  size_t vis_ampipe_max, vis_ampipe_shape_max, vis_ampipe_min_pieces;
  /* VIS: the network's own gather/scatter (STAGEPORT_VIS=iovec), or NULL.
   * A run is a VIS operation's bytes that are contiguous at the peer:
   * putv writes the n bytes of the local pieces src[0..nsrc), in order, to
   * [dst, +n) at node; getv reads [src, +n) at node into the local pieces
   * dst[0..ndst), in order; one network operation each, counted, refused
   * (IMMEDIATE) and completed as put and get are.  nsrc, ndst <=
   * STP_VIS_RUN_MAX; node is never the caller. */
  int (*putv)(stp_ev_t *rc, stp_ev_t *lc, gex_Rank_t node, void *dst, const gex_Memvec_t *src, size_t nsrc, size_t n,
              gex_Flags_t flags);
  int (*getv)(stp_ev_t *rc, const gex_Memvec_t *dst, size_t ndst, gex_Rank_t node, const void *src, size_t n,
              gex_Flags_t flags);
  /* STAGEPORT_VIS=auto takes putv/getv for operations whose runs average
   * at least this many local pieces (0: never) */
  size_t vis_iov_min;
} stp_rma_ops_t;
/* The most local pieces in one run (stp_rma_ops_t.putv/getv). */
#define STP_VIS_RUN_MAX 1024

/* The reference implementation (ext-ref): a stage row's NULL RMA table. */
extern const stp_rma_ops_t stp_rma_ref_ops;
/* The reference atomics' AM handlers (ratomic.h), registered on every stage
 * at init whatever its RMA backend. */
void stp_ad_ref_register(void);

#endif /* STP_RMA_H */
