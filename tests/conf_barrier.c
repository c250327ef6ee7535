/*
 * conf_barrier.c -- split-phase barrier subtests: synchronization, named
 * and anonymous barriers, every mismatch rule of the specification (3.5.2),
 * gasnet_barrier_try, many consecutive phases, work between notify and wait.
 */
#include "conf.h"

#include <limits.h>
#include <sched.h>

#define ANON GASNET_BARRIERFLAG_ANONYMOUS
#define MISMATCH_FLAG GASNET_BARRIERFLAG_MISMATCH

static const char *rcname(int rc) {
  return rc == GASNET_OK ? "GASNET_OK" : rc == GASNET_ERR_BARRIER_MISMATCH ? "GASNET_ERR_BARRIER_MISMATCH"
                                       : rc == GASNET_ERR_NOT_READY       ? "GASNET_ERR_NOT_READY"
                                                                          : "another code";
}

/* One barrier phase: notify(nid, nflags), then wait(wid, wflags) -- or,
 * with use_try, gasnet_barrier_try until it is not NOT_READY -- and check
 * the result. */
static void phase(int nid, int nflags, int wid, int wflags, int want, int use_try, const char *what) {
  gasnet_barrier_notify(nid, nflags);
  int rc;
  if (use_try) {
    long spins = 0;
    while ((rc = gasnet_barrier_try(wid, wflags)) == GASNET_ERR_NOT_READY)
      if (++spins % 32 == 0) sched_yield();
  } else {
    rc = gasnet_barrier_wait(wid, wflags);
  }
  CHECK(rc == want, "%s: notify(%d, %d) %s(%d, %d) returned %d (%s), expected %s", what, nid, nflags,
        use_try ? "try" : "wait", wid, wflags, rc, rcname(rc), rcname(want));
}
#define SAME(id, flags, want, what) phase((id), (flags), (id), (flags), (want), 0, (what))

void conf_test_barrier_anon(void) {
  /* after barrier r every node's round-r write to every node is visible */
  for (uint64_t r = 1; r <= 20; r++) {
    if (r <= 4 && conf_me == (gasnet_node_t)(r % conf_nodes)) conf_poll_for(0.02); /* a late node */
    for (gasnet_node_t t = 0; t < conf_nodes; t++) gasnet_put_val(t, AREA(t, conf_me), r, 8);
    SAME(0, ANON, GASNET_OK, "anonymous");
    for (gasnet_node_t s = 0; s < conf_nodes; s++) {
      uint64_t v = *(volatile uint64_t *)(void *)AREA(conf_me, s);
      CHECK(v == r || v == r + 1, "after barrier %ju node %u's value here is %ju: the barrier did not wait for it",
            (uintmax_t)r, (unsigned)s, (uintmax_t)v);
    }
  }
  /* the id of an anonymous barrier is ignored, even if it differs */
  SAME((int)conf_me * 17 + 3, ANON, GASNET_OK, "anonymous with node-dependent ids");
}

void conf_test_barrier_named(void) {
  static const int ids[] = {0, 1, -1, INT_MAX, INT_MIN, 12345, (int)0xDEADBEEFu};
  for (size_t i = 0; i < ARRAY_LEN(ids); i++) {
    SAME(ids[i], 0, GASNET_OK, "named, same id everywhere");
    phase(ids[i], 0, ids[i], 0, GASNET_OK, 1, "named, same id, try");
  }
}

void conf_test_barrier_mismatch(void) {
  if (conf_nodes < 2) return;
  /* every node a different id */
  SAME(100 + (int)conf_me, 0, GASNET_ERR_BARRIER_MISMATCH, "named, different ids");
  SAME(0, ANON, GASNET_OK, "anonymous after a mismatch");
  /* one node differs */
  SAME(conf_me == conf_nodes - 1 ? 999 : 5, 0, GASNET_ERR_BARRIER_MISMATCH, "named, one node's id differs");
  SAME(5, 0, GASNET_OK, "named after a mismatch");
  /* differing ids, detected through barrier_try */
  phase(200 + (int)conf_me, 0, 200 + (int)conf_me, 0, GASNET_ERR_BARRIER_MISMATCH, 1, "named, different ids, try");
  SAME(6, 0, GASNET_OK, "named after a mismatch");
}

