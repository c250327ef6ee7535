/*
 * ex_event.c -- events and NBI: gex_Event_*, gex_NBI_*, and the
 * collectives' entry points (gex_Coll_*: the reference implementation's
 * events, common/coll.h).
 *
 * An event names a pooled record and its generation; a root is freed (its
 * handle stale) when a test or wait finds it complete; its LC leaf (the
 * same record's STP_EC_LC count) may be tested before that.  An event that
 * names no record in flight -- synchronized already, or never an event --
 * is a fatal error with argument checks on, and is taken as complete
 * without them (never a touch of another operation); GEX_EVENT_NO_OP is
 * always erroneous.
 */
#include "api.h"

#include "gasnet_coll.h"

/* ------------------------------------------------------------------ */
/* events                                                              */
/* ------------------------------------------------------------------ */
/* The record an event names (*leaf: its LC leaf), or NULL: complete. */
static stp_ev_t *event_ev(const char *fn, gex_Event_t h, int *leaf) {
  stp_ev_t *e;
  if (STP_UNLIKELY(h == GEX_EVENT_NO_OP)) stp_fatal("%s: GEX_EVENT_NO_OP is not an event (an IMMEDIATE refusal)", fn);
  e = stp_ev_lookup(h, leaf);
#if STP_CHECKS
  STP_CHECK_INITED(fn);
  if (STP_UNLIKELY(!e || e->kind != STP_EV_ROOT))
    stp_fatal("%s: event %p is not an operation in flight (synchronized already, or not an event)", fn, (void *)h);
#else
  (void)fn;
  if (e && e->kind != STP_EV_ROOT) e = NULL;
#endif
  return e;
}

/* A wait that must poll: not from a handler (handlers may not poll).  A
 * wait that finds its operations complete polls nothing and is allowed
 * there -- clients do that (osss-gasnet's exit handler waits for its NBI
 * puts), and real GASNet does not refuse it either. */
static void check_may_poll(const char *fn) {
  STP_CHECK_NOT_IN_HANDLER(fn);
  (void)fn;
}

/* Test one event without polling: 1 complete (a root is consumed). */
static int test1(stp_ev_t *e, int leaf) {
  if (leaf && !stp_lc_reference) return stp_ev_test(e, STP_EC_MASK(STP_EC_LC));
  if (!stp_ev_test(e, STP_EC_ALL_MASK)) return 0;
  if (!leaf) stp_ev_free(e);
  return 1;
}

int gex_Event_Test(gex_Event_t event) {
  STP_API_GUARD();
  int leaf;
  stp_ev_t *e;
  if (!event) return GASNET_OK;
  if (!(e = event_ev("gex_Event_Test", event, &leaf))) return GASNET_OK;
  return test1(e, leaf) ? GASNET_OK : GASNET_ERR_NOT_READY;
}

void gex_Event_Wait(gex_Event_t event) {
  STP_API_GUARD();
  unsigned spins = 0;
  int leaf;
  stp_ev_t *e;
  if (!event) return;
  if (!(e = event_ev("gex_Event_Wait", event, &leaf))) return;
  if (test1(e, leaf)) return;
  check_may_poll("gex_Event_Wait");
  if (stp.net_poll) { /* the network's own progress first (completion events are often there) */
    stp.net_poll();
    if (test1(e, leaf)) return;
  }
  while (!test1(e, leaf)) stp_api_wait_step(&spins);
}

/* Test a list: how many valid events completed (set to INVALID); *left =
 * valid ones still pending.  Leaves first, roots after: a leaf listed after
 * its root is not "tested after its root's synchronization". */
static size_t test_list(const char *fn, gex_Event_t *pe, size_t n, size_t *left) {
  size_t done = 0;
  *left = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < n; i++) {
      int leaf;
      stp_ev_t *e;
      if (!pe[i]) continue;
      if ((((uint64_t)(uintptr_t)pe[i] & STP_EV_LEAF_BIT) != 0) != (pass == 0)) continue;
      e = event_ev(fn, pe[i], &leaf);
      if (!e || test1(e, leaf)) {
        pe[i] = GEX_EVENT_INVALID;
        done++;
      } else {
        (*left)++;
      }
    }
  return done;
}

