/*
 * credits.h -- Active Message flow-control credits, network independent.
 *
 * A target can receive only so much: pre-posted receives (MPI Core), ReqRB
 * space and AM_EQ slots (Portals Core).  Credits keep every requester inside
 * its share of that, so no amount of request traffic can overrun a target.
 * This module is the accounting only: no network, no MPI, no UCX, no GASNet.
 * Its client (a Core) asks it what a message costs, whether it may send,
 * what to put in a header, and tells it what arrived.
 *
 * One credits_t per process holds both roles toward every peer:
 *
 *   requester side (toward target t)   target side (toward requester r)
 *   avail[t]: credits it may spend     owed[r]: credits to give back to r
 *   grant[t]: its share at t
 *
 * The life of one request of cost c from r to t:
 *   r: credits_charge(t, c)     avail[t] -= c   (refused if avail[t] < c: r
 *                                                must stall, serving others)
 *   t: credits_arrived(r, c)    owed[r] += c    (before the handler runs)
 *   t: credits_piggyback(r)     any message t sends to r (the reply, a later
 *                                request, or a credit-only message once
 *                                credits_flush_due(r)) carries owed[r]
 *   r: credits_returned(t, n)   avail[t] += n
 *
 * So a credit comes back in the reply, or -- when the handler sent none --
 * batched into the next message to r, or a credit-only message once `batch`
 * are owed.  Replies cost nothing and are never refused.
 *
 * Conservation: for every pair (r, t), at every moment,
 *   avail_r[t] + (cost of r's requests to t in flight) + owed_t[r]
 *     + (credits in flight back from t to r) == grant_r[t]
 * and so the requests t may have to receive from r never exceed the grant.
 * The module checks what one process can see: avail <= grant, owed <= lent
 * (the requester's grant, as the target knows it), the sum of shares a
 * target lends <= its capacity.  A return or an arrival that would break
 * one of these is refused with CREDITS_EINVARIANT and a message in
 * credits_error(), nothing changed: a duplicated or forged return, or a
 * peer that overspends, is never absorbed.  It is found at once when it
 * breaks a bound by itself (a request costing more than the share, a return
 * to a full avail); otherwise at the latest when the pair's credits come
 * home: a target cannot see an overspend smaller than what it has already
 * given back, but the requester's avail would then rise above its grant.
 *
 * Cost by size class: a message costs 1 + ceil(payload / unit) credits with
 * unit_bytes > 0 (e.g. 256 bytes of ReqRB per credit), or exactly 1 per
 * message with unit_bytes == 0 (the MPI Core: one pre-posted receive of the
 * largest size each).
 *
 * Liveness: a stalled requester waits for the credits owed to it, and they
 * come home only in a message its target sends.  Once nothing is in flight,
 * a requester stalled on cost k has more than share - k credits owed at the
 * target, yet the target's last handler for it either sent them back (reply
 * or flush) or left fewer than batch owed.  So batch <= share - kmax + 1,
 * with kmax the largest cost (max_cost; the share if max_cost is 0; 1 with
 * unit_bytes 0), and messages that carry all that is owed (piggyback's max
 * >= the share: keep max_grant within the header field) mean no requester
 * waits for ever.  credits_init enforces the bound.
 *
 * Modes: CREDITS_STATIC gives every requester an equal share, fixed.
 * (Dynamic redistribution is a later mode; the API is shaped for it: grants
 * are per pair and decided by the target.)
 *
 * Threads: none inside; a credits_t is used by one thread at a time.
 */
#ifndef STP_CREDITS_H
#define STP_CREDITS_H

#include <stddef.h>
#include <stdint.h>

enum { CREDITS_STATIC = 0 };

enum {
  CREDITS_OK = 0,
  CREDITS_EAGAIN = 1,      /* credits_charge: not enough credits now (stall and retry) */
  CREDITS_EINVARIANT = -1, /* a return or arrival that breaks the accounting (see credits_error) */
  CREDITS_EINVAL = -2,     /* bad configuration or argument */
  CREDITS_ENOMEM = -3,
};

typedef struct credits_cfg {
  uint32_t npeers;     /* processes in the job, self included (a node may send itself AMs) */
  int mode;            /* CREDITS_STATIC */
  uint32_t capacity;   /* credits this process can receive in all (static: each requester's share is
                        * capacity / npeers, at most max_grant); 0: grant * npeers */
  uint32_t grant;      /* static: each requester's share when capacity is 0 */
  uint32_t max_grant;  /* largest share one pair may hold (e.g. what a header field can return), 0: no limit */
  uint32_t unit_bytes; /* bytes of payload per credit; 0: every message costs 1 */
  uint32_t max_cost;   /* largest cost of one message (a share must hold at least this); 0: no limit */
  uint32_t batch;      /* owed credits returned in a message of their own once this many are owed; 0: share / 2,
                        * at most share - kmax + 1 (see Liveness); c->cfg.batch holds the value in use */
} credits_cfg_t;