void conf_test_barrier_flag_mismatch(void) {
  int last = conf_me == conf_nodes - 1;
  /* others named */
  SAME(7, last ? MISMATCH_FLAG : 0, GASNET_ERR_BARRIER_MISMATCH, "GASNET_BARRIERFLAG_MISMATCH on the last node, others named");
  SAME(7, 0, GASNET_OK, "named after a forced mismatch");
  /* others anonymous */
  SAME(0, last ? MISMATCH_FLAG : ANON, GASNET_ERR_BARRIER_MISMATCH, "GASNET_BARRIERFLAG_MISMATCH on the last node, others anonymous");
  SAME(0, ANON, GASNET_OK, "anonymous after a forced mismatch");
  /* on node 0, through barrier_try */
  phase(3, conf_me == 0 ? MISMATCH_FLAG : 0, 3, conf_me == 0 ? MISMATCH_FLAG : 0, GASNET_ERR_BARRIER_MISMATCH, 1,
        "GASNET_BARRIERFLAG_MISMATCH on node 0, try");
  SAME(0, ANON, GASNET_OK, "anonymous after a forced mismatch");
}

void conf_test_barrier_mixed(void) {
  /* anonymous matches any named value */
  SAME(42, conf_me % 2 ? 0 : ANON, GASNET_OK, "even nodes anonymous, odd nodes named 42");
  SAME(77, conf_me == 0 ? 0 : ANON, GASNET_OK, "node 0 named 77, the others anonymous");
  SAME(-9, conf_me == conf_nodes - 1 ? 0 : ANON, GASNET_OK, "last node named -9, the others anonymous");
  phase(11, conf_me % 2 ? ANON : 0, 11, conf_me % 2 ? ANON : 0, GASNET_OK, 1, "mixed, try");
  if (conf_nodes >= 3) {
    /* two named nodes that disagree, the rest anonymous */
    int flags = conf_me <= 1 ? 0 : ANON;
    SAME(conf_me == 1 ? 2 : 1, flags, GASNET_ERR_BARRIER_MISMATCH, "nodes 0 and 1 named 1 and 2, the rest anonymous");
    SAME(0, ANON, GASNET_OK, "anonymous after a mismatch");
  }
}

void conf_test_barrier_wait_differs(void) {
  gasnet_node_t x = conf_nodes - 1;
  int me_x = conf_me == x;
  /* id in wait differs from this node's notify: only this node mismatches */
  phase(5, 0, me_x ? 6 : 5, 0, me_x ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK, 0, "wait id differs on the last node");
  SAME(0, ANON, GASNET_OK, "anonymous afterwards");
  /* notify anonymous, wait named */
  phase(5, ANON, 5, me_x ? 0 : ANON, me_x ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK, 0,
        "notify anonymous, wait named on the last node");
  SAME(0, ANON, GASNET_OK, "anonymous afterwards");
  /* notify named, wait anonymous */
  phase(5, 0, 5, me_x ? ANON : 0, me_x ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK, 0,
        "notify named, wait anonymous on the last node");
  SAME(0, ANON, GASNET_OK, "anonymous afterwards");
  /* the same through barrier_try, on node 0 */
  phase(8, 0, conf_me == 0 ? 9 : 8, 0, conf_me == 0 ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK, 1,
        "try id differs on node 0");
  SAME(0, ANON, GASNET_OK, "anonymous afterwards");
}

