/*
 * ext.h -- the Extended seam: how the GASNet layer moves Put/Get data.
 *
 * An Extended backend is one const stp_ext_ops_t.  The API layer
 * (common/api_ext.c) owns everything the many GASNet variants have in
 * common -- argument checks, loopback (a node's own segment is a memcpy),
 * zero-length operations, handles, implicit-handle sets, access regions,
 * value puts and gets, and every sync call -- and calls the backend through
 * exactly three initiation slots.
 *
 * Completion is counted in an operation record (stp_op_t): an initiation slot
 * adds one to op->puts or op->gets for every sub-operation it starts and
 * subtracts one when that sub-operation is complete in the GASNet sense
 * (a put's data is written at the target and visible to later gets and loads
 * there; a get's data is in the local buffer).  An operation is complete when
 * both counters are zero and op->put_sync is clear.
 *
 *  - put(): non-bulk (bulk == 0) returns only when the source may be reused
 *    (local completion); bulk may return at once.  Either way remote
 *    completion is reported later through the counters.
 *  - get(), memset(): return at once; completion through the counters.
 *    A backend without a remote memset leaves the slot NULL and the API
 *    layer sends one AM through the Core.
 *  - sync(): for backends whose puts complete locally before they complete
 *    remotely (RMA networks), initiation may leave op->put_sync set instead of
 *    holding a counter until remote completion; the first time a sync call
 *    finds such an op with its counters drained it calls sync(op), which starts
 *    whatever makes the puts remotely complete (a flush) -- holding counters
 *    for it -- and clears op->put_sync.  NULL for backends that never set it.
 *  - Progress: a backend's completions arrive through its network's poll
 *    (net.h) or through the Core's AM handlers (ext-ref).  Counters may be
 *    decremented from inside either, never from another thread.
 *  - No initiation may wait for remote activity without polling
 *    (stp_wait_step), so two nodes putting to each other cannot deadlock.
 */
#ifndef STP_EXT_H
#define STP_EXT_H

#include <stddef.h>
#include <stdint.h>
#include "gasnet.h"

typedef struct stp_op stp_op_t;

/* An internal AM handler a module registers in the reserved range 1..127. */
typedef struct stp_handler_reg {
  gasnet_handler_t index;
  stp_handlerfn_t fn;
} stp_handler_reg_t;

typedef struct stp_ext_ops {
  const char *name;

  /* setup and teardown (NULL: nothing to do) ---------------------------- */
  int (*attach)(void);  /* after the Core attached; before the attach barrier */
  void (*detach)(void); /* at exit, before the Core's; must not wait for peers */

  /* internal AM handlers this backend uses (may be NULL/0) */
  const stp_handler_reg_t *handlers;
  int nhandlers;

  /* initiation -------------------------------------------------------- */
  void (*put)(stp_op_t *op, gasnet_node_t node, void *dst, const void *src, size_t n, int bulk);
  void (*get)(stp_op_t *op, void *dst, gasnet_node_t node, const void *src, size_t n);
  /* NULL: the API layer's memset, one AM through the Core */
  void (*memset)(stp_op_t *op, gasnet_node_t node, void *dst, int val, size_t n);

  /* completion -------------------------------------------------------- */
  void (*sync)(stp_op_t *op);
} stp_ext_ops_t;

#endif /* STP_EXT_H */
