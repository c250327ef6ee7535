/*
 * core.h -- the Core seam: how the GASNet layer moves Active Messages.
 *
 * A Core is one const stp_core_ops_t.  The API layer (common/api_am.c) checks
 * the client's arguments, packs them into an stp_am_t and calls the Core; the
 * Core moves the message and, at the target, hands it back to the API layer
 * with stp_am_run(), which runs the registered handler.  Launch, the segment
 * table and job exit belong to the lifecycle (api/api_init.c, net.h), not
 * to a Core.
 *
 * What every Core must guarantee:
 *
 *  - request(): returns once the message is "sent" in the GASNet sense: the
 *    source payload may be reused (except for a LongAsync, whose payload may
 *    be read until the matching reply handler runs).  It may stall for flow
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
#include "gasnet.h"

struct stageport_am_credits;

enum { STP_AM_SHORT = 0, STP_AM_MEDIUM = 1, STP_AM_LONG = 2 };

/* One active message, as the API layer hands it to a Core. */
typedef struct stp_am {
  uint8_t cat;     /* STP_AM_SHORT / _MEDIUM / _LONG */
  uint8_t async;   /* LongAsync: payload may still be read after return */
  gasnet_handler_t handler;
  uint8_t nargs;   /* 0..16 */
  const gasnet_handlerarg_t *args;
  const void *src; /* payload (Medium, Long) */
  size_t nbytes;
  void *dst;       /* Long: address in the target's segment */
} stp_am_t;

/* What a handler's gasnet_token_t points to.  Lives on the Core's stack for
 * the duration of the handler. */
typedef struct stp_token {
  gasnet_node_t src;   /* the node that sent the message */
  uint8_t is_request;  /* 1: request handler (may reply once) */
  uint8_t replied;     /* set by the API layer when the handler replies */
  void *core;          /* Core-private context of the message */
} stp_token_t;

typedef struct stp_core_ops {
  const char *name;

  /* setup and teardown ------------------------------------------------ */
  /* After the network is open, the segment table is known and handlers are
   * registered; before the attach barrier, so messages sent right after
   * attach find the Core ready. */
  int (*attach)(void);
  /* At exit, after every peer agreed to exit: release receives and buffers.
   * Must not wait for peers. */
  void (*detach)(void);

  /* AM maxima (bytes) */
  size_t max_medium;
  size_t max_long_request;
  size_t max_long_reply;

  /* messaging --------------------------------------------------------- */
  int (*request)(gasnet_node_t dest, const stp_am_t *am);
  int (*reply)(stp_token_t *token, const stp_am_t *am);
  int (*poll)(void);

  /* bytes this process reserved for receiving AM requests (pre-posted
   * receives, request buffers, event queue): stageport_am_recv_bytes() */
  size_t (*recv_bytes)(void);
  /* its credits' state (stageport_am_credits); NULL: not reported */
  int (*credits)(struct stageport_am_credits *s);
} stp_core_ops_t;

/* Provided by the runtime (common/) to every Core: run the handler for an
 * arrived message (checks the handler is registered; fatal error naming it
 * if not). */
extern void stp_am_run(stp_token_t *token, gasnet_handler_t handler, int cat,
                       const gasnet_handlerarg_t *args, int nargs, void *buf, size_t nbytes);

#endif /* STP_CORE_H */
