/*
 * stpbench.c -- GASNet-1 microbenchmarks (seed 000, section 6 methodology).
 *
 * Written against gasnet.h only, so the same file builds against stageport
 * (bench/Makefile.am) and against an installed real GASNet
 * (bench/Makefile.gasnet).  Two nodes: node 0 initiates, node 1 only serves
 * (it sits in a barrier, which polls); extra nodes idle in the barriers.
 *
 * Every number is the mean per operation over a timed run of consecutive
 * operations (non-blocking: issue all, then one wait), after untimed warm-up
 * operations.  Run `stpbench --help` for tests and options.
 *
 *   STAGEPORT_STAGE=mpi mpirun -np 2 bench/stpbench -t putlat,amshort --csv out.csv
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include <ctype.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The GASNet-1 handler type is `void (*)()` by specification. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#endif
#include <gasnet.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#if !defined(BENCH_REAL_GASNET) && defined(__has_include)
#if __has_include(<stageport.h>)
#include <stageport.h>
#endif
#endif

#include "benchutil.h"

#if defined(HAVE_PAPI) && defined(STAGEPORT) && !defined(BENCH_REAL_GASNET)
#define BENCH_PAPI 1
#include <papi.h>
#endif

/* ------------------------------------------------------------------ */
/* state                                                               */
/* ------------------------------------------------------------------ */
enum { H_SHORT_REQ = 201, H_SHORT_REP, H_MED_REQ, H_MED_REP };

static gasnet_node_t me, peer;
static char *lseg;             /* node 0: start of its own segment */
static char *rseg;             /* node 0: start of the peer's segment */
static char *oosbuf;           /* node 0: malloc'd out-of-segment source */
static volatile long replies;  /* AM round trips completed */
static const char *stage_name;

static void die(const char *what, int rc) {
  fprintf(stderr, "stpbench (node %u): %s failed: %d\n", (unsigned)me, what, rc);
  gasnet_exit(1);
}
#define CHECK(call)                          \
  do {                                       \
    int _rc = (call);                        \
    if (_rc != GASNET_OK) die(#call, _rc);   \
  } while (0)

static void barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  CHECK(gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS));
}

/* ------------------------------------------------------------------ */
/* AM handlers                                                         */
/* ------------------------------------------------------------------ */
static void h_short_req(gasnet_token_t token) { CHECK(gasnet_AMReplyShort0(token, H_SHORT_REP)); }
static void h_short_rep(gasnet_token_t token) { (void)token; replies++; }

static void h_med_req(gasnet_token_t token, void *buf, size_t nbytes) {
  (void)buf; (void)nbytes;
  static char none; /* 0-byte reply: the source is never read */
  CHECK(gasnet_AMReplyMedium0(token, H_MED_REP, &none, 0));
}
static void h_med_rep(gasnet_token_t token, void *buf, size_t nbytes) {
  (void)token; (void)buf; (void)nbytes;
  replies++;
}

/* the specification's type of gasnet_handlerentry_t.fnptr (it names none) */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#endif
typedef void (*handler_fn)();
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static gasnet_handlerentry_t handlers[] = {
  {H_SHORT_REQ, (handler_fn)h_short_req},
  {H_SHORT_REP, (handler_fn)h_short_rep},
  {H_MED_REQ, (handler_fn)h_med_req},
  {H_MED_REP, (handler_fn)h_med_rep},
};

/* ------------------------------------------------------------------ */
/* the timed operations (node 0 only; iters consecutive operations)    */
/* ------------------------------------------------------------------ */
static void run_putlat(size_t n, long iters) {
  for (long i = 0; i < iters; i++) gasnet_put(peer, rseg, lseg, n);
}

static void run_getlat(size_t n, long iters) {
  for (long i = 0; i < iters; i++) gasnet_get(lseg, peer, rseg, n);
}

static void run_putbw(size_t n, long iters) {
  for (long i = 0; i < iters; i++) gasnet_put_nbi_bulk(peer, rseg, lseg, n);
  gasnet_wait_syncnbi_puts();
}

