/*
 * unit_credits.c -- the AM flow-control credits (credits/) driven the way a
 * Core drives them, with no MPI and no network: many virtual processes,
 * each with its own credits_t, exchange requests, replies and credit-only
 * messages over a simulated network that delays and reorders them.  A
 * global checker, which sees every process and every message, verifies the
 * conservation of credits for every pair it touched after every step, a
 * watchdog bounds the run, and faults injected on a countdown (a fault layer
 * between the Core and the module, like SQLite's test VFS) must be found.
 * Plus direct cases for the arithmetic at the edges.
 *
 *   unit_credits [--seed N] [--quick] [--case SUBSTRING]
 *
 * One line per case, "PASS name ..." or "FAIL name: why"; exit 1 on any FAIL.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 too */
#define UNIT_PROG "unit_credits"

#include "credits.h"
#include "unit_harness.h"

#define HDR_MAX 255 /* credits one header can carry (the MPI Core's uint8_t) */

static credits_cfg_t cfg_of(uint32_t npeers, uint32_t grant, uint32_t unit, uint32_t max_cost, uint32_t batch) {
  credits_cfg_t cfg = {.npeers = npeers, .mode = CREDITS_STATIC, .grant = grant, .unit_bytes = unit,
                       .max_cost = max_cost, .batch = batch};
  return cfg;
}

/* ------------------------------------------------------------------ */
/* direct cases                                                        */
/* ------------------------------------------------------------------ */
static void case_cost(void) {
  credits_t c;
  credits_cfg_t cfg = cfg_of(2, 64, 0, 0, 0);
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "init: %s", c.err);
  EXPECT(credits_cost(&c, 0) == 1 && credits_cost(&c, 1) == 1 && credits_cost(&c, 65536) == 1,
         "unit 0: every message costs 1");
  credits_fini(&c);
  cfg = cfg_of(2, 64, 256, 0, 0);
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "init: %s", c.err);
  static const struct { size_t payload; uint32_t cost; } t[] = {
      {0, 1}, {1, 2}, {255, 2}, {256, 2}, {257, 3}, {512, 3}, {513, 4}, {1024, 5}, {65536, 257}};
  for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++)
    EXPECT(credits_cost(&c, t[i].payload) == t[i].cost, "unit 256: payload %zu costs %u, not %u", t[i].payload,
           credits_cost(&c, t[i].payload), t[i].cost);
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "unit 0 -> 1; unit 256 -> 1 + ceil(payload/256)");
}

static void case_init_validation(void) {
  credits_t c;
  credits_cfg_t cfg;
  int rc;

  cfg = cfg_of(0, 8, 0, 0, 0);
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_EINVAL && strstr(c.err, "npeers") && !c.peer, "npeers 0: rc %d '%s'", rc, c.err);
  credits_fini(&c); /* harmless after a failure */

  cfg = cfg_of(4, 4, 256, 5, 0);
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_EINVAL && strstr(c.err, "max_cost 5"), "share 4 < max_cost 5: rc %d '%s'", rc, c.err);

  cfg = cfg_of(4, 4, 256, 4, 1);
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "share == max_cost: %s", c.err);
  credits_fini(&c);

  cfg = cfg_of(4, 0, 0, 0, 0);
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_EINVAL, "grant 0: rc %d", rc);

  cfg = cfg_of(4, 8, 0, 0, 0);
  cfg.capacity = 3; /* 3 / 4 = 0 each */
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_EINVAL && strstr(c.err, "capacity 3"), "capacity < npeers: rc %d '%s'", rc, c.err);

  cfg = cfg_of(4, 8, 0, 0, 0);
  cfg.mode = 7;
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_EINVAL && strstr(c.err, "mode"), "unknown mode: rc %d '%s'", rc, c.err);

  /* batch past the liveness bound share - kmax + 1 */
  cfg = cfg_of(4, 8, 0, 0, 9); /* unit 0: kmax 1, bound 8 */
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_EINVAL && strstr(c.err, "batch 9"), "batch 9 > share 8: rc %d '%s'", rc, c.err);
  cfg = cfg_of(4, 8, 0, 0, 8);
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "batch == share with cost 1: %s", c.err);
  credits_fini(&c);
  cfg = cfg_of(4, 8, 256, 5, 5); /* bound 8 - 5 + 1 = 4 */
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_EINVAL && strstr(c.err, "batch 5 > 4"), "batch 5, bound 4: rc %d '%s'", rc, c.err);
  EXPECT(credits_init(NULL, &cfg) == CREDITS_EINVAL, "NULL credits_t");
  EXPECT(credits_init(&c, NULL) == CREDITS_EINVAL, "NULL cfg");
  snprintf(detail, sizeof(detail), "npeers 0, share<max_cost, share 0, bad mode, batch past bound -> EINVAL");
}

static void case_init_shares(void) {
  credits_t c;
  credits_cfg_t cfg;

  cfg = cfg_of(10, 0, 0, 0, 0);
  cfg.capacity = 105; /* 10 each, 5 left over */
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "capacity 105: %s", c.err);
  for (uint32_t i = 0; i < 10 && !failed; i++)
    EXPECT(c.peer[i].avail == 10 && c.peer[i].grant == 10 && c.peer[i].lent == 10 && c.peer[i].owed == 0,
           "peer %u: avail %u grant %u lent %u owed %u", i, c.peer[i].avail, c.peer[i].grant, c.peer[i].lent,
           c.peer[i].owed);
  EXPECT(c.cfg.batch == 5, "default batch share/2: %u", c.cfg.batch);
  EXPECT(credits_check(&c) == CREDITS_OK, "check: %s", c.err);
  credits_fini(&c);
  credits_fini(&c);

  cfg = cfg_of(10, 0, 0, 0, 0);
  cfg.capacity = 10000;
  cfg.max_grant = 255;
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK && c.peer[3].grant == 255 && c.peer[3].lent == 255,
         "capacity clamped to max_grant 255: %u", c.peer ? c.peer[3].grant : 0);
  credits_fini(&c);

  cfg = cfg_of(3, 300, 0, 0, 0);
  cfg.max_grant = 64;
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK && c.peer[0].grant == 64 && c.cfg.batch == 32,
         "grant clamped to max_grant 64: grant %u batch %u", c.peer ? c.peer[0].grant : 0, c.cfg.batch);
  credits_fini(&c);

  cfg = cfg_of(3, 1, 0, 0, 0);
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK && c.cfg.batch == 1, "share 1: batch at least 1, got %u", c.cfg.batch);
  credits_fini(&c);

  cfg = cfg_of(3, 8, 256, 8, 0); /* a message may take the whole share: bound 1 */
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK && c.cfg.batch == 1, "default batch within bound 1: %u", c.cfg.batch);
  credits_fini(&c);
  cfg = cfg_of(3, 8, 256, 0, 0); /* no max_cost: kmax is the share */
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK && c.cfg.batch == 1, "no max_cost: batch 1, got %u", c.cfg.batch);
  credits_fini(&c);

  cfg = cfg_of(3, 4, 0, 0, 3);
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK && c.cfg.batch == 3, "explicit batch kept: %u", c.cfg.batch);
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "capacity/npeers, max_grant clamp, batch share/2 >= 1 within the bound");
}

