/*
 * boot_mpi.c -- the MPI launcher (boot_mpi.h).
 */
#include "boot_mpi.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <unistd.h>

#define TAG_EXIT 77

static struct {
  int opens;          /* open calls not yet closed */
  int mpi_ours;       /* open called MPI_Init_thread */
  MPI_Comm comm;      /* collectives */
  MPI_Comm exit_comm; /* exit notices */
  MPI_Request exit_rreq;
  int exit_in;        /* the notice being received */
  int exit_posted;
  MPI_Request *exit_sreq; /* notices sent, per peer */
  int exit_sent, exit_out; /* notified; the code sent (the send buffer) */
  int *host, local;
  MPI_Errhandler errh;
  stp_boot_t boot;
} bm;

static void mpi_abort(void *ctx, int code);

/* The launcher's communicators have its error handler (whatever the client
 * set on MPI_COMM_WORLD); a call that returns an error anyway ends the job
 * naming it. */
static void check(const char *call, int rc) {
  char msg[MPI_MAX_ERROR_STRING] = "";
  int n = 0;
  if (rc == MPI_SUCCESS) return;
  MPI_Error_string(rc, msg, &n);
  fprintf(stderr, "stageport: rank %d: bootstrap (MPI): %s failed: %s (error %d)\n", bm.boot.rank, call, msg, rc);
  mpi_abort(NULL, 1);
}

static void fatal_mpi_error(MPI_Comm *comm, int *code, ...) {
  char msg[MPI_MAX_ERROR_STRING] = "";
  int n = 0;
  (void)comm;
  MPI_Error_string(*code, msg, &n);
  fprintf(stderr, "stageport: rank %d: an MPI call on one of stageport's communicators failed: %s (error %d); "
          "ending the job\n", bm.boot.rank, msg, *code);
  mpi_abort(NULL, 1);
}

MPI_Errhandler stp_boot_mpi_errhandler(void) { return bm.errh; }

static void mpi_allgather(void *ctx, const void *mine, void *all, size_t len) {
  (void)ctx;
  check("MPI_Allgather", MPI_Allgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, bm.comm));
}

static void mpi_barrier(void *ctx) {
  (void)ctx;
  check("MPI_Barrier", MPI_Barrier(bm.comm));
}

static void mpi_abort(void *ctx, int code) {
  int up = 0, down = 0;
  (void)ctx;
  fflush(stdout);
  fflush(stderr);
  MPI_Initialized(&up);
  if (up) MPI_Finalized(&down);
  if (up && !down) MPI_Abort(MPI_COMM_WORLD, code);
  _exit(code);
}

/* How many processes share this machine's cores and memory: those running
 * on the same kernel (its boot id).  On a cluster that is the host; on one
 * machine split into containers or network namespaces with host names of
 * their own (the emulated hosts of scripts/emuhosts.sh), more than MPI's
 * shared-memory domain: the waits must know the cores are shared.  An
 * unreadable boot id leaves MPI's count (the collective is entered all the
 * same). */
static int kernel_sharers(int mpi_local, int size) {
  char id[64] = "";
  unsigned long long mine = 0, *all;
  int n = 0;
  FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
  if (f) {
    if (!fgets(id, sizeof(id), f)) id[0] = 0;
    fclose(f);
  }
  if (id[0]) mine = 14695981039346656037ull; /* FNV-1a */
  for (const char *p = id; *p; p++) mine = (mine ^ (unsigned char)*p) * 1099511628211ull;
  all = malloc((size_t)size * sizeof(*all));
  if (!all) {
    fprintf(stderr, "stageport: out of memory\n");
    mpi_abort(NULL, 1);
  }
  check("MPI_Allgather", MPI_Allgather(&mine, 1, MPI_UNSIGNED_LONG_LONG, all, 1, MPI_UNSIGNED_LONG_LONG, bm.comm));
  for (int i = 0; i < size; i++) n += mine && all[i] == mine;
  free(all);
  return n > mpi_local ? n : mpi_local;
}

static const char *level_name(int level) {
  return level == MPI_THREAD_SINGLE ? "MPI_THREAD_SINGLE" : level == MPI_THREAD_FUNNELED ? "MPI_THREAD_FUNNELED"
       : level == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED" : "MPI_THREAD_MULTIPLE";
}

