/*
 * amflow.c -- the AM flow step's slow part (amflow.h: stp_am_pay): how a
 * Core's request that is short of credits waits for them, or refuses
 * (IMMEDIATE).
 */
#include "amflow.h"

int stp_am_pay_short(credits_t *c, gex_Rank_t dest, uint32_t cost, gex_Flags_t flags, void (*ask)(gex_Rank_t, int),
                     int rc) {
  unsigned spins = 0;
  int immediate = (flags & GEX_FLAG_IMMEDIATE) != 0;
  while (rc == CREDITS_EAGAIN) { /* (nothing charged; the want is recorded for the next header) */
    if (ask && credits_ask_due(c, dest, cost)) ask(dest, immediate);
    if (immediate) return 1;
    stp_wait_step(&spins); /* serving others */
    rc = credits_charge(c, dest, cost);
  }
  if (rc != CREDITS_OK) {
    const char *why = credits_error(c);
    stp_fatal("AM flow control: a request of %u credits to node %u can never be paid for (%s)", cost, (unsigned)dest,
              why && *why ? why : rc == CREDITS_EINVAL ? "more than a share" : "accounting error");
  }
  return 0;
}
