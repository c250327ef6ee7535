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

int credits_init(credits_t *c, const credits_cfg_t *cfg) {
  uint32_t share, kmax, bound;
  if (!c) return CREDITS_EINVAL;
  memset(c, 0, sizeof(*c));
  if (!cfg) return fail(c, CREDITS_EINVAL, "credits_init: no configuration");
  c->cfg = *cfg;
  if (!cfg->npeers) return fail(c, CREDITS_EINVAL, "credits_init: npeers is 0");
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
  c->peer = calloc(cfg->npeers, sizeof(*c->peer));
  if (!c->peer) return fail(c, CREDITS_ENOMEM, "credits_init: no memory for %u peers", cfg->npeers);
  for (uint32_t i = 0; i < cfg->npeers; i++) c->peer[i].avail = c->peer[i].grant = c->peer[i].lent = share;
  return CREDITS_OK;
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
    lent += p->lent;
  }
  if (c->cfg.capacity && lent > c->cfg.capacity)
    return fail(c, CREDITS_EINVARIANT, "credits_check: shares lent total %llu, more than the capacity %u",
                (unsigned long long)lent, c->cfg.capacity);
  return CREDITS_OK;
}
