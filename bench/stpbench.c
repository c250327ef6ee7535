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
 * operations; the AM Long tests follow seed 002's methodology (GASNet's
 * testam and testqueue).  Run `stpbench --help` for tests and options.
 *
 * MPI messages per operation: when a PMPI interposer exporting
 * `unsigned long long stp_pmpi_total(int what)` is loaded (LD_PRELOAD), the
 * messages node 0 and node 1 send during each timed run are counted and
 * reported; without it the column is empty.
 *
 * PAPI (stageport builds configured with it): node 0's cycles, instructions,
 * L1 data and L2 cache misses per operation, those the machine counts (one
 * "PAPI:" line says which), in the table and the CSV's counters_per_op.
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
#include <dlfcn.h>
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
enum {
  H_SHORT_REQ = 201, H_SHORT_REP, H_MED_REQ, H_PAYLOAD_REP, H_LONG_PING, H_LONG_ACK,
  H_HELLO, H_ARM, H_DONE, H_COUNT
};

static gasnet_node_t me, peer;
static char *lseg;             /* node 0: start of its own segment */
static char *rseg;             /* start of the peer's segment */
static char *oosbuf;           /* node 0: malloc'd out-of-segment source */
static char *slidebuf;         /* node 0: oosslide's buffer (slide_bytes) */
static size_t slide_bytes;
static volatile long replies;  /* AM round trips completed */
static const char *stage_name;
static size_t inject_size = 4 << 10; /* aminject's payload (--inject-size) */
static size_t inject_depth = 256;    /* aminject's largest queue depth (--inject-depth) */

/* MPI message counting (see counting_setup): the interposer's total, node 1's
 * count at the start of a timed run, its flags and node 0's copy of it */
static unsigned long long (*pmpi_total)(int what);
static int counting;
static volatile int hello, peer_has_count, win_closed, have_peer_msgs;
static unsigned long long win_base, peer_msgs;

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
  CHECK(gasnet_AMReplyMedium0(token, H_PAYLOAD_REP, &none, 0));
}
/* a Medium or Long reply */
static void h_payload_rep(gasnet_token_t token, void *buf, size_t nbytes) {
  (void)token; (void)buf; (void)nbytes;
  replies++;
}

/* amlong: the payload as it landed goes back, same size, to node 0's segment */
static void h_long_ping(gasnet_token_t token, void *buf, size_t nbytes) {
  CHECK(gasnet_AMReplyLong0(token, H_PAYLOAD_REP, buf, nbytes, rseg));
}
/* ammedbw, amlongbw, aminject: a Medium or Long answered by a Short */
static void h_long_ack(gasnet_token_t token, void *buf, size_t nbytes) {
  (void)buf; (void)nbytes;
  CHECK(gasnet_AMReplyShort0(token, H_SHORT_REP));
}

/* counting: whether the peer has the interposer; node 1's window opens after
 * its reply to ARM (sent before the count is taken: not the run's message)
 * and closes when DONE arrives, answered with the count */
