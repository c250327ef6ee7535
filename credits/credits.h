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
 *
 * CREDITS_DYNAMIC (seed 000 section 4.7): a target's capacity is not split
 * equally.  Every requester starts with a small grant (cfg.grant, its
 * floor: never taken away), and the rest, the bank, is lent by the target
 * to the requesters that need it:
 *
 *   r: credits_charge refused      want[t] = what would have avoided the
 *                                  stall: max(cost - avail, grant) (so a
 *                                  stream that keeps stalling doubles its
 *                                  grant per loan); a need (cost > grant:
 *                                  no wait can pay it) wants a grant of
 *                                  cost, whole, flagged CREDITS_WANT_NEED
 *   r: credits_want(t)             the next request to t carries it in its
 *                                  header (CREDITS_WANT_BITS bits)
 *   t: credits_lend(r, field)      the reply to that request carries a loan
 *                                  out of the bank: lent[r] += loan (a
 *                                  need's: what lent[r] lacks of its cost,
 *                                  so a need asked for before a release
 *                                  still gets what pays the message)
 *   r: credits_granted(t, loan)    grant[t] += loan, avail[t] += loan
 *
 * Throughput loans (no need flag) are best effort, capped by max_grant per
 * pair, and leave a reserve of max_cost - grant in the bank.  A need is
 * lent all or nothing, out of the whole bank: a part of it would pay for
 * nothing.  When needs compete, the first that went unmet is designated and
 * the others are lent only what leaves its amount in the bank, until it is
 * met, its requester sends a request with no need (it no longer waits), or
 * it has sent nothing for cfg.quiet ticks.
 * A need loan is for the message that needed it: kept while it pays that
 * message; once the message is paid, or when it can no longer pay it (a
 * release shrank the grant while the ask was on its way, so a need waits
 * again), the loan is the first thing a reclaim takes back.
 * A requester whose whole grant is home and still below a message's cost
 * (credits_ask_due) sends an ask: a request of cost 1 that runs no handler
 * (charged with credits_charge_ask, which leaves a need loan unused).
 *
 * Reclaim: an ask the bank could not meet marks the target short, which
 * starts one sweep (credits_reclaim_next(now)) over every peer: those
 * holding loans (lent > grant) that have sent nothing for cfg.quiet ticks
 * get a reclaim (a SYS message), and, when a need waits, those holding
 * need loans, quiet or not (a need loan is for one message) -- except the
 * designated need's requester, whose loans go to the message it waits to
 * pay -- so needs are served one bank's worth at a time.  A peer
 * gives back what of its loan is home (credits_release: grant and avail
 * drop together; see there for what a need keeps) in a release message,
 * and the target banks it (credits_released).  So the bank refills when
 * the pattern shifts.
 *
 * Invariants (dynamic): per pair, floor <= grant_r[t] <= lent_t[r] <=
 * max_grant (a loan raises lent before grant, a release lowers grant
 * before lent), so the target never promises less than the requester
 * spends; sum over r of lent_t[r] + bank == capacity.  A loan, a return or
 * a release that would break one is refused (CREDITS_EINVARIANT), and so
 * is a release no reclaim asked for.
 *
 * Threads: none inside; a credits_t is used by one thread at a time.
 */
#ifndef STP_CREDITS_H
#define STP_CREDITS_H

#include <stddef.h>
#include <stdint.h>

enum { CREDITS_STATIC = 0, CREDITS_DYNAMIC = 1 };

/* The want field of a request header (dynamic mode): CREDITS_WANT_BITS
 * bits, the credits asked for (at most CREDITS_WANT_MAX) and a need flag. */
#define CREDITS_WANT_MAX 0xffu
#define CREDITS_WANT_NEED 0x100u
#define CREDITS_WANT_BITS 9

enum {
  CREDITS_OK = 0,
  CREDITS_EAGAIN = 1,      /* credits_charge: not enough credits now (stall and retry) */
  CREDITS_EINVARIANT = -1, /* a return or arrival that breaks the accounting (see credits_error) */
  CREDITS_EINVAL = -2,     /* bad configuration or argument */
  CREDITS_ENOMEM = -3,
};