static void blocking_puts_from(char *src, size_t n, long iters) {
  for (long i = 0; i < iters; i++) gasnet_put_bulk(peer, rseg, src, n);
}
static void run_oosputbw(size_t n, long iters) { blocking_puts_from(oosbuf, n, iters); }
static void run_segputbw(size_t n, long iters) { blocking_puts_from(lseg, n, iters); }

static void run_amshort(size_t n, long iters) {
  (void)n;
  for (long i = 0; i < iters; i++) {
    long want = replies + 1;
    CHECK(gasnet_AMRequestShort0(peer, H_SHORT_REQ));
    GASNET_BLOCKUNTIL(replies == want);
  }
}

static void run_ammedium(size_t n, long iters) {
  for (long i = 0; i < iters; i++) {
    long want = replies + 1;
    CHECK(gasnet_AMRequestMedium0(peer, H_MED_REQ, lseg, n));
    GASNET_BLOCKUNTIL(replies == want);
  }
}

static size_t medium_cap(void) { return gasnet_AMMaxMedium(); }

/* ------------------------------------------------------------------ */
/* test table                                                          */
/* ------------------------------------------------------------------ */
#define KiB ((size_t)1 << 10)
#define MiB ((size_t)1 << 20)

typedef struct test {
  const char *name;          /* table and CSV name */
  const char *group;         /* what -t selects */
  size_t lo, hi;             /* default size range; hi == 0: one size-less row */
  size_t (*cap)(void);       /* hard maximum size, NULL = none */
  void (*run)(size_t n, long iters);
  const char *about;
} test_t;

static const test_t tests[] = {
  {"putlat", "putlat", 1, 4 * KiB, NULL, run_putlat,
   "blocking gasnet_put latency, in-segment source"},
  {"getlat", "getlat", 1, 4 * KiB, NULL, run_getlat,
   "blocking gasnet_get latency, into the segment"},
  {"putbw", "putbw", 1 * KiB, 4 * MiB, NULL, run_putbw,
   "gasnet_put_nbi_bulk flood: issue all, one gasnet_wait_syncnbi_puts"},
  {"amshort", "amshort", 0, 0, NULL, run_amshort,
   "AM Short request/reply round trip, 0 args"},
  {"ammedium", "ammedium", 0, 64 * KiB, medium_cap, run_ammedium,
   "AM Medium round trip, payload in the request, 0-byte Medium reply"},
  {"oosputbw", "oosputbw", 4 * KiB, 4 * MiB, NULL, run_oosputbw,
   "blocking gasnet_put_bulk, out-of-segment (malloc'd, fixed) source"},
  {"oosputbw-seg", "oosputbw", 4 * KiB, 4 * MiB, NULL, run_segputbw,
   "the same with an in-segment source (run with oosputbw)"},
};
#define NTESTS (sizeof(tests) / sizeof(tests[0]))
#define DEFAULT_TESTS "putlat,getlat,putbw,amshort,ammedium,oosputbw"

/* effective size range of a test under the options; 1 when its cap cut it */
static int test_range(const test_t *t, const bu_opts_t *o, size_t *lo, size_t *hi) {
  *lo = *hi = 0;
  if (t->hi == 0) return 0; /* size-less test */
  bu_range(o, t->lo, t->hi, lo, hi);
  if (!t->cap || *hi <= t->cap()) return 0;
  *hi = t->cap();
  return 1;
}

static int test_selected(const test_t *t, const bu_opts_t *o) {
  return bu_list_has(o->tests ? o->tests : DEFAULT_TESTS, t->group);
}

/* ------------------------------------------------------------------ */
/* optional PAPI instruction counts (stageport builds only)            */
/* ------------------------------------------------------------------ */
#ifdef BENCH_PAPI
static int papi_set = PAPI_NULL;
static int papi_ok;