static void case_charge_return_edges(void) {
  credits_t c;
  credits_cfg_t cfg = cfg_of(3, 4, 0, 0, 0);
  int rc;
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "init: %s", c.err);
  EXPECT(credits_charge(&c, 1, 3) == CREDITS_OK && c.peer[1].avail == 1, "charge 3 of 4");
  EXPECT(credits_charge(&c, 1, 2) == CREDITS_EAGAIN && c.peer[1].avail == 1 && c.stats.stalls == 1,
         "charge 2 with 1: EAGAIN, nothing spent");
  EXPECT(credits_charge(&c, 1, 1) == CREDITS_OK && c.peer[1].avail == 0, "charge the last credit");
  EXPECT(credits_charge(&c, 1, 1) == CREDITS_EAGAIN, "charge with 0 left");
  EXPECT(credits_charge(&c, 1, 5) == CREDITS_EINVAL && c.stats.stalls == 2, "cost 5 > share 4: EINVAL, no stall");
  EXPECT(credits_charge(&c, 2, 5) == CREDITS_EINVAL && c.peer[2].avail == 4, "cost > share with all available");
  EXPECT(credits_charge(&c, 2, 4) == CREDITS_OK && c.peer[2].avail == 0, "charge the whole share");
  EXPECT(c.stats.charged == 8, "charged %" PRIu64, c.stats.charged);
  EXPECT(c.peer[0].avail == 4, "other peers untouched");

  EXPECT(credits_returned(&c, 1, 0) == CREDITS_OK, "return 0");
  EXPECT(credits_returned(&c, 1, 3) == CREDITS_OK && c.peer[1].avail == 3, "return 3");
  EXPECT(credits_returned(&c, 1, 1) == CREDITS_OK && c.peer[1].avail == 4, "return up to the grant");
  rc = credits_returned(&c, 1, 1);
  EXPECT(rc == CREDITS_EINVARIANT && c.peer[1].avail == 4, "return past the grant: rc %d avail %u", rc,
         c.peer[1].avail);
  EXPECT(strstr(c.err, "peer 1 ") && strstr(c.err, "returned 1 ") && strstr(c.err, "4 of 4"),
         "the message names the peer and the numbers: '%s'", c.err);
  rc = credits_returned(&c, 2, UINT32_MAX);
  EXPECT(rc == CREDITS_EINVARIANT && c.peer[2].avail == 0, "return UINT32_MAX: rc %d avail %u", rc, c.peer[2].avail);
  EXPECT(credits_returned(&c, 2, 1) == CREDITS_OK, "return 1");
  rc = credits_returned(&c, 2, UINT32_MAX); /* 1 + UINT32_MAX wraps to 0 in 32 bits */
  EXPECT(rc == CREDITS_EINVARIANT && c.peer[2].avail == 1, "avail 1, return UINT32_MAX: rc %d avail %u", rc,
         c.peer[2].avail);
  EXPECT(credits_charge(&c, 2, 1) == CREDITS_OK, "charge it again");
  EXPECT(credits_returned(&c, 2, 5) == CREDITS_EINVARIANT && c.peer[2].avail == 0, "return more than the grant");
  EXPECT(credits_returned(&c, 3, 1) == CREDITS_EINVAL && strstr(credits_error(&c), "peer 3"), "peer 3 of 3: '%s'",
         c.err);
  EXPECT(c.stats.returned == 5, "returned %" PRIu64, c.stats.returned);
  EXPECT(credits_check(&c) == CREDITS_OK, "check after refusals: %s", c.err);
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "charge to 0, EAGAIN, EINVAL past share; return to grant, refusals leave avail");
}

static void case_arrived_edges(void) {
  credits_t c;
  credits_cfg_t cfg = cfg_of(3, 4, 256, 4, 1);
  int rc;
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "init: %s", c.err);
  EXPECT(credits_arrived(&c, 2, 3) == CREDITS_OK && c.peer[2].owed == 3, "arrive 3");
  EXPECT(credits_arrived(&c, 2, 1) == CREDITS_OK && c.peer[2].owed == 4, "arrive up to the share");
  rc = credits_arrived(&c, 2, 1);
  EXPECT(rc == CREDITS_EINVARIANT && c.peer[2].owed == 4 && strstr(c.err, "peer 2 ") && strstr(c.err, "share 4"),
         "arrive past the share: rc %d owed %u '%s'", rc, c.peer[2].owed, c.err);
  rc = credits_arrived(&c, 0, 5);
  EXPECT(rc == CREDITS_EINVARIANT && c.peer[0].owed == 0, "one request above the share: rc %d", rc);
  EXPECT(credits_arrived(&c, 1, UINT32_MAX) == CREDITS_EINVARIANT && c.peer[1].owed == 0, "cost UINT32_MAX");
  EXPECT(credits_arrived(&c, 1, 1) == CREDITS_OK, "arrive 1");
  EXPECT(credits_arrived(&c, 1, UINT32_MAX) == CREDITS_EINVARIANT && c.peer[1].owed == 1,
         "owed 1, cost UINT32_MAX (wraps in 32 bits)");
  EXPECT(credits_arrived(&c, 3, 1) == CREDITS_EINVAL, "peer 3 of 3");
  EXPECT(c.stats.arrived == 5, "arrived %" PRIu64, c.stats.arrived);
  EXPECT(credits_check(&c) == CREDITS_OK, "check: %s", c.err);
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "owed up to the share, refused past it (owed unchanged), EINVAL past npeers");
}

