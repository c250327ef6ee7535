/*
 * ucx_conduit.h -- the `ucx` stage's network: one UCX context and worker
 * (the ucx/ module), the segment UCX allocated, every peer's segment key,
 * and the exit notices.  Its owner is ucx_conduit.c; the backends of the
 * stage (the Extended API, ext-ucx/ucx_rma.c; the UCX Core,
 * core-ucx/ucx_am.c) read it here and never set it up themselves.
 *
 * UCX active-message ids on the worker: the network's own exit notices and
 * the UCX Core's requests and replies; one list, here.
 */
#ifndef STP_UCX_CONDUIT_H
#define STP_UCX_CONDUIT_H

#include "stp_internal.h"
#include "stp_ucx.h"

enum { STP_UC_AM_EXIT = 0, STP_UC_AM_REQUEST = 1, STP_UC_AM_REPLY = 2 };

typedef struct stp_uc {
  stp_ucx_t u;            /* context, worker, an endpoint per node */
  stp_ucx_region_t seg;   /* this node's segment (UCX-allocated), or empty */
  stp_ucx_remote_t *rseg; /* every node's segment and key */
  int closing;            /* after the exit protocol: peers are leaving, and
                           * operations still in flight may fail (not fatal) */
  int core_progresses;    /* the stage's Core progresses the worker on every
                           * poll: the network's poll need not */
  int *notice;            /* exit notices taken from peers, not yet handed on */
  int notices_in, notices_out;
} stp_uc_t;

extern stp_uc_t stp_uc;
extern const stp_net_ops_t stp_net_ucx_ops;

#endif /* STP_UCX_CONDUIT_H */
