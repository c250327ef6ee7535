/*
 * credits.c -- the out-of-line half of credits.h: set-up, the whole check,
 * and the messages of refusals (every per-message path is inline there).
 */
#include "credits.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(credits_t *c, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(credits_t *c, int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->err, sizeof(c->err), fmt, ap);
  va_end(ap);
  return rc;
}

static int alloc_peers(credits_t *c, uint32_t grant) {
  c->peer = calloc(c->cfg.npeers, sizeof(*c->peer));
  if (!c->peer) return fail(c, CREDITS_ENOMEM, "credits_init: no memory for %u peers", c->cfg.npeers);
  for (uint32_t i = 0; i < c->cfg.npeers; i++) c->peer[i].avail = c->peer[i].grant = c->peer[i].lent = grant;
  return CREDITS_OK;
}

/* Dynamic mode (credits.h): the floor for every peer, the rest banked. */
static int init_dynamic(credits_t *c, const credits_cfg_t *cfg) {
  uint64_t floors = (uint64_t)cfg->npeers * cfg->grant, need;
  uint32_t maxg;
  if (!cfg->grant) return fail(c, CREDITS_EINVAL, "credits_init: dynamic mode with an initial grant of 0");
  if (!cfg->capacity) return fail(c, CREDITS_EINVAL, "credits_init: dynamic mode needs a capacity");
  c->reserve = cfg->max_cost > cfg->grant ? cfg->max_cost - cfg->grant : 0;
  need = floors + c->reserve;
  if (need > cfg->capacity)
    return fail(c, CREDITS_EINVAL,
                "credits_init: a capacity of %u credits cannot hold an initial grant of %u for %u peers plus %u for "
                "one message of max_cost %u",
                cfg->capacity, cfg->grant, cfg->npeers, c->reserve, cfg->max_cost);
  maxg = (uint32_t)(cfg->capacity - floors + cfg->grant); /* one peer holding the whole bank */
  if (!cfg->max_grant || cfg->max_grant > maxg) c->cfg.max_grant = maxg;
  if (c->cfg.max_grant < cfg->grant || c->cfg.max_grant < cfg->max_cost)
    return fail(c, CREDITS_EINVAL, "credits_init: max_grant %u is below the initial grant %u or max_cost %u",
                c->cfg.max_grant, cfg->grant, cfg->max_cost);
  if (cfg->max_cost > CREDITS_WANT_MAX)
    return fail(c, CREDITS_EINVAL, "credits_init: dynamic mode with max_cost %u: a need's want field holds at most %u",
                cfg->max_cost, CREDITS_WANT_MAX);
  if (cfg->batch > 1)
    return fail(c, CREDITS_EINVAL,
                "credits_init: dynamic mode returns every request's credits at once (batch 1), not batch %u",
                cfg->batch);
  c->cfg.batch = 1;
  c->bank = c->stats.bank_low = (uint32_t)(cfg->capacity - floors);
  c->need_peer = UINT32_MAX;
  c->stats.max_lent = cfg->grant;
  return alloc_peers(c, cfg->grant);
}