/* 0 when PAPI_TOT_INS can be counted here; otherwise says why, once */
static int papi_probe(void) {
  long long probe = 0;
  const char *what = "PAPI_create_eventset";
  int rc = PAPI_create_eventset(&papi_set);
  if (rc == PAPI_OK) { what = "PAPI_TOT_INS"; rc = PAPI_add_event(papi_set, PAPI_TOT_INS); }
  if (rc == PAPI_OK) { what = "PAPI_start"; rc = PAPI_start(papi_set); }
  if (rc == PAPI_OK) { what = "PAPI_stop"; rc = PAPI_stop(papi_set, &probe); }
  if (rc == PAPI_OK && probe > 0) return 0;
  printf("PAPI: no hardware counters available on this machine, counters not reported (%s: %s)\n",
         what, rc == PAPI_OK ? "counts nothing" : PAPI_strerror(rc));
  return -1;
}

static void papi_setup(void) {
  int rc = PAPI_library_init(PAPI_VER_CURRENT);
  if (rc != PAPI_VER_CURRENT) {
    printf("PAPI: library initialisation failed (%d), counters not reported\n", rc);
    return;
  }
  if (papi_probe() != 0) return;
  papi_ok = 1;
  printf("PAPI: reporting PAPI_TOT_INS per operation (node 0, whole timed loop incl. polling)\n");
}
static void papi_begin(void) {
  if (papi_ok && PAPI_start(papi_set) != PAPI_OK) papi_ok = 0;
}
static long long papi_end(void) {
  long long v = -1;
  if (papi_ok && PAPI_stop(papi_set, &v) != PAPI_OK) v = -1;
  return v;
}
#define PAPI_COLUMN (papi_ok ? "instr/op" : NULL)
#else
static void papi_setup(void) {}
static void papi_begin(void) {}
static long long papi_end(void) { return -1; }
#define PAPI_COLUMN NULL
#endif

/* ------------------------------------------------------------------ */
/* the one timing loop                                                 */
/* ------------------------------------------------------------------ */
/* All nodes call this together.  Node 0 runs the warm-up, then the timed
 * operations; returns microseconds per operation on node 0 (0 elsewhere)
 * and the PAPI instruction count (or -1) in *ins. */
static double measure(const test_t *t, size_t n, long iters, long warm, long long *ins) {
  double t0 = 0, t1 = 0;
  *ins = -1;
  barrier();
  if (me == 0 && warm > 0) t->run(n, warm);
  barrier();
  if (me == 0) {
    papi_begin();
    t0 = bu_now_usec();
    t->run(n, iters);
    t1 = bu_now_usec();
    *ins = papi_end();
  }
  barrier();
  return me == 0 ? (t1 - t0) / (double)iters : 0.0;
}

/* ------------------------------------------------------------------ */
/* startup helpers                                                     */
/* ------------------------------------------------------------------ */
static const char *find_stage_name(const char *label) {
  if (label) return label;
#if defined(BENCH_STAGE_NAME)
  return BENCH_STAGE_NAME;
#elif defined(STAGEPORT)
  return stageport_stage();
#elif defined(GASNET_CONDUIT_NAME_STR)
  static char buf[64];
  snprintf(buf, sizeof buf, "gasnet-%s", GASNET_CONDUIT_NAME_STR);
  for (char *p = buf; *p; p++) *p = (char)tolower((unsigned char)*p);
  return buf;
#else
  return "gasnet";
#endif
}

static void list_stages(const char *label) {
#if defined(STAGEPORT)
  (void)label;
  for (int i = 0; i < stageport_stage_count(); i++) printf("%s\n", stageport_stage_name(i));
#else
  printf("%s\n", find_stage_name(label));
#endif
}

/* One put + get round trip with a pattern: a broken stage fails loudly here
 * instead of producing numbers. */
static void sanity_check(void) {
  enum { N = 256 };
  if (me != 0) return;
  for (int i = 0; i < N; i++) lseg[i] = (char)(i * 7 + 1);
  gasnet_put(peer, rseg, lseg, N);
  memset(lseg + N, 0, N);
  gasnet_get(lseg + N, peer, rseg, N);
  if (memcmp(lseg, lseg + N, N) != 0) {
    fprintf(stderr, "stpbench: sanity check failed: data put to node %u and read back differs\n",
            (unsigned)peer);
    gasnet_exit(2);
  }
}

