/*
 * ex_team.c -- teams: gex_TM_Split, gex_TM_Create, gex_TM_Destroy, the
 * team queries and translations, and the checks every entry point makes
 * of a gex_TM_t (api.h: STP_TM_JOBRANK, STP_CHECK_TM, stp_tm_team).
 *
 * A team is a record: this process's rank, the size, its members' job
 * ranks (and the inverse table), and the collectives' view (coll.h), whose
 * identity every member derives alike without a message: a hash of the
 * parent's identity, the parent's construction count (every member of the
 * parent makes every construction over it, in the same order) and the new
 * team's color (Split) or first member's job rank (Create: the teams of one
 * call are disjoint).  A message for a collective on a team this process
 * has not finished constructing waits like any early message (coll.h), so
 * no construction needs a barrier.  gex_TM_Split allgathers (color, key)
 * over the parent (a collective exchange); gex_TM_Create communicates
 * nothing (every member names every member), except the barrier over the
 * new team GEX_FLAG_TM_LOCAL_SCRATCH promises.
 *
 * Scratch space: the reference collectives need none.  The size queries
 * answer STP_TM_SCRATCH (0 for a caller that will not be a member); a
 * space the client grants is only remembered, for gex_TM_Destroy to hand
 * back.
 */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>

#define STP_TM_SCRATCH ((size_t)64 * 1024)

struct _stp_tm *stp_teams;

/* ------------------------------------------------------------------ */
/* checks                                                              */
/* ------------------------------------------------------------------ */
static struct _stp_tm *lookup(gex_TM_t tm) {
  for (struct _stp_tm *t = __atomic_load_n(&stp_teams, __ATOMIC_ACQUIRE); t; t = t->next) /* (lock-free: see team_new) */
    if (t == (struct _stp_tm *)tm) return t;
  return NULL;
}

/* (the last team found live: a loop over one team does not walk the list) */
static struct _stp_tm *last_live;

void stp_check_tm(const char *fn, gex_TM_t tm) {
  struct _stp_tm *t;
  if (tm == STP_TM0 || (uintptr_t)tm == ((uintptr_t)STP_EP0 | 1u)) return;
  if ((struct _stp_tm *)tm == __atomic_load_n(&last_live, __ATOMIC_RELAXED) && last_live->state == STP_TM_LIVE) return;
  if (!tm) stp_fatal("%s: GEX_TM_INVALID is not a team", fn);
  if (stp_tm_is_pair(tm) || !(t = lookup(tm)))
    stp_fatal("%s: %p is not a team of this client (the primordial team, one made by gex_TM_Split or gex_TM_Create, "
              "or a TM-pair of the primordial endpoint)", fn, (void *)tm);
  if (t->state != STP_TM_LIVE)
    stp_fatal("%s: team %p was destroyed (gex_TM_Destroy): it may not be used any more", fn, (void *)tm);
  __atomic_store_n(&last_live, t, __ATOMIC_RELAXED);
}

struct _stp_tm *stp_tm_team(const char *fn, gex_TM_t tm) {
  if (tm == STP_TM0) return &stp_tm0;
  if (STP_UNLIKELY(stp_tm_is_pair(tm)))
    stp_fatal("%s: %p is a TM-pair, which names no team (this call needs a team)", fn, (void *)tm);
#if STP_CHECKS
  stp_check_tm(fn, tm);
#endif
  return (struct _stp_tm *)tm;
}

gex_Rank_t stp_tm_jobrank_slow(const char *fn, gex_TM_t tm, gex_Rank_t rank) {
  struct _stp_tm *t;
  /* (first: before gasnet_init the legacy layer's team is not yet set, and
   * the call, not the team, is what is wrong) */
  STP_CHECK_INITED(fn);
  if (stp_tm_is_pair(tm)) {
    STP_CHECK_TM(fn, tm);
    return rank;
  }
  t = stp_tm_team(fn, tm);
  /* (with checks on or off: the table is indexed with it) */
  if (STP_UNLIKELY(rank >= t->size))
    stp_fatal("%s: rank %u out of range (a team of %u)", fn, (unsigned)rank, (unsigned)t->size);
  return t->jobrank ? t->jobrank[rank] : rank;
}

