/*
 * barrier.c -- split-phase named/anonymous barrier over the Core's AMs.
 *
 * Dissemination: in round r node i sends its accumulated barrier value to
 * node (i + 2^r) mod N and waits for the one from (i - 2^r) mod N; after
 * ceil(log2 N) rounds every node has combined every node's value.  The value
 * is (anonymous?, id, mismatch?); combining two named values with different
 * ids yields a mismatch.  Rounds advance from gasnet_barrier_wait/try and from
 * every library poll, so a node that notified and then computes (polling)
 * still relays for the others.  Messages of the next barrier can arrive
 * before this one is done (a node can be at most one barrier ahead), hence
 * two sets of slots selected by the phase's parity.
 *
 * GASNET_BARRIERFLAG_UNNAMED includes the ANONYMOUS bit and is carried as
 * an anonymous value (GASNet's reference semantics, gasnet.h).  The value a
 * completed barrier agreed on is kept for gasnet_barrier_result.
 */
#include "api.h"

#define STP_BARRIER_MAXROUNDS 32
enum { V_ANON = 1, V_MISMATCH = 2 };
#define CLIENT_FLAGS (GASNET_BARRIERFLAG_ANONYMOUS | GASNET_BARRIERFLAG_MISMATCH | GASNET_BARRIERFLAG_UNNAMED)

typedef struct {
  uint8_t flags; /* V_ANON | V_MISMATCH */
  int32_t id;
} bval_t;

typedef struct {
  uint8_t arrived;
  bval_t v;
} bslot_t;

static struct {
  unsigned phase;    /* barriers completed on this node */
  int notified;      /* notify called, wait/try not yet successful */
  int done;          /* every round of the current barrier complete */
  int round, nrounds, sent;
  int my_flags, my_id;
  bval_t acc;
  bval_t last;       /* the value the last completed barrier agreed on */
  bslot_t slot[2][STP_BARRIER_MAXROUNDS];
} b = {.last = {V_ANON, 0}}; /* before any: the attach barrier, anonymous */

static inline void merge(bval_t *acc, const bval_t *in) {
  uint8_t mism = (uint8_t)((acc->flags | in->flags) & V_MISMATCH);
  if (acc->flags & V_ANON) {
    acc->flags = (uint8_t)(in->flags | mism);
    acc->id = in->id;
  } else {
    if (!(in->flags & V_ANON) && in->id != acc->id) mism = V_MISMATCH;
    acc->flags = (uint8_t)(acc->flags | mism);
  }
}

static void barrier_handler(gasnet_token_t token, gasnet_handlerarg_t phase_round, gasnet_handlerarg_t flags,
                            gasnet_handlerarg_t id) {
  unsigned parity = ((uint32_t)phase_round >> 8) & 1u, round = (uint32_t)phase_round & 0xffu;
  bslot_t *s = &b.slot[parity][round];
  (void)token;
  if (round >= STP_BARRIER_MAXROUNDS || s->arrived)
    stp_fatal("barrier: protocol error (phase parity %u round %u delivered twice)", parity, round);
  s->arrived = 1;
  s->v.flags = (uint8_t)flags;
  s->v.id = id;
}

const stp_handler_reg_t stp_barrier_handlers[] = {{STP_H_BARRIER, (stp_handlerfn_t)barrier_handler}};
const int stp_barrier_nhandlers = 1;

static void send_round(int r) {
  gasnet_handlerarg_t args[3];
  gasnet_node_t peer = (gasnet_node_t)(((uint64_t)stp.mynode + (1ull << r)) % stp.nodes);
  stp_am_t am = {STP_AM_SHORT, 0, STP_H_BARRIER, 3, args, NULL, 0, NULL};
  args[0] = (gasnet_handlerarg_t)(((b.phase & 1u) << 8) | (unsigned)r);
  args[1] = b.acc.flags;
  args[2] = b.acc.id;
  stp_am_request(peer, &am);
}

/* The progress hook (stp.hook_barrier): rounds advance from every poll,
 * but not from inside a handler or a request being sent. */
void stp_barrier_poll(void) {
  if (!stp.in_am_send && !stp.in_handler) stp_barrier_progress();
}

