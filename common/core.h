/*
 * core.h -- the Core seam: how the library moves Active Messages.
 *
 * A Core is one const stp_core_ops_t.  The API layer (api/ex_am.c) checks
 * the client's arguments, packs them into an stp_am_t and calls the Core; the
 * Core moves the message and, at the target, hands it back to the API layer
 * with stp_am_run(), which runs the registered handler.  Launch, the segment
 * table and job exit belong to the lifecycle (api/ex_init.c, net.h), not
 * to a Core.
 *
 * What every Core must guarantee:
 *
 *  - request(): returns once the message is "sent": the source payload may
 *    be reused (except for a LongAsync, whose payload may be read until the
 *    matching reply handler runs; or with am->lc, whose local completion it
 *    counts there instead).  Without GEX_FLAG_IMMEDIATE it may stall for flow
 *    control; while stalled it must keep the whole library progressing by
 *    calling stp_wait_step(), which runs incoming request handlers: a node
 *    stalled injecting a request must never stop serving others.
 *  - reply(): called only from a request handler, at most once per request,
 *    to the requester.  It never waits for a resource that only a request
 *    handler could free: replies cannot deadlock.
 *  - poll(): runs handlers for messages that have arrived, never blocks, never
 *    recurses into itself (handlers may not poll).  Returns how many messages
 *    it handled.
 *  - Flow control: no amount of request traffic may exhaust the target's
 *    receive resources; a Core returns credits when a request handler ends,
 *    whether or not it replied.
 *  - A Long payload is in place at its destination before the handler runs,
 *    and the handler receives a pointer to it; a Medium payload is in a
 *    temporary buffer aligned for any type, valid while the handler runs.
 *  - Maxima are fixed at attach and are what the API layer checks against.
 */
#ifndef STP_CORE_H
#define STP_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"
#include "gasnetex.h"

struct stageport_am_credits;

enum { STP_AM_SHORT = 0, STP_AM_MEDIUM = 1, STP_AM_LONG = 2 };

/* One active message, as the API layer hands it to a Core. */
typedef struct stp_am {
  uint8_t cat;     /* STP_AM_SHORT / _MEDIUM / _LONG */
  uint8_t async;   /* LongAsync (GASNet-1): payload may still be read after return */
  gex_AM_Index_t handler;
  uint8_t nargs;   /* 0..16 */
  const gex_AM_Arg_t *args;
  const void *src; /* payload (Medium, Long) */
  size_t nbytes;
  void *dst;       /* Long: address in the target's segment */
  gex_Flags_t flags; /* GEX_FLAG_IMMEDIATE: refuse (return 1) rather than wait for resources */
  stp_ev_t *lc;    /* NULL: return once the source may be reused (at local completion); else
                    * count the payload's local completion in lc's STP_EC_LC (a Core may also
                    * complete it before returning) */
  uintptr_t np;    /* a native negotiated-payload Commit: the Core's reservation (stp_np_t's hold),
                    * whose memory src points into; 0: none */
} stp_am_t;

/* The category an AM payload's local completion counts in, in am->lc: an
 * NBI set's or open access region's GEX_EC_AM (lc_opt GEX_EVENT_GROUP),
 * else the record's STP_EC_LC (a root's leaf).  A Core that counts one
 * takes the category when it starts the count and finishes the same. */
static inline int stp_am_lc_cat(const stp_ev_t *lc) {
  return lc->kind == STP_EV_NBI || lc->kind == STP_EV_REGION ? STP_EC_AM : STP_EC_LC;
}

/* A negotiated-payload Prepare (gex_AM_Prepare*) with a GASNet-allocated
 * buffer, as the API layer asks a Core with native NP for the memory it
 * sends from. */
