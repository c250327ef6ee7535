/*
 * unit_credits_dyn.c -- the AM flow-control credits' dynamic mode
 * (credits/, CREDITS_DYNAMIC, seed 000 section 4.7) driven the way a Core
 * drives it, with no MPI and no network.  A thousand virtual processes, each
 * with its own credits_t, exchange requests (carrying a want field), replies
 * (returning the request's cost and carrying a loan), reclaims and releases
 * over a simulated network that delays and reorders them; a request is
 * handled some steps after it arrived.  After every step a global checker,
 * which sees every process and every message, verifies for every pair an
 * event touched that step, and every process whose credits_t it changed:
 *
 *   avail_r[t] + requests r->t in flight + owed_t[r] + returns t->r in flight
 *     == grant_r[t]                                     (the credits of a pair)
 *   lent_t[r] == grant_r[t] + loans t->r in flight + releases r->t in flight
 *   owed_t[r] == the cost of r's requests arrived at t and not yet replied
 *   requests r->t in flight + owed_t[r] <= lent_t[r]    (t's buffers suffice)
 *   sum_r lent_t[r] + bank_t == capacity_t, sum_r owed_t[r] <= capacity_t
 *   t's reclaiming flag for r <=> a reclaim or its release is in flight
 *   credits_check() of the process
 *
 * and every credits_lend, credits_release and credits_reclaim_next is held
 * to its promise (a loan never exceeds the bank nor the want, throughput
 * loans leave the reserve, a release gives up exactly what of the loan is
 * home, a throughput shortage reclaims only quiet borrowers).  A watchdog
 * bounds both the run and every single wait (starvation), naming the
 * requesters it finds stuck.  Once the traffic is over, a drain reclaims
 * every loan and demands every bank full again.  Patterns: nearest
 * neighbour, all-to-all, a moving hot spot, bursts and silences with
 * shifting pairs, needs (messages costing more than the floor) against
 * throughput loans.  Faults injected on a countdown (a duplicated loan, a
 * forged release, a requester keeping a grant it released, a duplicated
 * release) must be found; plus direct cases for the arithmetic at the edges.
 *
 *   unit_credits_dyn [--seed N] [--quick] [--case SUBSTRING]
 *
 * One line per case, "PASS name ..." or "FAIL name: why"; exit 1 on any FAIL.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 too */
#define UNIT_PROG "unit_credits_dyn"

#include "credits.h"
#include "unit_harness.h"

#define UNIT 256 /* bytes of payload per credit (ReqRB space, say) */

/* A dynamic configuration: capacity = the floors + the reserve (max_cost -
 * grant) + extra, the least credits_init accepts plus extra. */
static credits_cfg_t dcfg(uint32_t npeers, uint32_t grant, uint32_t max_cost, uint32_t max_grant, uint32_t extra) {
  credits_cfg_t cfg = {.npeers = npeers, .mode = CREDITS_DYNAMIC, .grant = grant, .max_grant = max_grant,
                       .unit_bytes = UNIT, .max_cost = max_cost, .quiet = 50};
  cfg.capacity = npeers * grant + (max_cost > grant ? max_cost - grant : 0) + extra;
  return cfg;
}

static credits_cfg_t scfg(uint32_t npeers, uint32_t grant) {
  credits_cfg_t cfg = {.npeers = npeers, .mode = CREDITS_STATIC, .grant = grant};
  return cfg;
}

/* ------------------------------------------------------------------ */
/* direct cases                                                        */
/* ------------------------------------------------------------------ */

/* credits_init refuses what dynamic mode cannot hold, with a message, and
 * leaves no memory behind; the least capacity that holds is accepted. */
static void case_init_validation(void) {
  credits_t c;
  credits_cfg_t cfg;
  int rc;

  cfg = dcfg(8, 2, 33, 64, 0); /* 8 * 2 + 31 = 47: exactly enough */
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_OK && c.bank == 31 && c.reserve == 31, "capacity 47, the minimum: rc %d bank %u reserve %u: %s",
         rc, c.bank, c.reserve, c.err);
  credits_fini(&c);

  cfg.capacity = 46;
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_EINVAL && !c.peer && strstr(c.err, "capacity of 46") && strstr(c.err, "max_cost 33"),
         "capacity 46 < 8 * 2 + 31: rc %d '%s'", rc, c.err);
  credits_fini(&c); /* harmless after a failure */

  cfg = dcfg(8, 2, 33, 64, 0);
  cfg.grant = 0;
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_EINVAL && !c.peer && strstr(c.err, "grant of 0"), "grant 0: rc %d '%s'", rc, c.err);

  cfg = dcfg(8, 2, 33, 64, 0);
  cfg.capacity = 0;
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_EINVAL && strstr(c.err, "capacity"), "capacity 0: rc %d '%s'", rc, c.err);

  cfg = dcfg(8, 2, 33, 64, 0);
  cfg.batch = 2;
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_EINVAL && !c.peer && strstr(c.err, "batch 2"), "batch 2: rc %d '%s'", rc, c.err);
  cfg.batch = 1;
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_OK && c.cfg.batch == 1, "batch 1: rc %d batch %u: %s", rc, c.cfg.batch, c.err);
  credits_fini(&c);
  cfg.batch = 0;
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_OK && c.cfg.batch == 1, "batch 0 means 1: rc %d batch %u: %s", rc, c.cfg.batch, c.err);
  credits_fini(&c);

  cfg = dcfg(8, 2, 33, 20, 10); /* one pair could never hold a message of max_cost */
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_EINVAL && strstr(c.err, "max_grant 20"), "max_grant 20 < max_cost 33: rc %d '%s'", rc, c.err);

  cfg = dcfg(0, 2, 33, 64, 100);
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_EINVAL && strstr(c.err, "npeers"), "npeers 0: rc %d '%s'", rc, c.err);

  cfg = dcfg(8, 2, 0, 0, 0); /* no max_cost, no bank: the floors only */
  rc = credits_init(&c, &cfg);
  EXPECT(rc == CREDITS_OK && c.bank == 0 && c.reserve == 0 && c.cfg.max_grant == 2,
         "floors only: rc %d bank %u reserve %u max_grant %u: %s", rc, c.bank, c.reserve, c.cfg.max_grant, c.err);
  credits_fini(&c);
  snprintf(detail, sizeof(detail),
           "capacity < floors + reserve, grant 0, capacity 0, batch 2, max_grant < max_cost, npeers 0 -> EINVAL");
}

/* The initial layout: every pair at its floor, the rest banked, max_grant
 * clamped to one peer holding the whole bank. */
static void case_init_layout(void) {
  credits_t c;
  credits_cfg_t cfg = dcfg(8, 3, 33, 64, 50); /* 24 + 30 + 50 = 104 */
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "init: %s", c.err);
  EXPECT(c.bank == 80 && c.reserve == 30 && c.cfg.max_grant == 64 && c.cfg.batch == 1 && c.stats.bank_low == 80 &&
             c.stats.max_lent == 3 && !c.short_,
         "bank %u reserve %u max_grant %u batch %u bank_low %u max_lent %u short %u", c.bank, c.reserve,
         c.cfg.max_grant, c.cfg.batch, c.stats.bank_low, c.stats.max_lent, c.short_);
  for (uint32_t i = 0; i < 8 && !failed; i++) {
    const credits_peer_t *p = &c.peer[i];
    EXPECT(p->avail == 3 && p->grant == 3 && p->lent == 3 && !p->owed && !p->want && !p->reclaiming,
           "peer %u: avail %u grant %u lent %u owed %u want %u reclaiming %u", i, p->avail, p->grant, p->lent,
           p->owed, p->want, p->reclaiming);
  }
  EXPECT(credits_check(&c) == CREDITS_OK, "check: %s", c.err);
  credits_fini(&c);
  cfg.max_grant = 0;
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK && c.cfg.max_grant == 83, "max_grant 0: the bank + a floor, 83: %u",
         c.cfg.max_grant);
  credits_fini(&c);
  cfg.max_grant = 1000;
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK && c.cfg.max_grant == 83, "max_grant 1000 clamped to 83: %u",
         c.cfg.max_grant);
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "avail = grant = lent = floor, bank = capacity - floors, max_grant <= bank + floor");
}

/* A refused charge records the want: the shortfall, at least the grant,
 * within max_grant and the header field, NEED when the grant cannot pay;
 * an ask is due only with the whole grant home and too small. */