int credits_init(credits_t *c, const credits_cfg_t *cfg) {
  uint32_t share, kmax, bound;
  if (!c) return CREDITS_EINVAL;
  memset(c, 0, sizeof(*c));
  if (!cfg) return fail(c, CREDITS_EINVAL, "credits_init: no configuration");
  c->cfg = *cfg;
  if (!cfg->npeers) return fail(c, CREDITS_EINVAL, "credits_init: npeers is 0");
  if (cfg->mode == CREDITS_DYNAMIC) return init_dynamic(c, cfg);
  if (cfg->mode != CREDITS_STATIC) return fail(c, CREDITS_EINVAL, "credits_init: unknown mode %d", cfg->mode);
  share = cfg->capacity ? cfg->capacity / cfg->npeers : cfg->grant;
  if (cfg->max_grant && share > cfg->max_grant) share = cfg->max_grant;
  if (!share) {
    if (cfg->capacity)
      return fail(c, CREDITS_EINVAL, "credits_init: capacity %u over %u peers leaves each a share of 0", cfg->capacity,
                  cfg->npeers);
    return fail(c, CREDITS_EINVAL, "credits_init: a share of 0 credits (grant 0, no capacity)");
  }
  if (share < cfg->max_cost)
    return fail(c, CREDITS_EINVAL, "credits_init: a share of %u credits cannot pay for a message of max_cost %u", share,
                cfg->max_cost);
  /* Liveness (see batch in credits.h): with nothing in flight, a requester
   * stalled on cost k has more than share - k owed at the target, and only
   * a flush (owed >= batch) is sure to bring them back. */
  kmax = !cfg->unit_bytes ? 1 : cfg->max_cost ? cfg->max_cost : share;
  bound = share - kmax + 1;
  if (!cfg->batch) {
    c->cfg.batch = share / 2 ? share / 2 : 1;
    if (c->cfg.batch > bound) c->cfg.batch = bound;
  } else if (cfg->batch > bound) {
    return fail(c, CREDITS_EINVAL,
                "credits_init: batch %u > %u: a requester stalled on a message of cost %u with %u of its share %u "
                "owed to it would wait for ever",
                cfg->batch, bound, kmax, bound, share);
  }
  return alloc_peers(c, share);
}

void credits_fini(credits_t *c) {
  free(c->peer);
  c->peer = NULL;
}

/* The refusals of credits_returned and credits_arrived (credits.h), which
 * changed nothing: say why. */
int credits_refuse_returned(credits_t *c, uint32_t target, uint32_t n) {
  const credits_peer_t *p;
  if (target >= c->cfg.npeers)
    return fail(c, CREDITS_EINVAL, "credits_returned: peer %u, but only %u peers", target, c->cfg.npeers);
  p = &c->peer[target];
  return fail(c, CREDITS_EINVARIANT,
              "credits: peer %u returned %u credits with %u of %u available: more than was spent there "
              "(a duplicated or forged return)",
              target, n, p->avail, p->grant);
}

int credits_refuse_arrived(credits_t *c, uint32_t requester, uint32_t cost) {
  const credits_peer_t *p;
  if (requester >= c->cfg.npeers)
    return fail(c, CREDITS_EINVAL, "credits_arrived: peer %u, but only %u peers", requester, c->cfg.npeers);
  p = &c->peer[requester];
  return fail(c, CREDITS_EINVARIANT,
              "credits: peer %u sent a request of cost %u with %u already owed to it: more than its share %u "
              "(it overspent)",
              requester, cost, p->owed, p->lent);
}

int credits_check(credits_t *c) {
  uint64_t lent = 0;
  if (!c->peer) return fail(c, CREDITS_EINVAL, "credits_check: not initialised");
  for (uint32_t i = 0; i < c->cfg.npeers; i++) {
    const credits_peer_t *p = &c->peer[i];
    if (p->avail > p->grant)
      return fail(c, CREDITS_EINVARIANT, "credits_check: peer %u: %u credits available, more than the grant %u", i,
                  p->avail, p->grant);
    if (p->owed > p->lent)
      return fail(c, CREDITS_EINVARIANT, "credits_check: peer %u: %u credits owed to it, more than its share %u", i,
                  p->owed, p->lent);
    if (c->cfg.mode == CREDITS_DYNAMIC && (p->grant < c->cfg.grant || p->lent < c->cfg.grant ||
                                           p->grant > c->cfg.max_grant || p->lent > c->cfg.max_grant))
      return fail(c, CREDITS_EINVARIANT,
                  "credits_check: peer %u: a grant of %u, a loan of %u here, outside [%u, %u] (floor, max_grant)", i,
                  p->grant, p->lent, c->cfg.grant, c->cfg.max_grant);
    lent += p->lent;
  }
  if (c->cfg.mode == CREDITS_DYNAMIC && lent + c->bank != c->cfg.capacity)
    return fail(c, CREDITS_EINVARIANT, "credits_check: %llu credits lent and %u banked, the capacity is %u",
                (unsigned long long)lent, c->bank, c->cfg.capacity);
  if (c->cfg.capacity && lent > c->cfg.capacity)
    return fail(c, CREDITS_EINVARIANT, "credits_check: shares lent total %llu, more than the capacity %u",
                (unsigned long long)lent, c->cfg.capacity);
  return CREDITS_OK;
}

