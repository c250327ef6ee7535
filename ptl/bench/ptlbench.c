/*
 * ptlbench.c -- ptl microbenchmarks (seed 004's set), one mode per run.
 *
 *   mpirun -np 2 ptlbench host|offload [-n ITERS] [test ...]
 *
 * Tests (rank 0 initiates, rank 1 is the target):
 *   putlat   Put with ACK, 8 B .. 4 KiB: time from PtlPut to the ACK event
 *   putbw    streaming Puts with ACK, 1 KiB .. 4 MiB, 64 in flight
 *   getlat   Get, 8 B .. 4 KiB: time from PtlGet to REPLY_END
 *   melist   8 B Put+ACK latency when the match walk passes L entries
 *            before the one that matches (L = 1, 10, 50, 100, 1000).  The
 *            entries in front carry the same match bits but accept another
 *            source only (posted receives from other ranks, seed 004):
 *            each must be examined.  The last one is never published
 *            (finite threshold), so offload mode matches on its progress
 *            thread.
 *   melist_disjoint  the same with entries in front that differ in their
 *            match bits: in offload mode the last one is published and
 *            the walk disappears.
 *   evpp     ping-pong of Puts to an entry with END events (GASNet's
 *            request buffers, replies, RARAM are such entries), 8 B ..
 *            4 KiB: rank 0 Puts, rank 1 Puts back on its PUT_END, rank 0
 *            waits for that PUT_END; time per round trip.  In offload mode
 *            between processes on one host these are event entries
 *            written one-sidedly (ptl.h section 5).
 *   mdbind   PtlMDBind + PtlMDUnlink over memory not yet registered,
 *            4 KiB .. 64 MiB (pin + register + deregister + unpin); and
 *            over PtlXMemAlloc memory ("xmem", already registered)
 *
 * The target segment and the initiator's buffers come from PtlXMemAlloc
 * (registered, UCX-allocated: the fast path a GASNet segment gets).  Output,
 * one line per measurement (rank 0):
 *   RESULT <mode> <test> <param> <value> <unit>
 * Values are means per operation over ITERS (default 10000) operations
 * after a warm-up.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "tests/ptl_test.h"

#define PT_SEG 1
#define PT_CTL 2
#define PT_LIST 3
#define PT_PP 4
#define SEG_BYTES (8u << 20)
#define WINDOW 64

static int rank, iters = 10000;
static const char *mode;
static ptl_handle_ni_t ni;
static ptl_handle_eq_t ieq, ceq, peq; /* initiator events; control (done) events; evpp's arrivals */
static void *seg, *src;
static ptl_handle_md_t smd;
static const ptl_process_id_t ANY = {PTL_NID_ANY, PTL_PID_ANY};
static const ptl_process_id_t TARGET = {1, 0};