/* ------------------------------------------------------------------ */
/* queries and translations                                            */
/* ------------------------------------------------------------------ */
void gex_TM_SetCData(gex_TM_t tm, const void *v) { stp_tm_team("gex_TM_SetCData", tm)->cdata = v; }
void *gex_TM_QueryCData(gex_TM_t tm) { return (void *)stp_tm_team("gex_TM_QueryCData", tm)->cdata; }
gex_Flags_t gex_TM_QueryFlags(gex_TM_t tm) { return stp_tm_team("gex_TM_QueryFlags", tm)->flags; }
gex_Rank_t gex_TM_QueryRank(gex_TM_t tm) { return stp_tm_team("gex_TM_QueryRank", tm)->rank; }
gex_Rank_t gex_TM_QuerySize(gex_TM_t tm) { return stp_tm_team("gex_TM_QuerySize", tm)->size; }
gex_Client_t gex_TM_QueryClient(gex_TM_t tm) {
  STP_CHECK_TM("gex_TM_QueryClient", tm);
  return STP_CLIENT;
}
gex_EP_t gex_TM_QueryEP(gex_TM_t tm) {
  STP_CHECK_TM("gex_TM_QueryEP", tm);
  return STP_EP0;
}

gex_TM_t gex_TM_Pair(gex_EP_t local_ep, gex_EP_Index_t remote_ep_index) {
  if (local_ep != STP_EP0) stp_fatal("gex_TM_Pair: %p is not a valid endpoint", (void *)local_ep);
  if (remote_ep_index >= GASNET_MAXEPS)
    stp_fatal("gex_TM_Pair: remote endpoint index %u (GASNET_MAXEPS is %d)", (unsigned)remote_ep_index, GASNET_MAXEPS);
  return (gex_TM_t)((uintptr_t)local_ep | 1u);
}

gex_Rank_t gex_TM_TranslateRankToJobrank(gex_TM_t tm, gex_Rank_t rank) {
  struct _stp_tm *t = stp_tm_team("gex_TM_TranslateRankToJobrank", tm);
  if (rank >= t->size)
    stp_fatal("gex_TM_TranslateRankToJobrank: rank %u out of range (team of %u)", (unsigned)rank, (unsigned)t->size);
  return t->jobrank ? t->jobrank[rank] : rank;
}

gex_Rank_t gex_TM_TranslateJobrankToRank(gex_TM_t tm, gex_Rank_t jobrank) {
  struct _stp_tm *t = stp_tm_team("gex_TM_TranslateJobrankToRank", tm);
  if (jobrank >= stp.nodes)
    stp_fatal("gex_TM_TranslateJobrankToRank: job rank %u out of range (job of %u)", (unsigned)jobrank,
              (unsigned)stp.nodes);
  return t->rank_of ? t->rank_of[jobrank] : jobrank;
}

gex_EP_Location_t gex_TM_TranslateRankToEP(gex_TM_t tm, gex_Rank_t rank, gex_Flags_t flags) {
  gex_EP_Location_t loc;
  if (flags) stp_fatal("gex_TM_TranslateRankToEP: flags 0x%x (reserved: 0)", (unsigned)flags);
  loc.gex_rank = gex_TM_TranslateRankToJobrank(tm, rank);
  loc.gex_ep_index = 0;
  return loc;
}

/* ------------------------------------------------------------------ */
/* construction                                                        */
/* ------------------------------------------------------------------ */
static uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* The identity of a team made by construction number `made` over parent
 * (which: 0 Split, 1 Create; tag: the color, or the first job rank). */
static uint64_t team_id(const struct _stp_tm *parent, uint32_t made, int which, uint32_t tag) {
  uint64_t id = mix64(mix64(parent->coll.id ^ ((uint64_t)made << 1 | (uint64_t)which)) ^ tag);
  return id ? id : 1; /* (0 is the primordial team) */
}

