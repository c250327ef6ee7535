/*
 * stage.c -- the stage table: every stage this build has, in one list.
 *
 * A stage names its network (the state its Core and RMA backend share), its
 * Core (Active Messages), its RMA backend (Put/Get; NULL: the reference
 * implementation, RMA over the Core's AMs, ext-ref) and its out-of-segment
 * policy.  Adding a stage is one row here, under the #if
 * configure sets for what it needs (see DESIGN-NOTES.md, "Adding a stage").
 */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stageport.h"

/* every backend's one table */
extern const stp_core_ops_t stp_core_mpi_ops;
#if HAVE_UCX
extern const stp_net_ops_t stp_net_ucx_ops, stp_net_portals_ops;
extern const stp_rma_ops_t stp_rma_ucx_ops, stp_rma_portals_ops;
extern const stp_core_ops_t stp_core_ucx_ops, stp_core_portals_ops;
#endif

const stp_stage_t stp_stages[] = {
    {"mpi", NULL, &stp_core_mpi_ops, NULL, STP_OOS_AM_COPY,
     "MPI Core + reference RMA over AMs (the mpi-conduit baseline)"},
#if HAVE_UCX
    {"ucx", &stp_net_ucx_ops, &stp_core_ucx_ops, &stp_rma_ucx_ops, STP_OOS_UCX,
     "native UCX conduit: Active Messages as UCX active messages + Put/Get as UCX one-sided RMA into a "
     "UCX-allocated segment"},
    {"ucx-mpi", &stp_net_ucx_ops, &stp_core_mpi_ops, &stp_rma_ucx_ops, STP_OOS_UCX,
     "MPI Core + Put/Get as UCX one-sided RMA (the ucx stage before its own Core, for comparison)"},
    {"hybrid", &stp_net_portals_ops, &stp_core_mpi_ops, &stp_rma_portals_ops, STP_OOS_TMPMD,
     "seed 000 stage 1: MPI Core + Put/Get over the ptl Portals emulation (STAGEPORT_PTL_MODE=offload|host)"},
    {"portals", &stp_net_portals_ops, &stp_core_portals_ops, &stp_rma_portals_ops, STP_OOS_TMPMD,
     "seed 000 stage 2: native Active Messages over ptl (ReqRB, credits; STAGEPORT_AM_LONG=tsr|pss) + Put/Get over "
     "ptl (STAGEPORT_PTL_MODE=offload|host)"},
    {"firehose", &stp_net_portals_ops, &stp_core_portals_ops, &stp_rma_portals_ops, STP_OOS_FIREHOSE,
     "seed 000 stage 3: the portals stage with out-of-segment memory registered through the firehose cache "
     "(STAGEPORT_FH_*) instead of a temporary MD per transfer"},
#endif
};
const int stp_nstages = (int)(sizeof(stp_stages) / sizeof(stp_stages[0]));

const char *const stp_oos_name[STP_OOS_COUNT] = {
    [STP_OOS_AM_COPY] = "copies through AMs",
    [STP_OOS_UCX] = "UCX's own (copies or registration cache)",
    [STP_OOS_TMPMD] = "bounce buffers + TMPMD",
    [STP_OOS_FIREHOSE] = "bounce buffers + firehose",
};

const stp_stage_t *stp_stage;

const stp_stage_t *stp_stage_find(const char *name) {
  for (int i = 0; i < stp_nstages; i++)
    if (!strcmp(stp_stages[i].name, name)) return &stp_stages[i];
  return NULL;
}

static void describe(const stp_stage_t *st, char *buf, size_t len) {
  snprintf(buf, len, "%s: %s (network %s, Core %s, RMA %s, out-of-segment: %s)", st->name, st->about,
           st->net ? st->net->name : "none", st->core->name, st->rma ? st->rma->name : stp_rma_ref_ops.name,
           stp_oos_name[st->oos]);
}

void stp_stage_list(char *buf, size_t len) {
  size_t at = 0;
  buf[0] = '\0';
  for (int i = 0; i < stp_nstages && at + 1 < len; i++) {
    describe(&stp_stages[i], buf + at, len - at);
    at += strlen(buf + at);
    if (at + 1 < len) buf[at++] = '\n', buf[at] = '\0';
  }
}

const char *stageport_stage(void) { return stp_stage ? stp_stage->name : NULL; }

int stageport_stage_count(void) { return stp_nstages; }

const char *stageport_stage_name(int i) {
  return (i >= 0 && i < stp_nstages) ? stp_stages[i].name : NULL;
}

const char *stageport_stage_about(int i) {
  static char line[512];
  if (i < 0 || i >= stp_nstages) return NULL;
  describe(&stp_stages[i], line, sizeof(line));
  return line;
}

const char *stageport_config(void) { return STP_CONFIG_STRING; }

size_t stageport_am_recv_bytes(void) {
  return stp.attached && stp.core->recv_bytes ? stp.core->recv_bytes() : 0;
}

int stageport_am_credits(stageport_am_credits_t *s) {
  if (!s || !stp.attached || !stp.core->credits) return -1;
  return stp.core->credits(s);
}

int stageport_firehose_stats(stageport_firehose_stats_t *s) {
  if (!s || !stp.attached || !stp.net || !stp.net->firehose_stats) return -1;
  return stp.net->firehose_stats(s);
}
