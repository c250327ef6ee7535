/*
 * coll.h -- collectives on the primordial team, phase 1: the barrier and
 * broadcast (gex_Coll_BarrierNB, gex_Coll_BroadcastNB) and the barrier
 * with a value the legacy layer's named GASNet-1 barrier needs.  One
 * implementation, the reference over the Core's AMs (ext-ref/ref_coll.c);
 * a stage's own collectives table comes with teams (phase 2).
 *
 * Every operation is an event record (event.h, category STP_EC_COLL) that
 * completes once this process's part is done: a barrier when every member
 * has entered it; a broadcast when the data is in dst here (at the root:
 * when its sends are out).  Operations are matched across processes by
 * their order of initiation (a sequence number per kind): any number may
 * be in flight, and a message for one not yet initiated here waits for it.
 * Rounds that must be sent outside handlers advance from every poll
 * (stp.hook_coll, while stp.coll_active).
 */
#ifndef STP_COLL_H
#define STP_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"

/* A barrier's value: anonymous (matches anything), or a named id; a
 * mismatch, once seen, stays. */
enum { STP_BV_ANON = 1, STP_BV_MISMATCH = 2 };
typedef struct stp_bval {
  uint8_t flags;
  int32_t id;
} stp_bval_t;

/* Register the handlers (gex_Client_Init). */
void stp_coll_ref_register(void);
/* The progress hook (stp.hook_coll). */
void stp_coll_ref_progress(void);

/* A barrier combining every member's value; at completion the combined
 * value is in the record's val (stp_coll_barrier_value). */
stp_ev_t *stp_coll_barrier(const stp_bval_t *v);
static inline stp_bval_t stp_coll_barrier_value(const stp_ev_t *e) {
  stp_bval_t v = {(uint8_t)(e->val >> 32), (int32_t)(uint32_t)e->val};
  return v;
}
/* Broadcast n bytes from src at root to dst everywhere. */
stp_ev_t *stp_coll_bcast(gex_Rank_t root, void *dst, const void *src, size_t n);

#endif /* STP_COLL_H */
