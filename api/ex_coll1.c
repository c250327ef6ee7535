/*
 * ex_coll1.c -- the part of GASNet-1's collectives prototype that
 * GASNet-EX's own test programs still call (gasnet_coll.h): the team
 * barrier with a value (gasnet_coll_barrier_notify/wait/try), broadcast,
 * scatter, gather, gather_all and exchange with their _nb forms, and the
 * tuning/profile dumps (no-ops).  One process, one image
 * (GASNET_COLL_LOCAL addresses; SINGLE ones are the same addresses).
 *
 * Every data-movement call is one personalized exchange (coll.h).  The
 * synchronization flags: an IN_ALLSYNC call first runs a barrier over the
 * team; an OUT_ALLSYNC call waits for its exchange and then runs a barrier
 * (its _nb form returns a completed handle); MYSYNC and NOSYNC need
 * nothing more (the exchange reads src at initiation and completes when
 * dst here is written).
 */
#include "api.h"

#include <stdlib.h>

#include "gasnet_coll.h"

static struct _stp_tm *team_of(const char *fn, gasnet_team_handle_t team) {
  STP_CHECK_INITED(fn);
  STP_CHECK_NOT_IN_HANDLER(fn);
  return team == GASNET_TEAM_ALL ? &stp_tm0 : stp_tm_team(fn, (gex_TM_t)team);
}

/* ------------------------------------------------------------------ */
/* the team barrier with a value                                       */
/* ------------------------------------------------------------------ */
/* The named barrier's rules of the GASNet releases since 1.20 (those a
 * GASNet-EX client gets from gasnet_barrier_wait too): a named wait
 * mismatches a named barrier value other than its id; MISMATCH anywhere
 * mismatches everywhere.  One notify outstanding per team: kept in a small
 * table (the teams a client barriers over this way are few). */
#define MAXBAR 16
static struct {
  struct _stp_tm *t;
  gex_Event_t ev;
} bars[MAXBAR];

void gasnet_coll_barrier_notify(gasnet_team_handle_t team, int id, int flags) {
  STP_API_GUARD();
  const char *fn = "gasnet_coll_barrier_notify";
  struct _stp_tm *t = team_of(fn, team);
  int k, slot = -1;
  stp_bval_t v = {(uint8_t)(((flags & GASNET_BARRIERFLAG_ANONYMOUS) ? STP_BV_ANON : 0) |
                            ((flags & GASNET_BARRIERFLAG_MISMATCH) ? STP_BV_MISMATCH : 0)),
                  id};
  for (k = 0; k < MAXBAR; k++) {
    if (bars[k].t == t) stp_fatal("%s: called twice on a team without an intervening gasnet_coll_barrier_wait", fn);
    if (!bars[k].t && slot < 0) slot = k;
  }
  if (slot < 0) stp_fatal("%s: more than %d teams with a barrier notified and not waited for", fn, MAXBAR);
  bars[slot].t = t;
  bars[slot].ev = stp_ev_handle(stp_coll_barrier(&t->coll, &v)); /* (kept until its result is taken) */
}

/* (the wait outside the library lock: GASNET_BLOCKUNTIL hands it over) */
static int barrier_result(const char *fn, gasnet_team_handle_t team, int id, int flags, int wait) {
  struct _stp_tm *t = team_of(fn, team);
  int k, all_id, all_flags, named_wait, mismatch;
  gex_Event_t ev;
  {
    STP_API_GUARD();
    for (k = 0; k < MAXBAR && bars[k].t != t; k++) continue;
    if (k == MAXBAR) stp_fatal("%s: no preceding gasnet_coll_barrier_notify on this team", fn);
    ev = bars[k].ev;
  }
  if (wait) GASNET_BLOCKUNTIL(_stp_Coll_BarrierValueTest(ev, &all_id, &all_flags) == GASNET_OK);
  else if ((void)gasnet_AMPoll(), _stp_Coll_BarrierValueTest(ev, &all_id, &all_flags) != GASNET_OK)
    return GASNET_ERR_NOT_READY;
  {
    STP_API_GUARD();
    bars[k].t = NULL;
  }
  named_wait = !(flags & (GASNET_BARRIERFLAG_ANONYMOUS | GASNET_BARRIERFLAG_MISMATCH));
  mismatch = (all_flags & STP_BV_MISMATCH) || (flags & GASNET_BARRIERFLAG_MISMATCH) ||
             (named_wait && !(all_flags & STP_BV_ANON) && id != all_id);
  return mismatch ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK;
}

int gasnet_coll_barrier_wait(gasnet_team_handle_t team, int id, int flags) {
  return barrier_result("gasnet_coll_barrier_wait", team, id, flags, 1);
}
int gasnet_coll_barrier_try(gasnet_team_handle_t team, int id, int flags) {
  return barrier_result("gasnet_coll_barrier_try", team, id, flags, 0);
}
int gasnet_coll_barrier(gasnet_team_handle_t team, int id, int flags) {
  gasnet_coll_barrier_notify(team, id, flags);
  return gasnet_coll_barrier_wait(team, id, flags);
}

/* ------------------------------------------------------------------ */
/* data movement                                                       */
/* ------------------------------------------------------------------ */
enum { BCAST, SCATTER, GATHER, GATHER_ALL, EXCHANGE };

/* (the waits here and below are outside the library lock, which a wait
 * hands over between polls only when it is not held around it) */
static void team_barrier(struct _stp_tm *t) { gex_Coll_BarrierBlocking((gex_TM_t)t, 0); }