static const char usage[] =
  "usage: mpirun -np 2 stpbench [options]      (stage: STAGEPORT_STAGE=mpi|...)\n"
  "GASNet-1 microbenchmarks after seed 000 section 6: mean per operation over\n"
  "consecutive operations, warm-up excluded; node 0 initiates, node 1 serves.\n"
  "\n"
  "tests (-t, comma-separated; default " DEFAULT_TESTS "):\n"
  "  putlat     blocking gasnet_put latency, 1 B .. 4 KiB\n"
  "  getlat     blocking gasnet_get latency, 1 B .. 4 KiB\n"
  "  putbw      non-blocking put flood (gasnet_put_nbi_bulk x iters, then one\n"
  "             gasnet_wait_syncnbi_puts), 1 KiB .. 4 MiB\n"
  "  amshort    AM Short request/reply round trip, 0 args (one row, size 0)\n"
  "  ammedium   AM Medium round trip, payload in the request, 0-byte Medium\n"
  "             reply, 0 .. 64 KiB (capped at gasnet_AMMaxMedium(): larger sizes\n"
  "             dropped, the maximum itself measured last)\n"
  "  oosputbw   blocking gasnet_put_bulk from a malloc'd out-of-segment source\n"
  "             (same address every time), 4 KiB .. 4 MiB, and the same from an\n"
  "             in-segment source (rows named oosputbw-seg)\n"
  "\n"
  "options:\n"
  "  -t, --tests LIST     tests to run\n"
  "  -i, --iters N        iterations per size (default 10000)\n"
  "  -w, --warmup N       untimed warm-up iterations per size (default iters/10,\n"
  "                       at least 1, at most 100)\n"
  "  -m, --min SIZE       smallest size (K/M/G suffixes, K = 2^10)\n"
  "  -M, --max SIZE       largest size (replaces every selected test's default)\n"
  "      --step F         size multiplier (default 2: powers of two)\n"
  "      --max-bytes B    per-size byte budget (default 1G): sizes where\n"
  "                       size * iters > B run max(B / size, 100) iterations\n"
  "                       (only the bandwidth tests above 100 KiB), 0 = off\n"
  "      --csv FILE       append rows: stage,test,size,iters,usec_per_op,MB_per_s\n"
  "                       (MB = 2^20 bytes; header written when FILE is new)\n"
  "      --label NAME     stage name in the output (default: the stageport\n"
  "                       stage, or gasnet-<conduit> for a real GASNet build)\n"
  "      --list-stages    print the stages this library was built with, one a\n"
  "                       line, and exit (no launcher needed)\n"
  "      --no-papi        do not try PAPI instruction counters\n"
  "  -h, --help           this text\n";

enum { OPT_LIST_STAGES = 2000, OPT_NO_PAPI };
static const struct option extra_opts[] = {
  {"list-stages", no_argument, NULL, OPT_LIST_STAGES},
  {"no-papi", no_argument, NULL, OPT_NO_PAPI},
  {NULL, 0, NULL, 0},
};
typedef struct { int list_stages, no_papi; } extra_t;

static int extra_cb(int val, const char *arg, void *ctx) {
  extra_t *x = ctx;
  (void)arg;
  if (val == OPT_LIST_STAGES) x->list_stages = 1;
  else if (val == OPT_NO_PAPI) x->no_papi = 1;
  else return -1;
  return 0;
}