static unsigned long long mpi_sent(void) { return pmpi_total ? pmpi_total(2) : 0; }
static void h_hello(gasnet_token_t token, gasnet_handlerarg_t has) {
  (void)token;
  peer_has_count = has;
  hello = 1;
}
static void h_arm(gasnet_token_t token) {
  CHECK(gasnet_AMReplyShort0(token, H_SHORT_REP));
  win_base = mpi_sent();
}
static void h_done(gasnet_token_t token) {
  unsigned long long d = mpi_sent() - win_base;
  CHECK(gasnet_AMReplyShort2(token, H_COUNT, (gasnet_handlerarg_t)(uint32_t)(d >> 32),
                             (gasnet_handlerarg_t)(uint32_t)d));
  win_closed = 1;
}
static void h_count(gasnet_token_t token, gasnet_handlerarg_t hi, gasnet_handlerarg_t lo) {
  (void)token;
  peer_msgs = (unsigned long long)(uint32_t)hi << 32 | (uint32_t)lo;
  have_peer_msgs = 1;
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
  {H_PAYLOAD_REP, (handler_fn)h_payload_rep},
  {H_LONG_PING, (handler_fn)h_long_ping},
  {H_LONG_ACK, (handler_fn)h_long_ack},
  {H_HELLO, (handler_fn)h_hello},
  {H_ARM, (handler_fn)h_arm},
  {H_DONE, (handler_fn)h_done},
  {H_COUNT, (handler_fn)h_count},
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

/* oosslide: a window of SLIDE_WINDOW bytes moves through slidebuf, twice
 * what a registration cache may pin (the firehose stage's limit); in each
 * position two passes of blocking puts of n bytes go through the window's
 * pieces, then it moves on by half its size, wrapping at the end of the
 * buffer.  The position carries over from run to run, so the whole
 * measurement sweeps the buffer: the working set changes all the time and
 * a cache must evict, reuse and find each new set. */
#define SLIDE_WINDOW (4 * (size_t)1 << 20)
static size_t slide_pos; /* the window's offset in slidebuf */
static size_t slide_k;   /* calls made in this position */
/* The next call's source; *moved: the window moved for it. */
static char *slide_next(size_t n, int *moved) {
  size_t pieces = SLIDE_WINDOW / n;
  *moved = slide_k >= 2 * pieces;
  if (*moved) {
    slide_k = 0;
    slide_pos += SLIDE_WINDOW / 2;
    if (slide_pos + SLIDE_WINDOW > slide_bytes) slide_pos = 0;
  }
  return slidebuf + slide_pos + slide_k++ % pieces * n;
}
static void run_oosslide(size_t n, long iters) {
  int moved;
  for (long i = 0; i < iters; i++) gasnet_put_bulk(peer, rseg, slide_next(n, &moved), n);
}

#if defined(STAGEPORT) && !defined(BENCH_REAL_GASNET)
/* The cache's view of oosslide (firehose stage; untimed): one sweep of the
 * whole buffer, the cache's counters read around every call; how many
 * calls after each move the last miss came (the set found). */
static void slide_report(size_t n) {
  stageport_firehose_stats_t a, c;
  long calls = (long)(slide_bytes / (SLIDE_WINDOW / 2)) * 2 * (long)(SLIDE_WINDOW / n), worst = 0, found = 0, k = 0;
  long moves = 0;
  int moved;
  if (me != 0 || stageport_firehose_stats(&a) != 0) return;
  c = a;
  for (long i = 0; i < calls; i++, k++) {
    unsigned long long m0 = c.misses;
    char *src = slide_next(n, &moved);
    if (moved) k = 0, found = 0, moves++;
    gasnet_put_bulk(peer, rseg, src, n);
    stageport_firehose_stats(&c);
    if (c.misses != m0) found = k + 1;
    if (found > worst) worst = found;
  }
  printf("# oosslide %zu: one sweep of %zu MiB (%ld calls, %ld window moves): cache hits %.1f%%, misses %llu, "
         "coalesces %llu, evictions %llu, pinned peak %llu of %llu bytes%s; each new window found within %ld calls\n",
         n, slide_bytes >> 20, calls, moves, 100.0 * (double)(c.hits - a.hits) / (double)calls, c.misses - a.misses,
         c.coalesces - a.coalesces, c.evictions - a.evictions, c.pinned_peak, c.max_pinned,
         c.pinned_peak > c.max_pinned ? " (OVER THE LIMIT)" : "", worst);
}
#else
static void slide_report(size_t n) { (void)n; }
#endif

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

/* ammedbw: issue all, then wait for every reply (the flood rate of Mediums) */
static void run_ammedbw(size_t n, long iters) {
  long want = replies + iters;
  for (long i = 0; i < iters; i++) CHECK(gasnet_AMRequestMedium0(peer, H_LONG_ACK, lseg, n));
  GASNET_BLOCKUNTIL(replies == want);
}

/* amlong: seed 002's ping-pong (testam "AMLong ping-pong roundtrip ReqRep") */
static void run_amlong(size_t n, long iters) {
  for (long i = 0; i < iters; i++) {
    long want = replies + 1;
    CHECK(gasnet_AMRequestLong0(peer, H_LONG_PING, lseg, n, rseg));
    GASNET_BLOCKUNTIL(replies == want);
  }
}

/* amlongbw: issue all (Async: seed 002's implicit-handle local completion;
 * the source is never modified), then wait for every reply */
static void run_amlongbw(size_t n, long iters) {
  long want = replies + iters;
  for (long i = 0; i < iters; i++) CHECK(gasnet_AMRequestLongAsync0(peer, H_LONG_ACK, lseg, n, rseg));
  GASNET_BLOCKUNTIL(replies == want);
}

/* aminject: seed 002 Fig. 3 (testqueue -l -i): bursts of q back-to-back
 * requests; only the burst is timed, its replies are awaited after it.
 * Returns the microseconds spent issuing. */
static double run_aminject(size_t q, long bursts) {
  double usec = 0;
  for (long b = 0; b < bursts; b++) {
    long want = replies + (long)q;
    double t0 = bu_now_usec();
    for (size_t i = 0; i < q; i++)
      CHECK(gasnet_AMRequestLongAsync0(peer, H_LONG_ACK, oosbuf, inject_size, rseg));
    usec += bu_now_usec() - t0;
    GASNET_BLOCKUNTIL(replies == want);
  }
  return usec;
}

static size_t medium_cap(void) { return gasnet_AMMaxMedium(); }
static size_t long_request_cap(void) { return gasnet_AMMaxLongRequest(); }
static size_t long_cap(void) {
  size_t rq = gasnet_AMMaxLongRequest(), rp = gasnet_AMMaxLongReply();
  return rq < rp ? rq : rp;
}

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
  void (*run)(size_t n, long iters);      /* timed whole, or */
  double (*timed)(size_t n, long iters);  /* times itself: returns the microseconds that count */
  int depth;                 /* the size is a queue depth (1 .. --inject-depth, not -m/-M):
                                iters bursts of size operations of --inject-size bytes */
  const char *about;
} test_t;