/* A new live team of `size` members (job ranks: members), this process
 * at rank `me`. */
static struct _stp_tm *team_new(const char *fn, uint64_t id, gex_Rank_t *members, gex_Rank_t size, gex_Rank_t me,
                                gex_Flags_t flags, void *scratch, size_t scratch_size) {
  struct _stp_tm *t = calloc(1, sizeof(*t));
  if (!t || !(t->rank_of = malloc(stp.nodes * sizeof(gex_Rank_t)))) stp_fatal("%s: out of memory", fn);
  for (gex_Rank_t j = 0; j < stp.nodes; j++) t->rank_of[j] = GEX_RANK_INVALID;
  for (gex_Rank_t r = 0; r < size; r++) t->rank_of[members[r]] = r;
  t->jobrank = members;
  t->rank = me;
  t->size = size;
  t->flags = flags;
  t->state = STP_TM_LIVE;
  t->scratch.gex_addr = scratch;
  t->scratch.gex_len = scratch ? scratch_size : 0;
  t->coll.id = id;
  t->coll.rank = me;
  t->coll.size = size;
  t->coll.jobrank = members;
  t->next = stp_teams; /* (under the library lock; published for lookups that take none) */
  __atomic_store_n(&stp_teams, t, __ATOMIC_RELEASE);
  return t;
}

static void check_ctor_flags(const char *fn, gex_Flags_t flags, gex_Flags_t allowed) {
  if (flags & ~allowed) stp_fatal("%s: flags 0x%x: unknown or not valid here", fn, (unsigned)flags);
  if ((flags & GEX_FLAG_TM_SCRATCH_SIZE_MIN) && (flags & GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED))
    stp_fatal("%s: GEX_FLAG_TM_SCRATCH_SIZE_MIN and _RECOMMENDED together", fn);
  if (flags & GEX_FLAG_TM_SCRATCH_SIZE_MIN) {
    static int warned;
    if (!warned++)
      fprintf(stderr, "stageport: WARNING: %s: GEX_FLAG_TM_SCRATCH_SIZE_MIN is deprecated (use "
                      "GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED)\n", fn);
  }
}
#define SIZE_QUERY (GEX_FLAG_TM_SCRATCH_SIZE_MIN | GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED)

typedef struct {
  int32_t color, key;
} split_rec_t;

/* (The library lock is held only around what touches the library's
 * state: a wait under it would not hand it over between polls, and another
 * thread's construction over another team may be what a peer waits for.) */