void conf_test_barrier_try(void) {
  /* Node 0 notifies only after every other node has seen NOT_READY, so
   * barrier_try must report NOT_READY before it reports success. */
  const int SIG = 10;
  if (conf_me == 0) {
    CONF_WAIT(conf_cnt.signal[SIG] >= (int)conf_nodes - 1);
    phase(21, 0, 21, 0, GASNET_OK, 1, "node 0 notifies last");
  } else {
    gasnet_barrier_notify(21, 0);
    int rc, not_ready = 0;
    long spins = 0;
    while ((rc = gasnet_barrier_try(21, 0)) == GASNET_ERR_NOT_READY) {
      if (!not_ready++) CHECK_OK(gasnet_AMRequestShort1(0, conf_h(HID_SIGNAL), SIG));
      if (++spins % 32 == 0) sched_yield();
    }
    CHECK(not_ready > 0, "barrier_try succeeded before node 0 notified");
    CHECK(rc == GASNET_OK, "barrier_try returned %d (%s)", rc, rcname(rc));
  }
  /* try then wait is not allowed after a successful try; a try that
   * returned NOT_READY may be followed by wait */
  gasnet_barrier_notify(0, ANON);
  int rc = gasnet_barrier_try(0, ANON);
  CHECK(rc == GASNET_OK || rc == GASNET_ERR_NOT_READY, "barrier_try returned %d", rc);
  if (rc == GASNET_ERR_NOT_READY) CHECK_OK(gasnet_barrier_wait(0, ANON));
}

void conf_test_barrier_many(void) {
  for (int i = 0; i < 1000; i++) {
    switch (i % 5) {
      case 0: SAME(0, ANON, GASNET_OK, "many: anonymous"); break;
      case 1: SAME(i, 0, GASNET_OK, "many: named"); break;
      case 2: phase(i, 0, i, 0, GASNET_OK, 1, "many: named, try"); break;
      case 3: SAME(i, (conf_me + (gasnet_node_t)i) % 2 ? ANON : 0, GASNET_OK, "many: mixed"); break;
      default:
        if (i % 100 == 49 && conf_nodes > 1) {
          /* a mismatch now and then must not leak into the next phase */
          SAME(i + (int)conf_me, 0, GASNET_ERR_BARRIER_MISMATCH, "many: mismatch");
        } else {
          phase(0, ANON, 0, ANON, GASNET_OK, 1, "many: anonymous, try");
        }
        break;
    }
    if (conf_fails > 4) break; /* no need to repeat a broken barrier 1000 times */
  }
}

void conf_test_barrier_split(void) {
  gasnet_node_t right = (conf_me + 1) % conf_nodes, left = (conf_me + conf_nodes - 1) % conf_nodes;
  for (int r = 0; r < 10; r++) {
    uint64_t val = ((uint64_t)conf_me << 32) | (uint64_t)r;
    gasnet_barrier_notify(r, 0);
    /* communication between notify and wait */
    gasnet_put(right, AREA(right, conf_me), &val, 8);
    int before = conf_cnt.pong;
    for (gasnet_node_t t = 0; t < conf_nodes; t++) CHECK_OK(gasnet_AMRequestShort1(t, conf_h(HID_PING), t));
    CONF_WAIT(conf_cnt.pong == before + (int)conf_nodes);
    for (int k = 0; k < 10; k++) CHECK_OK(gasnet_AMPoll());
    uint64_t got = 0;
    gasnet_get(&got, right, AREA(right, conf_me), 8);
    CHECK(got == val, "round %d: get after put between notify and wait: %#jx, expected %#jx", r, (uintmax_t)got,
          (uintmax_t)val);
    gasnet_put_nbi_val(right, AREA(right, conf_me) + 8, val, 8);
    gasnet_wait_syncnbi_puts();
    int rc = gasnet_barrier_wait(r, 0);
    CHECK(rc == GASNET_OK, "round %d: wait returned %d (%s)", r, rc, rcname(rc));
    /* the neighbour's puts were made after its notify, so only the next
     * barrier guarantees they are complete; then local loads see them */
    conf_barrier();
    uint64_t want = ((uint64_t)left << 32) | (uint64_t)r;
    volatile uint64_t *mine = (volatile uint64_t *)(void *)AREA(conf_me, left);
    CHECK(mine[0] == want && mine[1] == want, "round %d: the left neighbour's puts read %#jx/%#jx, expected %#jx", r,
          (uintmax_t)mine[0], (uintmax_t)mine[1], (uintmax_t)want);
    conf_barrier(); /* before the next round overwrites */
  }
}
