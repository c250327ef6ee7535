/*
 * amflood.c -- AM flood throughput with every node sending at once, and the
 * AM receive memory each node reserved (issue: dynamic AM credits, seed 000
 * section 4.7).  Written against gasnet.h (and stageport.h for the memory
 * and credit counters), so it runs on every stage.
 *
 * Every node sends --msgs AM Medium requests of --size bytes (from its
 * segment) as fast as the library takes them, each answered by a Short
 * reply, then waits for all its replies; a barrier on each side of the
 * flood.  Patterns:
 *   nn   nearest neighbours: alternately to node me+1 and me-1
 *   ring to the right neighbour only, node me+1 (each node has one sender)
 *   a2a  all-to-all: round robin over every other node
 * Node 0 times each repetition from the barrier before to the barrier after
 * (so the slowest node counts) and prints one line per repetition:
 *
 *   amflood pattern=nn nodes=16 rep=3 msgs=160000 sec=0.842 msgs_per_s=190023
 *
 * then a summary line with the median and the credits counters:
 *
 *   amflood-summary pattern=nn nodes=16 stage=portals credits=dynamic
 *     recv_bytes=... median_msgs_per_s=... stalls=... borrowed=... reclaims=...
 *
 *   STAGEPORT_STAGE=portals mpirun -np 16 --oversubscribe bench/amflood -p nn
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#endif
#include <gasnet.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#include <stageport.h>

#include "benchutil.h"

#define H_REQ 201
#define H_REP 202

static volatile long replies;

static void h_req(gasnet_token_t t, void *buf, size_t n) {
  (void)buf;
  (void)n;
  gasnet_AMReplyShort0(t, H_REP);
}
static void h_rep(gasnet_token_t t) {
  (void)t;
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

static void barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: mpirun -np N amflood [-p nn|ring|a2a] [-n MSGS] [-s BYTES] [-r REPS]\n"
          "  -p, --pattern P   nn: to node me+1 and me-1 in turn (default); ring: to node me+1 only;\n"
          "                    a2a: round robin over every other node\n"
          "  -n, --msgs N      requests each node sends per repetition (default 20000)\n"
          "  -s, --size B      AM Medium payload bytes (default 64)\n"
          "  -r, --reps R      timed repetitions after one untimed (default 5)\n"
          "Prints one line per repetition and a summary (median, AM receive memory, credits counters) from node 0.\n");
}

int main(int argc, char **argv) {
  static const struct option lo[] = {{"pattern", 1, 0, 'p'}, {"msgs", 1, 0, 'n'}, {"size", 1, 0, 's'},
                                     {"reps", 1, 0, 'r'},    {"help", 0, 0, 'h'},  {0, 0, 0, 0}};
  gasnet_handlerentry_t handlers[] = {{H_REQ, (handler_fn)h_req}, {H_REP, (handler_fn)h_rep}};
  const char *pattern = "nn";
  long msgs = 20000;
  size_t size = 64;
  int reps = 5, c;
  gasnet_node_t me, nodes;
  gasnet_seginfo_t *si;
  void *src;
  double *rate;
  stageport_am_credits_t cr;
  int have_cr;

  if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
  while ((c = getopt_long(argc, argv, "p:n:s:r:h", lo, NULL)) != -1) {
    switch (c) {
      case 'p': pattern = optarg; break;
      case 'n': msgs = atol(optarg); break;
      case 's': size = (size_t)atol(optarg); break;
      case 'r': reps = atoi(optarg); break;
      case 'h': usage(stdout); gasnet_exit(0); break;
      default: usage(stderr); gasnet_exit(2);
    }
  }
  if ((strcmp(pattern, "nn") && strcmp(pattern, "ring") && strcmp(pattern, "a2a")) || msgs < 1 || reps < 1) {
    usage(stderr);
    gasnet_exit(2);
  }
  if (gasnet_attach(handlers, 2, 1 << 20, 0) != GASNET_OK) gasnet_exit(1);
  me = gasnet_mynode();
  nodes = gasnet_nodes();
  if (size > gasnet_AMMaxMedium()) size = gasnet_AMMaxMedium();
  si = calloc(nodes, sizeof(*si));
  rate = calloc((size_t)reps, sizeof(*rate));
  if (!si || !rate || nodes < 2) {
    if (me == 0) fprintf(stderr, "amflood: needs 2 or more nodes\n");
    gasnet_exit(2);
  }
  gasnet_getSegmentInfo(si, (int)nodes);
  src = si[me].addr; /* payloads from this node's segment */

  for (int r = -1; r < reps; r++) { /* repetition -1: warm-up (grants grow, buffers fault in) */
    long want = replies + msgs;
    double t0;
    barrier();
    t0 = bu_now_usec();
    for (long i = 0; i < msgs; i++) {
      gasnet_node_t t;
      if (!strcmp(pattern, "nn")) t = (gasnet_node_t)((i & 1) ? (me + nodes - 1) % nodes : (me + 1) % nodes);
      else if (!strcmp(pattern, "ring")) t = (gasnet_node_t)((me + 1) % nodes);
      else t = (gasnet_node_t)((me + 1 + (gasnet_node_t)(i % (nodes - 1))) % nodes);
      gasnet_AMRequestMedium0(t, H_REQ, src, size);
    }
    GASNET_BLOCKUNTIL(replies >= want);
    barrier();
    if (r >= 0) {
      double sec = (bu_now_usec() - t0) / 1e6;
      rate[r] = (double)msgs * nodes / sec;
      if (me == 0)
        printf("amflood pattern=%s nodes=%u rep=%d msgs=%ld sec=%.4f msgs_per_s=%.0f\n", pattern, (unsigned)nodes, r,
               msgs * (long)nodes, sec, rate[r]);
    }
  }
  qsort(rate, (size_t)reps, sizeof(*rate), cmp_double);
  have_cr = !stageport_am_credits(&cr);
  if (me == 0) {
    printf("amflood-summary pattern=%s nodes=%u stage=%s size=%zu credits=%s recv_bytes=%zu median_msgs_per_s=%.0f",
           pattern, (unsigned)nodes, stageport_stage(), size, have_cr ? (cr.dynamic ? "dynamic" : "static") : "-",
           stageport_am_recv_bytes(), rate[reps / 2]);
    if (have_cr)
      printf(" capacity=%u initial=%u stalls=%llu borrowed=%llu lent=%llu reclaims=%llu released=%llu max_lent=%u", cr.capacity,
             cr.initial, cr.stalls, cr.borrowed, cr.lent, cr.reclaims, cr.released, cr.max_lent);
    printf("\n");
    fflush(stdout);
  }
  barrier();
  free(rate);
  free(si);
  gasnet_exit(0);
  return 0;
}