typedef struct credits_cfg {
  uint32_t npeers;     /* processes in the job, self included (a node may send itself AMs) */
  int mode;            /* CREDITS_STATIC or CREDITS_DYNAMIC */
  uint32_t capacity;   /* credits this process can receive in all (static: each requester's share is
                        * capacity / npeers, at most max_grant; 0: grant * npeers); dynamic: required,
                        * at least npeers * grant + max_cost - grant (one peer can always pay max_cost) */
  uint32_t grant;      /* static: each requester's share when capacity is 0; dynamic: each requester's
                        * initial grant, its floor */
  uint32_t max_grant;  /* largest share one pair may hold (e.g. what a header field can return), 0: no limit */
  uint32_t unit_bytes; /* bytes of payload per credit; 0: every message costs 1 */
  uint32_t max_cost;   /* largest cost of one message (a share must hold at least this); 0: no limit; dynamic:
                        * at most CREDITS_WANT_MAX (a need asks for a grant of its cost, whole) */
  uint32_t batch;      /* owed credits returned in a message of their own once this many are owed; 0: share / 2,
                        * at most share - kmax + 1 (see Liveness); c->cfg.batch holds the value in use */
  uint64_t quiet;      /* dynamic: ticks (the caller's clock) without a request after which a peer's loan
                        * may be reclaimed when the bank runs short */
} credits_cfg_t;

typedef struct credits_peer {
  uint32_t avail; /* requester side: credits this process may still spend at the peer */
  uint32_t grant; /* requester side: this process's share at the peer */
  uint32_t owed;  /* target side: credits to give back to the peer */
  uint32_t lent;  /* target side: the share the peer holds here */
  /* dynamic mode */
  uint32_t want;      /* requester side: credits to ask the peer for (CREDITS_WANT_* field), 0: none */
  uint32_t need_ask;  /* requester side: the need it asked for, until a loan that large comes or it is paid */
  uint32_t need_cost; /* requester side: the cost of the message that needs it */
  uint32_t need_loan; /* requester side: a need loan held (kept until the message it is for is paid) */
  uint8_t need_used;  /* requester side: a charge has spent from it */
  uint32_t asked;     /* target side: the last want the peer reported and was not fully lent (stats) */
  uint64_t last;      /* target side: tick of the peer's last request */
  uint8_t reclaiming; /* target side: a reclaim is on its way to the peer, its release not yet in */
  uint32_t need_lent; /* target side: need loans the peer holds (reclaimed when another need waits) */
} credits_peer_t;

typedef struct credits_stats {
  uint64_t charged, returned, arrived, piggybacked; /* credits */
  uint64_t stalls;                                  /* credits_charge refusals */
  uint64_t flushes;                                 /* credit-only messages asked for */
  /* dynamic mode */
  uint64_t lent, released;      /* credits lent out of the bank, given back into it */
  uint64_t asks, short_asks;    /* wants reported to this target; those not met in full */
  uint64_t reclaims;            /* reclaim messages asked for */
  uint64_t granted;             /* requester side: credits peers lent this process */
  uint32_t bank_low;            /* the fewest credits the bank held */
  uint32_t max_lent;            /* the most any one peer held here */
} credits_stats_t;

typedef struct credits {
  credits_cfg_t cfg;
  credits_peer_t *peer; /* [npeers] */
  credits_stats_t stats;
  /* dynamic mode */
  uint32_t bank;    /* credits not lent to anyone */
  uint32_t reserve; /* what throughput loans leave in the bank (max_cost - grant) */
  uint8_t short_;   /* an ask went unmet since the last reclaim sweep: 1 throughput, 2 a need */
  uint32_t need_peer, need_amt; /* the designated need (UINT32_MAX: none) and its amount */
  uint32_t scan;    /* where the reclaim sweep goes on */
  uint32_t sweep;   /* peers the sweep has still to visit */
  uint64_t now;     /* the caller's clock, as last given */
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
  if (!u || !payload) return 1u; /* (no division on a Short's path) */
  if (!(u & (u - 1))) return 1u + (uint32_t)((payload + u - 1) >> __builtin_ctz(u)); /* (nor on any, for a power of 2) */
  return 1u + (uint32_t)((payload + u - 1) / u);
}

/* Every per-message call is inline.  credits_charge, credits_piggyback and
 * credits_flush_due do not check the peer index (the caller's own
 * destination); credits_returned and credits_arrived do (the peer comes
 * from the wire). */
int credits_refuse_returned(credits_t *c, uint32_t target, uint32_t n);  /* (credits.c) */
int credits_refuse_arrived(credits_t *c, uint32_t requester, uint32_t cost);
int credits_stall(credits_t *c, uint32_t target, uint32_t cost);

/* A charge paid with a need loan held or a need asked for: the loan is
 * used; a need paid for (the message that stalled, not an ask) waits no
 * more. */
static inline void credits_paid_need(credits_peer_t *p, uint32_t cost) {
  if (p->need_loan) p->need_used = 1;
  if (p->need_ask && cost >= p->need_cost) { /* the message that needed it is paid: its need is no more */
    p->need_ask = 0;
    p->want &= ~CREDITS_WANT_NEED;
  }
}