int gex_Event_TestSome(gex_Event_t *pevent, size_t numevents, gex_Flags_t flags) {
  STP_API_GUARD();
  size_t left, done;
  (void)flags;
  done = test_list("gex_Event_TestSome", pevent, numevents, &left);
  return (done || !left) ? GASNET_OK : GASNET_ERR_NOT_READY;
}

void gex_Event_WaitSome(gex_Event_t *pevent, size_t numevents, gex_Flags_t flags) {
  STP_API_GUARD();
  unsigned spins = 0;
  size_t left, done = test_list("gex_Event_WaitSome", pevent, numevents, &left);
  (void)flags;
  if (!done && left) check_may_poll("gex_Event_WaitSome");
  while (!done && left) {
    stp_api_wait_step(&spins);
    done = test_list("gex_Event_WaitSome", pevent, numevents, &left);
  }
}

int gex_Event_TestAll(gex_Event_t *pevent, size_t numevents, gex_Flags_t flags) {
  STP_API_GUARD();
  size_t left;
  (void)flags;
  test_list("gex_Event_TestAll", pevent, numevents, &left);
  return left ? GASNET_ERR_NOT_READY : GASNET_OK;
}

void gex_Event_WaitAll(gex_Event_t *pevent, size_t numevents, gex_Flags_t flags) {
  STP_API_GUARD();
  unsigned spins = 0;
  size_t left;
  (void)flags;
  test_list("gex_Event_WaitAll", pevent, numevents, &left);
  if (left) check_may_poll("gex_Event_WaitAll");
  while (left) {
    stp_api_wait_step(&spins);
    test_list("gex_Event_WaitAll", pevent, numevents, &left);
  }
}

gex_Event_t gex_Event_QueryLeaf(gex_Event_t root, gex_EC_t event_category) {
  STP_API_GUARD();
  int leaf;
  stp_ev_t *e;
  if (STP_UNLIKELY(event_category != GEX_EC_LC))
    stp_fatal("gex_Event_QueryLeaf: category 0x%x: the only leaf events are local completions (GEX_EC_LC)",
              (unsigned)event_category);
  if (!root) return GEX_EVENT_INVALID;
  if (!(e = event_ev("gex_Event_QueryLeaf", root, &leaf))) return GEX_EVENT_INVALID;
  return stp_ev_leaf_handle(e);
}

/* ------------------------------------------------------------------ */
/* NBI                                                                 */
/* ------------------------------------------------------------------ */
/* gex_EC_t bits as event categories.  Under STAGEPORT_LC=reference a
 * local completion is a remote one: LC tests PUT too. */
static unsigned ec_mask(const char *fn, gex_EC_t m) {
  unsigned k = 0;
  if (STP_UNLIKELY(m & ~GEX_EC_ALL)) stp_fatal("%s: event mask 0x%x has unknown categories", fn, (unsigned)m);
  if (m & GEX_EC_GET) k |= STP_EC_MASK(STP_EC_GET);
  if (m & GEX_EC_PUT) k |= STP_EC_MASK(STP_EC_PUT);
  if (m & GEX_EC_AM) k |= STP_EC_MASK(STP_EC_AM);
  if (m & GEX_EC_LC) k |= STP_EC_MASK(STP_EC_LC) | (stp_lc_reference ? STP_EC_MASK(STP_EC_PUT) : 0u);
  if (m & GEX_EC_RMW) k |= STP_EC_MASK(STP_EC_RMW);
  return k;
}

static void check_nbi_sync(const char *fn) {
  STP_CHECK_INITED(fn);
#if STP_CHECKS
  if (STP_UNLIKELY(stp_thread()->region)) stp_fatal("%s: implicit-event sync inside an access region", fn);
#endif
  (void)fn;
}

int gex_NBI_Test(gex_EC_t event_mask, gex_Flags_t flags) {
  STP_API_GUARD();
  (void)flags;
  check_nbi_sync("gex_NBI_Test");
  return stp_ev_test(&stp_thread()->nbi, ec_mask("gex_NBI_Test", event_mask)) ? GASNET_OK : GASNET_ERR_NOT_READY;
}