int stp_boot_mpi_open(int *argc, char ***argv, const char *who, int threads, stp_boot_t *boot) {
  int up = 0, down = 0, provided = MPI_THREAD_SINGLE, rank, size, host;
  int need = threads ? MPI_THREAD_SERIALIZED : MPI_THREAD_FUNNELED, base = need;
  const char *want = getenv("GASNET_MPI_THREAD"); /* (GASNet mpi-conduit's: a client that calls MPI itself) */
  MPI_Comm shm;
  if (want && *want) {
    int lv = !strcasecmp(want, "SINGLE") ? MPI_THREAD_SINGLE : !strcasecmp(want, "FUNNELED") ? MPI_THREAD_FUNNELED
           : !strcasecmp(want, "SERIALIZED") ? MPI_THREAD_SERIALIZED : !strcasecmp(want, "MULTIPLE") ? MPI_THREAD_MULTIPLE : -1;
    if (lv < 0) {
      fprintf(stderr, "%s: GASNET_MPI_THREAD=%s: not SINGLE, FUNNELED, SERIALIZED or MULTIPLE\n", who, want);
      return -1;
    }
    if (lv > need) need = lv;
  }
  if (bm.opens++) {
    *boot = bm.boot;
    return 0;
  }
  MPI_Initialized(&up);
  MPI_Finalized(&down);
  if (down) {
    fprintf(stderr, "%s: MPI was finalized already\n", who);
    bm.opens = 0;
    return -1;
  }
  if (!up) {
    if (MPI_Init_thread(argc, argv, need, &provided) != MPI_SUCCESS) {
      fprintf(stderr, "%s: MPI_Init_thread failed\n", who);
      bm.opens = 0;
      return -1;
    }
    bm.mpi_ours = 1;
  } else {
    MPI_Query_thread(&provided);
  }
  if (threads && provided < base) {
    fprintf(stderr,
            "%s: a threaded client (GASNET_PAR / GASNET_PARSYNC) needs MPI at %s; this MPI %s %s\n", who,
            level_name(base), bm.mpi_ours ? "gives only" : "was initialised by the client with", level_name(provided));
    bm.opens = 0;
    return -1;
  }
  check("MPI_Comm_create_errhandler", MPI_Comm_create_errhandler(fatal_mpi_error, &bm.errh));
  check("MPI_Comm_dup", MPI_Comm_dup(MPI_COMM_WORLD, &bm.comm));
  check("MPI_Comm_dup", MPI_Comm_dup(MPI_COMM_WORLD, &bm.exit_comm));
  check("MPI_Comm_set_errhandler", MPI_Comm_set_errhandler(bm.comm, bm.errh));
  check("MPI_Comm_set_errhandler", MPI_Comm_set_errhandler(bm.exit_comm, bm.errh));
  MPI_Comm_rank(bm.comm, &rank);
  MPI_Comm_size(bm.comm, &size);
  bm.boot.rank = rank; /* (for messages; the rest is filled below) */

  /* locality: the processes sharing this host, named by their lowest rank */
  check("MPI_Comm_split_type", MPI_Comm_split_type(bm.comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shm));
  MPI_Comm_size(shm, &bm.local);
  check("MPI_Allreduce", MPI_Allreduce(&rank, &host, 1, MPI_INT, MPI_MIN, shm));
  MPI_Comm_free(&shm);
  bm.host = malloc((size_t)size * sizeof(int));
  bm.exit_sreq = malloc((size_t)size * sizeof(MPI_Request));
  if (!bm.host || !bm.exit_sreq) {
    fprintf(stderr, "%s: out of memory\n", who);
    mpi_abort(NULL, 1);
  }
  check("MPI_Allgather", MPI_Allgather(&host, 1, MPI_INT, bm.host, 1, MPI_INT, bm.comm));
  for (int i = 0; i < size; i++) bm.exit_sreq[i] = MPI_REQUEST_NULL;
  bm.local = kernel_sharers(bm.local, size);

  /* the receive for the first notice, before anyone can send one */
  check("MPI_Irecv", MPI_Irecv(&bm.exit_in, 1, MPI_INT, MPI_ANY_SOURCE, TAG_EXIT, bm.exit_comm, &bm.exit_rreq));
  bm.exit_posted = 1;

  bm.boot = (stp_boot_t){rank,     size,  mpi_allgather,           mpi_barrier,           mpi_abort,
                         NULL,     threads, bm.host, bm.local, stp_boot_mpi_exit_notify, stp_boot_mpi_exit_take,
                         stp_boot_mpi_usable, stp_boot_mpi_close};
  *boot = bm.boot;
  return 0;
}

const int *stp_boot_mpi_hosts(int *local) {
  *local = bm.local;
  return bm.host;
}

void stp_boot_mpi_exit_notify(int code) {
  if (bm.exit_sent++) return;
  bm.exit_out = code;
  for (int p = 0; p < bm.boot.size; p++)
    if (p != bm.boot.rank)
      check("MPI_Isend (exit notice)", MPI_Isend(&bm.exit_out, 1, MPI_INT, p, TAG_EXIT, bm.exit_comm, &bm.exit_sreq[p]));
}

int stp_boot_mpi_exit_take(int *code) {
  int flag = 0;
  if (!bm.exit_posted) return 0;
  check("MPI_Test (exit notices)", MPI_Test(&bm.exit_rreq, &flag, MPI_STATUS_IGNORE));
  if (!flag) return 0;
  *code = bm.exit_in;
  check("MPI_Irecv", MPI_Irecv(&bm.exit_in, 1, MPI_INT, MPI_ANY_SOURCE, TAG_EXIT, bm.exit_comm, &bm.exit_rreq));
  return 1;
}

int stp_boot_mpi_usable(void) {
  int down = 0;
  if (!bm.opens) return 0;
  MPI_Finalized(&down);
  return !down;
}

void stp_boot_mpi_close(int finalize) {
  int down = 0;
  if (!bm.opens || --bm.opens) return;
  MPI_Finalized(&down);
  if (down) return;
  MPI_Waitall(bm.boot.size, bm.exit_sreq, MPI_STATUSES_IGNORE);
  if (bm.exit_posted) {
    MPI_Cancel(&bm.exit_rreq);
    MPI_Wait(&bm.exit_rreq, MPI_STATUS_IGNORE);
    bm.exit_posted = 0;
  }
  MPI_Comm_free(&bm.exit_comm);
  MPI_Comm_free(&bm.comm);
  MPI_Errhandler_free(&bm.errh);
  free(bm.host);
  free(bm.exit_sreq);
  bm.host = NULL;
  bm.exit_sreq = NULL;
  if (finalize || bm.mpi_ours) MPI_Finalize();
  bm.mpi_ours = 0;
}