static void case_want(void) {
  credits_t c;
  credits_cfg_t cfg = dcfg(4, 3, 33, 64, 100); /* bank 130 */
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "init: %s", c.err);
  EXPECT(credits_charge(&c, 1, 2) == CREDITS_OK && c.peer[1].avail == 1, "charge 2 of 3");
  EXPECT(credits_charge(&c, 1, 3) == CREDITS_EAGAIN && c.peer[1].avail == 1 && c.peer[1].want == 3 &&
             c.stats.stalls == 1,
         "cost 3 with 1 home: want the grant 3, no need: want %#x", c.peer[1].want);
  EXPECT(!credits_ask_due(&c, 1, 3), "credits in flight: no ask, wait for them");
  EXPECT(credits_want(&c, 1) == 3 && credits_want(&c, 1) == 0, "the want is reported once");
  EXPECT(credits_charge(&c, 2, 10) == CREDITS_EAGAIN && c.peer[2].want == (10 | CREDITS_WANT_NEED) &&
             c.peer[2].need_ask == 7,
         "cost 10 on a grant of 3: want a grant of 10 | NEED (7 lacking), got %#x", c.peer[2].want);
  EXPECT(credits_ask_due(&c, 2, 10) && !credits_ask_due(&c, 2, 3), "ask due for 10 (grant 3 home), not for 3");
  EXPECT(credits_charge(&c, 2, 65) == CREDITS_EINVAL && c.peer[2].want == (10 | CREDITS_WANT_NEED) &&
             c.stats.stalls == 2,
         "cost 65 > max_grant 64: EINVAL, no want, no stall: want %#x stalls %" PRIu64, c.peer[2].want,
         c.stats.stalls);
  EXPECT(credits_charge(&c, 2, 64) == CREDITS_EAGAIN && c.peer[2].want == (64 | CREDITS_WANT_NEED),
         "cost 64: want 64 | NEED, got %#x", c.peer[2].want);
  EXPECT(credits_granted(&c, 3, 57) == CREDITS_OK && c.peer[3].grant == 60, "loan 57: grant 60");
  EXPECT(credits_charge(&c, 3, 64) == CREDITS_EAGAIN && c.peer[3].want == (64 | CREDITS_WANT_NEED) &&
             c.peer[3].need_ask == 4,
         "cost 64 on 60: want 64 | NEED (4 lacking), got %#x", c.peer[3].want);
  EXPECT(credits_charge(&c, 3, 60) == CREDITS_OK && credits_charge(&c, 3, 1) == CREDITS_EAGAIN &&
             c.peer[3].want == 4,
         "stalled on 1 with a grant of 60: the grant capped by the room, 4, no need: got %#x", c.peer[3].want);
  EXPECT(credits_granted(&c, 3, 4) == CREDITS_OK && credits_want(&c, 3) == 4, "grant 64, the want taken");
  EXPECT(credits_charge(&c, 3, 5) == CREDITS_EAGAIN && !c.peer[3].want, "at max_grant nothing to ask: %#x",
         c.peer[3].want);
  credits_fini(&c);

  cfg = dcfg(2, 3, 400, 0, 600); /* a need past the header field's 255 */
  EXPECT(credits_init(&c, &cfg) == CREDITS_EINVAL && strstr(c.err, "max_cost 400"),
         "max_cost 400 > 255 refused in dynamic mode: '%s'", c.err);
  credits_fini(&c);

  cfg = scfg(2, 4);
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "static init: %s", c.err);
  EXPECT(credits_charge(&c, 1, 5) == CREDITS_EINVAL && credits_charge(&c, 1, 4) == CREDITS_OK &&
             credits_charge(&c, 1, 1) == CREDITS_EAGAIN && !c.peer[1].want && !credits_ask_due(&c, 1, 1) &&
             !credits_ask_due(&c, 0, 5),
         "static: no want, no ask (want %#x)", c.peer[1].want);
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "want = max(shortfall, grant) within room and 255; a need (cost > grant): the cost | NEED");
}

/* credits_lend: nothing for want 0; throughput loans leave the reserve,
 * a NEED may take it, all or nothing, the first unmet need designated;
 * loans capped by max_grant; a throughput ask the bank could not meet marks
 * the target short; static lends nothing. */
static void case_lend(void) {
  credits_t c;
  credits_cfg_t cfg = dcfg(4, 2, 10, 16, 40); /* 8 + 8 + 40 = 56: bank 48, reserve 8 */
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "init: %s", c.err);
  EXPECT(credits_lend(&c, 1, 0) == 0 && credits_lend(&c, 1, CREDITS_WANT_NEED) == 0 && c.stats.asks == 0 &&
             c.bank == 48,
         "want 0 (with or without the need bit): no loan, no ask counted");
  EXPECT(credits_lend(&c, 1, 6) == 6 && c.peer[1].lent == 8 && c.bank == 42 && !c.short_, "loan 6");
  EXPECT(credits_lend(&c, 2, 20) == 14 && c.peer[2].lent == 16 && c.bank == 28 && !c.short_,
         "want 20 capped at max_grant 16 - 2, not short (the bank could pay): lent %u bank %u short %u", c.peer[2].lent,
         c.bank, c.short_);
  EXPECT(credits_lend(&c, 3, 10) == 10 && credits_lend(&c, 0, 12) == 10 && c.bank == 8 && c.short_ == 1 &&
             c.peer[0].asked == 12,
         "throughput loans stop at the reserve 8, short: bank %u", c.bank);
  EXPECT(credits_lend(&c, 0, 1) == 0 && c.bank == 8 && c.stats.short_asks == 2,
         "a throughput ask with only the reserve banked gets nothing: short_asks %" PRIu64, c.stats.short_asks);
  EXPECT(credits_lend(&c, 1, 8 | CREDITS_WANT_NEED) == 0 && c.bank == 8, "a need of 8 with 8 lent: nothing lacks");
  EXPECT(credits_lend(&c, 1, 13 | CREDITS_WANT_NEED) == 5 && c.bank == 3 && c.short_ == 1,
         "a need (a grant of 13 on 8 lent) takes the reserve");
  EXPECT(credits_lend(&c, 3, 16 | CREDITS_WANT_NEED) == 0 && c.bank == 3 && c.short_ == 2 && c.need_peer == 3 &&
             c.need_amt == 4,
         "a need is lent all or nothing: 4 with 3 banked gets nothing and is designated: bank %u need_peer %u",
         c.bank, c.need_peer);
  EXPECT(credits_lend(&c, 2, 17 | CREDITS_WANT_NEED) == 0 && credits_lend(&c, 0, 13 | CREDITS_WANT_NEED) == 0,
         "a pair at max_grant; another need must leave the designated 4 in the bank");
  c.peer[1].reclaiming = 1; /* (reclaimed, as a waiting need makes need loans) */
  EXPECT(credits_released(&c, 1, 5) == CREDITS_OK && c.bank == 8 && !c.peer[1].need_lent &&
             credits_lend(&c, 0, 13 | CREDITS_WANT_NEED) == 1,
         "the need loan released: 8 banked, 1 of it lendable past the designated 4");
  EXPECT(credits_lend(&c, 3, 16 | CREDITS_WANT_NEED) == 4 && c.bank == 3 && c.need_peer == UINT32_MAX,
         "the designated need met: bank %u", c.bank);
  EXPECT(c.stats.lent == 50 && c.stats.max_lent == 16 && c.stats.bank_low == 3 && c.stats.asks == 12 &&
             c.stats.released == 5,
         "stats: lent %" PRIu64 " max_lent %u bank_low %u asks %" PRIu64, c.stats.lent, c.stats.max_lent,
         c.stats.bank_low, c.stats.asks);
  EXPECT(c.peer[0].lent == 13 && c.peer[1].lent == 8 && c.peer[3].lent == 16, "lent %u %u %u", c.peer[0].lent,
         c.peer[1].lent, c.peer[3].lent);
  EXPECT(credits_lend(&c, 2, 0) == 0 && credits_lend(&c, 1, 17 | CREDITS_WANT_NEED) == 0 && c.need_peer == 1 &&
             credits_lend(&c, 1, 0) == 0 && c.need_peer == UINT32_MAX,
         "a designated requester that sends without a need waits no more: need_peer %u", c.need_peer);
  EXPECT(credits_check(&c) == CREDITS_OK, "check: %s", c.err);
  credits_fini(&c);
  cfg = scfg(3, 4);
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK && credits_lend(&c, 1, 5 | CREDITS_WANT_NEED) == 0 &&
             c.stats.asks == 0 && c.peer[1].lent == 4,
         "static lends nothing");
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "want 0 -> 0; reserve kept from throughput, taken by a need all or nothing; "
           "designation; max_grant cap; short");
}

/* credits_granted refuses a loan past max_grant and any loan in static
 * mode, changing nothing. */
static void case_granted(void) {
  credits_t c;
  credits_cfg_t cfg = dcfg(3, 2, 4, 10, 20);
  int rc;
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "init: %s", c.err);
  EXPECT(credits_granted(&c, 1, 0) == CREDITS_OK && c.peer[1].grant == 2, "a loan of 0");
  EXPECT(credits_granted(&c, 1, 8) == CREDITS_OK && c.peer[1].grant == 10 && c.peer[1].avail == 10, "up to 10");
  rc = credits_granted(&c, 1, 1);
  EXPECT(rc == CREDITS_EINVARIANT && c.peer[1].grant == 10 && c.peer[1].avail == 10 && strstr(c.err, "peer 1 ") &&
             strstr(c.err, "grant of 10"),
         "past max_grant 10: rc %d grant %u '%s'", rc, c.peer[1].grant, c.err);
  rc = credits_granted(&c, 2, UINT32_MAX);
  EXPECT(rc == CREDITS_EINVARIANT && c.peer[2].grant == 2, "UINT32_MAX (no 32-bit wrap): rc %d grant %u", rc,
         c.peer[2].grant);
  EXPECT(credits_granted(&c, 3, 1) == CREDITS_EINVAL && strstr(c.err, "peer 3"), "peer 3 of 3: '%s'", c.err);
  EXPECT(credits_check(&c) == CREDITS_OK, "check: %s", c.err);
  credits_fini(&c);
  cfg = scfg(3, 4);
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "static init: %s", c.err);
  EXPECT(credits_granted(&c, 1, 0) == CREDITS_OK, "static: a loan of 0 is no loan");
  rc = credits_granted(&c, 1, 1);
  EXPECT(rc == CREDITS_EINVARIANT && c.peer[1].grant == 4 && strstr(c.err, "static mode lends nothing"),
         "static: rc %d grant %u '%s'", rc, c.peer[1].grant, c.err);
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "past max_grant, UINT32_MAX, static mode -> refused, nothing changed");
}

/* credits_release gives up only what of the loan is home, never the floor. */
static void case_release(void) {
  credits_t c;
  credits_cfg_t cfg = dcfg(3, 2, 4, 30, 40);
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "init: %s", c.err);
  EXPECT(credits_release(&c, 1) == 0 && c.peer[1].grant == 2 && c.peer[1].avail == 2, "the floor is kept");
  EXPECT(credits_granted(&c, 1, 10) == CREDITS_OK && credits_charge(&c, 1, 9) == CREDITS_OK && c.peer[1].avail == 3,
         "grant 12, 9 spent");
  EXPECT(credits_release(&c, 1) == 3 && c.peer[1].grant == 9 && c.peer[1].avail == 0,
         "only the 3 home: grant %u avail %u", c.peer[1].grant, c.peer[1].avail);
  EXPECT(credits_release(&c, 1) == 0 && c.peer[1].grant == 9, "nothing home");
  EXPECT(credits_returned(&c, 1, 9) == CREDITS_OK, "the 9 come home");
  EXPECT(credits_release(&c, 1) == 7 && c.peer[1].grant == 2 && c.peer[1].avail == 2,
         "down to the floor, not below: grant %u avail %u", c.peer[1].grant, c.peer[1].avail);
  EXPECT(credits_release(&c, 1) == 0, "at the floor");
  EXPECT(credits_charge(&c, 2, 2) == CREDITS_OK && credits_release(&c, 2) == 0 && c.peer[2].grant == 2 &&
             c.peer[2].avail == 0,
         "the floor spent: nothing to release");
  EXPECT(credits_check(&c) == CREDITS_OK, "check: %s", c.err);
  credits_fini(&c);
  cfg = scfg(3, 4);
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK && credits_release(&c, 1) == 0 && c.peer[1].grant == 4 &&
             c.peer[1].avail == 4,
         "static: nothing to release");
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "release = min(avail, grant - floor); 0 at the floor and in static mode");
}