typedef struct credits_peer {
  uint32_t avail; /* requester side: credits this process may still spend at the peer */
  uint32_t grant; /* requester side: this process's share at the peer */
  uint32_t owed;  /* target side: credits to give back to the peer */
  uint32_t lent;  /* target side: the share the peer holds here */
} credits_peer_t;

typedef struct credits_stats {
  uint64_t charged, returned, arrived, piggybacked; /* credits */
  uint64_t stalls;                                  /* credits_charge refusals */
  uint64_t flushes;                                 /* credit-only messages asked for */
} credits_stats_t;

typedef struct credits {
  credits_cfg_t cfg;
  credits_peer_t *peer; /* [npeers] */
  credits_stats_t stats;
  char err[256];
} credits_t;

/* Set up c from cfg (copied).  CREDITS_EINVAL (with credits_error) if the
 * configuration cannot hold: npeers 0, an unknown mode, a share of 0 or
 * smaller than max_cost, a batch past the liveness bound; CREDITS_ENOMEM.
 * After a failure c holds no memory (credits_fini is harmless). */
int credits_init(credits_t *c, const credits_cfg_t *cfg);
void credits_fini(credits_t *c);

/* What a message with this payload costs (requests only; replies are free). */
static inline uint32_t credits_cost(const credits_t *c, size_t payload) {
  uint32_t u = c->cfg.unit_bytes;
  return u ? 1u + (uint32_t)((payload + u - 1) / u) : 1u;
}

/* Every per-message call is inline.  credits_charge, credits_piggyback and
 * credits_flush_due do not check the peer index (the caller's own
 * destination); credits_returned and credits_arrived do (the peer comes
 * from the wire). */
int credits_refuse_returned(credits_t *c, uint32_t target, uint32_t n);  /* (credits.c) */
int credits_refuse_arrived(credits_t *c, uint32_t requester, uint32_t cost);

/* Requester side: spend cost credits at target.  CREDITS_OK, or
 * CREDITS_EAGAIN (nothing spent: stall, keep serving, retry), or
 * CREDITS_EINVAL if cost can never be paid (more than the share). */
static inline int credits_charge(credits_t *c, uint32_t target, uint32_t cost) {
  credits_peer_t *p = &c->peer[target];
  if (__builtin_expect(p->avail >= cost, 1)) {
    p->avail -= cost;
    c->stats.charged += cost;
    return CREDITS_OK;
  }
  if (cost > p->grant) return CREDITS_EINVAL;
  c->stats.stalls++;
  return CREDITS_EAGAIN;
}

/* Requester side: n credits came back from target (in any message header).
 * CREDITS_EINVARIANT, nothing changed, if avail would pass the grant;
 * CREDITS_EINVAL for a target out of range. */
static inline int credits_returned(credits_t *c, uint32_t target, uint32_t n) {
  if (__builtin_expect(target < c->cfg.npeers, 1)) {
    credits_peer_t *p = &c->peer[target];
    if (__builtin_expect((uint64_t)p->avail + n <= p->grant, 1)) {
      p->avail += n;
      c->stats.returned += n;
      return CREDITS_OK;
    }
  }
  return credits_refuse_returned(c, target, n);
}

/* Target side: a request of this cost arrived from requester (call before
 * its handler runs).  CREDITS_EINVARIANT, nothing changed, if owed would
 * pass the requester's share: it overspent; CREDITS_EINVAL out of range. */
static inline int credits_arrived(credits_t *c, uint32_t requester, uint32_t cost) {
  if (__builtin_expect(requester < c->cfg.npeers, 1)) {
    credits_peer_t *p = &c->peer[requester];
    if (__builtin_expect((uint64_t)p->owed + cost <= p->lent, 1)) {
      p->owed += cost;
      c->stats.arrived += cost;
      return CREDITS_OK;
    }
  }
  return credits_refuse_arrived(c, requester, cost);
}

/* Target side: take the credits owed to peer, at most max (a header
 * field's capacity), for a message about to be sent to it. */
static inline uint32_t credits_piggyback(credits_t *c, uint32_t peer, uint32_t max) {
  credits_peer_t *p = &c->peer[peer];
  uint32_t n = p->owed < max ? p->owed : max;
  p->owed -= n;
  c->stats.piggybacked += n;
  return n;
}

/* Target side: enough is owed to peer that it should go back in a message
 * of its own (a handler ended without replying). */
static inline int credits_flush_due(credits_t *c, uint32_t peer) {
  if (c->peer[peer].owed < c->cfg.batch) return 0;
  c->stats.flushes++;
  return 1;
}

/* Every invariant this process can check, over every peer: CREDITS_OK or
 * CREDITS_EINVARIANT (with credits_error); O(npeers). */
int credits_check(credits_t *c);

/* The message of the last error. */
static inline const char *credits_error(const credits_t *c) { return c->err; }

#endif /* STP_CREDITS_H */