static void die(const char *what, int rc) {
  fprintf(stderr, "ptlbench rank %d: %s: %s\n", rank, what, PtlErrorStr(rc));
  MPI_Abort(MPI_COMM_WORLD, 1);
}
#define TRY(call)                                                                                                      \
  do {                                                                                                                 \
    int rc_ = (call);                                                                                                  \
    if (rc_ != PTL_OK) die(#call, rc_);                                                                                \
  } while (0)

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static ptl_event_t wait_ev(ptl_handle_eq_t eq, ptl_event_kind_t type) {
  ptl_event_t ev;
  int rc;
  do {
    if ((rc = PtlEQWait(eq, &ev)) != PTL_OK) die("PtlEQWait", rc);
  } while (ev.type != type);
  return ev;
}

static void result(const char *test, const char *param, double v, const char *unit) {
  if (rank == 0) printf("RESULT %s %s %s %.4f %s\n", mode, test, param, v, unit);
}

/* The target waits (making progress, in host mode) until the initiator says
 * it is done; then everyone meets. */
static void done_sync(void) {
  if (rank == 0) {
    TRY(PtlPutRegion(smd, 0, 0, PTL_NO_ACK_REQ, TARGET, PT_CTL, 0, 0, 0, 0));
  } else if (rank == 1) {
    wait_ev(ceq, PTL_EVENT_PUT_END);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* One Put+ACK (or Get) round of n bytes to (pt, bits); the events wanted. */
static void put_ack(ptl_size_t n, ptl_pt_index_t pt, ptl_match_bits_t bits) {
  TRY(PtlPutRegion(smd, 0, n, PTL_ACK_REQ, TARGET, pt, 0, bits, 0, 0));
  wait_ev(ieq, PTL_EVENT_ACK);
}

static void get_one(ptl_size_t n) {
  TRY(PtlGetRegion(smd, 0, n, TARGET, PT_SEG, 0, 0, 0));
  wait_ev(ieq, PTL_EVENT_REPLY_END);
}

static void b_putlat(void) {
  for (ptl_size_t n = 8; n <= 4096; n *= 2) {
    if (rank == 0) {
      for (int i = 0; i < iters / 10; i++) put_ack(n, PT_SEG, 0);
      double t0 = now();
      for (int i = 0; i < iters; i++) put_ack(n, PT_SEG, 0);
      char p[32];
      snprintf(p, sizeof(p), "%llu", (unsigned long long)n);
      result("putlat", p, (now() - t0) / iters * 1e6, "us");
    }
    done_sync();
  }
}

static void b_getlat(void) {
  for (ptl_size_t n = 8; n <= 4096; n *= 2) {
    if (rank == 0) {
      for (int i = 0; i < iters / 10; i++) get_one(n);
      double t0 = now();
      for (int i = 0; i < iters; i++) get_one(n);
      char p[32];
      snprintf(p, sizeof(p), "%llu", (unsigned long long)n);
      result("getlat", p, (now() - t0) / iters * 1e6, "us");
    }
    done_sync();
  }
}

static void b_evpp(void) {
  ptl_handle_md_t pmd; /* the source, without events (nobody takes SEND_ENDs here) */
  TRY(PtlMDBind(ni, test_md(src, SEG_BYTES, PTL_MD_THRESH_INF, 0, PTL_EQ_NONE, NULL), PTL_RETAIN, &pmd));
  for (ptl_size_t n = 8; n <= 4096; n *= 8) {
    if (rank < 2) {
      ptl_process_id_t peer = {(ptl_nid_t)(1 - rank), 0};
      double t0 = 0;
      for (int i = -iters / 10; i < iters; i++) {
        if (i == 0) t0 = now();
        if (rank == 0) TRY(PtlPutRegion(pmd, 0, n, PTL_NO_ACK_REQ, peer, PT_PP, 0, 0, 0, (ptl_hdr_data_t)i));
        if (wait_ev(peq, PTL_EVENT_PUT_END).hdr_data != (ptl_hdr_data_t)i) die("evpp: out of step", PTL_FAIL);
        if (rank == 1) TRY(PtlPutRegion(pmd, 0, n, PTL_NO_ACK_REQ, peer, PT_PP, 0, 0, 0, (ptl_hdr_data_t)i));
      }
      char p[32];
      snprintf(p, sizeof(p), "%llu", (unsigned long long)n);
      result("evpp", p, (now() - t0) / iters * 1e6, "us");
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  TRY(PtlMDUnlink(pmd));
}

static void b_putbw(void) {
  for (ptl_size_t n = 1024; n <= (4u << 20); n *= 4) {
    if (rank == 0) {
      long total = (long)((256ull << 20) / n); /* ~256 MiB per size */
      int rounds;
      if (total < 4 * WINDOW) total = 4 * WINDOW;
      rounds = (int)(total / WINDOW);
      for (int w = -1; w < rounds; w++) { /* round -1: warm-up */
        static double t0;
        if (w == 0) t0 = now();
        for (int k = 0; k < WINDOW; k++)
          TRY(PtlPutRegion(smd, 0, n, PTL_ACK_REQ, TARGET, PT_SEG, 0, 0, (ptl_size_t)k * n % (SEG_BYTES - n), 0));
        for (int k = 0; k < WINDOW; k++) wait_ev(ieq, PTL_EVENT_ACK);
        if (w == rounds - 1) {
          char p[32];
          snprintf(p, sizeof(p), "%llu", (unsigned long long)n);
          result("putbw", p, (double)n * rounds * WINDOW / (now() - t0) / 1e9, "GB/s");
        }
      }
    }
    done_sync();
  }
}

/* L entries in front of the target entry on PT_LIST; the Put goes to bits 7. */
static void b_melist(int disjoint) {
  static const int lens[] = {1, 10, 50, 100, 1000};
  const ptl_process_id_t other = {2000000, 0}; /* nobody: a posted receive for another source */
  for (unsigned li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
    int L = lens[li];
    ptl_handle_me_t *front = malloc((size_t)L * sizeof(*front)), me;
    ptl_handle_md_t md;
    if (rank == 1) {
      for (int i = 0; i < L - 1; i++)
        TRY(PtlMEAttach(ni, PT_LIST, disjoint ? ANY : other, disjoint ? 1000 + (ptl_match_bits_t)i : 7, 0, PTL_RETAIN,
                        PTL_INS_AFTER, &front[i]));
      /* melist: a huge finite threshold keeps the entry from being published
       * even with nothing in front (L = 1), so it is always matched */
      TRY(PtlPost(ni, PT_LIST, ANY, 7, 0, PTL_RETAIN, PTL_INS_AFTER,
                  test_md(seg, 4096, disjoint ? PTL_MD_THRESH_INF : 1 << 30, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE,
                          PTL_EQ_NONE, NULL),
                  PTL_RETAIN, &me, &md));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      int n = L >= 100 ? iters / 5 : iters;
      for (int i = 0; i < n / 10; i++) put_ack(8, PT_LIST, 7);
      double t0 = now();
      for (int i = 0; i < n; i++) put_ack(8, PT_LIST, 7);
      char p[32];
      snprintf(p, sizeof(p), "%d", L);
      result(disjoint ? "melist_disjoint" : "melist", p, (now() - t0) / n * 1e6, "us");
    }
    done_sync();
    if (rank == 1) {
      TRY(PtlMEUnlink(me));
      for (int i = L - 2; i >= 0; i--) TRY(PtlMEUnlink(front[i]));
    }
    free(front);
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

static void b_mdbind(void) {
  if (rank == 0) {
    for (size_t n = 4096; n <= (64u << 20); n *= 4) {
      void *buf = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      int reps = n <= (1u << 20) ? 200 : n <= (16u << 20) ? 20 : 6;
      ptl_handle_md_t h;
      memset(buf, 1, n); /* resident, but not pinned or registered */
      double sum = 0;
      for (int r = 0; r < reps; r++) {
        double t0 = now();
        TRY(PtlMDBind(ni, test_md(buf, n, PTL_MD_THRESH_INF, 0, PTL_EQ_NONE, NULL), PTL_RETAIN, &h));
        TRY(PtlMDUnlink(h));
        sum += now() - t0;
      }
      char p[32];
      snprintf(p, sizeof(p), "%zu", n);
      result("mdbind", p, sum / reps * 1e6, "us");
      munmap(buf, n);
    }
    double t0 = now();
    ptl_handle_md_t h;
    for (int r = 0; r < 1000; r++) {
      TRY(PtlMDBind(ni, test_md(seg, SEG_BYTES, PTL_MD_THRESH_INF, 0, PTL_EQ_NONE, NULL), PTL_RETAIN, &h));
      TRY(PtlMDUnlink(h));
    }
    result("mdbind", "xmem", (now() - t0) / 1000 * 1e6, "us");
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  int maxif, nprocs, argi = 2;
  ptl_handle_me_t me;
  ptl_handle_md_t md;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (argc < 2 || (strcmp(argv[1], "host") && strcmp(argv[1], "offload")) || nprocs < 2) {
    if (!rank) fprintf(stderr, "usage: mpirun -np 2 ptlbench host|offload [-n ITERS] [test ...]\n");
    MPI_Finalize();
    return 2;
  }
  mode = argv[1];
  if (argc > 3 && !strcmp(argv[2], "-n")) {
    iters = atoi(argv[3]);
    argi = 4;
  }
  TRY(PtlInit(&maxif));
  TRY(PtlNIInit(strcmp(mode, "offload") ? PTLX_IFACE_HOST : PTLX_IFACE_OFFLOAD, PTL_PID_ANY, NULL, NULL, &ni));
  TRY(PtlEQAlloc(ni, 4 * WINDOW, PTL_EQ_HANDLER_NONE, &ieq));
  TRY(PtlEQAlloc(ni, 64, PTL_EQ_HANDLER_NONE, &ceq));
  TRY(PtlXMemAlloc(ni, SEG_BYTES, &seg));
  TRY(PtlXMemAlloc(ni, SEG_BYTES, &src));
  memset(seg, 0, SEG_BYTES);
  memset(src, 1, SEG_BYTES);
  /* GASNet's RAR: persistent, remotely managed, no events (published in offload mode) */
  TRY(PtlPost(ni, PT_SEG, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER,
              test_md(seg, SEG_BYTES, PTL_MD_THRESH_INF, PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE,
                      PTL_EQ_NONE, NULL),
              PTL_RETAIN, &me, &md));
  TRY(PtlPost(
      ni, PT_CTL, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER,
      test_md(seg, 0, PTL_MD_THRESH_INF, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE, ceq, NULL),
      PTL_RETAIN, &me, &md));
  TRY(PtlEQAlloc(ni, 64, PTL_EQ_HANDLER_NONE, &peq));
  TRY(PtlPost(ni, PT_PP, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER,
              test_md((char *)seg + SEG_BYTES / 2, SEG_BYTES / 2, PTL_MD_THRESH_INF,
                      PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE, peq, NULL),
              PTL_RETAIN, &me, &md));
  TRY(PtlMDBind(ni, test_md(src, SEG_BYTES, PTL_MD_THRESH_INF, PTL_MD_EVENT_START_DISABLE, ieq, NULL), PTL_RETAIN,
                &smd));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) { /* let publications arrive: one matched Put each way is enough to be sure */
    put_ack(8, PT_SEG, 0);
  }
  done_sync();
  static const struct {
    const char *name;
    void (*fn)(void);
  } tests[] = {{"putlat", b_putlat}, {"getlat", b_getlat}, {"evpp", b_evpp}, {"putbw", b_putbw}, {"mdbind", b_mdbind}};
  for (int t = 0; t < 7; t++) {
    const char *name = t < 5 ? tests[t].name : t == 5 ? "melist" : "melist_disjoint";
    int wanted = argi >= argc;
    for (int a = argi; a < argc; a++) wanted |= !strcmp(argv[a], name);
    if (!wanted) continue;
    if (t < 5)
      tests[t].fn();
    else
      b_melist(t == 6);
  }
  TRY(PtlNIFini(ni));
  PtlFini();
  MPI_Finalize();
  return 0;
}