typedef struct stp_np {
  uint8_t is_req;
  uint8_t cat;         /* STP_AM_MEDIUM or STP_AM_LONG */
  uint8_t nargs;
  gex_Rank_t dest;     /* a request's */
  struct _stp_token *token; /* a reply's */
  size_t least, most;  /* most is at most the category's maximum */
  gex_Flags_t flags;   /* GEX_FLAG_IMMEDIATE */
  /* the Core's answer */
  void *addr;          /* where the client writes the payload; NULL: nothing native for this one */
  size_t size;         /* how much may be written there: least <= size <= most */
  uintptr_t hold;      /* the reservation, never 0 (handed back in am->np or to np_cancel) */
} stp_np_t;

/* What a handler's gex_Token_t points to.  Lives on the Core's stack for
 * the duration of the handler. */
struct _stp_token {
  gex_Rank_t src;      /* the process that sent the message */
  uint8_t is_request;  /* 1: request handler (may reply once) */
  uint8_t replied;     /* set by the API layer when the handler replies */
  void *core;          /* Core-private context of the message */
  uint8_t cat;         /* STP_AM_*: set by stp_am_run */
  gex_AM_Index_t handler; /* set by stp_am_run */
};
typedef struct _stp_token stp_token_t;

typedef struct stp_core_ops {
  const char *name;

  /* setup and teardown ------------------------------------------------ */
  /* At gex_Client_Init, after the network is open and the library's
   * handlers are registered; before the init barrier, so messages sent
   * right after find the Core ready.  No segment yet: Shorts and Mediums
   * work from here on. */
  int (*attach)(void);
  /* At gex_Segment_Attach, once the segment table is known (NULL: nothing
   * to do): what Long payloads need (entries posted over the segment). */
  int (*segment)(void);
  /* At exit, after every peer agreed to exit: release receives and buffers.
   * Must not wait for peers. */
  void (*detach)(void);

  /* AM maxima (bytes), whatever the peer, arguments, lc_opt and flags */
  size_t max_medium;
  size_t max_long_request;
  size_t max_long_reply;

  /* messaging: 0, or 1 when am->flags has GEX_FLAG_IMMEDIATE and the
   * message would have had to wait for resources (then nothing was sent,
   * nothing changed).  A reply is never refused. */
  int (*request)(gex_Rank_t dest, const stp_am_t *am);
  int (*reply)(stp_token_t *token, const stp_am_t *am);
  int (*poll)(void);

  /* negotiated payload, native (NULL: the reference -- a buffer of the API
   * layer's, copied by request/reply at the Commit like any source).
   * np_prepare: 0 with np->addr set -- the Core's own send memory (its
   * reservation np->hold) -- or NULL (nothing native for this one: the
   * reference serves it); or 1: GEX_FLAG_IMMEDIATE and short of what that
   * memory needs, nothing taken (a reply's is never refused).  The Commit
   * is request() or reply() with am->np = np->hold and am->src inside
   * np->addr: it sends without copying the payload; a refusal (IMMEDIATE)
   * keeps the reservation.  np_cancel: the reservation back, nothing sent. */
  int (*np_prepare)(stp_np_t *np);
  void (*np_cancel)(const stp_np_t *np);

  /* bytes this process reserved for receiving AM requests (pre-posted
   * receives, request buffers, event queue): stageport_am_recv_bytes() */
  size_t (*recv_bytes)(void);
  /* its credits' state (stageport_am_credits); NULL: not reported */
  int (*credits)(struct stageport_am_credits *s);
} stp_core_ops_t;

/* The AM flow step every Core's request pays through: stp_am_pay,
 * common/amflow.h. */

/* Provided by the runtime (common/) to every Core: run the handler for an
 * arrived message (checks the handler is registered, and with argument
 * checks on that the message matches its registration; a fatal error
 * naming it if not). */
extern void stp_am_run(stp_token_t *token, gex_AM_Index_t handler, int cat, const gex_AM_Arg_t *args, int nargs,
                       void *buf, size_t nbytes);

#endif /* STP_CORE_H */
