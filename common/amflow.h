/*
 * amflow.h -- the AM flow step, the one place a request pays for itself
 * (every Core includes it with credits/credits.h; the slow part is in
 * amflow.c).
 *
 * stp_am_pay: pay cost credits toward dest out of c (a Core's credits_t).
 * Short of them: with GEX_FLAG_IMMEDIATE in flags, return 1 having charged
 * nothing; else wait, serving others (stp_wait_step), until they come
 * home.  Either way, when the accounting says an ask is due (dynamic
 * credits: the whole grant is home and still too small), ask(dest,
 * immediate) is called (NULL: a Core without dynamic credits); it must not
 * wait when immediate is set.  A request that can never be paid for, or an
 * accounting error, is a fatal error naming the request.  0: paid.
 * Inline: a request that has its credits pays with one compare and makes
 * no call.
 */
#ifndef STP_AMFLOW_H
#define STP_AMFLOW_H

#include "stp_internal.h"

#include "credits.h"

/* The rest of stp_am_pay: what a charge that did not succeed at once
 * does (rc: credits_charge's answer). */
int stp_am_pay_short(credits_t *c, gex_Rank_t dest, uint32_t cost, gex_Flags_t flags,
                     void (*ask)(gex_Rank_t dest, int immediate), int rc);

static inline int stp_am_pay(credits_t *c, gex_Rank_t dest, uint32_t cost, gex_Flags_t flags,
                             void (*ask)(gex_Rank_t dest, int immediate)) {
  int rc = credits_charge(c, dest, cost);
  if (STP_LIKELY(rc == CREDITS_OK)) return 0;
  return stp_am_pay_short(c, dest, cost, flags, ask, rc);
}

#endif /* STP_AMFLOW_H */
