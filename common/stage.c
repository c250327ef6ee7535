/*
 * stage.c -- the stage table: every stage this build has, in one list.
 *
 * A stage pairs a Core (Active Messages) with an Extended backend (Put/Get)
 * and names its out-of-segment policy.  Adding a backend is one directory and
 * one row here, under the #if configure sets for it.
 */
#include "stp_internal.h"

#include <stdlib.h>
#include <string.h>

#include "stageport.h"

const stp_stage_t stp_stages[] = {
    {"mpi", &stp_core_mpi_ops, &stp_ext_ref_ops, "copies through AMs",
     "MPI Core + reference Extended API over AMs (the mpi-conduit baseline)"},
#if HAVE_UCX
    {"ucx", &stp_core_mpi_ops, &stp_ext_ucx_ops, "UCX's own (copies or registers)",
     "MPI Core + Put/Get as UCX one-sided RMA into a UCX-allocated segment"},
    {"hybrid", &stp_core_mpi_ops, &stp_ext_portals_ops, "bounce buffers + TMPMD",
     "seed 000 stage 1: MPI Core + Put/Get over the ptl Portals emulation (STAGEPORT_PTL_MODE=offload|host)"},
#endif
};
const int stp_nstages = (int)(sizeof(stp_stages) / sizeof(stp_stages[0]));

const stp_stage_t *stp_stage_find(const char *name) {
  for (int i = 0; i < stp_nstages; i++)
    if (!strcmp(stp_stages[i].name, name)) return &stp_stages[i];
  return NULL;
}

const char *stageport_stage(void) { return stp.stage ? stp.stage->name : NULL; }

int stageport_stage_count(void) { return stp_nstages; }

const char *stageport_stage_name(int i) {
  return (i >= 0 && i < stp_nstages) ? stp_stages[i].name : NULL;
}

const char *stageport_config(void) { return STP_CONFIG_STRING; }