static void case_piggyback_flush(void) {
  credits_t c;
  credits_cfg_t cfg = cfg_of(2, 16, 0, 0, 4);
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "init: %s", c.err);
  EXPECT(credits_piggyback(&c, 1, HDR_MAX) == 0, "nothing owed");
  for (int i = 0; i < 10; i++) credits_arrived(&c, 1, 1);
  EXPECT(credits_piggyback(&c, 1, 3) == 3 && c.peer[1].owed == 7, "max 3 of 10 leaves 7");
  EXPECT(credits_piggyback(&c, 1, 0) == 0 && c.peer[1].owed == 7, "max 0");
  EXPECT(credits_piggyback(&c, 1, HDR_MAX) == 7 && c.peer[1].owed == 0, "the rest");
  EXPECT(c.stats.piggybacked == 10, "piggybacked %" PRIu64, c.stats.piggybacked);

  /* flush_due: at batch, not below; counts what it asks for */
  credits_arrived(&c, 0, 3);
  EXPECT(!credits_flush_due(&c, 0) && c.stats.flushes == 0, "3 owed, batch 4");
  credits_arrived(&c, 0, 1);
  EXPECT(credits_flush_due(&c, 0) && c.stats.flushes == 1, "4 owed, batch 4");
  credits_arrived(&c, 0, 1);
  EXPECT(credits_flush_due(&c, 0) && c.stats.flushes == 2, "5 owed, batch 4");
  EXPECT(credits_piggyback(&c, 0, 2) == 2 && !credits_flush_due(&c, 0) && c.stats.flushes == 2,
         "3 left after a partial piggyback: below batch");
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "piggyback takes min(owed, max), leaves the rest; flush_due at owed >= batch");
}

static void case_check_detects(void) {
  credits_t c;
  credits_cfg_t cfg = cfg_of(4, 0, 0, 0, 0);
  cfg.capacity = 16;
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK && credits_check(&c) == CREDITS_OK, "init: %s", c.err);
  c.peer[2].avail = 5; /* what no call can do: each case corrupts one field by hand */
  EXPECT(credits_check(&c) == CREDITS_EINVARIANT && strstr(c.err, "peer 2:"), "avail 5 > grant 4: '%s'", c.err);
  c.peer[2].avail = 4;
  c.peer[3].owed = 5;
  EXPECT(credits_check(&c) == CREDITS_EINVARIANT && strstr(c.err, "peer 3:"), "owed 5 > lent 4: '%s'", c.err);
  c.peer[3].owed = 4;
  EXPECT(credits_check(&c) == CREDITS_OK, "owed == lent: %s", c.err);
  c.peer[0].lent = 5;
  c.peer[0].owed = 0;
  EXPECT(credits_check(&c) == CREDITS_EINVARIANT && strstr(c.err, "capacity 16"), "lent 17 > capacity 16: '%s'",
         c.err);
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "avail > grant, owed > lent, lent total > capacity");
}

/* ------------------------------------------------------------------ */
/* the simulated job                                                   */
/* ------------------------------------------------------------------ */
enum { PAT_RING, PAT_UNIFORM, PAT_HOTSPOT, PAT_BURSTS };
enum { MSG_REQ, MSG_REP, MSG_CREDIT };
enum { FAULT_NONE, FAULT_DUP_RETURN, FAULT_DUP_RETURN_HIDDEN, FAULT_OVERSPEND, FAULT_UNCHARGED, FAULT_DROP };
enum { BY_MODULE, BY_CHECKER, BY_DRAIN, BY_WATCHDOG, NBY }; /* who finds a broken pair */
static const char *const by_name[NBY] = {"module", "checker", "drain check", "watchdog"};

typedef struct simcase {
  const char *name;
  uint32_t nprocs, work; /* virtual processes; requests each must send */
  int pattern;
  uint32_t hot_every;  /* PAT_HOTSPOT: the hot target moves every hot_every steps */
  unsigned hot_pct;    /* PAT_HOTSPOT: requests that go to it */
  uint32_t burst;      /* PAT_BURSTS: active and idle phases of this many steps */
  credits_cfg_t cfg;   /* npeers is nprocs */
  uint32_t min_payload, max_payload;
  unsigned reply_pct;  /* a request handler replies with this probability */
  uint32_t max_delay;  /* a message takes 1..max_delay steps (1 in 32: up to 4x) */
  uint32_t serve;      /* messages a process handles per step; 0: all that arrived */
  uint64_t step_bound; /* the watchdog */
  int fault;           /* injected on the fault_at-th eligible call */
  uint32_t fault_at;
  unsigned expect;     /* (1 << BY_*): who must find it; 0: a clean run */
  const char *expect_call; /* BY_MODULE: and in this call */
  int no_checker;      /* no per-step conservation check */
  uint32_t force_batch; /* cfg.batch after credits_init, past its liveness bound */
} simcase_t;

typedef struct {
  uint32_t src, dst, cost, credits;
  int kind;
} msg_t;

typedef struct {
  msg_t *m;
  size_t n, cap;
} bucket_t;

typedef struct {
  uint32_t left;         /* requests still to send */
  uint32_t target, cost; /* the request being sent */
  int stalled;
  uint64_t since;  /* stalled since this step */
  uint32_t phase;  /* PAT_BURSTS: this process's offset */
  uint32_t served; /* messages handled this step */
} proc_t;

typedef struct {
  int hit;
  uint64_t step;
  const char *call; /* BY_MODULE: the call that refused */
  char msg[800];
} found_t;