static gasnet_coll_handle_t coll1(const char *fn, int what, gasnet_team_handle_t team, gex_Rank_t root, void *dst,
                                  const void *src, size_t nbytes, int flags) {
  struct _stp_tm *t = team_of(fn, team);
  gex_Rank_t n = t->size, me = t->rank;
  const void **send = calloc(n, sizeof(void *));
  void **recv = calloc(n, sizeof(void *));
  size_t *sn = calloc(n, sizeof(size_t)), *rn = calloc(n, sizeof(size_t));
  gex_Event_t ev;
  if (flags & ~GASNET_COLL_FLAGS_ALL) stp_fatal("%s: flags 0x%x: unknown GASNET_COLL_* flags", fn, (unsigned)flags);
  if (what != GATHER_ALL && what != EXCHANGE && root >= n)
    stp_fatal("%s: root %u out of range (the team has %u members)", fn, (unsigned)root, (unsigned)n);
  if (!send || !recv || !sn || !rn) stp_fatal("%s: out of memory", fn);
  for (gex_Rank_t r = 0; r < n; r++) {
    switch (what) {
    case BCAST: /* root: src to every rank; every rank: dst from root */
      if (me == root) send[r] = src, sn[r] = nbytes;
      if (r == root) recv[r] = dst, rn[r] = nbytes;
      break;
    case SCATTER: /* root: block r of src to r */
      if (me == root) send[r] = (const char *)src + (size_t)r * nbytes, sn[r] = nbytes;
      if (r == root) recv[r] = dst, rn[r] = nbytes;
      break;
    case GATHER: /* every rank: src to root; root: block r of dst from r */
      if (r == root) send[r] = src, sn[r] = nbytes;
      if (me == root) recv[r] = (char *)dst + (size_t)r * nbytes, rn[r] = nbytes;
      break;
    case GATHER_ALL:
      send[r] = src, sn[r] = nbytes;
      recv[r] = (char *)dst + (size_t)r * nbytes, rn[r] = nbytes;
      break;
    default: /* EXCHANGE */
      send[r] = (const char *)src + (size_t)r * nbytes, sn[r] = nbytes;
      recv[r] = (char *)dst + (size_t)r * nbytes, rn[r] = nbytes;
      break;
    }
  }
  if (flags & GASNET_COLL_IN_ALLSYNC) team_barrier(t);
  {
    STP_API_GUARD();
    ev = stp_ev_root_handle(stp_coll_xchg(&t->coll, send, sn, recv, rn));
  }
  free(send), free(recv), free(sn), free(rn);
  if (flags & GASNET_COLL_OUT_ALLSYNC) {
    gex_Event_Wait(ev);
    team_barrier(t);
    ev = GEX_EVENT_INVALID;
  }
  return ev;
}

gasnet_coll_handle_t gasnet_coll_broadcast_nb(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage, void *src,
                                              size_t nbytes, int flags) {
  return coll1("gasnet_coll_broadcast_nb", BCAST, team, srcimage, dst, src, nbytes, flags);
}
gasnet_coll_handle_t gasnet_coll_scatter_nb(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage, void *src,
                                            size_t nbytes, int flags) {
  return coll1("gasnet_coll_scatter_nb", SCATTER, team, srcimage, dst, src, nbytes, flags);
}
gasnet_coll_handle_t gasnet_coll_gather_nb(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst, void *src,
                                           size_t nbytes, int flags) {
  return coll1("gasnet_coll_gather_nb", GATHER, team, dstimage, dst, src, nbytes, flags);
}
gasnet_coll_handle_t gasnet_coll_gather_all_nb(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes,
                                               int flags) {
  return coll1("gasnet_coll_gather_all_nb", GATHER_ALL, team, 0, dst, src, nbytes, flags);
}
gasnet_coll_handle_t gasnet_coll_exchange_nb(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes,
                                             int flags) {
  return coll1("gasnet_coll_exchange_nb", EXCHANGE, team, 0, dst, src, nbytes, flags);
}

void gasnet_coll_broadcast(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage, void *src, size_t nbytes,
                           int flags) {
  gex_Event_Wait(gasnet_coll_broadcast_nb(team, dst, srcimage, src, nbytes, flags));
}
void gasnet_coll_scatter(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage, void *src, size_t nbytes,
                         int flags) {
  gex_Event_Wait(gasnet_coll_scatter_nb(team, dst, srcimage, src, nbytes, flags));
}
void gasnet_coll_gather(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst, void *src, size_t nbytes,
                        int flags) {
  gex_Event_Wait(gasnet_coll_gather_nb(team, dstimage, dst, src, nbytes, flags));
}
void gasnet_coll_gather_all(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes, int flags) {
  gex_Event_Wait(gasnet_coll_gather_all_nb(team, dst, src, nbytes, flags));
}
void gasnet_coll_exchange(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes, int flags) {
  gex_Event_Wait(gasnet_coll_exchange_nb(team, dst, src, nbytes, flags));
}

void gasnet_coll_wait_sync(gasnet_coll_handle_t handle) { gex_Event_Wait(handle); }
int gasnet_coll_try_sync(gasnet_coll_handle_t handle) { return gex_Event_Test(handle); }

void gasnet_coll_dumpTuningState(char *filename, gasnet_team_handle_t team) { (void)filename, (void)team; }
void gasnet_coll_dumpProfile(char *filename, gasnet_team_handle_t team) { (void)filename, (void)team; }