/* ------------------------------------------------------------------ */
/* dynamic mode                                                        */
/* ------------------------------------------------------------------ */

/* credits_charge's refusal: in dynamic mode, record what would have
 * avoided the stall (credits.h). */
int credits_stall(credits_t *c, uint32_t target, uint32_t cost) {
  credits_peer_t *p = &c->peer[target];
  if (c->cfg.mode != CREDITS_DYNAMIC) {
    if (cost > p->grant) return CREDITS_EINVAL;
  } else if (cost > c->cfg.max_grant) {
    return CREDITS_EINVAL;
  } else if (cost > p->grant) { /* a need: the grant the message needs, whole (the target lends what its loans
                                  * to us lack: a release on its way meanwhile cannot make the loan fall short) */
    p->want = cost | CREDITS_WANT_NEED;
    p->need_ask = cost - p->grant;
    p->need_cost = cost;
  } else {
    uint32_t w = cost - p->avail, room = c->cfg.max_grant - p->grant;
    p->need_ask = 0; /* the grant pays: no need is waiting */
    if (w < p->grant) w = p->grant;
    if (w > room) w = room;
    if (w > CREDITS_WANT_MAX) w = CREDITS_WANT_MAX;
    p->want = w;
  }
  c->stats.stalls++;
  return CREDITS_EAGAIN;
}

/* An ask went unmet (level 1 throughput, 2 a need): a reclaim sweep over
 * every peer is due, unless one is. */
static void mark_short(credits_t *c, credits_peer_t *p, uint32_t want, uint8_t level) {
  c->stats.short_asks++;
  p->asked = want;
  if (!c->short_) c->sweep = c->cfg.npeers;
  if (c->short_ < level) c->short_ = level;
}

static uint32_t lend(credits_t *c, credits_peer_t *p, uint32_t loan) {
  p->lent += loan;
  c->bank -= loan;
  c->stats.lent += loan;
  if (c->bank < c->stats.bank_low) c->stats.bank_low = c->bank;
  if (p->lent > c->stats.max_lent) c->stats.max_lent = p->lent;
  return loan;
}

uint32_t credits_lend(credits_t *c, uint32_t requester, uint32_t field) {
  credits_peer_t *p = &c->peer[requester];
  uint32_t want = field & CREDITS_WANT_MAX, room, have, loan;
  if (c->cfg.mode != CREDITS_DYNAMIC) return 0;
  room = c->cfg.max_grant - p->lent;
  if (c->need_peer != UINT32_MAX &&
      ((!(field & CREDITS_WANT_NEED) && c->need_peer == requester) || c->now - c->peer[c->need_peer].last > c->cfg.quiet))
    c->need_peer = UINT32_MAX; /* the designated need waits no more (or has not asked for a while) */
  if (!want) return 0;
  c->stats.asks++;
  if (field & CREDITS_WANT_NEED) { /* all or nothing, the designated need first */
    uint32_t keep = c->need_peer != UINT32_MAX && c->need_peer != requester ? c->need_amt : 0;
    if (want <= p->lent) return 0; /* lent enough already (its last loan, or a release, still on its way) */
    want -= p->lent;
    if (want <= room && (uint64_t)want + keep <= c->bank) {
      if (c->need_peer == requester) c->need_peer = UINT32_MAX;
      p->need_lent += want;
      return lend(c, p, want);
    }
    if (c->need_peer == UINT32_MAX || c->need_peer == requester) {
      c->need_peer = requester;
      c->need_amt = want;
    }
    mark_short(c, p, want, 2); /* the need loans out must come back */
    return 0;
  }
  have = c->bank > c->reserve ? c->bank - c->reserve : 0;
  loan = want < have ? want : have;
  if (loan > room) loan = room;
  if (loan < want && loan == have) mark_short(c, p, want, 1); /* the bank, not the cap, fell short */
  return lend(c, p, loan);
}

