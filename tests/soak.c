/*
 * soak.c -- a long flood of AMs and Puts/Gets, with every node's resident
 * memory sampled: after warm-up it must not grow (no leak per operation).
 *
 *   mpirun -np N soak [--seconds S] [--warmup W] [--max-growth KIB]
 *
 * Each node, for S seconds: AM Short and Medium requests to every other
 * node (replied to), Long requests, non-blocking Puts and Gets (in and out
 * of the segment) synchronized in batches, every payload verified.  Each
 * second every node samples its RSS (/proc/self/statm).  After the
 * warm-up W its resident memory must not grow by more than the limit
 * (default 1024 KiB: a leak of one byte per operation would be tens of MiB
 * here; a few pages come and go); the samples after the warm-up are also
 * fitted with a line (least squares) and its slope reported.  Node 0 prints
 * one line per node and "ok soak: ..." or "FAIL soak: ...".  Uses only
 * gasnet.h.
 */
#define _GNU_SOURCE 1
#include <gasnet.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef __typeof__(((gasnet_handlerentry_t *)0)->fnptr) handlerfn_t;

enum { H_SHORT = 200, H_SHORT_REP, H_MED, H_MED_REP, H_LONG, H_STATS };
#define MAXS 4096
#define BATCH 64
#define CHUNK 8192

static gasnet_node_t me, nodes;
static gasnet_seginfo_t *seg;
static volatile long replies, bad;
static double rss_kib[MAXS];
static int nsamples;
static volatile int stats_in;
static double slope_of[64], last_rss[64], growth_of[64];

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double rss(void) {
  long pages = 0, res = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%ld %ld", &pages, &res) != 2) res = 0;
    fclose(f);
  }
  return (double)res * (double)sysconf(_SC_PAGESIZE) / 1024.0;
}

/* a payload made by filling with seed + i: count it wrong if it is not */
static void check(const void *buf, size_t n, unsigned seed) {
  const unsigned char *p = buf;
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(seed + i)) {
      bad++;
      return;
    }
}

static void h_short(gasnet_token_t t, gasnet_handlerarg_t a) { gasnet_AMReplyShort1(t, H_SHORT_REP, a + 1); }
static void h_short_rep(gasnet_token_t t, gasnet_handlerarg_t a) {
  (void)t;
  if (a == 0) bad++;
  replies++;
}
static void h_med(gasnet_token_t t, void *buf, size_t n, gasnet_handlerarg_t seed) {
  check(buf, n, (unsigned)seed);
  gasnet_AMReplyMedium1(t, H_MED_REP, buf, n / 2, seed);
}
static void h_med_rep(gasnet_token_t t, void *buf, size_t n, gasnet_handlerarg_t seed) {
  (void)t;
  check(buf, n, (unsigned)seed);
  replies++;
}
static void h_long(gasnet_token_t t, void *buf, size_t n, gasnet_handlerarg_t seed) {
  (void)t;
  check(buf, n, (unsigned)seed);
}
/* node i's slope (milli-KiB/min), last RSS and growth after warm-up (KiB) */
static void h_stats(gasnet_token_t t, gasnet_handlerarg_t node, gasnet_handlerarg_t slope_m, gasnet_handlerarg_t last,
                    gasnet_handlerarg_t growth) {
  (void)t;
  if ((gasnet_node_t)node < 64) {
    slope_of[node] = slope_m / 1000.0;
    last_rss[node] = last;
    growth_of[node] = growth;
  }
  stats_in++;
}
static gasnet_handlerentry_t table[] = {
    {H_SHORT, (handlerfn_t)h_short}, {H_SHORT_REP, (handlerfn_t)h_short_rep}, {H_MED, (handlerfn_t)h_med},
    {H_MED_REP, (handlerfn_t)h_med_rep}, {H_LONG, (handlerfn_t)h_long},     {H_STATS, (handlerfn_t)h_stats},
};

static void barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}