size_t gex_TM_Split(gex_TM_t *new_tm_p, gex_TM_t parent_tm, int color, int key, void *scratch_addr,
                    size_t scratch_size, gex_Flags_t flags) {
  const char *fn = "gex_TM_Split";
  struct _stp_tm *p;
  split_rec_t mine, *all;
  gex_Rank_t n, m = 0, me = 0, *members;
  const void **send;
  void **recv;
  size_t *sn, *rn;
  uint32_t made;
  gex_Event_t ev;
  STP_CHECK_INITED(fn);
  STP_CHECK_NOT_IN_HANDLER(fn);
  p = stp_tm_team(fn, parent_tm);
  check_ctor_flags(fn, flags, SIZE_QUERY | GEX_FLAG_TM_NO_SCRATCH);
  if (flags & SIZE_QUERY) return new_tm_p && color >= 0 ? STP_TM_SCRATCH : 0; /* (nothing to agree on) */
  n = p->size;
  mine.color = new_tm_p && color >= 0 ? color : -1;
  mine.key = key;
  all = malloc(n * sizeof(*all));
  send = malloc(n * sizeof(*send));
  recv = malloc(n * sizeof(*recv));
  sn = malloc(n * sizeof(*sn));
  rn = malloc(n * sizeof(*rn));
  if (!all || !send || !recv || !sn || !rn) stp_fatal("%s: out of memory", fn);
  for (gex_Rank_t r = 0; r < n; r++) {
    send[r] = &mine;
    recv[r] = &all[r];
    sn[r] = rn[r] = sizeof(mine);
  }
  {
    STP_API_GUARD();
    made = p->made++;
    ev = stp_ev_root_handle(stp_coll_xchg(&p->coll, send, sn, recv, rn));
  }
  gex_Event_Wait(ev);
  free(send), free(recv), free(sn), free(rn);
  {
    STP_API_GUARD();
    if (mine.color < 0) {
      free(all);
      if (new_tm_p) *new_tm_p = GEX_TM_INVALID;
      return 0;
    }
    /* the members: same color, by key, ties by parent rank (insertion sort: stable) */
    if (!(members = malloc(n * sizeof(gex_Rank_t)))) stp_fatal("%s: out of memory", fn);
    for (gex_Rank_t r = 0; r < n; r++) {
      gex_Rank_t k;
      if (all[r].color != mine.color) continue;
      for (k = m; k > 0 && all[members[k - 1]].key > all[r].key; k--) members[k] = members[k - 1];
      members[k] = r;
      m++;
    }
    for (gex_Rank_t k = 0; k < m; k++) {
      if (members[k] == p->rank) me = k;
      members[k] = p->jobrank ? p->jobrank[members[k]] : members[k]; /* parent rank -> job rank */
    }
    free(all);
    *new_tm_p = (gex_TM_t)team_new(fn, team_id(p, made, 0, (uint32_t)mine.color), members, m, me, flags,
                                   (flags & GEX_FLAG_TM_NO_SCRATCH) ? NULL : scratch_addr, scratch_size);
  }
  return 0;
}