void gex_NBI_Wait(gex_EC_t event_mask, gex_Flags_t flags) {
  STP_API_GUARD();
  unsigned mask = ec_mask("gex_NBI_Wait", event_mask);
  (void)flags;
  check_nbi_sync("gex_NBI_Wait");
  if (stp_ev_test(&stp_thread()->nbi, mask)) return;
  check_may_poll("gex_NBI_Wait");
  stp_ev_wait(&stp_thread()->nbi, mask);
}

void gex_NBI_BeginAccessRegion(gex_Flags_t flags) {
  STP_API_GUARD();
  (void)flags;
  STP_CHECK_INITED("gex_NBI_BeginAccessRegion");
#if STP_CHECKS
  if (stp_thread()->region)
    stp_fatal("gex_NBI_BeginAccessRegion: an access region is already open (they do not nest)");
#endif
  stp_thread()->region = stp_ev_alloc(STP_EV_REGION);
}

gex_Event_t gex_NBI_EndAccessRegion(gex_Flags_t flags) {
  STP_API_GUARD();
  stp_thread_t *t = stp_thread();
  stp_ev_t *e = t->region;
  (void)flags;
  STP_CHECK_INITED("gex_NBI_EndAccessRegion");
  if (!e) stp_fatal("gex_NBI_EndAccessRegion: no access region is open");
  t->region = NULL;
  e->kind = STP_EV_ROOT;
  return stp_ev_root_handle(e);
}

/* ------------------------------------------------------------------ */
/* collectives on any team (the reference: common/coll.h)              */
/* ------------------------------------------------------------------ */
static struct _stp_tm *coll_team(const char *fn, gex_TM_t tm, gex_Flags_t flags) {
  STP_CHECK_INITED(fn);
  STP_CHECK_NOT_IN_HANDLER(fn);
  if (STP_UNLIKELY(flags)) stp_fatal("%s: flags 0x%x (reserved: 0)", fn, (unsigned)flags);
  return stp_tm_team(fn, tm);
}

static void check_root(const char *fn, const struct _stp_tm *t, gex_Rank_t root) {
  if (STP_UNLIKELY(root >= t->size))
    stp_fatal("%s: root %u out of range (the team has %u members)", fn, (unsigned)root, (unsigned)t->size);
}

gex_Event_t gex_Coll_BarrierNB(gex_TM_t tm, gex_Flags_t flags) {
  STP_API_GUARD();
  stp_bval_t anon = {STP_BV_ANON, 0};
  struct _stp_tm *t = coll_team("gex_Coll_BarrierNB", tm, flags);
  return stp_ev_root_handle(stp_coll_barrier(&t->coll, &anon));
}

void gex_Coll_BarrierBlocking(gex_TM_t tm, gex_Flags_t flags) { gex_Event_Wait(gex_Coll_BarrierNB(tm, flags)); }

gex_Event_t gex_Coll_BroadcastNB(gex_TM_t tm, gex_Rank_t root, void *dst, const void *src, size_t nbytes,
                                 gex_Flags_t flags) {
  STP_API_GUARD();
  const char *fn = "gex_Coll_BroadcastNB";
  struct _stp_tm *t = coll_team(fn, tm, flags);
  check_root(fn, t, root);
  STP_CHECK_LOCAL(fn, "destination", dst, nbytes);
  if (t->rank == root) STP_CHECK_LOCAL(fn, "source", src, nbytes);
  return stp_ev_root_handle(stp_coll_bcast(&t->coll, root, dst, src, nbytes));
}

