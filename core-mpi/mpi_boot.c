/*
 * mpi_boot.c -- the bootstrap of every stage: MPI launch, the collectives
 * used at init and attach, and the exit protocol.
 *
 * Exit protocol: the node that exits first sends an EXIT(code) notice to
 * every peer on a communicator of its own; a node that sees a notice while
 * polling starts the same protocol with that code.  Every exiting node sends
 * to every peer, so each node expects exactly N-1 notices.  When all have
 * arrived the node tears down its Core and backend, finalizes MPI and exits
 * with the code; the job ends cleanly with that code.  A peer that does not
 * answer in time (it is computing without calling GASNet, or is hung) gets
 * the job aborted with the same code through MPI_Abort.
 */
#include "stp_internal.h"

#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define STP_TAG_EXIT 77

static struct {
  MPI_Comm comm;      /* init/attach collectives */
  MPI_Comm exit_comm; /* exit notices */
  MPI_Request exit_req;
  int exit_in;        /* code carried by the notice being received */
  int notices;        /* notices received from peers */
} boot;

static double now_sec(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void post_exit_recv(void) {
  MPI_Irecv(&boot.exit_in, 1, MPI_INT, MPI_ANY_SOURCE, STP_TAG_EXIT, boot.exit_comm, &boot.exit_req);
}

int stp_boot_init(int *argc, char ***argv) {
  int inited = 0, rank, size, provided, local_rank, host;
  MPI_Comm shm;
  int *hosts;

  MPI_Initialized(&inited);
  if (!inited && MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    fprintf(stderr, "stageport: gasnet_init: MPI_Init_thread failed\n");
    return GASNET_ERR_RESOURCE;
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &boot.comm);
  MPI_Comm_dup(MPI_COMM_WORLD, &boot.exit_comm);
  MPI_Comm_rank(boot.comm, &rank);
  MPI_Comm_size(boot.comm, &size);
  if (size > GASNET_MAXNODES) {
    fprintf(stderr, "stageport: gasnet_init: %d processes, more than GASNET_MAXNODES (%d)\n", size, GASNET_MAXNODES);
    return GASNET_ERR_RESOURCE;
  }
  stp.mynode = (gasnet_node_t)rank;
  stp.nodes = (gasnet_node_t)size;

  /* locality: processes sharing this host, named by their lowest rank */
  MPI_Comm_split_type(boot.comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shm);
  MPI_Comm_size(shm, &stp.local_procs);
  MPI_Comm_rank(shm, &local_rank);
  MPI_Allreduce(&rank, &host, 1, MPI_INT, MPI_MIN, shm);
  MPI_Comm_free(&shm);
  hosts = malloc((size_t)size * sizeof(int));
  stp.nodeinfo = calloc((size_t)size, sizeof(*stp.nodeinfo));
  if (!hosts || !stp.nodeinfo) stp_fatal("gasnet_init: out of memory");
  MPI_Allgather(&host, 1, MPI_INT, hosts, 1, MPI_INT, boot.comm);
  for (int i = 0; i < size; i++) {
    stp.nodeinfo[i].host = (gasnet_node_t)hosts[i];
    stp.nodeinfo[i].supernode = (gasnet_node_t)i;
    stp.nodeinfo[i].offset = 0;
  }
  free(hosts);
  post_exit_recv();
  return GASNET_OK;
}

void stp_boot_barrier(void) { MPI_Barrier(boot.comm); }

void stp_boot_allgather(const void *mine, void *all, size_t len) {
  MPI_Allgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, boot.comm);
}

void stp_boot_alltoall(const void *send, void *recv, size_t len) {
  MPI_Alltoall(send, (int)len, MPI_BYTE, recv, (int)len, MPI_BYTE, boot.comm);
}

uint64_t stp_boot_min_u64(uint64_t v) {
  uint64_t r;
  MPI_Allreduce(&v, &r, 1, MPI_UINT64_T, MPI_MIN, boot.comm);
  return r;
}

/* Take one arrived notice, if any; returns 1 if one was taken. */
static int take_notice(void) {
  int flag = 0;
  MPI_Test(&boot.exit_req, &flag, MPI_STATUS_IGNORE);
  if (!flag) return 0;
  if (!boot.notices++) stp.exit_code = boot.exit_in; /* the first code wins */
  post_exit_recv();
  return 1;
}

void stp_boot_poll(void) {
  if (stp.exiting) return;
  if (take_notice()) stp.exit_pending = 1;
}

void stp_boot_abort(int code) {
  int inited = 0, fin = 0;
  fflush(stdout);
  fflush(stderr);
  MPI_Initialized(&inited);
  if (inited) MPI_Finalized(&fin);
  if (inited && !fin) MPI_Abort(MPI_COMM_WORLD, code);
  _exit(code);
}

void stp_boot_exit(int code, int from_atexit) {
  static int my_code;
  MPI_Request *sreq;
  double deadline;
  int fin = 0, peers = (int)stp.nodes - 1;

  if (stp.exiting) {
    if (from_atexit) return;
    /* exit() called again while exiting (e.g. from a handler during teardown) */
    _exit(code);
  }
  stp.exiting = 1;
  MPI_Finalized(&fin);
  if (fin) {
    if (!from_atexit) exit(code);
    return;
  }
  if (stp.exit_pending) code = stp.exit_code; /* answering a peer: adopt its code */
  my_code = code;
  fflush(stdout);
  fflush(stderr);

  sreq = malloc((size_t)stp.nodes * sizeof(*sreq));
  if (!sreq) stp_boot_abort(code);
  for (gasnet_node_t p = 0; p < stp.nodes; p++)
    sreq[p] = MPI_REQUEST_NULL;
  for (gasnet_node_t p = 0; p < stp.nodes; p++)
    if (p != stp.mynode) MPI_Isend(&my_code, 1, MPI_INT, (int)p, STP_TAG_EXIT, boot.exit_comm, &sreq[p]);

  deadline = now_sec() + (double)stp_env_u64("STAGEPORT_EXIT_TIMEOUT", 2);
  while (boot.notices < peers && now_sec() < deadline)
    if (!take_notice()) sched_yield();

  if (boot.notices < peers) {
    fprintf(stderr,
            "stageport: node %u: gasnet_exit(%d): %d of %d peers did not take part in the exit within %" PRIu64
            " s (computing without calling GASNet, or hung); aborting the job with code %d\n",
            (unsigned)stp.mynode, code, peers - boot.notices, peers, stp_env_u64("STAGEPORT_EXIT_TIMEOUT", 2), code);
    stp_boot_abort(code);
  }

  if (stp.attached) {
    if (stp.ext->detach) stp.ext->detach();
    stp.core->detach();
  }
  MPI_Waitall((int)stp.nodes, sreq, MPI_STATUSES_IGNORE);
  free(sreq);
  MPI_Cancel(&boot.exit_req);
  MPI_Wait(&boot.exit_req, MPI_STATUS_IGNORE);
  MPI_Comm_free(&boot.exit_comm);
  MPI_Comm_free(&boot.comm);
  MPI_Finalize();
  if (!from_atexit) exit(code);
}