typedef struct {
  const simcase_t *sc;
  uint32_t P;
  credits_t *cr;
  proc_t *pr;
  uint32_t *inreq;  /* [r * P + t]: cost of r's requests to t in flight */
  uint32_t *incred; /* [r * P + t]: credits in flight from t back to r */
  uint32_t *stamp;  /* [r * P + t]: the step + 1 it was last touched */
  uint32_t *touched;
  size_t ntouched, ctouched;
  bucket_t *wheel; /* timing wheel: messages by delivery step */
  uint32_t W;
  uint64_t now, inflight, inflight_req, rng, hotseed;
  uint32_t busy; /* processes with work left */
  int flushed, stop, failed;
  char fail[1024];
  struct {
    long countdown;
    int fired;
    uint32_t r, t, credits; /* the pair it breaks */
    uint64_t step;
  } f;
  found_t found[NBY];
  uint64_t requests, replies, creditmsgs, stall_events, max_stall;
  uint32_t max_stall_r, max_stall_t;
} sim_t;

static void sim_fail(sim_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sim_fail(sim_t *s, const char *fmt, ...) {
  va_list ap;
  s->stop = 1;
  if (s->failed++) return;
  va_start(ap, fmt);
  vsnprintf(s->fail, sizeof(s->fail), fmt, ap);
  va_end(ap);
}

/* A broken pair (r, t): what a fault case waits for, or a failure. */
static void found(sim_t *s, int by, uint32_t r, uint32_t t, const char *call, const char *msg) {
  if (!s->f.fired || r != s->f.r || t != s->f.t) {
    sim_fail(s, "%s at step %" PRIu64 ": %s", by_name[by], s->now, msg);
    return;
  }
  if (!s->found[by].hit) {
    s->found[by].hit = 1;
    s->found[by].step = s->now;
    s->found[by].call = call;
    snprintf(s->found[by].msg, sizeof(s->found[by].msg), "%s", msg);
  }
  if (s->sc->expect & (1u << by) && (!s->sc->expect_call || !strcmp(call, s->sc->expect_call))) s->stop = 1;
}

static void touch(sim_t *s, uint32_t r, uint32_t t) {
  size_t i = (size_t)r * s->P + t;
  if (s->sc->no_checker || s->stamp[i] == (uint32_t)(s->now + 1)) return;
  s->stamp[i] = (uint32_t)(s->now + 1);
  if (s->ntouched == s->ctouched) {
    s->ctouched = s->ctouched ? 2 * s->ctouched : 1024;
    s->touched = realloc(s->touched, s->ctouched * sizeof(*s->touched));
    if (!s->touched) exit((printf("FAIL unit_credits: out of memory\n"), 1));
  }
  s->touched[s->ntouched++] = (uint32_t)i;
}

/* The global checker: conservation for the pair (r, t), and after the run
 * drained, every credit home. */
static void check_pair(sim_t *s, uint32_t r, uint32_t t, int drained) {
  size_t i = (size_t)r * s->P + t;
  const credits_peer_t *rq = &s->cr[r].peer[t], *tg = &s->cr[t].peer[r];
  uint64_t sum = (uint64_t)rq->avail + s->inreq[i] + tg->owed + s->incred[i];
  char msg[400];
  if ((uint64_t)s->inreq[i] + tg->owed > tg->lent)
    snprintf(msg, sizeof(msg),
             "pair r=%u t=%u: t may have to receive %u (in flight) + %u (owed) credits of requests from r, more "
             "than its share %u",
             r, t, s->inreq[i], tg->owed, tg->lent);
  else if (sum != rq->grant || tg->lent != rq->grant)
    snprintf(msg, sizeof(msg),
             "pair r=%u t=%u: avail %u + requests in flight %u + owed %u + credits in flight %u = %" PRIu64
             ", grant %u (lent %u)",
             r, t, rq->avail, s->inreq[i], tg->owed, s->incred[i], sum, rq->grant, tg->lent);
  else if (drained && (rq->avail != rq->grant || tg->owed))
    snprintf(msg, sizeof(msg), "pair r=%u t=%u drained: avail %u of %u, owed %u", r, t, rq->avail, rq->grant,
             tg->owed);
  else
    return;
  found(s, drained ? BY_DRAIN : BY_CHECKER, r, t, "", msg);
}

static void push(bucket_t *b, msg_t m) {
  if (b->n == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 64;
    b->m = realloc(b->m, b->cap * sizeof(*b->m));
    if (!b->m) exit((printf("FAIL unit_credits: out of memory\n"), 1));
  }
  b->m[b->n++] = m;
}

/* --- the fault layer: every call the Core makes into the module or the
 * network that a fault may hit goes through here; the fault_at-th eligible
 * one is corrupted --- */

static void inject(sim_t *s, uint32_t r, uint32_t t, uint32_t credits) {
  s->f.fired = 1;
  s->f.r = r;
  s->f.t = t;
  s->f.credits = credits;
  s->f.step = s->now;
}

static int fault_due(sim_t *s, int kind) { return s->sc->fault == kind && !s->f.fired && --s->f.countdown == 0; }

static void net_send(sim_t *s, int kind, uint32_t src, uint32_t dst, uint32_t cost, uint32_t credits) {
  msg_t m = {src, dst, cost, credits, kind};
  uint32_t d = 1 + below(&s->rng, s->sc->max_delay);
  if (!below(&s->rng, 32)) d = 1 + below(&s->rng, 4 * s->sc->max_delay);
  if (kind == MSG_REQ) s->requests++;
  else if (kind == MSG_REP) s->replies++;
  else s->creditmsgs++;
  touch(s, src, dst);
  touch(s, dst, src);
  if (kind != MSG_REQ && credits && fault_due(s, FAULT_DROP)) {
    inject(s, dst, src, credits); /* lost, with the credits of pair (dst, src) */
    return;
  }
  s->inreq[(size_t)src * s->P + dst] += cost;
  s->incred[(size_t)dst * s->P + src] += credits;
  s->inflight++;
  s->inflight_req += kind == MSG_REQ;
  push(&s->wheel[(s->now + d) % s->W], m);
}

static int fx_returned(sim_t *s, uint32_t self, uint32_t src, uint32_t n) {
  const credits_peer_t *p = &s->cr[self].peer[src];
  int rc = credits_returned(&s->cr[self], src, n);
  if (rc != CREDITS_OK || !n) return rc;
  /* the network delivers it twice; _HIDDEN waits, once the countdown ran
   * out, for a duplicate that avail <= grant cannot show at once */
  if (s->sc->fault == FAULT_DUP_RETURN_HIDDEN && !s->f.fired && s->f.countdown <= 1 &&
      (uint64_t)p->avail + n > p->grant)
    return rc;
  if (fault_due(s, FAULT_DUP_RETURN) || fault_due(s, FAULT_DUP_RETURN_HIDDEN)) {
    inject(s, self, src, n);
    rc = credits_returned(&s->cr[self], src, n);
  }
  return rc;
}

static int fx_charge(sim_t *s, uint32_t r, uint32_t t, uint32_t *cost) {
  if (fault_due(s, FAULT_OVERSPEND)) {
    *cost = s->cr[r].peer[t].grant + 1; /* a forged request: more than the whole share, unpaid */
    inject(s, r, t, *cost);
    return CREDITS_OK;
  }
  if (fault_due(s, FAULT_UNCHARGED)) {
    inject(s, r, t, *cost); /* sent without paying */
    return CREDITS_OK;
  }
  return credits_charge(&s->cr[r], t, *cost);
}

/* --- the Core --- */

static void refused(sim_t *s, const char *call, int rc, uint32_t self, uint32_t r, uint32_t t) {
  if (rc == CREDITS_EINVARIANT)
    found(s, BY_MODULE, r, t, call, credits_error(&s->cr[self]));
  else
    sim_fail(s, "%s at %u: rc %d: %s", call, self, rc, credits_error(&s->cr[self]));
}

/* One message delivered and handled, as the Core's poll does. */
static void handle(sim_t *s, const msg_t *m) {
  uint32_t src = m->src, dst = m->dst, n;
  int rc;
  s->inflight--;
  s->inflight_req -= m->kind == MSG_REQ;
  s->inreq[(size_t)src * s->P + dst] -= m->cost;
  s->incred[(size_t)dst * s->P + src] -= m->credits;
  touch(s, src, dst);
  touch(s, dst, src);
  if (m->credits && (rc = fx_returned(s, dst, src, m->credits)) != CREDITS_OK) {
    refused(s, "credits_returned", rc, dst, dst, src);
    if (s->stop) return;
  }
  if (m->kind != MSG_REQ) return;
  if ((rc = credits_arrived(&s->cr[dst], src, m->cost)) != CREDITS_OK) {
    refused(s, "credits_arrived", rc, dst, src, dst);
    return;
  }
  /* the handler ran; then its reply, or the Core's batching */
  if (below(&s->rng, 100) < s->sc->reply_pct) {
    n = credits_piggyback(&s->cr[dst], src, HDR_MAX);
    net_send(s, MSG_REP, dst, src, 0, n);
  } else if (credits_flush_due(&s->cr[dst], src)) {
    n = credits_piggyback(&s->cr[dst], src, HDR_MAX);
    net_send(s, MSG_CREDIT, dst, src, 0, n);
  }
}

static void deliver(sim_t *s) {
  bucket_t *b = &s->wheel[s->now % s->W]; /* sends land at least a step later: b does not grow */
  for (size_t k = b->n; k > 1; k--) {    /* arrivals of one step in any order */
    size_t j = below(&s->rng, (uint32_t)k);
    msg_t tmp = b->m[k - 1];
    b->m[k - 1] = b->m[j];
    b->m[j] = tmp;
  }
  for (size_t k = 0; k < b->n && !s->stop; k++) {
    if (s->sc->serve && s->pr[b->m[k].dst].served >= s->sc->serve) {
      push(&s->wheel[(s->now + 1) % s->W], b->m[k]); /* busy: handled a later step */
      continue;
    }
    s->pr[b->m[k].dst].served++;
    handle(s, &b->m[k]);
  }
  b->n = 0;
}

static uint32_t pick_target(sim_t *s, uint32_t i) {
  const simcase_t *sc = s->sc;
  uint64_t h;
  switch (sc->pattern) {
    case PAT_RING:
      return i + 1 == s->P ? 0 : i + 1;
    case PAT_HOTSPOT:
      if (below(&s->rng, 100) >= sc->hot_pct) break;
      h = s->hotseed + s->now / sc->hot_every;
      return (uint32_t)(rnd(&h) % s->P);
    default:
      break;
  }
  return below(&s->rng, s->P);
}

/* PAT_BURSTS: phases gate new requests only; a stalled requester is inside
 * its request call and keeps retrying. */
static int active(const sim_t *s, uint32_t i) {
  return s->sc->pattern != PAT_BURSTS || (s->now + s->pr[i].phase) / s->sc->burst % 2 == 0;
}

/* Every process that has work: inject a request, or retry the one it is
 * stalled on.  (A stalled process keeps serving: delivery does not depend on
 * it.) */
static void act(sim_t *s) {
  const simcase_t *sc = s->sc;
  uint32_t start = below(&s->rng, s->P), n;
  for (uint32_t k = 0; k < s->P; k++) {
    uint32_t i = start + k < s->P ? start + k : start + k - s->P;
    proc_t *p = &s->pr[i];
    int rc;
    p->served = 0;
    if (!p->stalled) {
      if (!p->left || !active(s, i)) continue;
      p->target = pick_target(s, i);
      p->cost = credits_cost(&s->cr[i], sc->min_payload + below(&s->rng, sc->max_payload - sc->min_payload + 1));
      if (sc->cfg.max_cost && p->cost > sc->cfg.max_cost) {
        sim_fail(s, "the test's payloads cost up to %u, more than max_cost %u", p->cost, sc->cfg.max_cost);
        return;
      }
    }
    rc = fx_charge(s, i, p->target, &p->cost);
    if (rc == CREDITS_EAGAIN) {
      if (!p->stalled) {
        p->stalled = 1;
        p->since = s->now;
        s->stall_events++;
      }
      continue;
    }
    if (rc != CREDITS_OK) {
      sim_fail(s, "credits_charge(%u -> %u, cost %u): rc %d", i, p->target, p->cost, rc);
      return;
    }
    if (p->stalled) {
      if (s->now - p->since > s->max_stall) {
        s->max_stall = s->now - p->since;
        s->max_stall_r = i;
        s->max_stall_t = p->target;
      }
      p->stalled = 0;
    }
    if (!--p->left) s->busy--;
    n = credits_piggyback(&s->cr[i], p->target, HDR_MAX);
    net_send(s, MSG_REQ, i, p->target, p->cost, n);
  }
}

/* All work done and no request in flight: send home every credit still owed
 * (so the drain check can demand avail == grant everywhere).  Not part of
 * liveness: nothing is waiting any more. */
static void flush_all(sim_t *s) {
  for (uint32_t i = 0; i < s->P; i++)
    for (uint32_t j = 0; j < s->P; j++)
      while (s->cr[i].peer[j].owed) net_send(s, MSG_CREDIT, i, j, 0, credits_piggyback(&s->cr[i], j, HDR_MAX));
  s->flushed = 1;
}

/* The step bound is reached: name the requesters that starved.  A
 * deadlock is the state credits.h's liveness argument excludes: stalled,
 * nothing in flight either way, fewer than batch owed at the target. */
static void watchdog(sim_t *s) {
  char list[600] = "", msg[sizeof(list) + 200];
  size_t len = 0;
  uint32_t starved = 0, deadlocked = 0;
  for (uint32_t i = 0; i < s->P; i++) {
    const proc_t *p = &s->pr[i];
    size_t pi = (size_t)i * s->P + p->target;
    if (!p->left) continue;
    deadlocked += p->stalled && !s->inreq[pi] && !s->incred[pi] &&
                  s->cr[p->target].peer[i].owed < s->cr[p->target].cfg.batch;
    if (++starved > 3 || len >= sizeof(list)) continue;
    if (p->stalled) {
      len += (size_t)snprintf(list + len, sizeof(list) - len,
                              "; requester %u: %u requests left, stalled %" PRIu64
                              " steps on %u for cost %u with avail %u of %u (owed there %u, batch %u; in flight %u "
                              "requested, %u returning)",
                              i, p->left, s->now - p->since, p->target, p->cost, s->cr[i].peer[p->target].avail,
                              s->cr[i].peer[p->target].grant, s->cr[p->target].peer[i].owed,
                              s->cr[p->target].cfg.batch, s->inreq[pi], s->incred[pi]);
    } else {
      len += (size_t)snprintf(list + len, sizeof(list) - len, "; requester %u: %u requests left, not stalled", i,
                              p->left);
    }
  }
  snprintf(msg, sizeof(msg), "step bound %" PRIu64 " reached, %u requesters starved (%u deadlocked)%s",
           s->sc->step_bound, starved, deadlocked, list);
  if (s->f.fired) {
    const proc_t *p = &s->pr[s->f.r];
    if (p->left && p->stalled && p->target == s->f.t)
      found(s, BY_WATCHDOG, s->f.r, s->f.t, "", msg);
    else
      sim_fail(s, "watchdog, not on the faulty pair: %s", msg);
  } else if (s->sc->expect & (1u << BY_WATCHDOG) && deadlocked) {
    s->found[BY_WATCHDOG].hit = 1;
    s->found[BY_WATCHDOG].step = s->now;
    snprintf(s->found[BY_WATCHDOG].msg, sizeof(s->found[BY_WATCHDOG].msg), "%s", msg);
  } else {
    sim_fail(s, "watchdog: %s", msg);
  }
  s->stop = 1;
}

static void sim_run(sim_t *s) {
  const simcase_t *sc = s->sc;
  for (;;) {
    if (!s->busy && !s->inflight_req && !s->flushed) flush_all(s);
    if (s->flushed && !s->inflight) break;
    if (s->now >= sc->step_bound) {
      watchdog(s);
      return;
    }
    deliver(s);
    if (!s->stop) act(s);
    for (size_t k = 0; k < s->ntouched && !s->stop; k++)
      check_pair(s, s->touched[k] / s->P, s->touched[k] % s->P, 0);
    s->ntouched = 0;
    if (!s->stop && s->now % 64 == 0)
      for (int k = 0; k < 4; k++) {
        credits_t *c = &s->cr[below(&s->rng, s->P)];
        if (credits_check(c) != CREDITS_OK) sim_fail(s, "step %" PRIu64 ": %s", s->now, credits_error(c));
      }
    if (s->stop) return;
    s->now++;
  }
  /* drained: every pair, every process */
  for (uint32_t r = 0; r < s->P && !s->stop; r++)
    for (uint32_t t = 0; t < s->P && !s->stop; t++) check_pair(s, r, t, 1);
  for (uint32_t i = 0; i < s->P && !s->stop; i++)
    if (credits_check(&s->cr[i]) != CREDITS_OK) sim_fail(s, "after the run: %s", credits_error(&s->cr[i]));
}

static void case_sim(const simcase_t *sc0) {
  simcase_t sc = *sc0;
  sim_t s;
  char extra[600] = "";
  if (quick && !sc.fault && !sc.force_batch) {
    if (sc.nprocs > 256) sc.nprocs = 256;
    sc.work = sc.work / 4 > 8 ? sc.work / 4 : 8;
  }
  memset(&s, 0, sizeof(s));
  s.sc = &sc;
  s.P = sc.nprocs;
  s.rng = seed; /* each case its own stream: cases do not shift each other */
  for (const char *p = sc0->name; *p; p++) s.rng = s.rng * 31 + (unsigned char)*p;
  s.hotseed = rnd(&s.rng);
  s.W = 4 * sc.max_delay + 2;
  s.cr = xcalloc(s.P, sizeof(*s.cr));
  s.pr = xcalloc(s.P, sizeof(*s.pr));
  s.inreq = xcalloc((size_t)s.P * s.P, sizeof(uint32_t));
  s.incred = xcalloc((size_t)s.P * s.P, sizeof(uint32_t));
  s.stamp = xcalloc((size_t)s.P * s.P, sizeof(uint32_t));
  s.wheel = xcalloc(s.W, sizeof(*s.wheel));
  s.f.countdown = sc.fault_at;
  sc.cfg.npeers = s.P;
  for (uint32_t i = 0; i < s.P; i++) {
    int rc = credits_init(&s.cr[i], &sc.cfg);
    if (rc != CREDITS_OK) {
      EXPECT(0, "credits_init: rc %d: %s", rc, credits_error(&s.cr[i]));
      goto out;
    }
    if (sc.force_batch) s.cr[i].cfg.batch = sc.force_batch;
    s.pr[i].left = sc.work;
    s.pr[i].phase = sc.burst ? below(&s.rng, sc.burst / 2 + 1) : 0;
  }
  s.busy = sc.work ? s.P : 0;

  sim_run(&s);

  if (s.failed) {
    EXPECT(0, "%s", s.fail);
  } else if (sc.expect) {
    int by = -1;
    for (int k = 0; k < NBY; k++)
      if (sc.expect & (1u << k) && s.found[k].hit &&
          (k != BY_MODULE || !sc.expect_call || !strcmp(s.found[k].call, sc.expect_call)))
        by = k;
    if (sc.fault && !s.f.fired) {
      EXPECT(0, "fault never injected: countdown %u too far (run ended at step %" PRIu64 ")", sc.fault_at, s.now);
    } else if (by < 0 && !sc.fault) {
      EXPECT(0, "nothing found: the run finished at step %" PRIu64, s.now);
    } else if (by < 0) {
      EXPECT(0, "fault injected at step %" PRIu64 " on pair r=%u t=%u (%u credits) not found by the %s%s%s%s",
             s.f.step, s.f.r, s.f.t, s.f.credits, sc.expect & (1u << BY_MODULE) ? "module" : "checks",
             sc.expect_call ? " in " : "", sc.expect_call ? sc.expect_call : "",
             s.found[BY_MODULE].hit ? " (the module found it elsewhere)"
             : s.found[BY_CHECKER].hit ? " (the checker did see it)" : "");
    } else {
      size_t len = 0;
      for (int k = 0; k < NBY; k++)
        if (k != by && s.found[k].hit)
          len += (size_t)snprintf(extra + len, sizeof(extra) - len, "; also %s at step %" PRIu64, by_name[k],
                                  s.found[k].step);
      if (sc.fault)
        snprintf(detail, sizeof(detail),
                 "injected at step %" PRIu64 " on pair r=%u t=%u (%u credits); found by the %s%s%s at step %" PRIu64
                 ": %s%s",
                 s.f.step, s.f.r, s.f.t, s.f.credits, by_name[by], by == BY_MODULE ? " in " : "",
                 by == BY_MODULE ? s.found[by].call : "", s.found[by].step, s.found[by].msg, extra);
      else
        snprintf(detail, sizeof(detail), "found by the %s: %s", by_name[by], s.found[by].msg);
    }
  } else {
    uint64_t stalls = 0;
    for (uint32_t i = 0; i < s.P; i++) stalls += s.cr[i].stats.stalls;
    snprintf(detail, sizeof(detail),
             "P=%u share=%u batch=%u steps=%" PRIu64 " requests=%" PRIu64 " replies=%" PRIu64
             " credit-only=%" PRIu64 " stalls=%" PRIu64 " (refused charges %" PRIu64 ") max_stall=%" PRIu64
             " (requester %u on %u)",
             s.P, s.cr[0].peer[0].grant, s.cr[0].cfg.batch, s.now, s.requests, s.replies, s.creditmsgs,
             s.stall_events, stalls, s.max_stall, s.max_stall_r, s.max_stall_t);
  }
out:
  for (uint32_t i = 0; i < s.P; i++) credits_fini(&s.cr[i]);
  for (uint32_t i = 0; i < s.W; i++) free(s.wheel[i].m);
  free(s.wheel);
  free(s.touched);
  free(s.stamp);
  free(s.incred);
  free(s.inreq);
  free(s.pr);
  free(s.cr);
}

/* ------------------------------------------------------------------ */
/* cases                                                               */
/* ------------------------------------------------------------------ */
#define UNIT0(g, b) {.grant = (g), .batch = (b)}
#define MIXED(g, mc) {.grant = (g), .unit_bytes = 256, .max_cost = (mc)}

static const simcase_t sims[] = {
    /* nearest neighbour, the MPI Core's configuration at its smallest */
    {.name = "ring_unit0_g2_reply0", .nprocs = 64, .work = 4000, .pattern = PAT_RING, .cfg = UNIT0(2, 1),
     .reply_pct = 0, .max_delay = 8, .step_bound = 80000},
    {.name = "ring_unit0_g2_reply100", .nprocs = 64, .work = 4000, .pattern = PAT_RING, .cfg = UNIT0(2, 0),
     .reply_pct = 100, .max_delay = 8, .step_bound = 80000},
    /* all-to-all */
    {.name = "all2all_mixed256_g8_reply50", .nprocs = 128, .work = 3000, .pattern = PAT_UNIFORM,
     .cfg = MIXED(8, 5), .max_payload = 1024, .reply_pct = 50, .max_delay = 16, .serve = 4, .step_bound = 20000},
    {.name = "all2all_unit0_cap_maxgrant_reply100", .nprocs = 128, .work = 3000, .pattern = PAT_UNIFORM,
     .cfg = {.capacity = 128 * 1000, .max_grant = 64}, .reply_pct = 100, .max_delay = 16, .serve = 8,
     .step_bound = 15000},
    /* a hot spot that moves */
    {.name = "hotspot_unit0_g4_reply0", .nprocs = 128, .work = 2000, .pattern = PAT_HOTSPOT, .hot_every = 100,
     .hot_pct = 75, .cfg = UNIT0(4, 0), .reply_pct = 0, .max_delay = 8, .serve = 16, .step_bound = 40000},
    {.name = "hotspot_mixed256_cap_reply50", .nprocs = 128, .work = 2000, .pattern = PAT_HOTSPOT, .hot_every = 50,
     .hot_pct = 75, .cfg = {.capacity = 128 * 12 + 100, .unit_bytes = 256, .max_cost = 5}, .max_payload = 1024,
     .reply_pct = 50, .max_delay = 8, .serve = 16, .step_bound = 40000},
    /* bursts and silences */
    {.name = "bursts_mixed256_g16_reply0", .nprocs = 128, .work = 3000, .pattern = PAT_BURSTS, .burst = 40,
     .cfg = MIXED(16, 9), .max_payload = 2048, .reply_pct = 0, .max_delay = 16, .serve = 8, .step_bound = 30000},
    {.name = "bursts_unit0_g2_reply50", .nprocs = 64, .work = 3000, .pattern = PAT_BURSTS, .burst = 30,
     .cfg = UNIT0(2, 1), .reply_pct = 50, .max_delay = 8, .step_bound = 25000},
    /* scale */
    {.name = "scale1024_hotspot_unit0_g4_reply50", .nprocs = 1024, .work = 1200, .pattern = PAT_HOTSPOT,
     .hot_every = 200, .hot_pct = 50, .cfg = UNIT0(4, 0), .reply_pct = 50, .max_delay = 16, .serve = 32,
     .step_bound = 50000},
    {.name = "scale1024_all2all_mixed256_g8_reply0", .nprocs = 1024, .work = 1200, .pattern = PAT_UNIFORM,
     .cfg = MIXED(8, 5), .max_payload = 1024, .reply_pct = 0, .max_delay = 16, .serve = 8, .step_bound = 8000},
    {.name = "scale2048_hotspot_unit0_g2_reply0", .nprocs = 2048, .work = 300, .pattern = PAT_HOTSPOT,
     .hot_every = 100, .hot_pct = 30, .cfg = UNIT0(2, 1), .reply_pct = 0, .max_delay = 16, .serve = 32,
     .step_bound = 60000},
    /* the controls of the two starvation cases below: the same, fault-free and within the bound */
    {.name = "ring_mixed256_g2_cost2_reply50", .nprocs = 16, .work = 3000, .pattern = PAT_RING, .cfg = MIXED(2, 2),
     .min_payload = 1, .max_payload = 256, .reply_pct = 50, .max_delay = 8, .step_bound = 40000},
    {.name = "ring_mixed256_g4_cost1to4_reply0", .nprocs = 16, .work = 3000, .pattern = PAT_RING, .cfg = MIXED(4, 4),
     .max_payload = 768, .reply_pct = 0, .max_delay = 8, .step_bound = 40000},
    /* faults, each of which must be found */
    {.name = "fault_duplicated_return", .nprocs = 32, .work = 200, .pattern = PAT_UNIFORM, .cfg = UNIT0(4, 0),
     .reply_pct = 50, .max_delay = 8, .step_bound = 40000, .fault = FAULT_DUP_RETURN, .fault_at = 100,
     .expect = 1u << BY_MODULE},
    {.name = "fault_duplicated_return_hidden", .nprocs = 32, .work = 200, .pattern = PAT_HOTSPOT, .hot_every = 50,
     .hot_pct = 90, .cfg = UNIT0(16, 0), .reply_pct = 0, .max_delay = 8, .serve = 4, .step_bound = 40000,
     .fault = FAULT_DUP_RETURN_HIDDEN, .fault_at = 500, .expect = 1u << BY_MODULE},
    {.name = "fault_forged_overspend", .nprocs = 32, .work = 200, .pattern = PAT_UNIFORM, .cfg = MIXED(8, 5),
     .max_payload = 1024, .reply_pct = 50, .max_delay = 8, .step_bound = 40000, .fault = FAULT_OVERSPEND,
     .fault_at = 300, .expect = 1u << BY_MODULE, .expect_call = "credits_arrived"},
    {.name = "fault_uncharged_request", .nprocs = 32, .work = 200, .pattern = PAT_UNIFORM, .cfg = UNIT0(4, 0),
     .reply_pct = 0, .max_delay = 8, .step_bound = 40000, .fault = FAULT_UNCHARGED, .fault_at = 300,
     .expect = 1u << BY_MODULE},
    {.name = "fault_lost_credits_checker", .nprocs = 32, .work = 200, .pattern = PAT_UNIFORM, .cfg = UNIT0(4, 0),
     .reply_pct = 50, .max_delay = 8, .step_bound = 40000, .fault = FAULT_DROP, .fault_at = 100,
     .expect = 1u << BY_CHECKER},
    {.name = "fault_lost_credits_unchecked_drain", .nprocs = 32, .work = 200, .pattern = PAT_UNIFORM,
     .cfg = UNIT0(8, 0), .reply_pct = 100, .max_delay = 8, .step_bound = 40000, .fault = FAULT_DROP,
     .fault_at = 100, .expect = 1u << BY_DRAIN | 1u << BY_WATCHDOG, .no_checker = 1},
    {.name = "fault_lost_credits_unchecked_starves", .nprocs = 16, .work = 300, .pattern = PAT_RING,
     .cfg = MIXED(2, 2), .min_payload = 1, .max_payload = 256, .reply_pct = 50, .max_delay = 8, .step_bound = 5000,
     .fault = FAULT_DROP, .fault_at = 20, .expect = 1u << BY_WATCHDOG, .no_checker = 1},
    /* the liveness bound is tight: one past it and requesters starve */
    {.name = "liveness_batch_past_bound_starves", .nprocs = 16, .work = 3000, .pattern = PAT_RING,
     .cfg = MIXED(4, 4), .max_payload = 768, .reply_pct = 0, .max_delay = 8, .step_bound = 40000, .force_batch = 2,
     .expect = 1u << BY_WATCHDOG},
};

static const unit_case_t units[] = {
    {"cost", case_cost},
    {"init_validation", case_init_validation},
    {"init_shares", case_init_shares},
    {"charge_return_edges", case_charge_return_edges},
    {"arrived_edges", case_arrived_edges},
    {"piggyback_flush_due", case_piggyback_flush},
    {"check_detects", case_check_detects},
};

static const char *sim_case_name(size_t i) { return sims[i].name; }
static void sim_case_run(size_t i) { case_sim(&sims[i]); }

int main(int argc, char **argv) {
  return unit_main(argc, argv, units, sizeof(units) / sizeof(*units), sizeof(sims) / sizeof(*sims), sim_case_name,
                   sim_case_run);
}
