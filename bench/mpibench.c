/*
 * mpibench.c -- the plain-MPI baselines of seed 000 section 6, with the
 * same options and CSV columns as stpbench:
 *
 *   pingack  an n-byte message and a 0-byte reply (MPI_Send/MPI_Recv): the
 *            least MPI traffic that can emulate a GASNet blocking Put, the
 *            lower bound for an mpi-conduit Put or AM round trip.
 *            CSV stage "mpi-pingack", test "pingack".
 *   flood    osu_bw style: windows of MPI_Isend (receiver: MPI_Irecv)
 *            completed with MPI_Waitall, one 0-byte ack at the end.
 *            CSV stage "mpi-flood", test "flood".
 *
 *   mpirun -np 2 bench/mpibench -t pingack,flood --csv out.csv
 *
 * Ranks 0 and 1 measure; any other rank idles in the barriers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <getopt.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchutil.h"

#define KiB ((size_t)1 << 10)
#define MiB ((size_t)1 << 20)
#define TAG_DATA 1
#define TAG_ACK 2

static int rank;
static char *sbuf, *rbuf;
static long window = 64;
static MPI_Request *reqs;

/* ------------------------------------------------------------------ */
/* the measured exchanges (ranks 0 and 1; iters operations)            */
/* ------------------------------------------------------------------ */
static void run_pingack(size_t n, long iters) {
  for (long i = 0; i < iters; i++) {
    if (rank == 0) {
      MPI_Send(sbuf, (int)n, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD);
      MPI_Recv(rbuf, 0, MPI_BYTE, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(rbuf, (int)n, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(sbuf, 0, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD);
    }
  }
}

/* iters is a multiple of the window (see flood_iters) */
static void run_flood(size_t n, long iters) {
  for (long done = 0; done < iters; done += window) {
    for (long j = 0; j < window; j++) {
      if (rank == 0) MPI_Isend(sbuf, (int)n, MPI_BYTE, 1, TAG_DATA, MPI_COMM_WORLD, &reqs[j]);
      else MPI_Irecv(rbuf, (int)n, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD, &reqs[j]);
    }
    MPI_Waitall((int)window, reqs, MPI_STATUSES_IGNORE);
  }
  if (rank == 0) MPI_Recv(rbuf, 0, MPI_BYTE, 1, TAG_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  else MPI_Send(sbuf, 0, MPI_BYTE, 0, TAG_ACK, MPI_COMM_WORLD);
}

static long round_to_window(long iters) { return (iters + window - 1) / window * window; }

typedef struct test {
  const char *name;  /* -t name and CSV test */
  const char *stage; /* CSV stage */
  size_t lo, hi;
  void (*run)(size_t n, long iters);
  long (*iters_fixup)(long iters); /* NULL = as computed */
} test_t;

static const test_t tests[] = {
  {"pingack", "mpi-pingack", 0, 64 * KiB, run_pingack, NULL},
  {"flood", "mpi-flood", 1 * KiB, 4 * MiB, run_flood, round_to_window},
};
#define NTESTS (sizeof(tests) / sizeof(tests[0]))
#define DEFAULT_TESTS "pingack,flood"

/* ------------------------------------------------------------------ */
/* the one timing loop (every rank calls it)                           */
/* ------------------------------------------------------------------ */
static double measure(const test_t *t, size_t n, long iters, long warm) {
  double t0, t1;
  int active = rank < 2;
  MPI_Barrier(MPI_COMM_WORLD);
  if (active && warm > 0) t->run(n, t->iters_fixup ? t->iters_fixup(warm) : warm);
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = bu_now_usec();
  if (active) t->run(n, iters);
  t1 = bu_now_usec();
  MPI_Barrier(MPI_COMM_WORLD);
  return (t1 - t0) / (double)iters;
}

static const char usage[] =
  "usage: mpirun -np 2 mpibench [options]\n"
  "Plain-MPI baselines after seed 000 section 6, same CSV as stpbench.\n"
  "\n"
  "tests (-t, comma-separated; default " DEFAULT_TESTS "):\n"
  "  pingack    n-byte MPI_Send + 0-byte reply, 0 .. 64 KiB (stage mpi-pingack)\n"
  "  flood      osu_bw style windows of MPI_Isend/MPI_Irecv + MPI_Waitall,\n"
  "             one 0-byte ack at the end, 1 KiB .. 4 MiB (stage mpi-flood)\n"
  "\n"
  "options:\n"
  "  -t, --tests LIST     tests to run\n"
  "  -i, --iters N        iterations per size (default 10000; flood: rounded up\n"
  "                       to whole windows)\n"
  "  -w, --warmup N       untimed warm-up iterations per size (default iters/10,\n"
  "                       at least 1, at most 100)\n"
  "  -m, --min SIZE       smallest size (K/M/G suffixes, K = 2^10)\n"
  "  -M, --max SIZE       largest size (replaces every selected test's default)\n"
  "      --step F         size multiplier (default 2: powers of two)\n"
  "      --max-bytes B    per-size byte budget (default 1G): sizes where\n"
  "                       size * iters > B run max(B / size, 100) iterations, 0 = off\n"
  "      --window W       flood: messages in flight per window (default 64)\n"
  "      --csv FILE       append rows: stage,test,size,iters,usec_per_op,MB_per_s,\n"
  "                       mpi_msgs_per_op,counters_per_op (stpbench's columns; the last two empty here)\n"
  "      --label PREFIX   stage names become PREFIX-pingack, PREFIX-flood\n"
  "                       (default mpi)\n"
  "  -h, --help           this text\n";

enum { OPT_WINDOW = 2000 };
static const struct option extra_opts[] = {
  {"window", required_argument, NULL, OPT_WINDOW},
  {NULL, 0, NULL, 0},
};

static int extra_cb(int val, const char *arg, void *ctx) {
  size_t w;
  (void)ctx;
  if (val != OPT_WINDOW || bu_parse_size(arg, &w) != 0 || w < 1 || w > 65536) return -1;
  window = (long)w;
  return 0;
}

int main(int argc, char **argv) {
  bu_opts_t o;
  int prc = bu_parse_args(argc, argv, &o, extra_opts, extra_cb, NULL, usage);
  if (prc != 0) return prc > 0 ? 0 : 1;

  size_t need = 1;
  int nsel = 0;
  for (size_t i = 0; i < NTESTS; i++) {
    if (!bu_list_has(o.tests ? o.tests : DEFAULT_TESTS, tests[i].name)) continue;
    size_t lo, hi;
    nsel++;
    bu_range(&o, tests[i].lo, tests[i].hi, &lo, &hi);
    if (hi > need) need = hi;
  }
  if (nsel == 0) {
    fprintf(stderr, "mpibench: no known test in '%s' (tests: %s)\n", o.tests, DEFAULT_TESTS);
    return 1;
  }
  if (need > (size_t)0x7fffffff) {
    fprintf(stderr, "mpibench: sizes above 2 GiB - 1 are not supported\n");
    return 1;
  }

  MPI_Init(&argc, &argv);
  int nranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (nranks < 2) {
    if (rank == 0) fprintf(stderr, "mpibench: needs at least 2 ranks (got %d)\n", nranks);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  sbuf = malloc(need);
  rbuf = malloc(need);
  reqs = malloc((size_t)window * sizeof(*reqs));
  if (!sbuf || !rbuf || !reqs) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(sbuf, 1, need);
  memset(rbuf, 0, need);

  bu_report_t rep = {NULL, NULL, 0};
  if (rank == 0) {
    printf("# mpibench: %d ranks, iters %ld, max-bytes %zu, flood window %ld\n", nranks, o.iters,
           o.max_bytes, window);
    if (bu_report_open(&rep, o.csv, NULL, 0) != 0) MPI_Abort(MPI_COMM_WORLD, 1);
    bu_report_header(&rep);
  }

  for (size_t i = 0; i < NTESTS; i++) {
    const test_t *t = &tests[i];
    size_t sizes[64];
    if (!bu_list_has(o.tests ? o.tests : DEFAULT_TESTS, t->name)) continue;
    size_t lo, hi;
    bu_range(&o, t->lo, t->hi, &lo, &hi);
    char stage[64];
    if (o.label) snprintf(stage, sizeof stage, "%s-%s", o.label, t->name);
    else snprintf(stage, sizeof stage, "%s", t->stage);
    size_t ns = lo > hi ? 0 : bu_sizes(lo, hi, o.step, sizes, 64);
    for (size_t k = 0; k < ns; k++) {
      long iters = bu_iters_for(sizes[k], o.iters, o.max_bytes);
      if (t->iters_fixup) iters = t->iters_fixup(iters);
      double usec = measure(t, sizes[k], iters, bu_warmup_for(iters, o.warmup));
      if (rank == 0) {
        bu_row_t row = {.stage = stage, .test = t->name, .size = sizes[k], .bytes = sizes[k], .iters = iters,
                        .usec_per_op = usec, .msgs = -1.0};
        bu_report_row(&rep, &row);
      }
    }
  }

  if (rank == 0) bu_report_close(&rep);
  free(reqs);
  free(rbuf);
  free(sbuf);
  MPI_Finalize();
  return 0;
}