/* credits_released refuses more than the loan, or a release that would
 * leave the requester's arrived requests above its share. */
static void case_released(void) {
  credits_t c;
  credits_cfg_t cfg = dcfg(3, 2, 4, 0, 20); /* bank 22, reserve 2 */
  int rc;
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "init: %s", c.err);
  EXPECT(credits_lend(&c, 1, 10) == 10 && c.peer[1].lent == 12 && c.bank == 12, "loan 10");
  rc = credits_released(&c, 1, 0);
  EXPECT(rc == CREDITS_EINVARIANT && strstr(c.err, "no reclaim"), "no reclaim sent: rc %d '%s'", rc, c.err);
  c.peer[1].reclaiming = 1; /* (a reclaim went to peer 1) */
  rc = credits_released(&c, 1, 11);
  EXPECT(rc == CREDITS_EINVARIANT && c.peer[1].lent == 12 && c.bank == 12 && strstr(c.err, "gave back 11"),
         "11 of a loan of 10: rc %d lent %u '%s'", rc, c.peer[1].lent, c.err);
  EXPECT(credits_arrived(&c, 1, 12) == CREDITS_OK, "12 arrived");
  rc = credits_released(&c, 1, 1);
  EXPECT(rc == CREDITS_EINVARIANT && c.peer[1].lent == 12, "with 12 owed, a share of 11 is too small: rc %d", rc);
  EXPECT(credits_piggyback(&c, 1, 12) == 12 && credits_arrived(&c, 1, 2) == CREDITS_OK, "replied; 2 arrive");
  EXPECT(credits_released(&c, 1, 10) == CREDITS_OK && c.peer[1].lent == 2 && c.bank == 22 && c.stats.released == 10 &&
             !c.peer[1].reclaiming,
         "the whole loan, 2 owed within the floor: lent %u bank %u", c.peer[1].lent, c.bank);
  c.peer[1].reclaiming = 1;
  rc = credits_released(&c, 1, 1);
  EXPECT(rc == CREDITS_EINVARIANT && c.peer[1].lent == 2, "past the floor: rc %d", rc);
  EXPECT(credits_released(&c, 1, 0) == CREDITS_OK && c.peer[1].lent == 2, "a release of 0 (nothing was home)");
  EXPECT(credits_released(&c, 3, 0) == CREDITS_EINVAL && strstr(c.err, "peer 3"), "peer 3 of 3: '%s'", c.err);
  EXPECT(credits_piggyback(&c, 1, 2) == 2 && credits_check(&c) == CREDITS_OK, "check: %s", c.err);
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "more than the loan, or below the owed -> refused, nothing changed");
}

/* credits_reclaim_next: nothing unless short; a throughput shortage takes
 * the borrowers quiet for cfg.quiet ticks; an unmet need reclaims nothing;
 * one reclaim per peer until its release, which must answer one; the scan
 * rotates. */
static void case_reclaim(void) {
  credits_t c;
  credits_cfg_t cfg = dcfg(5, 2, 4, 0, 10); /* bank 12, reserve 2, quiet 50 */
  uint32_t a, b;
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK, "init: %s", c.err);
  EXPECT(credits_reclaim_next(&c, 0) == UINT32_MAX, "not short");
  credits_tick(&c, 100);
  EXPECT(credits_arrived(&c, 1, 1) == CREDITS_OK && credits_piggyback(&c, 1, 1) == 1 && credits_lend(&c, 1, 4) == 4,
         "peer 1: a request at 100, a loan of 4");
  credits_tick(&c, 120);
  EXPECT(credits_arrived(&c, 2, 1) == CREDITS_OK && credits_piggyback(&c, 2, 1) == 1 && credits_lend(&c, 2, 6) == 6,
         "peer 2: a request at 120, a loan of 6");
  EXPECT(credits_lend(&c, 3, 2) == 0 && c.short_ == 1, "the bank down to the reserve: short %u", c.short_);
  EXPECT(credits_reclaim_next(&c, 140) == UINT32_MAX && !c.short_, "nobody quiet for 50 at 140; short cleared");
  EXPECT(credits_lend(&c, 3, 2) == 0 && c.short_ == 1, "short again");
  a = credits_reclaim_next(&c, 150);
  EXPECT(a == 1 && c.peer[1].reclaiming, "peer 1 quiet for exactly 50: got %u", a);
  EXPECT(credits_reclaim_next(&c, 150) == UINT32_MAX && !c.short_, "peer 2 active, peer 1 already reclaimed");
  EXPECT(credits_lend(&c, 3, 4 | CREDITS_WANT_NEED) == 2 && !c.short_, "a need met in full is not short");
  EXPECT(credits_lend(&c, 4, 3 | CREDITS_WANT_NEED) == 0 && c.short_ == 2 && c.need_peer == 4,
         "an unmet need: short %u, designated %u", c.short_, c.need_peer);
  a = credits_reclaim_next(&c, 151);
  b = credits_reclaim_next(&c, 151);
  EXPECT(a == 3 && b == UINT32_MAX && !c.short_,
         "an unmet need reclaims the need loans out, quiet or not (peer 2, active, holds none): %u %u", a, b);
  EXPECT(c.stats.reclaims == 2, "reclaims %" PRIu64, c.stats.reclaims);
  EXPECT(credits_released(&c, 2, 1) == CREDITS_EINVARIANT && strstr(c.err, "no reclaim"),
         "a release nobody asked for: '%s'", c.err);
  EXPECT(credits_released(&c, 1, 4) == CREDITS_OK && !c.peer[1].reclaiming && c.bank == 4, "peer 1 releases");
  EXPECT(credits_released(&c, 1, 0) == CREDITS_EINVARIANT, "peer 1 releases twice");
  EXPECT(credits_released(&c, 3, 2) == CREDITS_OK && c.bank == 6 && !c.peer[3].need_lent,
         "peer 3 releases its need loan");
  EXPECT(credits_lend(&c, 4, 3 | CREDITS_WANT_NEED) == 1 && c.need_peer == UINT32_MAX, "the designated need met");
  c.peer[4].reclaiming = 1;
  EXPECT(credits_released(&c, 4, 1) == CREDITS_OK && credits_lend(&c, 3, 8) == 4 && c.short_ == 1,
         "short of a throughput ask again");
  a = credits_reclaim_next(&c, 400);
  b = credits_reclaim_next(&c, 400);
  EXPECT(a == 2 && b == 3 && credits_reclaim_next(&c, 400) == UINT32_MAX,
         "peer 2 quiet since 120, peer 3 never sent a request: %u %u", a, b);
  EXPECT(credits_released(&c, 2, 6) == CREDITS_OK && credits_released(&c, 3, 4) == CREDITS_OK && c.bank == 12,
         "all banked: %u", c.bank);
  EXPECT(credits_reclaim_next(&c, 400) == UINT32_MAX && credits_check(&c) == CREDITS_OK, "done: %s", c.err);
  credits_fini(&c);
  cfg = scfg(3, 4);
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK && credits_lend(&c, 1, 9) == 0 &&
             credits_reclaim_next(&c, 1000) == UINT32_MAX,
         "static: nothing to reclaim");
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "short: quiet borrowers only; needs reclaim nothing; once per peer; answered releases only");
}

/* credits_check finds what no call can do: each corrupts one field. */
static void case_check_detects(void) {
  credits_t c;
  credits_cfg_t cfg = dcfg(4, 2, 4, 8, 10); /* capacity 20, bank 12, max_grant 8 */
  EXPECT(credits_init(&c, &cfg) == CREDITS_OK && credits_check(&c) == CREDITS_OK, "init: %s", c.err);
  c.peer[2].grant = c.peer[2].avail = 1;
  EXPECT(credits_check(&c) == CREDITS_EINVARIANT && strstr(c.err, "peer 2:"), "grant 1 below the floor: '%s'", c.err);
  c.peer[2].grant = c.peer[2].avail = 2;
  c.peer[3].lent = 3;
  EXPECT(credits_check(&c) == CREDITS_EINVARIANT && strstr(c.err, "capacity is 20"), "lent + bank 21: '%s'", c.err);
  c.peer[3].lent = 2;
  c.bank = 11;
  EXPECT(credits_check(&c) == CREDITS_EINVARIANT && strstr(c.err, "11 banked"), "lent + bank 19: '%s'", c.err);
  c.peer[1].lent = 9;
  c.bank = 5;
  EXPECT(credits_check(&c) == CREDITS_EINVARIANT && strstr(c.err, "peer 1:"), "lent 9 > max_grant 8: '%s'", c.err);
  c.peer[1].lent = 2;
  c.bank = 12;
  EXPECT(credits_check(&c) == CREDITS_OK, "restored: %s", c.err);
  credits_fini(&c);
  snprintf(detail, sizeof(detail), "grant below the floor, lent + bank != capacity, lent past max_grant");
}

/* ------------------------------------------------------------------ */
/* the simulated job                                                   */
/* ------------------------------------------------------------------ */
enum { PAT_RING, PAT_UNIFORM, PAT_HOTSPOT, PAT_SHIFT, PAT_NEED };
enum { M_REQ, M_HANDLE, M_REP, M_RECLAIM, M_RELEASE };
enum { FAULT_NONE, FAULT_DUP_LOAN, FAULT_FORGED_RELEASE, FAULT_RELEASE_KEEP, FAULT_DUP_RELEASE };
enum { BY_MODULE, BY_CHECKER, BY_DRAIN, NBY }; /* who finds a broken pair */
static const char *const by_name[NBY] = {"module", "checker", "drain check"};
/* What a clean case must show besides finishing and draining. */
enum {
  SHOW_NEIGHBOURS = 1, /* loans stay with the pairs that talk: most neighbour pairs above the floor, no other */
  SHOW_MOVED = 2,      /* credits given back (released or need loans) and lent to another requester */
  SHOW_NEED = 4,       /* NEED asks, met out of the reserve while throughput loans had the rest */
  SHOW_SHORT = 8,      /* the bank ran short and borrowers were reclaimed */
  SHOW_QUIET = 16,     /* quiet borrowers among them */
};

