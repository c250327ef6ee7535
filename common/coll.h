/*
 * coll.h -- collectives on any team: the barrier (gex_Coll_BarrierNB, and
 * the barrier with a value the legacy layer's named GASNet-1 barrier
 * needs), the personalized exchange every data-movement collective is
 * made of (broadcast, the team constructors' allgather, GASNet-1's
 * scatter/gather/gather_all/exchange) and the reductions (to one, to all).
 * One implementation, the reference over the Core's AMs
 * (ext-ref/ref_coll.c).
 *
 * A team is what the collectives need of it (stp_cteam_t, kept inside the
 * API layer's team object): an identity every member agrees on, this
 * process's rank, the size, and the translation of a team rank to a job
 * rank.  Every message names its team's identity, its kind and the
 * instance's sequence number: instances of a kind on a team are matched
 * across processes by their order of initiation, any number may be in
 * flight, and a message for one not yet initiated here -- on a team this
 * process has not even finished constructing -- waits for it.
 *
 * Every operation is an event record (event.h, category STP_EC_COLL) that
 * completes once this process's part is done: a barrier when every member
 * has entered it; an exchange when every byte this process expects is in
 * place (its own sends have left at initiation); a reduction when the
 * result is in dst here (where there is one) and this process's
 * contribution has left.  Rounds that must be sent outside handlers
 * advance from every poll (stp.hook_coll, while stp.coll_active).
 */
#ifndef STP_COLL_H
#define STP_COLL_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"

/* The collectives' view of a team.  id 0 is the primordial team; a team
 * made over a parent gets an id every member derives alike (the API
 * layer's: a hash of the parent's id, the parent's construction count and
 * the new team's color or first member). */
enum { STP_CK_BARRIER, STP_CK_XCHG, STP_CK_REDUCE, STP_CK_N };
typedef struct stp_cteam {
  uint64_t id;
  gex_Rank_t rank, size;
  const gex_Rank_t *jobrank; /* team rank -> job rank; NULL: the identity */
  uint32_t seq[STP_CK_N];    /* the next instance of each kind to initiate here */
} stp_cteam_t;

static inline gex_Rank_t stp_cteam_jobrank(const stp_cteam_t *t, gex_Rank_t r) {
  return t->jobrank ? t->jobrank[r] : r;
}

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
stp_ev_t *stp_coll_barrier(stp_cteam_t *t, const stp_bval_t *v);
static inline stp_bval_t stp_coll_barrier_value(const stp_ev_t *e) {
  stp_bval_t v = {(uint8_t)(e->val >> 32), (int32_t)(uint32_t)e->val};
  return v;
}

/* The personalized exchange: this process sends send_n[r] bytes from
 * send[r] to team rank r and takes recv_n[r] bytes from r into recv[r]
 * (its own block: copied, unless the pointers are equal).  The arrays
 * have t->size entries and are copied; every pair's sizes must agree
 * (send_n[r] here == recv_n[me] at r: a mismatch is a fatal error).
 * Sends leave in Medium requests of at most max_medium bytes. */
stp_ev_t *stp_coll_xchg(stp_cteam_t *t, const void *const *send, const size_t *send_n, void *const *recv,
                        const size_t *recv_n);
/* Broadcast n bytes from src at team rank root to dst everywhere. */
stp_ev_t *stp_coll_bcast(stp_cteam_t *t, gex_Rank_t root, void *dst, const void *src, size_t n);

/* A reduction: cnt elements of dt_sz bytes, every member's src combined
 * element-wise in team-rank order (src[0] op src[1] op ... : a binomial
 * tree over ranks that keeps the order, so GEX_OP_USER_NC is exact), the
 * result in dst at root, or at every member for STP_ROOT_ALL.  dt and op
 * are checked by the caller (stp_coll_op_valid). */
#define STP_ROOT_ALL ((gex_Rank_t)0xFFFFFFFFu)
typedef void (*stp_reduce_fn_t)(const void *arg1, void *arg2_and_out, size_t count, const void *cdata);
stp_ev_t *stp_coll_reduce(stp_cteam_t *t, gex_Rank_t root, void *dst, const void *src, uint32_t dt, size_t dt_sz,
                          size_t cnt, uint32_t op, stp_reduce_fn_t user_fn, const void *user_cdata);
/* The size of a built-in data type (0: not one), and whether a built-in
 * operation applies to it in a reduction (1) or not (0). */
size_t stp_coll_dt_size(uint32_t dt);
int stp_coll_op_valid(uint32_t dt, uint32_t op);

#endif /* STP_COLL_H */