static int granted(credits_t *c, uint32_t target, uint32_t n, int need) {
  credits_peer_t *p;
  if (target >= c->cfg.npeers)
    return fail(c, CREDITS_EINVAL, "credits_granted: peer %u, but only %u peers", target, c->cfg.npeers);
  p = &c->peer[target];
  if (!n) return CREDITS_OK;
  if (c->cfg.mode != CREDITS_DYNAMIC || (uint64_t)p->grant + n > c->cfg.max_grant)
    return fail(c, CREDITS_EINVARIANT,
                "credits: peer %u lent %u credits on a grant of %u: past the most one peer may hold (%u%s)", target, n,
                p->grant, c->cfg.max_grant, c->cfg.mode != CREDITS_DYNAMIC ? ", static mode lends nothing" : "");
  p->grant += n;
  p->avail += n;
  c->stats.granted += n;
  if (need) { /* for the message that asked: kept from reclaims until that message is paid */
    p->need_loan += n;
    p->need_used = !p->need_ask; /* (that message went already) */
    p->need_ask = 0;
  }
  return CREDITS_OK;
}

int credits_granted(credits_t *c, uint32_t target, uint32_t n) { return granted(c, target, n, 0); }

int credits_granted_need(credits_t *c, uint32_t target, uint32_t n) { return granted(c, target, n, 1); }

uint32_t credits_reclaim_next(credits_t *c, uint64_t now) {
  uint32_t n = c->cfg.npeers;
  c->now = now;
  while (c->short_ && c->sweep) { /* the sweep credits_lend started visits every peer once */
    uint32_t i = c->scan;
    credits_peer_t *p = &c->peer[i];
    c->scan = i + 1 < n ? i + 1 : 0;
    c->sweep--;
    if (p->lent > c->cfg.grant && !p->reclaiming &&
        (now - p->last >= c->cfg.quiet || (c->short_ == 2 && p->need_lent && i != c->need_peer))) {
      p->reclaiming = 1;
      c->stats.reclaims++;
      return i;
    }
  }
  c->short_ = 0; /* swept: nothing more until an ask goes unmet again */
  return UINT32_MAX;
}

uint32_t credits_release(credits_t *c, uint32_t target) {
  credits_peer_t *p = &c->peer[target];
  uint32_t excess, k;
  if (c->cfg.mode != CREDITS_DYNAMIC) return 0;
  excess = p->grant - c->cfg.grant;
  if (p->need_loan && !p->need_used && p->grant >= p->need_cost) excess = 0; /* it pays its message: keep all */
  else if (p->need_ask) excess = p->need_loan; /* a need waits: its need loans, used or too small to pay it */
  k = p->avail < excess ? p->avail : excess;
  p->grant -= k;
  p->avail -= k;
  p->need_loan -= k < p->need_loan ? k : p->need_loan; /* a need loan goes first */
  if (!p->need_loan) p->need_used = 0;
  return k;
}

int credits_released(credits_t *c, uint32_t requester, uint32_t n) {
  credits_peer_t *p;
  if (requester >= c->cfg.npeers)
    return fail(c, CREDITS_EINVAL, "credits_released: peer %u, but only %u peers", requester, c->cfg.npeers);
  p = &c->peer[requester];
  if (!p->reclaiming)
    return fail(c, CREDITS_EINVARIANT, "credits: peer %u released %u credits, but no reclaim was sent to it", requester,
                n);
  if (n > p->lent - c->cfg.grant || p->owed > p->lent - n)
    return fail(c, CREDITS_EINVARIANT,
                "credits: peer %u gave back %u credits of a loan of %u over its floor %u with %u owed to it: more "
                "than it holds",
                requester, n, p->lent - c->cfg.grant, c->cfg.grant, p->owed);
  p->lent -= n;
  p->need_lent -= n < p->need_lent ? n : p->need_lent;
  p->reclaiming = 0;
  c->bank += n;
  c->stats.released += n;
  return CREDITS_OK;
}