typedef struct simcase {
  const char *name;
  uint32_t nprocs, work;    /* virtual processes; requests each must send */
  int pattern;
  uint32_t hot_every;       /* PAT_HOTSPOT: the hot target moves every hot_every steps */
  unsigned hot_pct;         /* PAT_HOTSPOT: requests that go to it */
  uint32_t epoch;           /* PAT_SHIFT: steps per phase (active/idle, targets shift) */
  uint32_t need_work;       /* PAT_NEED: requests each needer sends */
  uint32_t grant, max_cost, max_grant, extra; /* capacity = floors + reserve + extra */
  unsigned big_pct;         /* requests of cost 1..max_cost; the rest cost 1..grant */
  uint32_t max_delay;       /* a message takes 1..max_delay steps (1 in 32: up to 4x) */
  uint32_t max_handle;      /* a request is handled 0..max_handle steps after it arrived */
  uint64_t quiet;           /* cfg.quiet, in steps */
  uint32_t reclaim_every;   /* each target runs the reclaim loop every this many steps */
  unsigned nap_pct;         /* a process with work naps (sends nothing, asks nothing) for 1..nap_max steps
                             * with this chance per step, as one that lost its core does */
  uint32_t nap_max;
  uint32_t big_from;        /* big_pct's requests cost big_from..max_cost (0: 1..max_cost) */
  uint64_t step_bound, wait_bound; /* the watchdog: the whole run; one request's wait */
  unsigned show;            /* SHOW_* */
  int fault;                /* injected on the fault_at-th eligible call */
  uint32_t fault_at;
  unsigned expect;          /* (1 << BY_*): who may find it; 0: a clean run */
  const char *expect_call;  /* BY_MODULE: and in this call */
  int no_checker;           /* no per-step check: the module alone, or at the latest the drain */
} simcase_t;

typedef struct {
  uint32_t src, dst;
  uint32_t a, b; /* REQ, HANDLE: cost, want field; REP: returned, loan; RELEASE: credits */
  int kind;
} msg_t;

typedef struct {
  msg_t *m;
  size_t n, cap;
} bucket_t;

typedef struct {
  uint32_t *v;
  size_t n, cap;
} vec_t;

typedef struct {
  uint32_t left;         /* requests still to send */
  uint32_t target, cost; /* the request waiting to be sent */
  int has;               /* one is waiting */
  uint64_t since;        /* since this step */
  uint64_t nap_end;      /* napping until this step */
} proc_t;

typedef struct {
  int hit;
  uint64_t step;
  const char *call; /* BY_MODULE: the call that refused */
  char msg[600];
} found_t;

typedef struct {
  const simcase_t *sc;
  uint32_t P, floor;
  credits_t *cr;
  proc_t *pr;
  /* per pair, [r * P + t] with r the requester and t the target */
  uint32_t *inreq;  /* cost of r's requests to t in flight */
  uint32_t *pend;   /* cost of r's requests arrived at t, not yet replied */
  uint32_t *incred; /* credits returning to r in replies in flight */
  uint32_t *inloan; /* loans to r in replies in flight */
  uint32_t *inrel;  /* credits r released, in flight to t */
  uint8_t *inrc;    /* a reclaim t -> r or its release r -> t in flight */
  uint32_t *snap;   /* lent_t[r] as last checked (for the per-target sum) */
  uint32_t *stamp;  /* the step + 1 the pair was last touched */
  /* per process */
  uint64_t *sumlent; /* as a target: sum of snap over its requesters */
  uint64_t *occ;     /* as a target: sum of pend over its requesters */
  uint32_t *pstamp;
  uint32_t *last_rel_from; /* as a target: the requester of its last release of credits */
  vec_t tpairs, tprocs;    /* touched this step */
  bucket_t *wheel;         /* timing wheel: messages and handler runs by step */
  uint32_t W;
  uint64_t now, inflight, rng, hotseed;
  uint32_t busy; /* processes with work left */
  int draining, stop, failed;
  char fail[1500];
  struct {
    long countdown;
    int fired;
    uint32_t r, t, credits;
    uint64_t step;
  } f;
  found_t found[NBY];
  /* what happened */
  uint64_t requests, asks, need_asks, loans, lent, need_reserve, tp_short, redistributed;
  uint64_t reclaims, quiet_reclaims, releases, released;
  uint64_t maxwait, maxwait_big, traffic_steps;
  uint32_t maxwait_r, maxwait_t, peak_lent;
  uint64_t nb_above, nb_pairs, other_above; /* at the end of the traffic */
} sim_t;

static size_t PI(const sim_t *s, uint32_t r, uint32_t t) { return (size_t)r * s->P + t; }