int main(int argc, char **argv) {
  double seconds = 60, warmup = 10, max_growth = 1024, t0, next;
  long ops = 0;
  unsigned char *out, *in, medbuf[1024];
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seconds") && i + 1 < argc) seconds = atof(argv[++i]);
    else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) warmup = atof(argv[++i]);
    else if (!strcmp(argv[i], "--max-growth") && i + 1 < argc) max_growth = atof(argv[++i]);
    else if (!strcmp(argv[i], "--help")) {
      printf("usage: mpirun -np N soak [--seconds S] [--warmup W] [--max-growth KIB]\n");
      return 0;
    }
  }
  if (gasnet_init(&argc, &argv) != GASNET_OK) return 3;
  me = gasnet_mynode();
  nodes = gasnet_nodes();
  if (nodes < 2 || nodes > 64) {
    if (!me) fprintf(stderr, "soak: needs 2..64 nodes\n");
    gasnet_exit(3);
  }
  if (gasnet_attach(table, (int)(sizeof(table) / sizeof(table[0])), (uintptr_t)nodes * CHUNK * 4, 0) != GASNET_OK)
    gasnet_exit(3);
  seg = calloc(nodes, sizeof(*seg));
  gasnet_getSegmentInfo(seg, (int)nodes);
  out = malloc(CHUNK * 2);
  in = malloc(CHUNK * 2);
  barrier();

  t0 = next = now();
  for (long round = 0;; round++) {
    gasnet_node_t peer = (gasnet_node_t)((me + 1 + round % (nodes - 1)) % nodes);
    unsigned char seed = (unsigned char)round;
    char *slot = (char *)seg[peer].addr + (size_t)me * CHUNK * 4; /* this node's slice of the peer's segment */
    long want = replies + 2 * BATCH;
    for (size_t i = 0; i < sizeof(medbuf); i++) medbuf[i] = (unsigned char)(seed + i);
    for (size_t i = 0; i < CHUNK; i++) out[i] = (unsigned char)(seed + i);
    for (int k = 0; k < BATCH; k++) {
      gasnet_AMRequestShort1(peer, H_SHORT, k + 1);
      gasnet_AMRequestMedium1(peer, H_MED, medbuf, sizeof(medbuf), seed);
    }
    gasnet_AMRequestLong1(peer, H_LONG, out, CHUNK, slot + CHUNK * 2, seed);
    for (int k = 0; k < 8; k++) {
      gasnet_put_nbi_bulk(peer, slot, out, CHUNK);                                        /* out of the segment */
      gasnet_put_nbi(peer, slot + CHUNK, (char *)seg[me].addr + (size_t)me * CHUNK * 4 + CHUNK * 3, 256);
    }
    gasnet_wait_syncnbi_puts();
    gasnet_get_nbi_bulk(in, peer, slot, CHUNK);
    gasnet_wait_syncnbi_gets();
    if (memcmp(in, out, CHUNK)) bad++;
    GASNET_BLOCKUNTIL(replies >= want);
    ops += 4 * BATCH + 19;
    if (now() >= next) { /* a sample a second */
      if (nsamples < MAXS) rss_kib[nsamples++] = rss();
      next += 1;
    }
    if (now() - t0 >= seconds) break;
  }
  barrier(); /* (everybody stopped sending) */

  /* least squares over the samples after the warm-up: KiB per minute */
  double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0, slope = 0;
  for (int i = (int)warmup; i < nsamples; i++, n++) {
    sx += i;
    sy += rss_kib[i];
    sxx += (double)i * i;
    sxy += (double)i * rss_kib[i];
  }
  if (n >= 2) slope = 60 * (n * sxy - sx * sy) / (n * sxx - sx * sx);
  double growth = nsamples > (int)warmup ? rss_kib[nsamples - 1] - rss_kib[(int)warmup] : 0;
  gasnet_AMRequestShort4(0, H_STATS, (gasnet_handlerarg_t)me, (gasnet_handlerarg_t)(slope * 1000),
                         (gasnet_handlerarg_t)(nsamples ? rss_kib[nsamples - 1] : 0), (gasnet_handlerarg_t)growth);
  if (me == 0) {
    int fails = 0;
    GASNET_BLOCKUNTIL(stats_in == (int)nodes);
    for (gasnet_node_t i = 0; i < nodes; i++) {
      printf("soak: node %u: RSS %.0f KiB at the end, %+.0f KiB after %.0f s of warm-up, slope %+.1f KiB/min\n",
             (unsigned)i, last_rss[i], growth_of[i], warmup, slope_of[i]);
      if (growth_of[i] > max_growth) fails++;
    }
    if (fails || bad)
      printf("FAIL soak: %d nodes grew by more than %.0f KiB after warm-up; %ld payloads wrong on node 0\n", fails,
             max_growth, (long)bad);
    else
      printf("ok soak: %u nodes, %.0f s, %ld operations per node, %d samples each, growth after warm-up <= %.0f KiB\n",
             (unsigned)nodes, seconds, ops, nsamples, max_growth);
    fflush(stdout);
    barrier();
    gasnet_exit(fails || bad ? 1 : 0);
  }
  barrier();
  gasnet_exit(bad ? 1 : 0);
  return 0;
}
