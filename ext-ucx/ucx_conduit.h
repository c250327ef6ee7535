/*
 * ucx_conduit.h -- the `ucx` stage's network: one UCX context and worker
 * (the ucx/ module), the segment UCX allocated, and every peer's segment
 * key.  Its owner is ucx_conduit.c; the backends of the stage (today the
 * Extended API, ucx_rma.c) read it here and never set it up themselves.
 */
#ifndef STP_UCX_CONDUIT_H
#define STP_UCX_CONDUIT_H

#include "stp_internal.h"
#include "stp_ucx.h"

typedef struct stp_uc {
  stp_ucx_t u;            /* context, worker, an endpoint per node */
  stp_ucx_region_t seg;   /* this node's segment (UCX-allocated), or empty */
  stp_ucx_remote_t *rseg; /* every node's segment and key */
  int closing;            /* after the exit protocol: peers are leaving, and
                           * operations still in flight may fail (not fatal) */
} stp_uc_t;

extern stp_uc_t stp_uc;
extern const stp_net_ops_t stp_net_ucx_ops;

#endif /* STP_UCX_CONDUIT_H */