static void sim_fail(sim_t *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sim_fail(sim_t *s, const char *fmt, ...) {
  va_list ap;
  s->stop = 1;
  if (s->failed++) return;
  va_start(ap, fmt);
  vsnprintf(s->fail, sizeof(s->fail), fmt, ap);
  va_end(ap);
}

/* Something broken: what a fault case waits for when it concerns the
 * faulty pair (related), a failure otherwise. */
static void found(sim_t *s, int by, int related, const char *call, const char *msg) {
  if (!s->f.fired || !related) {
    sim_fail(s, "%s at step %" PRIu64 "%s%s: %s", by_name[by], s->now, *call ? " in " : "", call, msg);
    return;
  }
  if (!s->found[by].hit) {
    s->found[by].hit = 1;
    s->found[by].step = s->now;
    s->found[by].call = call;
    snprintf(s->found[by].msg, sizeof(s->found[by].msg), "%s", msg);
  }
  if (s->sc->expect & (1u << by) && (by != BY_MODULE || !s->sc->expect_call || !strcmp(call, s->sc->expect_call)))
    s->stop = 1;
}

static int pair_is_faulty(const sim_t *s, uint32_t r, uint32_t t) { return r == s->f.r && t == s->f.t; }

static void vpush(vec_t *v, uint32_t x) {
  if (v->n == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 1024;
    v->v = xrealloc(v->v, v->cap * sizeof(*v->v));
  }
  v->v[v->n++] = x;
}

/* An event of the pair (r, t) that changed process x's credits_t (r or t:
 * each event changes one side, the pair's tallies both). */
static void touch(sim_t *s, uint32_t r, uint32_t t, uint32_t x) {
  size_t i = PI(s, r, t);
  uint32_t st = (uint32_t)(s->now + 1);
  if (s->sc->no_checker) return;
  if (s->stamp[i] != st) {
    s->stamp[i] = st;
    vpush(&s->tpairs, (uint32_t)i);
  }
  if (s->pstamp[x] != st) {
    s->pstamp[x] = st;
    vpush(&s->tprocs, x);
  }
}

/* The global checker for the pair (r, t); drained: after the drain, every
 * credit home and every loan back in the bank. */
static void check_pair(sim_t *s, uint32_t r, uint32_t t, int drained) {
  size_t i = PI(s, r, t);
  const credits_peer_t *rq = &s->cr[r].peer[t], *tg = &s->cr[t].peer[r];
  uint64_t sum = (uint64_t)rq->avail + s->inreq[i] + tg->owed + s->incred[i];
  char msg[500];
  s->sumlent[t] += tg->lent;
  s->sumlent[t] -= s->snap[i];
  s->snap[i] = tg->lent;
  if (tg->owed != s->pend[i])
    snprintf(msg, sizeof(msg), "pair r=%u t=%u: owed %u, but %u credits of requests arrived and not replied", r, t,
             tg->owed, s->pend[i]);
  else if ((uint64_t)s->inreq[i] + tg->owed > tg->lent)
    snprintf(msg, sizeof(msg),
             "pair r=%u t=%u: t may have to receive %u (in flight) + %u (arrived) credits of requests from r, more "
             "than it lent, %u",
             r, t, s->inreq[i], tg->owed, tg->lent);
  else if (sum != rq->grant)
    snprintf(msg, sizeof(msg),
             "pair r=%u t=%u: avail %u + requests in flight %u + owed %u + returns in flight %u = %" PRIu64
             ", grant %u",
             r, t, rq->avail, s->inreq[i], tg->owed, s->incred[i], sum, rq->grant);
  else if ((uint64_t)rq->grant + s->inloan[i] + s->inrel[i] != tg->lent)
    snprintf(msg, sizeof(msg),
             "pair r=%u t=%u: lent %u, but grant %u + loans in flight %u + releases in flight %u = %" PRIu64, r, t,
             tg->lent, rq->grant, s->inloan[i], s->inrel[i], (uint64_t)rq->grant + s->inloan[i] + s->inrel[i]);
  else if (tg->reclaiming != s->inrc[i])
    snprintf(msg, sizeof(msg), "pair r=%u t=%u: reclaiming %u with %u reclaim or release in flight", r, t,
             tg->reclaiming, s->inrc[i]);
  else if (drained && (rq->avail != s->floor || rq->grant != s->floor || tg->lent != s->floor || tg->owed))
    snprintf(msg, sizeof(msg), "pair r=%u t=%u drained: avail %u grant %u lent %u owed %u, the floor %u", r, t,
             rq->avail, rq->grant, tg->lent, tg->owed, s->floor);
  else
    return;
  found(s, drained ? BY_DRAIN : BY_CHECKER, pair_is_faulty(s, r, t), "", msg);
}

/* The global checker for process x: its own check, and as a target its
 * loans and its buffers. */
static void check_proc(sim_t *s, uint32_t x, int drained) {
  credits_t *c = &s->cr[x];
  int related = x == s->f.r || x == s->f.t;
  char msg[400];
  if (credits_check(c) != CREDITS_OK) {
    found(s, BY_MODULE, related, "credits_check", credits_error(c));
    return;
  }
  if (s->sumlent[x] + c->bank != c->cfg.capacity)
    snprintf(msg, sizeof(msg), "target %u: lent %" PRIu64 " + bank %u != capacity %u", x, s->sumlent[x], c->bank,
             c->cfg.capacity);
  else if (s->occ[x] > c->cfg.capacity)
    snprintf(msg, sizeof(msg), "target %u: %" PRIu64 " credits of requests arrived and not replied, capacity %u", x,
             s->occ[x], c->cfg.capacity);
  else if (drained && (uint64_t)c->bank + (uint64_t)s->P * s->floor != c->cfg.capacity)
    snprintf(msg, sizeof(msg), "target %u drained: bank %u + floors %" PRIu64 " != capacity %u", x, c->bank,
             (uint64_t)s->P * s->floor, c->cfg.capacity);
  else
    return;
  found(s, drained ? BY_DRAIN : BY_CHECKER, related, "", msg);
}

static void check_touched(sim_t *s) {
  for (size_t k = 0; k < s->tpairs.n && !s->stop; k++)
    check_pair(s, s->tpairs.v[k] / s->P, s->tpairs.v[k] % s->P, 0);
  for (size_t k = 0; k < s->tprocs.n && !s->stop; k++) check_proc(s, s->tprocs.v[k], 0);
  s->tpairs.n = s->tprocs.n = 0;
}

static void push(bucket_t *b, msg_t m) {
  if (b->n == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 64;
    b->m = xrealloc(b->m, b->cap * sizeof(*b->m));
  }
  b->m[b->n++] = m;
}

static void schedule(sim_t *s, uint32_t d, msg_t m) {
  s->inflight++;
  push(&s->wheel[(s->now + d) % s->W], m);
}

static void net_send(sim_t *s, int kind, uint32_t src, uint32_t dst, uint32_t a, uint32_t b) {
  msg_t m = {src, dst, a, b, kind};
  uint32_t d = 1 + below(&s->rng, s->sc->max_delay);
  if (!below(&s->rng, 32)) d = 1 + below(&s->rng, 4 * s->sc->max_delay); /* a straggler */
  schedule(s, d, m);
}

/* --- the fault layer: the calls a fault may hit go through here; the
 * fault_at-th eligible one is corrupted.  Each also holds the module to
 * what it promises. --- */

static void inject(sim_t *s, uint32_t r, uint32_t t, uint32_t credits) {
  s->f.fired = 1;
  s->f.r = r;
  s->f.t = t;
  s->f.credits = credits;
  s->f.step = s->now;
}

static int fault_due(sim_t *s, int kind) { return s->sc->fault == kind && !s->f.fired && --s->f.countdown == 0; }

/* Target t lends to r for a want field: never more than the bank had nor
 * the want, throughput loans never into the reserve (a target cannot lend
 * beyond its bank: the module makes that impossible, so it is asserted on
 * every loan instead of injected). */
static uint32_t fx_lend(sim_t *s, uint32_t t, uint32_t r, uint32_t field) {
  credits_t *c = &s->cr[t];
  uint32_t bank0 = c->bank, lent0 = c->peer[r].lent, want = field & CREDITS_WANT_MAX;
  int need = !!(field & CREDITS_WANT_NEED);
  uint32_t loan = credits_lend(c, r, field);
  if (loan > bank0 || loan > want || c->bank != bank0 - loan || c->peer[r].lent != lent0 + loan ||
      c->peer[r].lent > c->cfg.max_grant || (!need && loan && bank0 - loan < c->reserve)) {
    sim_fail(s,
             "step %" PRIu64 ": credits_lend(t=%u, r=%u, want %u%s) = %u with bank %u -> %u (reserve %u), lent %u -> "
             "%u (max_grant %u)",
             s->now, t, r, want, need ? " NEED" : "", loan, bank0, c->bank, c->reserve, lent0, c->peer[r].lent,
             c->cfg.max_grant);
    return 0;
  }
  if (loan < want) s->tp_short += !need;
  if (!loan) return 0;
  s->loans++;
  s->lent += loan;
  if (need && bank0 - loan < c->reserve) s->need_reserve++;
  if (s->last_rel_from[t] != UINT32_MAX && s->last_rel_from[t] != r) s->redistributed++;
  if (c->peer[r].lent > s->peak_lent) s->peak_lent = c->peer[r].lent;
  return loan;
}

#define REP_NEED 0x80000000u /* an M_REP's loan is a need loan (the Core's reply flag) */

static int fx_granted(sim_t *s, uint32_t r, uint32_t t, uint32_t n, int need) {
  int (*granted)(credits_t *, uint32_t, uint32_t) = need ? credits_granted_need : credits_granted;
  int rc = granted(&s->cr[r], t, n);
  if (rc == CREDITS_OK && n && fault_due(s, FAULT_DUP_LOAN)) {
    inject(s, r, t, n); /* the reply is delivered twice */
    rc = granted(&s->cr[r], t, n);
  }
  return rc;
}

/* Requester r answers t's reclaim: what the release message carries. */
static uint32_t fx_release(sim_t *s, uint32_t r, uint32_t t) {
  credits_peer_t *p = &s->cr[r].peer[t];
  uint32_t avail0 = p->avail, grant0 = p->grant, excess = grant0 > s->floor ? grant0 - s->floor : 0, home, k;
  if (p->need_loan && !p->need_used && grant0 >= p->need_cost) excess = 0; /* its need loan pays its message */
  else if (p->need_ask) excess = p->need_loan; /* a need waits: its need loans (used, or too small) only */
  home = avail0 < excess ? avail0 : excess;
  if (s->sc->fault == FAULT_RELEASE_KEEP && home && fault_due(s, FAULT_RELEASE_KEEP)) {
    inject(s, r, t, home); /* it releases what is home, but keeps the grant */
    return home;
  }
  k = credits_release(&s->cr[r], t);
  if (k != home || p->grant != grant0 - k || p->avail != avail0 - k) {
    sim_fail(s, "step %" PRIu64 ": credits_release(r=%u, t=%u) = %u with avail %u -> %u, grant %u -> %u, floor %u",
             s->now, r, t, k, avail0, p->avail, grant0, p->grant, s->floor);
    return 0;
  }
  if (fault_due(s, FAULT_FORGED_RELEASE)) {
    uint32_t forged = s->cr[t].peer[r].lent - s->floor + 1; /* one more than the whole loan */
    inject(s, r, t, forged);
    return forged;
  }
  return k;
}

/* FAULT_DUP_RELEASE delivers a release twice (a duplicate that would still
 * fit in the loan is refused too: it answers no reclaim). */
static int fx_released(sim_t *s, uint32_t t, uint32_t r, uint32_t n) {
  int rc = credits_released(&s->cr[t], r, n);
  if (rc == CREDITS_OK && n && fault_due(s, FAULT_DUP_RELEASE)) {
    inject(s, r, t, n); /* the release is delivered twice */
    rc = credits_released(&s->cr[t], r, n);
  }
  return rc;
}

/* --- the Core --- */

static void refused(sim_t *s, const char *call, int rc, uint32_t self, uint32_t r, uint32_t t) {
  if (rc == CREDITS_EINVARIANT)
    found(s, BY_MODULE, pair_is_faulty(s, r, t), call, credits_error(&s->cr[self]));
  else
    sim_fail(s, "step %" PRIu64 ": %s at %u: rc %d: %s", s->now, call, self, rc, credits_error(&s->cr[self]));
}

/* Target t's handler for r's request ran: the reply returns its cost and
 * carries the loan for its want. */
static void reply(sim_t *s, uint32_t r, uint32_t t, uint32_t cost, uint32_t want) {
  size_t i = PI(s, r, t);
  uint32_t n = credits_piggyback(&s->cr[t], r, cost), loan;
  touch(s, r, t, t);
  if (n != cost) {
    sim_fail(s, "step %" PRIu64 ": credits_piggyback(t=%u, r=%u, %u) = %u: the request's credits not owed", s->now, t,
             r, cost, n);
    return;
  }
  s->pend[i] -= cost;
  s->occ[t] -= cost;
  loan = fx_lend(s, t, r, want);
  if (s->stop) return;
  s->incred[i] += n;
  s->inloan[i] += loan;
  net_send(s, M_REP, t, r, n, loan | (loan && (want & CREDITS_WANT_NEED) ? REP_NEED : 0u));
}

/* One message delivered (or one handler run), as the Core's poll does. */
static void handle(sim_t *s, const msg_t *m) {
  uint32_t r, t, k, d;
  size_t i;
  int rc;
  s->inflight--;
  switch (m->kind) {
    case M_REQ:
      r = m->src, t = m->dst, i = PI(s, r, t);
      s->inreq[i] -= m->a;
      touch(s, r, t, t);
      credits_tick(&s->cr[t], s->now);
      if ((rc = credits_arrived(&s->cr[t], r, m->a)) != CREDITS_OK) {
        refused(s, "credits_arrived", rc, t, r, t);
        return;
      }
      s->pend[i] += m->a;
      s->occ[t] += m->a;
      d = below(&s->rng, s->sc->max_handle + 1);
      if (d) {
        msg_t h = *m;
        h.kind = M_HANDLE;
        schedule(s, d, h);
      } else {
        reply(s, r, t, m->a, m->b);
      }
      return;
    case M_HANDLE:
      reply(s, m->src, m->dst, m->a, m->b);
      return;
    case M_REP:
      r = m->dst, t = m->src, i = PI(s, r, t);
      s->incred[i] -= m->a;
      s->inloan[i] -= m->b & ~REP_NEED;
      touch(s, r, t, r);
      if ((rc = credits_returned(&s->cr[r], t, m->a)) != CREDITS_OK) {
        refused(s, "credits_returned", rc, r, r, t);
        if (s->stop) return;
      }
      if ((rc = fx_granted(s, r, t, m->b & ~REP_NEED, !!(m->b & REP_NEED))) != CREDITS_OK) {
        refused(s, "credits_granted", rc, r, r, t);
        return;
      }
      return;
    case M_RECLAIM:
      r = m->dst, t = m->src, i = PI(s, r, t);
      touch(s, r, t, r);
      k = fx_release(s, r, t);
      if (s->stop) return;
      s->inrel[i] += k;
      s->releases++;
      net_send(s, M_RELEASE, r, t, k, 0);
      return;
    case M_RELEASE:
      r = m->src, t = m->dst, i = PI(s, r, t);
      s->inrel[i] -= m->a;
      s->inrc[i] = 0;
      touch(s, r, t, t);
      if ((rc = fx_released(s, t, r, m->a)) != CREDITS_OK) refused(s, "credits_released", rc, t, r, t);
      else if (m->a) s->last_rel_from[t] = r;
      return;
    default:
      sim_fail(s, "message kind %d", m->kind);
  }
}

static void deliver(sim_t *s) {
  bucket_t *b = &s->wheel[s->now % s->W]; /* everything scheduled lands a step later: b does not grow */
  for (size_t k = b->n; k > 1; k--) {    /* arrivals of one step in any order */
    size_t j = below(&s->rng, (uint32_t)k);
    msg_t tmp = b->m[k - 1];
    b->m[k - 1] = b->m[j];
    b->m[j] = tmp;
  }
  for (size_t k = 0; k < b->n && !s->stop; k++) handle(s, &b->m[k]);
  b->n = 0;
}

static int is_needer(const sim_t *s, uint32_t i) { return s->sc->pattern == PAT_NEED && i % 16 == 0; }

/* PAT_SHIFT: in epoch e, the processes of one parity are active and send to
 * a window at an offset that changes every epoch: each target sees new
 * requesters while the last epoch's borrowers fall quiet. */
static uint32_t shift_offset(const sim_t *s) {
  uint64_t h = s->hotseed + s->now / s->sc->epoch;
  return 1 + (uint32_t)(rnd(&h) % (s->P - 2));
}

static int active(const sim_t *s, uint32_t i) {
  return s->sc->pattern != PAT_SHIFT || ((s->now / s->sc->epoch + i) & 1) == 0;
}

static uint32_t pick_target(sim_t *s, uint32_t i) {
  const simcase_t *sc = s->sc;
  uint64_t h;
  switch (sc->pattern) {
    case PAT_RING:
      return below(&s->rng, 2) ? (i + 1) % s->P : (i + s->P - 1) % s->P;
    case PAT_HOTSPOT:
      if (below(&s->rng, 100) >= sc->hot_pct) break;
      h = s->hotseed + s->now / sc->hot_every;
      return (uint32_t)(rnd(&h) % s->P);
    case PAT_SHIFT:
      return (i + shift_offset(s) + below(&s->rng, 2)) % s->P;
    case PAT_NEED: /* the servers: every 16th process from 8 */
      return 16 * below(&s->rng, s->P / 16) + 8;
    default:
      break;
  }
  return below(&s->rng, s->P);
}

/* A payload: PAT_NEED's needers always cost more than the floor, its
 * others never; elsewhere big_pct percent cost 1..max_cost, the rest
 * 1..floor. */
static uint32_t pick_cost(sim_t *s, uint32_t i) {
  const simcase_t *sc = s->sc;
  uint32_t small = (sc->grant - 1) * UNIT, big = (sc->max_cost - 1) * UNIT, payload;
  if (is_needer(s, i)) payload = small + 1 + below(&s->rng, big - small);
  else if (sc->pattern != PAT_NEED && below(&s->rng, 100) < sc->big_pct)
    payload = sc->big_from ? (sc->big_from - 2) * UNIT + 1 + below(&s->rng, big - (sc->big_from - 2) * UNIT)
                           : below(&s->rng, big + 1);
  else payload = below(&s->rng, small + 1);
  return credits_cost(&s->cr[i], payload);
}

static void send_req(sim_t *s, uint32_t r, uint32_t t, uint32_t cost, int ask) {
  uint32_t want = credits_want(&s->cr[r], t);
  if (ask) {
    s->asks++;
    s->need_asks += !!(want & CREDITS_WANT_NEED);
    if (!(want & CREDITS_WANT_MAX)) {
      sim_fail(s, "step %" PRIu64 ": requester %u: an ask to %u that asks for nothing (want %#x)", s->now, r, t, want);
      return;
    }
  }
  s->inreq[PI(s, r, t)] += cost;
  s->requests++;
  touch(s, r, t, r);
  net_send(s, M_REQ, r, t, cost, want);
}

/* Every process with work: take its next request, or retry the one it
 * waits on; stalled with the whole grant home and too small, it asks. */
static void act(sim_t *s) {
  uint32_t start = below(&s->rng, s->P);
  for (uint32_t k = 0; k < s->P && !s->stop; k++) {
    uint32_t i = start + k < s->P ? start + k : start + k - s->P;
    proc_t *p = &s->pr[i];
    credits_t *c = &s->cr[i];
    int rc;
    if (s->sc->nap_pct && (p->has || p->left)) {
      if (s->now < p->nap_end) continue;
      if (below(&s->rng, 100) < s->sc->nap_pct) {
        p->nap_end = s->now + 1 + below(&s->rng, s->sc->nap_max);
        continue;
      }
    }
    if (!p->has) {
      if (!p->left || !active(s, i)) continue;
      p->target = pick_target(s, i);
      p->cost = pick_cost(s, i);
      p->has = 1;
      p->since = s->now;
      if (p->cost > s->sc->max_cost) {
        sim_fail(s, "the test's payload costs %u, more than max_cost %u", p->cost, s->sc->max_cost);
        return;
      }
    }
    rc = credits_charge(c, p->target, p->cost);
    if (rc == CREDITS_OK) {
      uint64_t w = s->now - p->since;
      send_req(s, i, p->target, p->cost, 0);
      if (w > s->maxwait) {
        s->maxwait = w;
        s->maxwait_r = i;
        s->maxwait_t = p->target;
      }
      if (p->cost > s->floor && w > s->maxwait_big) s->maxwait_big = w;
      p->has = 0;
      if (!--p->left) s->busy--;
    } else if (rc == CREDITS_EAGAIN) {
      if (credits_ask_due(c, p->target, p->cost)) {
        if (credits_charge_ask(c, p->target) != CREDITS_OK) {
          sim_fail(s, "step %" PRIu64 ": requester %u: an ask to %u refused with avail %u of %u", s->now, i,
                   p->target, c->peer[p->target].avail, c->peer[p->target].grant);
          return;
        }
        send_req(s, i, p->target, 1, 1);
      }
    } else {
      sim_fail(s, "step %" PRIu64 ": credits_charge(%u -> %u, cost %u): rc %d", s->now, i, p->target, p->cost, rc);
    }
  }
}

/* The targets whose turn it is run the reclaim loop; each reclaim is held
 * to the module's word (a borrower, not already reclaimed, quiet). */
static void reclaim(sim_t *s) {
  uint32_t every = s->draining ? 1 : s->sc->reclaim_every;
  for (uint32_t t = (uint32_t)((every - s->now % every) % every); t < s->P && !s->stop; t += every) {
    credits_t *c = &s->cr[t];
    uint8_t why_short = c->short_;
    uint32_t p;
    while ((p = credits_reclaim_next(c, s->now)) != UINT32_MAX) {
      size_t i = PI(s, p, t);
      if (p >= s->P || s->inrc[i] || c->peer[p].lent <= s->floor ||
          (why_short == 1 && s->now - c->peer[p].last < s->sc->quiet)) {
        sim_fail(s,
                 "step %" PRIu64 ": target %u reclaims %u: lent %u (floor %u), a reclaim in flight %u, short %u, "
                 "its last request at %" PRIu64,
                 s->now, t, p, p < s->P ? c->peer[p].lent : 0, s->floor, p < s->P ? s->inrc[i] : 0, why_short,
                 p < s->P ? c->peer[p].last : 0);
        return;
      }
      s->inrc[i] = 1;
      s->reclaims++;
      s->quiet_reclaims += why_short == 1 && !s->draining;
      touch(s, p, t, t);
      net_send(s, M_RECLAIM, t, p, 0, 0);
    }
  }
}

static void step(sim_t *s) {
  deliver(s);
  if (!s->stop && s->busy) act(s);
  if (!s->stop) reclaim(s);
  if (!s->stop) check_touched(s);
}

/* The watchdog: the run or one request's wait went past its bound.  Name
 * the requesters waiting longest and what they wait on. */
static void watchdog(sim_t *s, const char *what) {
  char list[1400] = "";
  size_t len = 0;
  uint32_t waiting = 0, shown[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  for (uint32_t i = 0; i < s->P; i++) waiting += s->pr[i].has;
  for (int n = 0; n < 3; n++) {
    uint32_t best = UINT32_MAX;
    for (uint32_t i = 0; i < s->P; i++) {
      int seen = 0;
      for (int j = 0; j < n; j++) seen |= shown[j] == i;
      if (s->pr[i].has && !seen && (best == UINT32_MAX || s->pr[i].since < s->pr[best].since)) best = i;
    }
    if (best == UINT32_MAX || len >= sizeof(list)) break;
    shown[n] = best;
    const proc_t *p = &s->pr[best];
    const credits_peer_t *rq = &s->cr[best].peer[p->target], *tg = &s->cr[p->target].peer[best];
    const credits_t *tc = &s->cr[p->target];
    size_t i = PI(s, best, p->target);
    len += (size_t)snprintf(list + len, sizeof(list) - len,
                            "; requester %u: %u left, waiting %" PRIu64
                            " steps on %u for cost %u with avail %u of grant %u (want %#x); there lent %u, bank %u "
                            "(reserve %u), short %u, reclaiming %u, need of %u designated (%u); in flight: "
                            "requests %u, returns %u, loans %u; need loan %u (used %u)",
                            best, p->left, s->now - p->since, p->target, p->cost, rq->avail, rq->grant, rq->want,
                            tg->lent, tc->bank, tc->reserve, tc->short_, tg->reclaiming, tc->need_peer, tc->need_amt,
                            s->inreq[i], s->incred[i], s->inloan[i], rq->need_loan, rq->need_used);
  }
  if (shown[0] != UINT32_MAX) { /* the designated need where the longest waiter waits */
    const credits_t *tc = &s->cr[s->pr[shown[0]].target];
    uint32_t d = tc->need_peer;
    if (d < s->P && len < sizeof(list))
      len += (size_t)snprintf(list + len, sizeof(list) - len,
                              "; designated %u: waits on %u (has %d, cost %u), its grant there %u avail %u want %#x, "
                              "lent there %u (need loans %u)",
                              d, s->pr[d].target, s->pr[d].has, s->pr[d].cost,
                              s->cr[d].peer[s->pr[shown[0]].target].grant, s->cr[d].peer[s->pr[shown[0]].target].avail,
                              s->cr[d].peer[s->pr[shown[0]].target].want, tc->peer[d].lent, tc->peer[d].need_lent);
  }
  sim_fail(s, "watchdog at step %" PRIu64 ": %s; %u requesters waiting%s", s->now, what, waiting, list);
}

/* Once the traffic is over: how the loans sit (SHOW_NEIGHBOURS). */
static void census(sim_t *s) {
  for (uint32_t r = 0; r < s->P; r++)
    for (uint32_t t = 0; t < s->P; t++) {
      int nb = t == (r + 1) % s->P || r == (t + 1) % s->P;
      int above = s->cr[r].peer[t].grant > s->floor;
      s->nb_pairs += nb;
      s->nb_above += nb && above;
      s->other_above += !nb && above;
    }
}

/* All work done, nothing in flight: let every borrower fall quiet, then
 * have every target reclaim.  The module reclaims only once an ask went
 * unmet (credits.h, Reclaim) and with no traffic none does, so the drain
 * marks each target short of throughput, as an unmet ask would.  Then
 * every loan must come back: every pair at its floor, every bank full. */
static void drain(sim_t *s) {
  s->draining = 1;
  s->now += s->sc->quiet;
  for (uint32_t t = 0; t < s->P; t++) {
    credits_tick(&s->cr[t], s->now);
    if (s->cr[t].bank + (uint64_t)s->P * s->floor != s->cr[t].cfg.capacity) {
      s->cr[t].short_ = 1;
      s->cr[t].sweep = s->P;
    }
  }
  for (uint64_t end = s->now + 8 * s->sc->max_delay; !s->stop; s->now++) {
    step(s);
    if (!s->inflight || s->stop) break;
    if (s->now > end) {
      sim_fail(s, "the drain did not end: %" PRIu64 " messages still in flight at step %" PRIu64, s->inflight, s->now);
      return;
    }
  }
  memset(s->sumlent, 0, s->P * sizeof(*s->sumlent));
  for (uint32_t r = 0; r < s->P; r++)
    for (uint32_t t = 0; t < s->P; t++) s->sumlent[t] += s->snap[PI(s, r, t)] = s->cr[t].peer[r].lent;
  for (uint32_t r = 0; r < s->P && !s->stop; r++)
    for (uint32_t t = 0; t < s->P && !s->stop; t++) check_pair(s, r, t, 1);
  for (uint32_t x = 0; x < s->P && !s->stop; x++) check_proc(s, x, 1);
}

static void sim_run(sim_t *s) {
  const simcase_t *sc = s->sc;
  while (s->busy || s->inflight) {
    if (s->now >= sc->step_bound) {
      char what[100];
      snprintf(what, sizeof(what), "the step bound %" PRIu64 " reached", sc->step_bound);
      watchdog(s, what);
      return;
    }
    step(s);
    if (s->stop) return;
    for (uint32_t i = 0; i < s->P; i++)
      if (s->pr[i].has && s->now - s->pr[i].since > sc->wait_bound) {
        char what[100];
        snprintf(what, sizeof(what), "a request waited more than %" PRIu64 " steps (starvation)", sc->wait_bound);
        watchdog(s, what);
        return;
      }
    s->now++;
  }
  s->traffic_steps = s->now;
  if (sc->show & SHOW_NEIGHBOURS) census(s);
  drain(s);
}

/* A clean case's verdict: it finished and drained (sim_run), and shows the
 * redistribution it is there for. */
static void judge_clean(sim_t *s, const simcase_t *sc) {
  uint64_t short_asks = 0, released = 0;
  for (uint32_t i = 0; i < s->P; i++) {
    short_asks += s->cr[i].stats.short_asks;
    released += s->cr[i].stats.released;
  }
  EXPECT(s->loans > 0, "no loan in the whole run");
  if (sc->show & SHOW_NEIGHBOURS)
    EXPECT(!s->other_above && 4 * s->nb_above >= 3 * s->nb_pairs,
           "loans should stay with the neighbours that use them: %" PRIu64 " of %" PRIu64
           " neighbour pairs above the floor at the end of the traffic (want 3/4), %" PRIu64 " other pairs",
           s->nb_above, s->nb_pairs, s->other_above);
  if (sc->show & SHOW_MOVED)
    EXPECT(released && s->redistributed,
           "credits should move: released %" PRIu64 ", loans out of others' releases %" PRIu64, released,
           s->redistributed);
  if (sc->show & SHOW_QUIET)
    EXPECT(s->quiet_reclaims, "the last epoch's quiet borrowers should be reclaimed: %" PRIu64, s->quiet_reclaims);
  if (sc->show & SHOW_NEED)
    EXPECT(s->need_asks && s->need_reserve && s->tp_short,
           "needs should be met out of the reserve while throughput loans hold the rest: need asks %" PRIu64
           ", need loans into the reserve %" PRIu64 ", throughput asks cut short %" PRIu64,
           s->need_asks, s->need_reserve, s->tp_short);
  if (sc->show & SHOW_SHORT)
    EXPECT(short_asks && s->reclaims && released, "the bank should run short and be refilled: short asks %" PRIu64
           ", reclaims %" PRIu64 ", released %" PRIu64, short_asks, s->reclaims, released);
  snprintf(detail, sizeof(detail),
           "P=%u steps=%" PRIu64 " requests=%" PRIu64 " maxwait=%" PRIu64 " (requester %u on %u; over the floor %" PRIu64
           ") loans=%" PRIu64 " (%" PRIu64 " credits, %" PRIu64 " into the reserve for a need, %" PRIu64
           " of others' releases) asks=%" PRIu64 " (need %" PRIu64 ") short_asks=%" PRIu64 " reclaims=%" PRIu64
           " (%" PRIu64 " of quiet borrowers) releases=%" PRIu64 " (%" PRIu64 " credits) peak_lent=%u",
           s->P, s->traffic_steps, s->requests, s->maxwait, s->maxwait_r, s->maxwait_t, s->maxwait_big, s->loans,
           s->lent, s->need_reserve, s->redistributed, s->asks, s->need_asks, short_asks, s->reclaims,
           s->quiet_reclaims, s->releases, released, s->peak_lent);
  if (sc->show & SHOW_NEIGHBOURS) {
    size_t n = strlen(detail);
    snprintf(detail + n, sizeof(detail) - n, " neighbour_pairs_above_floor=%" PRIu64 "/%" PRIu64, s->nb_above,
             s->nb_pairs);
  }
}

static void judge_fault(sim_t *s, const simcase_t *sc) {
  char extra[1200] = "";
  size_t len = 0;
  int by = -1;
  for (int k = 0; k < NBY; k++)
    if (sc->expect & (1u << k) && s->found[k].hit &&
        (k != BY_MODULE || !sc->expect_call || !strcmp(s->found[k].call, sc->expect_call)))
      by = k;
  if (!s->f.fired) {
    EXPECT(0, "fault never injected: countdown %u too far (the run ended at step %" PRIu64 ")", sc->fault_at, s->now);
    return;
  }
  for (int k = 0; k < NBY; k++)
    if (k != by && s->found[k].hit && len < sizeof(extra))
      len += (size_t)snprintf(extra + len, sizeof(extra) - len, "; %s the %s%s%s at step %" PRIu64 ": %s",
                              by < 0 ? "found instead by" : "also", by_name[k], k == BY_MODULE ? " in " : "",
                              k == BY_MODULE ? s->found[k].call : "", s->found[k].step, s->found[k].msg);
  if (by < 0) {
    EXPECT(0, "fault injected at step %" PRIu64 " on pair r=%u t=%u (%u credits) not found as expected%s", s->f.step,
           s->f.r, s->f.t, s->f.credits, extra);
    return;
  }
  snprintf(detail, sizeof(detail),
           "injected at step %" PRIu64 " on pair r=%u t=%u (%u credits); found by the %s%s%s at step %" PRIu64 ": %s%s",
           s->f.step, s->f.r, s->f.t, s->f.credits, by_name[by], by == BY_MODULE ? " in " : "",
           by == BY_MODULE ? s->found[by].call : "", s->found[by].step, s->found[by].msg, extra);
}

static void case_sim(const simcase_t *sc0) {
  simcase_t sc = *sc0;
  credits_cfg_t cfg;
  sim_t s;
  if (quick && !sc.fault) {
    if (sc.nprocs > 256) sc.nprocs = 256;
    sc.work = sc.work / 2 > 16 ? sc.work / 2 : 16;
  }
  memset(&s, 0, sizeof(s));
  s.sc = &sc;
  s.P = sc.nprocs;
  s.floor = sc.grant;
  s.rng = seed; /* each case its own stream: cases do not shift each other */
  for (const char *p = sc0->name; *p; p++) s.rng = s.rng * 31 + (unsigned char)*p;
  s.hotseed = rnd(&s.rng);
  s.W = 4 * sc.max_delay + sc.max_handle + 2;
  s.cr = xcalloc(s.P, sizeof(*s.cr));
  s.pr = xcalloc(s.P, sizeof(*s.pr));
  s.inreq = xcalloc((size_t)s.P * s.P, sizeof(uint32_t));
  s.pend = xcalloc((size_t)s.P * s.P, sizeof(uint32_t));
  s.incred = xcalloc((size_t)s.P * s.P, sizeof(uint32_t));
  s.inloan = xcalloc((size_t)s.P * s.P, sizeof(uint32_t));
  s.inrel = xcalloc((size_t)s.P * s.P, sizeof(uint32_t));
  s.inrc = xcalloc((size_t)s.P * s.P, 1);
  s.snap = xcalloc((size_t)s.P * s.P, sizeof(uint32_t));
  s.stamp = xcalloc((size_t)s.P * s.P, sizeof(uint32_t));
  s.sumlent = xcalloc(s.P, sizeof(uint64_t));
  s.occ = xcalloc(s.P, sizeof(uint64_t));
  s.pstamp = xcalloc(s.P, sizeof(uint32_t));
  s.last_rel_from = xcalloc(s.P, sizeof(uint32_t));
  s.wheel = xcalloc(s.W, sizeof(*s.wheel));
  s.f.countdown = sc.fault_at;
  cfg = dcfg(s.P, sc.grant, sc.max_cost, sc.max_grant, sc.extra);
  cfg.quiet = sc.quiet;
  for (uint32_t i = 0; i < s.P; i++) {
    int rc = credits_init(&s.cr[i], &cfg);
    if (rc != CREDITS_OK) {
      EXPECT(0, "credits_init: rc %d: %s", rc, credits_error(&s.cr[i]));
      goto out;
    }
    s.pr[i].left = is_needer(&s, i) ? sc.need_work : sc.work;
    s.busy += s.pr[i].left != 0;
    s.sumlent[i] = (uint64_t)s.P * s.floor;
    s.last_rel_from[i] = UINT32_MAX;
  }
  for (size_t i = 0; i < (size_t)s.P * s.P; i++) s.snap[i] = s.floor;

  sim_run(&s);

  if (sc.expect) {
    if (s.failed) EXPECT(0, "%s", s.fail);
    else judge_fault(&s, &sc);
  } else if (s.failed) {
    EXPECT(0, "%s", s.fail);
  } else {
    judge_clean(&s, &sc);
  }
out:
  for (uint32_t i = 0; i < s.P; i++) credits_fini(&s.cr[i]);
  for (uint32_t i = 0; i < s.W; i++) free(s.wheel[i].m);
  free(s.wheel);
  free(s.tpairs.v);
  free(s.tprocs.v);
  free(s.last_rel_from);
  free(s.pstamp);
  free(s.occ);
  free(s.sumlent);
  free(s.stamp);
  free(s.snap);
  free(s.inrc);
  free(s.inrel);
  free(s.inloan);
  free(s.incred);
  free(s.pend);
  free(s.inreq);
  free(s.pr);
  free(s.cr);
}

/* ------------------------------------------------------------------ */
/* cases                                                               */
/* ------------------------------------------------------------------ */
/* The common shape: floor 3, max_cost 33 (payloads up to 8 KiB at 256 bytes
 * a credit), max_grant 64, delays 1..8 steps, handlers 0..3 steps late,
 * quiet 50 steps, every target reclaiming every 4 steps. */
#define SHAPE .grant = 3, .max_cost = 33, .max_grant = 64, .max_delay = 8, .max_handle = 3, .quiet = 50, \
              .reclaim_every = 4

static const simcase_t sims[] = {
    /* nearest neighbour: each target has two requesters and a bank for both
     * at max_grant (2 * 61); loans go to the pairs that talk and stay there */
    {.name = "dyn_ring_1024", .nprocs = 1024, .work = 60, .pattern = PAT_RING, SHAPE, .extra = 122, .big_pct = 20,
     .step_bound = 20000, .wait_bound = 1000, .show = SHOW_NEIGHBOURS},
    /* all-to-all: every pair talks now and then; loans made for one
     * message sit idle at targets the requester has left, so the banks run
     * short and loans come back (need loans once used, others when
     * reclaimed) for the next requester */
    {.name = "dyn_all2all_1024", .nprocs = 1024, .work = 40, .pattern = PAT_UNIFORM, SHAPE, .extra = 64,
     .big_pct = 20, .step_bound = 20000, .wait_bound = 1000, .show = SHOW_SHORT | SHOW_MOVED},
    /* a hot spot moving every 100 steps: half the requests go to it; its
     * bank runs short under 1024 requesters and the loans left at the last
     * hot spot come back */
    {.name = "dyn_hotspot_1024", .nprocs = 1024, .work = 60, .pattern = PAT_HOTSPOT, .hot_every = 100,
     .hot_pct = 50, SHAPE, .extra = 128, .big_pct = 10, .step_bound = 20000, .wait_bound = 8000,
     .show = SHOW_SHORT | SHOW_MOVED},
    /* bursts and silences: active and idle epochs of 80 steps, the targets
     * shifting every epoch; a bank of 24 over the reserve holds one
     * requester's loans, so the next epoch's requesters get loans only once
     * the last epoch's quiet borrowers are reclaimed */
    {.name = "dyn_bursts_shift_1024", .nprocs = 1024, .work = 60, .pattern = PAT_SHIFT, .epoch = 60, SHAPE,
     .extra = 24, .big_pct = 5, .step_bound = 20000, .wait_bound = 1000, .show = SHOW_MOVED | SHOW_SHORT | SHOW_QUIET},
    /* needs against loans: 64 servers; every 16th process sends only
     * messages costing more than its floor, the others stream messages
     * within it and take throughput loans until only the reserve is left */
    {.name = "dyn_need_vs_loans_1024", .nprocs = 1024, .work = 60, .need_work = 12, .pattern = PAT_NEED, SHAPE,
     .extra = 32, .step_bound = 20000, .wait_bound = 1000, .show = SHOW_NEED},
    /* needs crowding one bank: 4 processes, all-to-all (self included), a
     * floor of 1 and a bank of just the reserve (32: one need at a time, as
     * `firehose tiny` runs the Portals Core), half the messages needs;
     * processes nap as on an oversubscribed node, longer than quiet, so a
     * designated need falls quiet while it waits */
    {.name = "dyn_needs_crowd_4", .nprocs = 4, .work = 4000, .pattern = PAT_UNIFORM, .grant = 1, .max_cost = 33,
     .max_grant = 0, .max_delay = 8, .max_handle = 3, .quiet = 4, .reclaim_every = 1, .extra = 0, .big_pct = 50,
     .big_from = 31, .nap_pct = 5, .nap_max = 40, .step_bound = 2000000, .wait_bound = 20000, .show = SHOW_NEED | SHOW_SHORT},
    /* faults, each of which must be found: with the checker on, by the
     * module or the checker, whichever sees it first (the module refuses a
     * duplicate that breaks a bound it sees at once: a grant past
     * max_grant, a release past the loan or below the owed); unchecked, by
     * the module alone or, for what it cannot see, at the latest by the
     * drain check */
    {.name = "dyn_fault_duplicated_loan", .nprocs = 64, .work = 200, .pattern = PAT_RING, SHAPE, .extra = 122,
     .big_pct = 20, .step_bound = 20000, .wait_bound = 1000, .fault = FAULT_DUP_LOAN, .fault_at = 50,
     .expect = 1u << BY_MODULE | 1u << BY_CHECKER},
    /* the module sees a duplicated loan once the grant passes max_grant
     * (credits_granted), the requester spends past the loan
     * (credits_arrived) or releases it (credits_released); one whose pair
     * falls quiet with the loan returned in part only at the drain */
    {.name = "dyn_fault_duplicated_loan_unchecked", .nprocs = 64, .work = 200, .pattern = PAT_RING, SHAPE,
     .extra = 122, .big_pct = 20, .step_bound = 20000, .wait_bound = 1000, .fault = FAULT_DUP_LOAN, .fault_at = 50,
     .expect = 1u << BY_MODULE | 1u << BY_DRAIN, .no_checker = 1},
    /* a release of more than the whole loan: the module refuses it */
    {.name = "dyn_fault_forged_release", .nprocs = 64, .work = 200, .pattern = PAT_SHIFT, .epoch = 80, SHAPE,
     .extra = 24, .big_pct = 5, .step_bound = 20000, .wait_bound = 1000, .fault = FAULT_FORGED_RELEASE,
     .fault_at = 5, .expect = 1u << BY_MODULE, .expect_call = "credits_released"},
    /* a requester answers a reclaim with what is home but keeps its grant */
    {.name = "dyn_fault_release_keeps_grant", .nprocs = 64, .work = 200, .pattern = PAT_SHIFT, .epoch = 80, SHAPE,
     .extra = 24, .big_pct = 5, .step_bound = 20000, .wait_bound = 1000, .fault = FAULT_RELEASE_KEEP, .fault_at = 3,
     .expect = 1u << BY_MODULE | 1u << BY_CHECKER},
    /* the module sees a kept grant only once the requester spends past what
     * it was lent (credits_arrived) or releases it again (credits_released);
     * a requester that falls quiet keeps it unseen until the drain */
    {.name = "dyn_fault_release_keeps_grant_unchecked", .nprocs = 64, .work = 200, .pattern = PAT_SHIFT, .epoch = 80,
     SHAPE, .extra = 24, .big_pct = 5, .step_bound = 20000, .wait_bound = 1000, .fault = FAULT_RELEASE_KEEP,
     .fault_at = 3, .expect = 1u << BY_MODULE | 1u << BY_DRAIN, .no_checker = 1},
    /* a release delivered twice, the duplicate within what is left of the
     * loan: credits_released refuses it (no reclaim is outstanding) */
    {.name = "dyn_fault_duplicated_release", .nprocs = 64, .work = 200, .pattern = PAT_SHIFT, .epoch = 80, SHAPE,
     .extra = 24, .big_pct = 5, .step_bound = 20000, .wait_bound = 1000, .fault = FAULT_DUP_RELEASE, .fault_at = 1,
     .expect = 1u << BY_MODULE | 1u << BY_CHECKER},
    {.name = "dyn_fault_duplicated_release_unchecked", .nprocs = 64, .work = 200, .pattern = PAT_SHIFT, .epoch = 80,
     SHAPE, .extra = 24, .big_pct = 5, .step_bound = 20000, .wait_bound = 1000, .fault = FAULT_DUP_RELEASE,
     .fault_at = 1, .expect = 1u << BY_MODULE | 1u << BY_DRAIN, .no_checker = 1},
};

static const unit_case_t units[] = {
    {"dyn_init_validation", case_init_validation},
    {"dyn_init_layout", case_init_layout},
    {"dyn_want", case_want},
    {"dyn_lend", case_lend},
    {"dyn_granted", case_granted},
    {"dyn_release", case_release},
    {"dyn_released", case_released},
    {"dyn_reclaim", case_reclaim},
    {"dyn_check_detects", case_check_detects},
};

static const char *sim_case_name(size_t i) { return sims[i].name; }
static void sim_case_run(size_t i) { case_sim(&sims[i]); }

int main(int argc, char **argv) {
  return unit_main(argc, argv, units, sizeof(units) / sizeof(*units), sizeof(sims) / sizeof(*sims), sim_case_name,
                   sim_case_run);
}