/* ------------------------------------------------------------------ */
/* main                                                                */
/* ------------------------------------------------------------------ */
int main(int argc, char **argv) {
  bu_opts_t o;
  extra_t x = {0, 0};

  /* options first: --help and --list-stages need no launcher */
  int prc = bu_parse_args(argc, argv, &o, extra_opts, extra_cb, &x, usage);
  if (prc != 0) return prc > 0 ? 0 : 1;
  if (x.list_stages) {
    list_stages(o.label);
    return 0;
  }
  int nsel = 0;
  for (size_t i = 0; i < NTESTS; i++) nsel += test_selected(&tests[i], &o);
  if (nsel == 0) {
    fprintf(stderr, "stpbench: no known test in '%s' (tests: %s)\n", o.tests, DEFAULT_TESTS);
    return 1;
  }

  CHECK(gasnet_init(&argc, &argv));
  me = gasnet_mynode();
  if (gasnet_nodes() < 2) {
    fprintf(stderr, "stpbench: needs at least 2 nodes (got %u)\n", (unsigned)gasnet_nodes());
    gasnet_exit(1);
  }
  peer = me == 0 ? 1 : 0;

  /* segment: the largest size any selected test moves, whole pages, with
   * room for the sanity check */
  size_t need = 2 * 256;
  for (size_t i = 0; i < NTESTS; i++) {
    size_t lo, hi;
    if (!test_selected(&tests[i], &o)) continue;
    test_range(&tests[i], &o, &lo, &hi);
    if (hi > need) need = hi;
  }
  uintptr_t segsize = ((uintptr_t)need + GASNET_PAGESIZE - 1) / GASNET_PAGESIZE * GASNET_PAGESIZE;
  if (segsize > gasnet_getMaxGlobalSegmentSize()) {
    fprintf(stderr, "stpbench: needs a %lu-byte segment, at most %lu available; lower -M\n",
            (unsigned long)segsize, (unsigned long)gasnet_getMaxGlobalSegmentSize());
    gasnet_exit(1);
  }
  CHECK(gasnet_attach(handlers, (int)(sizeof(handlers) / sizeof(handlers[0])), segsize, 0));

  gasnet_seginfo_t *si = calloc(gasnet_nodes(), sizeof(*si));
  if (!si) die("calloc", -1);
  CHECK(gasnet_getSegmentInfo(si, (int)gasnet_nodes()));
  lseg = si[me].addr;
  rseg = si[peer].addr;
  stage_name = find_stage_name(o.label);

  bu_report_t rep = {NULL, NULL};
  if (me == 0) {
    oosbuf = malloc(need);
    if (!oosbuf) die("malloc (out-of-segment buffer)", -1);
    memset(oosbuf, 1, need); /* fault the pages in before timing */
    memset(lseg, 1, need);
    printf("# stpbench: stage %s, %u nodes, segment %lu bytes, iters %ld, max-bytes %zu\n", stage_name,
           (unsigned)gasnet_nodes(), (unsigned long)segsize, o.iters, o.max_bytes);
#if defined(STAGEPORT)
    printf("# stageport: %s\n", stageport_config());
#else
    printf("# GASNet: %s\n", GASNET_CONFIG_STRING);
#endif
    if (!x.no_papi) papi_setup();
    if (bu_report_open(&rep, o.csv, PAPI_COLUMN) != 0) gasnet_exit(1);
    bu_report_header(&rep);
  }
  sanity_check();

  for (size_t i = 0; i < NTESTS; i++) {
    const test_t *t = &tests[i];
    size_t lo, hi, sizes[64];
    if (!test_selected(t, &o)) continue;
    if (test_range(t, &o, &lo, &hi) && me == 0)
      printf("# %s: sizes capped at the maximum, %zu bytes\n", t->name, hi);
    size_t ns = lo > hi ? 0 : bu_sizes(lo, hi, o.step, sizes, 64);
    for (size_t k = 0; k < ns; k++) {
      long iters = bu_iters_for(sizes[k], o.iters, o.max_bytes);
      long long ins;
      double usec = measure(t, sizes[k], iters, bu_warmup_for(iters, o.warmup), &ins);
      if (me == 0) {
        char extra[32];
        snprintf(extra, sizeof extra, "%.1f", ins >= 0 ? (double)ins / (double)iters : 0.0);
        bu_report_row(&rep, stage_name, t->name, sizes[k], iters, usec, ins >= 0 ? extra : NULL);
      }
    }
  }

  if (me == 0) bu_report_close(&rep);
  barrier();
  free(si);
  free(oosbuf);
  gasnet_exit(0);
  return 0;
}