static const test_t tests[] = {
  {"putlat", "putlat", 1, 4 * KiB, NULL, run_putlat, NULL, 0,
   "blocking gasnet_put latency, in-segment source"},
  {"getlat", "getlat", 1, 4 * KiB, NULL, run_getlat, NULL, 0,
   "blocking gasnet_get latency, into the segment"},
  {"putbw", "putbw", 1 * KiB, 4 * MiB, NULL, run_putbw, NULL, 0,
   "gasnet_put_nbi_bulk flood: issue all, one gasnet_wait_syncnbi_puts"},
  {"amshort", "amshort", 0, 0, NULL, run_amshort, NULL, 0,
   "AM Short request/reply round trip, 0 args"},
  {"ammedium", "ammedium", 0, 64 * KiB, medium_cap, run_ammedium, NULL, 0,
   "AM Medium round trip, payload in the request, 0-byte Medium reply"},
  {"ammedbw", "ammedbw", 8, 64 * KiB, medium_cap, run_ammedbw, NULL, 0,
   "AM Medium flood: gasnet_AMRequestMedium0 x iters of n bytes from node 0's segment, each answered by "
   "an AM Short0 reply, then wait for all replies (time per message: 1 / message rate)"},
  {"oosputbw", "oosputbw", 4 * KiB, 4 * MiB, NULL, run_oosputbw, NULL, 0,
   "blocking gasnet_put_bulk, out-of-segment (malloc'd, fixed) source"},
  {"oosputbw-seg", "oosputbw", 4 * KiB, 4 * MiB, NULL, run_segputbw, NULL, 0,
   "the same with an in-segment source (run with oosputbw)"},
  {"oosslide", "oosslide", 64 * KiB, 1 * MiB, NULL, run_oosslide, NULL, 0,
   "blocking gasnet_put_bulk from a 4 MiB window (two passes over its pieces, then it moves by half its "
   "size, carrying over between runs) through a malloc'd buffer twice the firehose stage's pinning limit "
   "(other stages: 512 MiB); the firehose stage "
   "also reports the cache's hits, evictions, pinned peak and how soon it finds each new window"},
  {"amlong", "amlong", 8, 64 * KiB, long_cap, run_amlong, NULL, 0,
   "AM Long ping-pong round trip, seed 002 Fig. 1-2 (testam 'AMLong ping-pong'): gasnet_AMRequestLong0 "
   "of n bytes from node 0's segment to node 1's, whose handler answers gasnet_AMReplyLong0 of the n "
   "bytes as landed into node 0's segment; seed 002's bandwidth is 2n / this time"},
  {"amlongbw", "amlongbw", 1 * KiB, 1 * MiB, long_request_cap, run_amlongbw, NULL, 0,
   "AM Long flood: gasnet_AMRequestLongAsync0 x iters of n bytes from node 0's segment to the start "
   "of node 1's, each answered by an AM Short0 reply, then wait for all replies"},
  {"aminject", "aminject", 1, 0, NULL, NULL, run_aminject, 1,
   "AM Long injection overhead vs queue depth, seed 002 Fig. 3 (testqueue -l -i): mean time inside "
   "gasnet_AMRequestLongAsync0 of --inject-size bytes (malloc'd source, like testqueue's default) over "
   "bursts of Q back-to-back requests; each reply (Short0) awaited after the burst, untimed; "
   "size column = Q"},
};
#define NTESTS (sizeof(tests) / sizeof(tests[0]))
/* oosslide's buffer: twice the firehose cache's pinning limit, 512 MiB
 * where there is none */