/* dt, dt_sz, dt_cnt, op and user_op: what the description allows */
static void check_reduce(const char *fn, gex_DT_t dt, size_t dt_sz, size_t dt_cnt, gex_OP_t op,
                         gex_Coll_ReduceFn_t user_op) {
  size_t builtin = stp_coll_dt_size(dt);
  int user = op == GEX_OP_USER || op == GEX_OP_USER_NC;
  if (STP_UNLIKELY(!builtin && dt != GEX_DT_USER))
    stp_fatal("%s: dt 0x%x is not a data type of reductions (GEX_DT_{I32,U32,I64,U64,FLT,DBL,USER})", fn, (unsigned)dt);
  if (STP_UNLIKELY(!stp_coll_op_valid(dt, op)))
    stp_fatal("%s: op 0x%x is not a reduction operation for dt 0x%x (ADD MULT MIN MAX for every built-in type, AND "
              "OR XOR for integers, USER and USER_NC for every type; GEX_DT_USER takes only USER and USER_NC)",
              fn, (unsigned)op, (unsigned)dt);
  if (STP_UNLIKELY(builtin && dt_sz != builtin))
    stp_fatal("%s: dt_sz %zu, but the data type's size is %zu", fn, dt_sz, builtin);
  if (STP_UNLIKELY(!dt_sz || !dt_cnt)) stp_fatal("%s: dt_sz %zu, dt_cnt %zu (both must be non-zero)", fn, dt_sz, dt_cnt);
  if (STP_UNLIKELY(dt_cnt > SIZE_MAX / dt_sz)) stp_fatal("%s: dt_sz %zu * dt_cnt %zu overflows", fn, dt_sz, dt_cnt);
  if (STP_UNLIKELY(user && !user_op)) stp_fatal("%s: op GEX_OP_USER%s with a NULL user_op", fn, op == GEX_OP_USER ? "" : "_NC");
}

gex_Event_t gex_Coll_ReduceToOneNB(gex_TM_t tm, gex_Rank_t root, void *dst, const void *src, gex_DT_t dt,
                                   size_t dt_sz, size_t dt_cnt, gex_OP_t op, gex_Coll_ReduceFn_t user_op,
                                   void *user_cdata, gex_Flags_t flags) {
  STP_API_GUARD();
  const char *fn = "gex_Coll_ReduceToOneNB";
  struct _stp_tm *t = coll_team(fn, tm, flags);
  size_t nbytes = dt_sz * dt_cnt;
  check_root(fn, t, root);
  check_reduce(fn, dt, dt_sz, dt_cnt, op, user_op);
  STP_CHECK_LOCAL(fn, "source", src, nbytes);
  if (t->rank == root) STP_CHECK_LOCAL(fn, "destination", dst, nbytes);
  return stp_ev_root_handle(stp_coll_reduce(&t->coll, root, dst, src, dt, dt_sz, dt_cnt, op,
                                            (stp_reduce_fn_t)user_op, user_cdata));
}

gex_Event_t gex_Coll_ReduceToAllNB(gex_TM_t tm, void *dst, const void *src, gex_DT_t dt, size_t dt_sz, size_t dt_cnt,
                                   gex_OP_t op, gex_Coll_ReduceFn_t user_op, void *user_cdata, gex_Flags_t flags) {
  STP_API_GUARD();
  const char *fn = "gex_Coll_ReduceToAllNB";
  struct _stp_tm *t = coll_team(fn, tm, flags);
  size_t nbytes = dt_sz * dt_cnt;
  check_reduce(fn, dt, dt_sz, dt_cnt, op, user_op);
  STP_CHECK_LOCAL(fn, "source", src, nbytes);
  STP_CHECK_LOCAL(fn, "destination", dst, nbytes);
  return stp_ev_root_handle(stp_coll_reduce(&t->coll, STP_ROOT_ALL, dst, src, dt, dt_sz, dt_cnt, op,
                                            (stp_reduce_fn_t)user_op, user_cdata));
}

/* The legacy layer's named barrier: a barrier whose members bring a value
 * (gasnet_barrier_notify's id and flags); its result once complete. */
gex_Event_t _stp_Coll_BarrierValueNB(gex_TM_t tm, int id, int flags) {
  STP_API_GUARD();
  stp_bval_t v = {(uint8_t)flags, id};
  struct _stp_tm *t = coll_team("gasnet_barrier_notify", tm, 0);
  return stp_ev_handle(stp_coll_barrier(&t->coll, &v)); /* (kept until its result is taken) */
}

int _stp_Coll_BarrierValueTest(gex_Event_t event, int *id, int *flags) {
  STP_API_GUARD();
  int leaf;
  stp_ev_t *e = event_ev("gasnet_barrier_wait", event, &leaf);
  stp_bval_t v;
  if (!e) stp_fatal("gasnet_barrier_wait: no barrier in flight");
  if (!stp_ev_test(e, STP_EC_ALL_MASK)) return GASNET_ERR_NOT_READY;
  v = stp_coll_barrier_value(e);
  *id = v.id;
  *flags = v.flags;
  stp_ev_free(e);
  return GASNET_OK;
}
