/*
 * pmpi_selftest.c -- the MPI traffic counter (pmpi_count.c, linked in)
 * counts what it says it counts: a phase of known MPI calls on every rank
 * (nonblocking and persistent point-to-point, collectives, one-sided),
 * checked through the query function and, after MPI_Finalize, in the
 * report file.  Plain MPI, no stageport.
 *
 * Usage: STP_PMPI_OUT=prefix mpirun -np N pmpi_selftest   (N >= 2: Open MPI
 * 4.1 here has no one-sided component for a job of one process)
 * Prints "ok pmpi_selftest" from rank 0, or "FAIL pmpi_selftest: ..." lines;
 * exits non-zero on a failure.
 */
#define _GNU_SOURCE 1
#include "pmpi_count.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* what the "counted" phase below makes, per rank */
#define WANT_CALLS 24
#define WANT_COMM 22
#define WANT_MSGS 13
#define WANT_BYTES 252
#define WANT_RECVS 4
#define WANT_LINE "phase=counted calls=24 comm_calls=22 msgs=13 bytes=252 recvs=4 names="

static int me, fails;

static void check(const char *what, long long got, long long want) {
  if (got == want) return;
  printf("FAIL pmpi_selftest: rank %d: %s: %lld, expected %lld\n", me, what, got, want);
  fails++;
}

int main(int argc, char **argv) {
  static const char *what[] = {"calls", "communication calls", "messages", "bytes", "receives"};
  static const long long want[] = {WANT_CALLS, WANT_COMM, WANT_MSGS, WANT_BYTES, WANT_RECVS};
  long long before[STP_PMPI_RECVS + 1];
  char out[100] = {0}, in[100];
  double d[2] = {1, 2}, win_mem[4] = {0}, x = 1, sum;
  int n, peer, pv[10] = {0}, pin[10];
  MPI_Request r[2];
  MPI_Win win;

  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  peer = (me + 1) % n;
  if (stp_pmpi_read(STP_PMPI_CALLS) < 0) {
    printf("FAIL pmpi_selftest: rank %d: stp_pmpi_total not found by dlsym (not exported?)\n", me);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  stp_pmpi_mark("counted");
  for (int i = 0; i <= STP_PMPI_RECVS; i++) before[i] = stp_pmpi_read(i);

  /* nonblocking: 1 message of 100 bytes, 1 receive; 3 communication calls */
  MPI_Isend(out, 100, MPI_CHAR, peer, 1, MPI_COMM_WORLD, &r[0]);
  MPI_Irecv(in, 100, MPI_CHAR, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &r[1]);
  MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  /* persistent, started 3 times: 3 messages of 40 bytes, 3 receives; 10 calls */
  MPI_Send_init(pv, 10, MPI_INT, peer, 2, MPI_COMM_WORLD, &r[0]);
  MPI_Recv_init(pin, 10, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &r[1]);
  for (int k = 0; k < 3; k++) {
    MPI_Startall(2, r);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&r[0]);
  MPI_Request_free(&r[1]);
  /* collectives: one message each, 8 + 8 + 0 bytes */
  MPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  /* one-sided: create, fence, put (16 bytes), get (none), fence, free */
  MPI_Win_create(win_mem, sizeof(win_mem), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Put(d, 2, MPI_DOUBLE, peer, 0, 2, MPI_DOUBLE, win);
  MPI_Get(d, 2, MPI_DOUBLE, peer, 2, 2, MPI_DOUBLE, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  /* local calls: 2 */
  MPI_Comm_rank(MPI_COMM_WORLD, &peer);
  (void)MPI_Wtime();

  for (int i = 0; i <= STP_PMPI_RECVS; i++) check(what[i], stp_pmpi_read(i) - before[i], want[i]);
  stp_pmpi_mark("finalize");
  MPI_Finalize();

  /* the report: this rank's "counted" line */
  const char *prefix = getenv("STP_PMPI_OUT");
  if (!prefix || !*prefix) {
    printf("FAIL pmpi_selftest: rank %d: STP_PMPI_OUT is not set: no report to check\n", me);
    fails++;
  } else {
    char path[4096], line[4096];
    int found = 0;
    snprintf(path, sizeof(path), "%s.%d", prefix, me);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof(line), f))
      if (!strncmp(line, "phase=counted ", 14)) {
        found = 1;
        if (strncmp(line, WANT_LINE, strlen(WANT_LINE)) || !strstr(line, "MPI_Startall:3") ||
            strstr(line, "MPI_Comm_rank")) {
          printf("FAIL pmpi_selftest: rank %d: %s has \"%.*s\", expected \"%s...\" with MPI_Startall:3, without "
                 "local calls\n", me, path, (int)strcspn(line, "\n"), line, WANT_LINE);
          fails++;
        }
      }
    if (f) fclose(f);
    if (!found) {
      printf("FAIL pmpi_selftest: rank %d: no \"phase=counted\" line in %s\n", me, path);
      fails++;
    }
  }
  if (!fails && me == 0) printf("ok pmpi_selftest (%d ranks)\n", n);
  return fails ? 1 : 0;
}