static void slide_size(size_t *bytes) {
  *bytes = (size_t)512 << 20;
#if defined(STAGEPORT) && !defined(BENCH_REAL_GASNET)
  stageport_firehose_stats_t s;
  if (stageport_firehose_stats(&s) == 0 && 2 * (size_t)s.max_pinned > 2 * SLIDE_WINDOW) *bytes = 2 * (size_t)s.max_pinned;
#endif
}
#define DEFAULT_TESTS "putlat,getlat,putbw,amshort,ammedium,ammedbw,oosputbw,amlong,amlongbw,aminject"

/* effective size range of a test under the options; 1 when its cap cut it */
static int test_range(const test_t *t, const bu_opts_t *o, size_t *lo, size_t *hi) {
  *lo = *hi = 0;
  if (t->depth) {
    *lo = 1;
    *hi = inject_depth;
    return 0;
  }
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
/* optional PAPI hardware counters (stageport builds only)             */
/* ------------------------------------------------------------------ */
#define PAPI_MAX_EVENTS 4 /* the most papi_end reports */
#ifdef BENCH_PAPI
/* The events tried, in this order, each optional: the CSV name, the word in
 * the "PAPI: reporting" line and the table column's abbreviation. */
static const struct {
  int code;
  const char *name, *word, *abbr;
} papi_events[PAPI_MAX_EVENTS] = {
  {PAPI_TOT_CYC, "PAPI_TOT_CYC", "cycles", "cyc"},
  {PAPI_TOT_INS, "PAPI_TOT_INS", "instructions", "ins"},
  {PAPI_L1_DCM, "PAPI_L1_DCM", "L1_DCM", "L1m"},
  {PAPI_L2_TCM, "PAPI_L2_TCM", "L2_TCM", "L2m"},
};
static int papi_set = PAPI_NULL;
static int papi_ok;
static int papi_n;                      /* events in papi_set */
static int papi_which[PAPI_MAX_EVENTS]; /* their papi_events index, in set order */
static char papi_title[40];             /* "cyc/ins/L1m/L2m per op" */

/* Adds every event PAPI accepts; 0 when at least one counts something in a
 * start/stop probe, otherwise says why (the first refusal's reason when none
 * was accepted), once. */
static int papi_probe(void) {
  long long probe[PAPI_MAX_EVENTS] = {0};
  char refused[128] = "";
  const char *what = "PAPI_create_eventset";
  int rc = PAPI_create_eventset(&papi_set), first_refusal = PAPI_OK;
  for (int i = 0; rc == PAPI_OK && i < PAPI_MAX_EVENTS; i++) {
    int arc = PAPI_add_event(papi_set, papi_events[i].code);
    if (arc == PAPI_OK) {
      papi_which[papi_n++] = i;
      continue;
    }
    if (first_refusal == PAPI_OK) first_refusal = arc;
    size_t len = strlen(refused);
    snprintf(refused + len, sizeof refused - len, "%s%s", len ? " " : "", papi_events[i].name);
  }
  if (rc == PAPI_OK && papi_n == 0) {
    printf("PAPI: no hardware counters available on this machine, counters not reported "
           "(PAPI_add_event refused %s: %s)\n", refused, PAPI_strerror(first_refusal));
    return -1;
  }
  if (rc == PAPI_OK) { what = "PAPI_start"; rc = PAPI_start(papi_set); }
  if (rc == PAPI_OK) { what = "PAPI_stop"; rc = PAPI_stop(papi_set, probe); }
  int counted = 0;
  for (int j = 0; j < papi_n; j++) counted |= probe[j] > 0;
  if (rc == PAPI_OK && counted) {
    papi_ok = 1;
    printf("PAPI: reporting per operation on node 0 (whole timed loop incl. polling):");
    for (int j = 0; j < papi_n; j++) printf(" %s", papi_events[papi_which[j]].word);
    if (papi_n < PAPI_MAX_EVENTS) {
      printf(" (not counted here:");
      for (int i = 0, j = 0; i < PAPI_MAX_EVENTS; i++) {
        if (j < papi_n && papi_which[j] == i) j++;
        else printf(" %s", papi_events[i].word);
      }
      printf(")");
    }
    printf("\n");
    return 0;
  }
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
  size_t len = 0;
  for (int j = 0; j < papi_n; j++)
    len += (size_t)snprintf(papi_title + len, sizeof papi_title - len, "%s%s", j ? "/" : "",
                            papi_events[papi_which[j]].abbr);
  snprintf(papi_title + len, sizeof papi_title - len, " per op");
}
static void papi_begin(void) {
  if (papi_ok && PAPI_start(papi_set) != PAPI_OK) papi_ok = 0;
}
/* The counts since papi_begin into v (papi_n of them); returns how many, 0
 * when not counted. */
static int papi_end(long long *v) {
  if (!papi_ok) return 0;
  if (PAPI_stop(papi_set, v) == PAPI_OK) return papi_n;
  papi_ok = 0;
  return 0;
}
/* Counts per operation as the table's cell ("312.4/289.0/3.1", each value
 * %.1f below 1000, %.0f above) and the CSV's counters_per_op text
 * ("PAPI_TOT_CYC=312.4000;PAPI_TOT_INS=289.0000;..."). */
static void papi_per_op(const long long *v, int n, long ops, char *cell, size_t cellsz, char *csv,
                        size_t csvsz) {
  size_t cl = 0, sl = 0;
  cell[0] = csv[0] = '\0';
  for (int j = 0; j < n; j++) {
    double per = (double)v[j] / (double)ops;
    if (cl < cellsz)
      cl += (size_t)snprintf(cell + cl, cellsz - cl, "%s%.*f", j ? "/" : "", per < 1000 ? 1 : 0, per);
    if (sl < csvsz)
      sl += (size_t)snprintf(csv + sl, csvsz - sl, "%s%s=%.4f", j ? ";" : "",
                             papi_events[papi_which[j]].name, per);
  }
}
#define PAPI_COLUMN (papi_ok ? papi_title : NULL)
#else
static void papi_setup(void) {}
static void papi_begin(void) {}
static int papi_end(long long *v) {
  (void)v;
  return 0;
}
static void papi_per_op(const long long *v, int n, long ops, char *cell, size_t cellsz, char *csv,
                        size_t csvsz) {
  (void)v, (void)n, (void)ops, (void)cellsz, (void)csvsz;
  cell[0] = csv[0] = '\0';
}
#define PAPI_COLUMN NULL
#endif

/* ------------------------------------------------------------------ */
/* the one timing loop                                                 */
/* ------------------------------------------------------------------ */
static double run_test(const test_t *t, size_t n, long iters) {
  if (t->timed) return t->timed(n, iters);
  double t0 = bu_now_usec();
  t->run(n, iters);
  return bu_now_usec() - t0;
}

/* Counting: node 0 opens node 1's window (ARM, answered before node 1 takes
 * its count) before taking its own, and closes it (DONE, answered with node
 * 1's messages since) after: node 1 polls for the whole timed run instead of
 * sitting in the barrier, and neither count has a message of the exchange. */
static void count_window_open(void) {
  long want = replies + 1;
  CHECK(gasnet_AMRequestShort0(peer, H_ARM));
  GASNET_BLOCKUNTIL(replies == want);
}
static unsigned long long count_window_close(void) {
  have_peer_msgs = 0;
  CHECK(gasnet_AMRequestShort0(peer, H_DONE));
  GASNET_BLOCKUNTIL(have_peer_msgs);
  return peer_msgs;
}

/* All nodes call this together.  Node 0 runs the warm-up, then the timed
 * operations; returns microseconds per operation on node 0 (0 elsewhere),
 * node 0's PAPI counts in ctr (*nctr of them, 0: not counted) and the MPI
 * messages both nodes sent during the timed run (or -1: not counted) in
 * *msgs.  ops: the operations a timed run of iters makes. */
static double measure(const test_t *t, size_t n, long iters, long warm, long ops, long long *ctr,
                      int *nctr, double *msgs) {
  double usec = 0;
  *nctr = 0;
  *msgs = -1;
  barrier();
  if (me == 0 && warm > 0) run_test(t, n, warm);
  barrier();
  if (me == 0) {
    if (counting) count_window_open();
    unsigned long long m0 = mpi_sent();
    papi_begin();
    usec = run_test(t, n, iters);
    *nctr = papi_end(ctr);
    unsigned long long m1 = mpi_sent();
    if (counting) *msgs = (double)(m1 - m0 + count_window_close()) / (double)ops;
  } else if (me == 1 && counting) {
    GASNET_BLOCKUNTIL(win_closed);
    win_closed = 0;
  }
  barrier();
  return me == 0 ? usec / (double)ops : 0.0;
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

/* The interposer is looked up by name (it is optional: LD_PRELOAD); nodes 0
 * and 1 count only when both have it. */
static void counting_setup(void) {
  pmpi_total = (unsigned long long (*)(int))dlsym(RTLD_DEFAULT, "stp_pmpi_total");
  if (me > 1) return;
  int have = pmpi_total != NULL; /* a variable: real GASNet's macros do not parenthesize arguments */
  CHECK(gasnet_AMRequestShort1(peer, H_HELLO, have));
  GASNET_BLOCKUNTIL(hello);
  counting = pmpi_total && peer_has_count;
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
  "  ammedbw    AM Medium flood: gasnet_AMRequestMedium0 x iters of n bytes,\n"
  "             each answered by an AM Short reply, then wait for all replies;\n"
  "             8 B .. 64 KiB (capped as ammedium); usec/op = 1 / message rate\n"
  "  oosputbw   blocking gasnet_put_bulk from a malloc'd out-of-segment source\n"
  "             (same address every time), 4 KiB .. 4 MiB, and the same from an\n"
  "             in-segment source (rows named oosputbw-seg)\n"
  "  oosslide   blocking gasnet_put_bulk from a 4 MiB window moving through a\n"
  "             buffer larger than the firehose cache may pin, 64 KiB .. 1 MiB\n"
  "             (not in the default list); firehose stage: the cache's hit rate,\n"
  "             pinned peak and calls to find each new window\n"
  "  amlong     AM Long ping-pong round trip (seed 002 Fig. 1-2, GASNet testam):\n"
  "             gasnet_AMRequestLong0 of n bytes segment to segment, the handler\n"
  "             answers gasnet_AMReplyLong0 of the same n bytes into node 0's\n"
  "             segment; 8 B .. 64 KiB (capped at the smaller of\n"
  "             gasnet_AMMaxLongRequest() and gasnet_AMMaxLongReply())\n"
  "  amlongbw   AM Long flood (seed 000's flood methodology): gasnet_\n"
  "             AMRequestLongAsync0 x iters of n bytes to one address, each\n"
  "             answered by an AM Short reply, then wait for all replies;\n"
  "             1 KiB .. 1 MiB (capped at gasnet_AMMaxLongRequest())\n"
  "  aminject   AM Long injection overhead vs queue depth (seed 002 Fig. 3,\n"
  "             GASNet testqueue -l -i): mean time inside gasnet_AMRequestLong-\n"
  "             Async0 of --inject-size bytes (malloc'd source) in bursts of Q\n"
  "             back-to-back requests, each burst's replies awaited untimed;\n"
  "             the size column is Q = 1, step, step^2 .. --inject-depth (-m/-M\n"
  "             do not apply); iters bursts per Q (within --max-bytes)\n"
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
  "      --inject-size B  aminject's payload (default 4K, seed 002 Fig. 3's\n"
  "                       smallest; capped at gasnet_AMMaxLongRequest())\n"
  "      --inject-depth Q aminject's largest queue depth (default 256, as seed\n"
  "                       002's testqueue run)\n"
  "      --csv FILE       append rows: stage,test,size,iters,usec_per_op,MB_per_s,\n"
  "                       mpi_msgs_per_op,counters_per_op (MB = 2^20 bytes;\n"
  "                       header written when FILE is new; iters = operations\n"
  "                       timed; aminject's MB/s is its payload over the time\n"
  "                       inside the call)\n"
  "      --label NAME     stage name in the output (default: the stageport\n"
  "                       stage, or gasnet-<conduit> for a real GASNet build)\n"
  "      --list-stages    print the stages this library was built with, one a\n"
  "                       line, and exit (no launcher needed)\n"
  "      --no-papi        do not try PAPI hardware counters\n"
  "  -h, --help           this text\n"
  "\n"
  "MPI messages per operation (mpi_msgs_per_op; empty otherwise): when a PMPI\n"
  "interposer exporting unsigned long long stp_pmpi_total(int what) is loaded\n"
  "on nodes 0 and 1 (LD_PRELOAD), the messages both send during each timed run\n"
  "(what = 2), divided by the operations; node 1 then polls during the run\n"
  "instead of waiting in the barrier.\n"
  "\n"
  "PAPI counters per operation (counters_per_op, e.g.\n"
  "\"PAPI_TOT_CYC=312.4000;PAPI_TOT_INS=289.0000\"; empty otherwise): node 0's\n"
  "cycles, instructions, L1 data and L2 cache misses over the whole timed run\n"
  "(polling included), those of them the machine counts; a line \"PAPI: ...\"\n"
  "says which.\n";

enum { OPT_LIST_STAGES = 2000, OPT_NO_PAPI, OPT_INJECT_SIZE, OPT_INJECT_DEPTH };
static const struct option extra_opts[] = {
  {"list-stages", no_argument, NULL, OPT_LIST_STAGES},
  {"no-papi", no_argument, NULL, OPT_NO_PAPI},
  {"inject-size", required_argument, NULL, OPT_INJECT_SIZE},
  {"inject-depth", required_argument, NULL, OPT_INJECT_DEPTH},
  {NULL, 0, NULL, 0},
};
typedef struct { int list_stages, no_papi; } extra_t;

static int extra_cb(int val, const char *arg, void *ctx) {
  extra_t *x = ctx;
  if (val == OPT_LIST_STAGES) x->list_stages = 1;
  else if (val == OPT_NO_PAPI) x->no_papi = 1;
  else if (val == OPT_INJECT_SIZE) return bu_parse_size(arg, &inject_size);
  else if (val == OPT_INJECT_DEPTH) return bu_parse_size(arg, &inject_depth) || inject_depth < 1 ? -1 : 0;
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
  int inject_capped = inject_size > gasnet_AMMaxLongRequest();
  if (inject_capped) inject_size = gasnet_AMMaxLongRequest();

  /* segment: the largest size any selected test moves, whole pages, with
   * room for the sanity check */
  size_t need = 2 * 256;
  for (size_t i = 0; i < NTESTS; i++) {
    size_t lo, hi;
    if (!test_selected(&tests[i], &o)) continue;
    test_range(&tests[i], &o, &lo, &hi);
    if (tests[i].depth) hi = inject_size;
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
  counting_setup();

  bu_report_t rep = {NULL, NULL, 0};
  if (me == 0 && bu_list_has(o.tests ? o.tests : DEFAULT_TESTS, "oosslide")) {
    slide_size(&slide_bytes);
    if (!(slidebuf = malloc(slide_bytes))) die("malloc (oosslide's buffer)", -1);
    memset(slidebuf, 1, slide_bytes);
  }
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
    if (counting)
      printf("# MPI messages per operation: counted (stp_pmpi_total, nodes 0 and 1, timed runs)\n");
    else if (pmpi_total || peer_has_count)
      printf("# MPI messages per operation: not counted (stp_pmpi_total on node %d only)\n",
             pmpi_total ? 0 : 1);
    if (!x.no_papi) papi_setup();
    if (bu_report_open(&rep, o.csv, PAPI_COLUMN, counting) != 0) gasnet_exit(1);
    bu_report_header(&rep);
  }
  sanity_check();

  for (size_t i = 0; i < NTESTS; i++) {
    const test_t *t = &tests[i];
    size_t lo, hi, sizes[64];
    if (!test_selected(t, &o)) continue;
    if (me == 0) printf("# %s: %s\n", t->name, t->about);
    if (test_range(t, &o, &lo, &hi) && me == 0)
      printf("# %s: sizes capped at the maximum, %zu bytes\n", t->name, hi);
    if (t->depth && me == 0)
      printf("# %s: size column = queue depth Q; payload %zu bytes%s\n", t->name, inject_size,
             inject_capped ? " (--inject-size capped at gasnet_AMMaxLongRequest())" : "");
    size_t ns = lo > hi ? 0 : bu_sizes(lo, hi, o.step, sizes, 64);
    for (size_t k = 0; k < ns; k++) {
      size_t bytes = t->depth ? inject_size : sizes[k]; /* per operation */
      long iters = bu_iters_for(t->depth ? sizes[k] * bytes : bytes, o.iters, o.max_bytes);
      long ops = t->depth ? iters * (long)sizes[k] : iters;
      long long ctr[PAPI_MAX_EVENTS];
      int nctr;
      double msgs;
      double usec = measure(t, sizes[k], iters, bu_warmup_for(iters, o.warmup), ops, ctr, &nctr, &msgs);
      if (me == 0) {
        char cell[96], counters[192];
        papi_per_op(ctr, nctr, ops, cell, sizeof cell, counters, sizeof counters);
        bu_row_t row = {.stage = stage_name, .test = t->name, .size = sizes[k], .bytes = bytes, .iters = ops,
                        .usec_per_op = usec, .extra = nctr ? cell : NULL, .msgs = msgs,
                        .counters = nctr ? counters : NULL};
        bu_report_row(&rep, &row);
      }
      if (t->run == run_oosslide) slide_report(sizes[k]);
    }
  }

  if (me == 0) bu_report_close(&rep);
  barrier();
  free(si);
  free(oosbuf);
  free(slidebuf);
  gasnet_exit(0);
  return 0;
}