size_t gex_TM_Create(gex_TM_t *new_tms, size_t num_new_tms, gex_TM_t parent_tm, gex_EP_Location_t *args,
                     size_t numargs, gex_Addr_t *scratch_addrs, size_t scratch_size, gex_Flags_t flags) {
  const char *fn = "gex_TM_Create";
  const gex_Flags_t scratch_kinds = GEX_FLAG_TM_GLOBAL_SCRATCH | GEX_FLAG_TM_LOCAL_SCRATCH |
                                    GEX_FLAG_TM_SYMMETRIC_SCRATCH | GEX_FLAG_TM_NO_SCRATCH;
  struct _stp_tm *p, *t;
  gex_Rank_t *members, me = GEX_RANK_INVALID;
  uint32_t made;
  void *scratch = NULL;
  STP_CHECK_INITED(fn);
  STP_CHECK_NOT_IN_HANDLER(fn);
  p = stp_tm_team(fn, parent_tm);
  check_ctor_flags(fn, flags, SIZE_QUERY | scratch_kinds | GEX_FLAG_RANK_IS_JOBRANK);
  if (flags & SIZE_QUERY) return numargs ? STP_TM_SCRATCH : 0;
  {
    STP_API_GUARD();
    made = p->made++;
  }
  if (!numargs) return 0;
  {
    gex_Flags_t k = flags & scratch_kinds;
    if (!k || (k & (k - 1)))
      stp_fatal("%s: flags 0x%x: exactly one of GEX_FLAG_TM_{GLOBAL,LOCAL,SYMMETRIC,NO}_SCRATCH is required", fn,
                (unsigned)flags);
  }
  if (!args) stp_fatal("%s: args is NULL with numargs %zu", fn, numargs);
  if (numargs > stp.nodes) stp_fatal("%s: %zu members, more than the job's %u processes", fn, numargs, (unsigned)stp.nodes);
  if (!(members = malloc(numargs * sizeof(gex_Rank_t)))) stp_fatal("%s: out of memory", fn);
  for (size_t k = 0; k < numargs; k++) {
    gex_Rank_t r = args[k].gex_rank;
    if (args[k].gex_ep_index != 0)
      stp_fatal("%s: args[%zu] names endpoint index %u (GASNET_MAXEPS is %d)", fn, k, (unsigned)args[k].gex_ep_index,
                GASNET_MAXEPS);
    if (!(flags & GEX_FLAG_RANK_IS_JOBRANK)) {
      if (r >= p->size) stp_fatal("%s: args[%zu]: rank %u out of the parent team's range (%u)", fn, k, (unsigned)r,
                                  (unsigned)p->size);
      r = p->jobrank ? p->jobrank[r] : r;
    } else if (r >= stp.nodes) {
      stp_fatal("%s: args[%zu]: job rank %u out of range (job of %u)", fn, k, (unsigned)r, (unsigned)stp.nodes);
    }
    for (size_t j = 0; j < k; j++)
      if (members[j] == r) stp_fatal("%s: args[%zu] and args[%zu] name the same process (job rank %u)", fn, j, k, (unsigned)r);
    if (r == stp.mynode) me = (gex_Rank_t)k;
    members[k] = r;
  }
  if (num_new_tms != (me != GEX_RANK_INVALID ? 1u : 0u))
    stp_fatal("%s: num_new_tms is %zu, but args names %s of this process's endpoints", fn, num_new_tms,
              me != GEX_RANK_INVALID ? "one" : "none");
  if (me == GEX_RANK_INVALID) { /* (members elsewhere: nothing made here) */
    free(members);
    return 0;
  }
  if (!new_tms) stp_fatal("%s: new_tms is NULL", fn);
  if (!(flags & GEX_FLAG_TM_NO_SCRATCH)) {
    if (!scratch_addrs) stp_fatal("%s: scratch_addrs is NULL (flags 0x%x name a scratch space)", fn, (unsigned)flags);
    scratch = (flags & GEX_FLAG_TM_GLOBAL_SCRATCH) ? scratch_addrs[me] : scratch_addrs[0];
  }
  {
    STP_API_GUARD();
    t = team_new(fn, team_id(p, made, 1, members[0]), members, (gex_Rank_t)numargs, me, flags, scratch, scratch_size);
  }
  new_tms[0] = (gex_TM_t)t;
  if (flags & GEX_FLAG_TM_LOCAL_SCRATCH) /* (the description promises a barrier over the new team) */
    gex_Coll_BarrierBlocking((gex_TM_t)t, 0);
  return 0;
}

int gex_TM_Destroy(gex_TM_t tm, gex_Memvec_t *scratch_p, gex_Flags_t flags) {
  STP_API_GUARD();
  const char *fn = "gex_TM_Destroy";
  struct _stp_tm *t;
  STP_CHECK_INITED(fn);
  STP_CHECK_NOT_IN_HANDLER(fn);
  t = stp_tm_team(fn, tm);
  if (t == &stp_tm0) stp_fatal("%s: the primordial team cannot be destroyed", fn);
  if (flags & ~(GEX_FLAG_GLOBALLY_QUIESCED | GEX_FLAG_SCRATCH_SEG_OFFSET))
    stp_fatal("%s: flags 0x%x: only GEX_FLAG_GLOBALLY_QUIESCED and GEX_FLAG_SCRATCH_SEG_OFFSET", fn, (unsigned)flags);
  /* No synchronization: every collective of this team is complete here
   * (locally quiesced), so everything sent to this process for it has
   * come; what this process sent waits for its peers' instances. */
  t->state = STP_TM_DEAD;
  t->size = t->coll.size = 0;
  free(t->jobrank);
  free(t->rank_of);
  t->jobrank = t->rank_of = NULL;
  t->coll.jobrank = NULL;
  if (!t->scratch.gex_addr) return 0;
  if (scratch_p) {
    *scratch_p = t->scratch;
    if ((flags & GEX_FLAG_SCRATCH_SEG_OFFSET) && stp_seg0.addr)
      scratch_p->gex_addr = (void *)((uintptr_t)t->scratch.gex_addr - (uintptr_t)stp_seg0.addr);
    return 1;
  }
  return 0;
}
