/*
 * net.h -- the network seam: the state a stage's Core and RMA backend
 * share (a UCX context and its segment keys; a Portals NI, its EQs,
 * operation records and bounce buffers) has one owner, the stage's
 * network, opened and closed by the lifecycle (api/ex_init.c):
 *
 *   gex_Client_Init     bootstrap, net->open, core->attach, rma->attach,
 *                       a barrier
 *   gex_Segment_Attach  net->segment, segment table exchange (stp.seg),
 *                       core->segment, a barrier
 *   exit                (every node agreed) rma->detach, core->detach,
 *                       net->close, bootstrap close
 *
 * A network is one const stp_net_ops_t in a directory of its own, below
 * the backends that use it (net-ucx/ucx_conduit.c,
 * net-portals/portals_conduit.c); they reach its state through its header
 * (reading it, changing it only through its functions), never through each
 * other.  A stage without a network (NULL in its row) lets its Core's own
 * transport carry everything.
 *
 *  - open(): collective (every node calls it together, the bootstrap is
 *    up); opens the network with the bootstrap it is given.  GASNET_OK or
 *    an error code after printing why.
 *  - segment(): collective, at gex_Segment_Attach, also when size is 0:
 *    provide size bytes of segment memory the network reaches best and set
 *    *base (or leave it NULL: the API layer maps ordinary memory), and make
 *    it ready to be a target (keys exchanged, entries posted) before the
 *    attach barrier.  A node that fails still completes the collective
 *    steps and returns its error: the nodes then agree to fail.  NULL slot:
 *    ordinary memory.  Every node's segment address and size are then the
 *    API layer's table (stp.seg): a network keeps no copy of its own.
 *  - close(): at exit, after the Core and the Extended backend detached;
 *    every node is exiting, so it may be collective.  Releases the segment
 *    memory it provided.
 *  - poll(): the network's own progress (completion events), run on every
 *    library poll after the Core's; never blocks.  NULL if it has none.
 *  - exit_notify(code) / exit_take(&code): the exit protocol's notices
 *    between attached nodes over the network itself (seed 000's SYS), so
 *    that a running job makes no bootstrap (MPI) calls: notify sends code
 *    to every peer without waiting; take returns 1 and a peer's code when
 *    one has arrived.  NULL: the bootstrap's notice channel.
 *  - firehose_stats(): the registration cache's counters
 *    (stageport_firehose_stats); -1 when the stage has none.  NULL: none.
 */
#ifndef STP_NET_H
#define STP_NET_H

#include <stdint.h>

#include "stp_boot.h"

struct stageport_firehose_stats;

/* Out-of-segment local memory policy: how a transfer whose local buffer
 * lies outside the segment reaches the network (seed 000 sections 3.3, 5). */
enum {
  STP_OOS_AM_COPY = 0, /* the data travels inside AMs: copied on both sides */
  STP_OOS_UCX,         /* UCX copies or registers (its own registration cache) */
  STP_OOS_TMPMD,       /* bounce buffers when small, else a temporary MD per transfer */
  STP_OOS_FIREHOSE,    /* bounce buffers when small, else a region of the firehose cache */
  STP_OOS_COUNT
};
extern const char *const stp_oos_name[STP_OOS_COUNT];

typedef struct stp_net_args {
  const stp_boot_t *boot;
  int oos;     /* STP_OOS_*: the stage's policy (a network refuses one it lacks) */
  int threads; /* out: progress threads the network runs per process (the
                * API layer counts them when it decides how waits yield) */
} stp_net_args_t;

typedef struct stp_net_ops {
  const char *name;
  int (*open)(stp_net_args_t *args);
  int (*segment)(uintptr_t size, void **base);
  void (*close)(void);
  int (*poll)(void);
  void (*exit_notify)(int code);
  int (*exit_take)(int *code);
  int (*firehose_stats)(struct stageport_firehose_stats *s);
} stp_net_ops_t;

#endif /* STP_NET_H */