void stp_barrier_progress(void) {
  while (b.round < b.nrounds) {
    bslot_t *s;
    if (b.sent <= b.round) {
      b.sent = b.round + 1;
      send_round(b.round);
    }
    s = &b.slot[b.phase & 1u][b.round];
    if (!s->arrived) return;
    merge(&b.acc, &s->v);
    s->arrived = 0;
    b.round++;
  }
  b.done = 1;
  stp.barrier_active = 0;
}

static void check_flags(const char *fn, int flags) {
#if STP_CHECKS
  if (STP_UNLIKELY(flags & ~CLIENT_FLAGS))
    stp_fatal("%s: flags 0x%x: not a combination of GASNET_BARRIERFLAG_ANONYMOUS, _MISMATCH and _UNNAMED", fn,
              (unsigned)flags);
#else
  (void)fn, (void)flags;
#endif
}

void gasnet_barrier_notify(int id, int flags) {
  STP_API_GUARD();
  STP_CHECK_ATTACHED("gasnet_barrier_notify");
  STP_CHECK_NOT_IN_HANDLER("gasnet_barrier_notify");
  check_flags("gasnet_barrier_notify", flags);
  if (b.notified) stp_fatal("gasnet_barrier_notify: called twice without an intervening gasnet_barrier_wait");
  if (!b.nrounds)
    while ((1ull << b.nrounds) < stp.nodes) b.nrounds++;
  b.notified = 1;
  b.my_flags = flags;
  b.my_id = id;
  b.acc.flags = (uint8_t)((flags & GASNET_BARRIERFLAG_ANONYMOUS ? V_ANON : 0) |
                          (flags & GASNET_BARRIERFLAG_MISMATCH ? V_ANON | V_MISMATCH : 0));
  b.acc.id = id;
  b.round = 0;
  b.sent = 0;
  b.done = 0;
  stp.barrier_active = 1;
  stp_barrier_progress();
}

/* The barrier is complete: compute this node's result and reset. */
static int finish(int id, int flags) {
  int mismatch = (b.acc.flags & V_MISMATCH) || flags != b.my_flags ||
                 (!(flags & (GASNET_BARRIERFLAG_ANONYMOUS | GASNET_BARRIERFLAG_MISMATCH)) && id != b.my_id);
  b.notified = 0;
  b.phase++;
  b.last = b.acc;
  return mismatch ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK;
}

static void check_notified(const char *fn, int flags) {
  STP_CHECK_ATTACHED(fn);
  STP_CHECK_NOT_IN_HANDLER(fn);
  check_flags(fn, flags);
  if (!b.notified) stp_fatal("%s: no preceding gasnet_barrier_notify", fn);
}

int gasnet_barrier_wait(int id, int flags) {
  STP_API_GUARD();
  unsigned spins = 0;
  check_notified("gasnet_barrier_wait", flags);
  stp_barrier_progress();
  while (!b.done) stp_api_wait_step(&spins);
  return finish(id, flags);
}

int gasnet_barrier_try(int id, int flags) {
  STP_API_GUARD();
  check_notified("gasnet_barrier_try", flags);
  stp_poll();
  if (!b.done) stp_barrier_progress();
  if (!b.done) return GASNET_ERR_NOT_READY;
  return finish(id, flags);
}

int gasnet_barrier(int id, int flags) {
  STP_API_GUARD();
  STP_CHECK_ATTACHED("gasnet_barrier");
  STP_CHECK_NOT_IN_HANDLER("gasnet_barrier");
  if (b.notified) stp_fatal("gasnet_barrier: called between gasnet_barrier_notify and gasnet_barrier_wait");
  gasnet_barrier_notify(id, flags);
  return gasnet_barrier_wait(id, flags);
}

int gasnet_barrier_result(int *id) {
  STP_API_GUARD();
  STP_CHECK_ATTACHED("gasnet_barrier_result");
  STP_CHECK_LOCAL("gasnet_barrier_result", "id pointer", id, 1);
  if (b.notified) stp_fatal("gasnet_barrier_result: called between gasnet_barrier_notify and gasnet_barrier_wait");
  *id = b.last.id;
  return (b.last.flags & V_ANON) && !(b.last.flags & V_MISMATCH);
}
