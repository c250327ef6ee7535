/*
 * event.h -- completion: the event record every operation counts into.
 *
 * A gex_Event_t names one pooled record (stp_ev_t) and the generation of
 * its use; a record counts outstanding sub-operations per category:
 *
 *   STP_EC_GET  gets (remote data not yet local)
 *   STP_EC_PUT  puts (not yet complete at the target), AM-based
 *               operations acknowledged like puts
 *   STP_EC_AM   AM payloads whose local completion was asked for with
 *               GEX_EVENT_GROUP (the NBI set's)
 *   STP_EC_LC   local completions: a put's or an AM's source may not be
 *               reused yet
 *   STP_EC_RMW  remote atomics (phase 2)
 *   STP_EC_COLL collectives (the barrier, broadcast)
 *
 * Who counts: the initiator of every sub-operation calls stp_ev_start
 * before it can complete and stp_ev_finish when it has -- from the network's
 * or the Core's poll, never from another thread.  No module touches a
 * record's fields otherwise.  A backend that completes puts locally before
 * remotely (RMA networks) may call stp_ev_need_sync instead of holding a
 * count until remote completion: the first test that finds the record
 * otherwise drained calls the stage's RMA sync, which starts whatever makes
 * the puts remotely complete (a flush), counting it.  The RMA backend's
 * per-record state (ext-ucx: the endpoints dirtied) is rma_state; nothing
 * else reads it.
 *
 * Kinds: a stack record for a blocking call (BLOCKING); a pooled record
 * behind an NB event (ROOT); a thread's implicit set (NBI: gex_NBI_Test's
 * categories); an open access region (REGION, a ROOT once ended); a value
 * get's (VALGET, the legacy layer's landing buffer).  A root's local
 * completion leaf (gex_Event_QueryLeaf(root, GEX_EC_LC), an lc_opt pointer)
 * is the same record's STP_EC_LC count, named by the root's handle with the
 * leaf bit set: no record of its own, so it cannot outlive its root.
 */
#ifndef STP_EVENT_H
#define STP_EVENT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gasnetex.h"

enum { STP_EC_GET = 0, STP_EC_PUT, STP_EC_AM, STP_EC_LC, STP_EC_RMW, STP_EC_COLL, STP_EC_N };
enum { STP_EV_FREE = 0, STP_EV_BLOCKING, STP_EV_ROOT, STP_EV_NBI, STP_EV_REGION, STP_EV_VALGET };

typedef struct stp_ev {
  uint32_t n[STP_EC_N]; /* outstanding sub-operations per category */
  uint8_t kind;         /* STP_EV_*; FREE while pooled */
  uint8_t put_sync;     /* the RMA backend's sync() is due before its puts count as done */
  uint8_t leaf;         /* a root whose LC leaf was handed out (lc_opt pointer) */
  uint8_t val_n;        /* VALGET: the value's size */
  uint32_t index;       /* pooled: its place in the pool (a handle names it) */
  uint32_t gen;         /* pooled: bumped at every free (a handle names the use) */
  struct stp_ev *next;  /* pool free list */
  uint64_t val;         /* VALGET: the landing buffer */
  uint64_t rma_state[2];
} stp_ev_t;

/* Counting (any backend) */
static inline void stp_ev_start(stp_ev_t *e, int cat) { e->n[cat]++; }
static inline void stp_ev_finish(stp_ev_t *e, int cat) { e->n[cat]--; }
static inline void stp_ev_need_sync(stp_ev_t *e) { e->put_sync = 1; }

/* A stack record (blocking calls, GEX_EVENT_NOW waits). */
static inline void stp_ev_init(stp_ev_t *e, int kind) {
  memset(e, 0, sizeof(*e));
  e->kind = (uint8_t)kind;
}

/* Pooled records: no malloc per operation after warm-up. */
stp_ev_t *stp_ev_alloc(int kind);
void stp_ev_free(stp_ev_t *e);

/* Handles: index + 1 in the low 31 bits, the leaf bit above them, the
 * generation in the high word; never 0 and never GEX_EVENT_NO_OP. */
#define STP_EV_LEAF_BIT 0x80000000u
static inline gex_Event_t stp_ev_handle(const stp_ev_t *e) {
  return (gex_Event_t)(uintptr_t)(((uint64_t)e->gen << 32) | ((uint64_t)e->index + 1));
}
static inline gex_Event_t stp_ev_leaf_handle(const stp_ev_t *e) {
  return (gex_Event_t)(uintptr_t)((uint64_t)(uintptr_t)stp_ev_handle(e) | STP_EV_LEAF_BIT);
}
/* The record a handle names, if that use of it is still live (*leaf: the
 * handle is its LC leaf); else NULL (synchronized already, or never an
 * event). */
stp_ev_t *stp_ev_lookup(gex_Event_t h, int *leaf);

/* Complete in the categories of mask (1 << STP_EC_*), without polling; may
 * start the RMA sync (which counts PUT). */
#define STP_EC_MASK(c) (1u << (c))
#define STP_EC_RC_MASK (STP_EC_MASK(STP_EC_GET) | STP_EC_MASK(STP_EC_PUT) | STP_EC_MASK(STP_EC_RMW) | STP_EC_MASK(STP_EC_COLL))
#define STP_EC_ALL_MASK ((1u << STP_EC_N) - 1)
int stp_ev_test(stp_ev_t *e, unsigned mask);
/* Poll until complete in mask (the API layer's waits: a threaded client's
 * other threads may enter between polls). */
void stp_ev_wait(stp_ev_t *e, unsigned mask);
/* Nothing outstanding in any category and no sync due: what stp_ev_wait
 * finds first, answered inline (a blocking call whose operation ended at
 * once pays no call). */
/* (written out: the compiler kept the loop over the categories, 27
 * instructions of the ucx stage's 8-byte blocking put, against 8) */
_Static_assert(STP_EC_N == 6, "stp_ev_idle names every category");
static inline int stp_ev_idle(const stp_ev_t *e) {
  const uint32_t *n = e->n;
  return !(e->put_sync | n[0] | n[1] | n[2] | n[3] | n[4] | n[5]);
}

#endif /* STP_EVENT_H */