/* Requester side: spend cost credits at target.  CREDITS_OK, or
 * CREDITS_EAGAIN (nothing spent: stall, keep serving, retry; in dynamic
 * mode the shortfall is recorded for credits_want), or CREDITS_EINVAL if
 * cost can never be paid (static: more than the share; dynamic: more than
 * max_grant). */
static inline int credits_charge(credits_t *c, uint32_t target, uint32_t cost) {
  credits_peer_t *p = &c->peer[target];
  if (__builtin_expect(p->avail >= cost, 1)) {
    p->avail -= cost;
    c->stats.charged += cost;
    if (__builtin_expect((p->need_loan | p->need_ask) != 0, 0)) credits_paid_need(p, cost);
    return CREDITS_OK;
  }
  return credits_stall(c, target, cost);
}

/* Requester side: an ask's charge (cost 1, credits_ask_due): unlike
 * credits_charge it leaves a need loan unused, kept for the message that
 * needs it (an ask is not that message). */
static inline int credits_charge_ask(credits_t *c, uint32_t target) {
  credits_peer_t *p = &c->peer[target];
  if (!p->avail) return CREDITS_EAGAIN;
  p->avail--;
  c->stats.charged++;
  return CREDITS_OK;
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
      p->last = c->now;
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

/* ---- dynamic mode (every call is harmless in static mode: no want, no
 * loan, nothing to reclaim) ---- */

/* The caller's clock (any monotonic unit matching cfg.quiet): arrivals are
 * stamped with the last value given. */
static inline void credits_tick(credits_t *c, uint64_t now) { c->now = now; }

/* Requester side: the want field for the header of a request about to go
 * to target (0: nothing to ask); the want is then reported. */
static inline uint32_t credits_want(credits_t *c, uint32_t target) {
  uint32_t w = c->peer[target].want;
  c->peer[target].want = 0;
  return w;
}

/* Requester side: stalled on a message of this cost with the whole grant
 * home and still too small -- send an ask (a request of cost 1 that runs no
 * handler, carrying credits_want) and wait for its reply. */
static inline int credits_ask_due(const credits_t *c, uint32_t target, uint32_t cost) {
  const credits_peer_t *p = &c->peer[target];
  return c->cfg.mode == CREDITS_DYNAMIC && p->avail == p->grant && p->grant < cost;
}

/* Target side: the loan for the reply to a request from requester that
 * carried the want field (0 if none): lent[requester] grows by it, the bank
 * shrinks.  An ask not met in full marks the target short. */
uint32_t credits_lend(credits_t *c, uint32_t requester, uint32_t field);

/* Requester side: a loan of n credits came from target (in a reply): a
 * throughput loan, or (credits_granted_need) a need loan -- the reply must
 * say which: a need loan is lent to the requester that asked with the need
 * flag, all or nothing (credits_lend returned non-zero for a want with
 * CREDITS_WANT_NEED).  CREDITS_EINVARIANT, nothing changed, if the grant
 * would pass max_grant. */
int credits_granted(credits_t *c, uint32_t target, uint32_t n);
int credits_granted_need(credits_t *c, uint32_t target, uint32_t n);

/* Target side, from the poll: the next peer to send a reclaim to, or
 * UINT32_MAX when none is due (not short, or no borrower quiet enough).
 * The peer is marked reclaiming until its release comes in.  Once short,
 * one sweep visits every peer once; call until UINT32_MAX. */
uint32_t credits_reclaim_next(credits_t *c, uint64_t now);

/* Requester side: target reclaims its loan: what of it is home is given up
 * (grant and avail drop by it, never below the floor) -- nothing while an
 * unused need loan pays its message (the grant covers the message's cost),
 * only its need loans while a need of its own waits.  Returns the credits
 * to send back in the release message (possibly 0: send it anyway). */
uint32_t credits_release(credits_t *c, uint32_t target);

/* Target side: requester released n credits, its answer to our reclaim:
 * banked.  CREDITS_EINVARIANT, nothing changed, if no reclaim was sent to
 * it or the loan is smaller. */
int credits_released(credits_t *c, uint32_t requester, uint32_t n);



/* Every invariant this process can check, over every peer: CREDITS_OK or
 * CREDITS_EINVARIANT (with credits_error); O(npeers). */
int credits_check(credits_t *c);

/* The message of the last error. */
static inline const char *credits_error(const credits_t *c) { return c->err; }

#endif /* STP_CREDITS_H */
