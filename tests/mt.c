/*
 * mt.c -- multi-threaded conformance (GASNET_PAR): several client threads
 * per process put, get, send Active Messages and poll at once, while one
 * more thread only polls (a progress thread, as OpenSHMEM over GASNet runs
 * one); every byte and every reply is checked.
 *
 * Only the GASNet-1 API (gasnet.h, compiled with GASNET_PAR) is used, and
 * MPI for --mpi-first (a client that starts MPI itself).
 *
 *   mt [--threads T] [--rounds R] [--no-poller]
 *   mt --mpi-first funneled|serialized
 *
 * --mpi-first: the client initialises MPI itself at that thread level
 * before gasnet_init.  FUNNELED is too little for a GASNET_PAR client:
 * gasnet_init must refuse it (GASNET_ERR_RESOURCE, and a line naming both
 * levels), and the test prints "ok mt: node N: ..." and ends MPI itself;
 * SERIALIZED is enough: the test runs as without the option.
 *
 * Segment layout: slot(src, t) = base + (src * T + t) * SLOT, written only
 * by thread t of node src; its first half takes puts and Long requests,
 * its second half is that thread's memset area.  Each round, every worker
 * thread of every node, against the next node (and itself every 4th
 * round):
 *   - blocking put/get, non-blocking put/get with explicit handles,
 *     implicit-handle puts/gets synchronized by this thread alone (other
 *     threads' implicit operations are theirs: GASNet's per-thread rule),
 *     an access region, memset, value put/get;
 *   - AM Short, Medium and Long requests to a random node, each answered by
 *     a reply carrying the request's arguments (and payload) back;
 *   - an HSL-protected counter bumped by request handlers, checked at the end.
 * Output: "PASS mt: node N: ..." or "FAIL mt: node N: ..." lines; exit 0
 * when every check held on every node.
 */
#ifndef GASNET_PAR
#define GASNET_PAR 1
#endif
#include <gasnet.h>

#include <mpi.h>

#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLOT ((uintptr_t)128 * 1024)
#define HALFSLOT (SLOT / 2)
#define MAXT 32
#define MEDIUM_MAX 1024
#define LONG_MAX_BYTES 8192
/* Long requests of even and odd rounds land in two areas of the second half */
#define LONGOFF(round) (HALFSLOT + 16384 + (uintptr_t)((round) % 2) * LONG_MAX_BYTES)

enum { H_SHORT = 201, H_SHORT_REP, H_MED, H_MED_REP, H_LONG, H_LONG_REP };

static gasnet_node_t me, nn;
static gasnet_seginfo_t *seg;
static int nthreads = 4, rounds = 200, poller = 1;
static atomic_long fails;
static atomic_int stop_polling;

/* per thread: replies received, and the last reply's checks */
static struct {
  atomic_long replies;
  atomic_long longs; /* Long replies */
  atomic_long long_done[2]; /* the round + 1 of the latest Long reply, by the area (round parity) it used */
  atomic_long bad;
} per[MAXT];

static gasnet_hsl_t hsl = GASNET_HSL_INITIALIZER;
static long requests_seen; /* under hsl */

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...) {
  va_list ap;
  if (atomic_fetch_add(&fails, 1) >= 10) return;
  char msg[512];
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  printf("FAIL mt: node %u: %s\n", (unsigned)me, msg);
  fflush(stdout);
}

static uint8_t *slot(gasnet_node_t node, gasnet_node_t src, int t) {
  return (uint8_t *)seg[node].addr + ((uintptr_t)src * (uintptr_t)nthreads + (uintptr_t)t) * SLOT;
}

/* after every slot: where nodes leave their request counts at the end */
static long *counts(gasnet_node_t node) { return (long *)slot(node, nn, 0); }

static uint8_t pat(unsigned src, int t, int round, size_t i) {
  return (uint8_t)(src * 131u + (unsigned)t * 17u + (unsigned)round * 7u + (unsigned)(i * 2654435761u >> 7));
}

static void fill(uint8_t *b, size_t n, unsigned src, int t, int round) {
  for (size_t i = 0; i < n; i++) b[i] = pat(src, t, round, i);
}

static size_t first_bad(const uint8_t *b, size_t n, unsigned src, int t, int round) {
  for (size_t i = 0; i < n; i++)
    if (b[i] != pat(src, t, round, i)) return i;
  return n;
}

/* ---------------------------------------------------------------- handlers */
static void count_request(void) {
  gasnet_hsl_lock(&hsl);
  requests_seen++;
  gasnet_hsl_unlock(&hsl);
}

static void h_short(gasnet_token_t tok, gasnet_handlerarg_t t, gasnet_handlerarg_t seq, gasnet_handlerarg_t x) {
  count_request();
  gasnet_AMReplyShort3(tok, H_SHORT_REP, t, seq, x ^ 0x5a5a);
}
static void h_short_rep(gasnet_token_t tok, gasnet_handlerarg_t t, gasnet_handlerarg_t seq, gasnet_handlerarg_t x) {
  (void)tok;
  if (t < 0 || t >= nthreads) {
    fail("Short reply for thread %d", (int)t);
    return;
  }
  if ((x ^ 0x5a5a) != seq * 3 + t) atomic_fetch_add(&per[t].bad, 1);
  atomic_fetch_add(&per[t].replies, 1);
}

static void h_med(gasnet_token_t tok, void *buf, size_t n, gasnet_handlerarg_t src, gasnet_handlerarg_t t,
                  gasnet_handlerarg_t round) {
  count_request();
  if (first_bad(buf, n, (unsigned)src, t, round) != n) fail("Medium request payload from node %d thread %d wrong", (int)src, (int)t);
  gasnet_AMReplyMedium3(tok, H_MED_REP, buf, n, src, t, round);
}
static void h_med_rep(gasnet_token_t tok, void *buf, size_t n, gasnet_handlerarg_t src, gasnet_handlerarg_t t,
                      gasnet_handlerarg_t round) {
  (void)tok;
  if (t < 0 || t >= nthreads || src != (gasnet_handlerarg_t)me) {
    fail("Medium reply for node %d thread %d", (int)src, (int)t);
    return;
  }
  if (first_bad(buf, n, (unsigned)src, t, round) != n) atomic_fetch_add(&per[t].bad, 1);
  atomic_fetch_add(&per[t].replies, 1);
}

static void h_long(gasnet_token_t tok, void *buf, size_t n, gasnet_handlerarg_t src, gasnet_handlerarg_t t,
                   gasnet_handlerarg_t round) {
  count_request();
  if (src < 0 || src >= (gasnet_handlerarg_t)nn || t < 0 || t >= nthreads) {
    fail("Long request from node %d thread %d", (int)src, (int)t);
    return;
  }
  if ((uint8_t *)buf != slot(me, (gasnet_node_t)src, t) + LONGOFF(round) || first_bad(buf, n, (unsigned)src, t, round) != n)
    fail("Long request from node %d thread %d: payload wrong or misplaced", (int)src, (int)t);
  gasnet_AMReplyShort3(tok, H_LONG_REP, t, (gasnet_handlerarg_t)n, round);
}
static void h_long_rep(gasnet_token_t tok, gasnet_handlerarg_t t, gasnet_handlerarg_t n, gasnet_handlerarg_t round) {
  (void)tok;
  (void)n;
  if (t < 0 || t >= nthreads) {
    fail("Long reply for thread %d", (int)t);
    return;
  }
  atomic_fetch_add(&per[t].longs, 1);
  if (round >= 0) { /* AMs are not ordered: round r may be answered before round r - 1 */
    long prev = atomic_load(&per[t].long_done[round % 2]);
    while (prev < (long)round + 1 && !atomic_compare_exchange_weak(&per[t].long_done[round % 2], &prev, (long)round + 1)) {
    }
  }
  atomic_fetch_add(&per[t].replies, 1);
}

/* the table's function type (GASNet-1 spells it void (*)()) */
typedef __typeof__(((gasnet_handlerentry_t *)0)->fnptr) handlerfn_t;
static gasnet_handlerentry_t table[] = {
    {H_SHORT, (handlerfn_t)h_short}, {H_SHORT_REP, (handlerfn_t)h_short_rep},
    {H_MED, (handlerfn_t)h_med},     {H_MED_REP, (handlerfn_t)h_med_rep},
    {H_LONG, (handlerfn_t)h_long},   {H_LONG_REP, (handlerfn_t)h_long_rep},
};

/* ---------------------------------------------------------------- workers */
static uint64_t xorshift(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static void check(const uint8_t *b, size_t n, unsigned src, int t, int round, const char *what, int tid) {
  size_t i = first_bad(b, n, src, t, round);
  if (i != n) fail("thread %d round %d: %s: byte %zu of %zu is %u, expected %u", tid, round, what, i, n, b[i],
                   pat(src, t, round, i));
}

static void *worker(void *arg) {
  int t = (int)(intptr_t)arg;
  uint64_t rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)me << 32) ^ (uint64_t)(t + 1);
  uint8_t *src = malloc(HALFSLOT), *dst = malloc(HALFSLOT);
  long sent = 0;
  if (!src || !dst) {
    fail("out of memory");
    return NULL;
  }
  for (int r = 0; r < rounds; r++) {
    gasnet_node_t peer = (r % 4 == 3) ? me : (gasnet_node_t)((me + 1) % nn);
    uint8_t *remote = slot(peer, me, t);
    size_t n = 1 + (size_t)(xorshift(&rng) % (HALFSLOT / 2));
    gasnet_handle_t h[2];

    /* blocking put, blocking get */
    fill(src, n, me, t, r);
    gasnet_put(peer, remote, src, n);
    memset(dst, 0, n);
    gasnet_get(dst, peer, remote, n);
    check(dst, n, me, t, r, "blocking put then get", t);

    /* explicit handles: a put, then a get of the same bytes */
    fill(src, n, me, t, r + 1);
    h[0] = gasnet_put_nb_bulk(peer, remote, src, n);
    gasnet_wait_syncnb(h[0]);
    memset(dst, 0, n);
    h[0] = gasnet_get_nb_bulk(dst, peer, remote, n / 2);
    h[1] = gasnet_get_nb(dst + n / 2, peer, remote + n / 2, n - n / 2);
    gasnet_wait_syncnb_all(h, 2);
    check(dst, n, me, t, r + 1, "nb put then nb gets", t);

    /* implicit handles: this thread's sync covers this thread's ops */
    fill(src, n, me, t, r + 2);
    gasnet_put_nbi_bulk(peer, remote, src, n / 2);
    gasnet_put_nbi(peer, remote + n / 2, src + n / 2, n - n / 2);
    gasnet_wait_syncnbi_puts();
    memset(dst, 0, n);
    gasnet_get_nbi_bulk(dst, peer, remote, n);
    gasnet_wait_syncnbi_gets();
    check(dst, n, me, t, r + 2, "nbi puts then nbi get", t);

    /* an access region: two puts, one handle */
    fill(src, n, me, t, r + 3);
    gasnet_begin_nbi_accessregion();
    gasnet_put_nbi_bulk(peer, remote, src, n / 2);
    gasnet_put_nbi_bulk(peer, remote + n / 2, src + n / 2, n - n / 2);
    h[0] = gasnet_end_nbi_accessregion();
    gasnet_wait_syncnb(h[0]);
    memset(dst, 0, n);
    gasnet_get_bulk(dst, peer, remote, n);
    check(dst, n, me, t, r + 3, "access region puts", t);

    /* memset and value put/get in the second half of the slot */
    {
      size_t m = 1 + (size_t)(xorshift(&rng) % 4096);
      uint8_t v = (uint8_t)(r + t);
      gasnet_memset(peer, remote + HALFSLOT, v, m);
      gasnet_get(dst, peer, remote + HALFSLOT, m);
      for (size_t i = 0; i < m; i++)
        if (dst[i] != v) {
          fail("thread %d round %d: memset byte %zu is %u, expected %u", t, r, i, dst[i], v);
          break;
        }
      gasnet_register_value_t val = (xorshift(&rng) & 0xffffffffull) | ((uint64_t)t << 40);
      gasnet_put_val(peer, remote + HALFSLOT + 8192, val, 8);
      gasnet_register_value_t got = gasnet_get_val(peer, remote + HALFSLOT + 8192, 8);
      if (got != val) fail("thread %d round %d: value get %llx, expected %llx", t, r, (unsigned long long)got,
                           (unsigned long long)val);
    }

    /* Active Messages: Short, Medium and Long, each answered */
    {
      gasnet_node_t dest = (gasnet_node_t)(xorshift(&rng) % nn);
      size_t m = (size_t)(xorshift(&rng) % (MEDIUM_MAX + 1));
      size_t l = 1 + (size_t)(xorshift(&rng) % LONG_MAX_BYTES);
      gasnet_AMRequestShort3(dest, H_SHORT, t, r, r * 3 + t);
      fill(src, m, me, t, r);
      gasnet_AMRequestMedium3(dest, H_MED, src, m, me, t, r);
      fill(src, l, me, t, r);
      /* round r - 2's Long used this area: wait until its handler has run
       * (its reply is in; AMs are not ordered, so round r - 1's may come
       * first) */
      GASNET_BLOCKUNTIL(r < 2 || atomic_load(&per[t].long_done[r % 2]) >= r - 1);
      gasnet_AMRequestLong3(peer, H_LONG, src, l, remote + LONGOFF(r), me, t, r);
      sent += 3;
      if (r % 8 == 0) gasnet_AMPoll();
    }
    GASNET_BLOCKUNTIL(atomic_load(&per[t].replies) >= sent - 6); /* at most two rounds of AMs in flight */
  }
  GASNET_BLOCKUNTIL(atomic_load(&per[t].replies) == sent);
  if (atomic_load(&per[t].bad)) fail("thread %d: %ld replies carried wrong arguments or payloads", t,
                                     atomic_load(&per[t].bad));
  /* the last round's bytes stay in the next node's slot for the final check */
  fill(src, HALFSLOT, me, t, rounds);
  gasnet_put_bulk((gasnet_node_t)((me + 1) % nn), slot((gasnet_node_t)((me + 1) % nn), me, t), src, HALFSLOT);
  free(src);
  free(dst);
  return (void *)(intptr_t)sent;
}

static void *poll_thread(void *arg) {
  (void)arg;
  while (!atomic_load(&stop_polling)) {
    gasnet_AMPoll();
    sched_yield();
  }
  return NULL;
}

/* --mpi-first LEVEL: MPI initialised by the client, then gasnet_init (its
 * result in *rc).  -1: no such option; 1: the FUNNELED check is done (the
 * caller ends); 0: go on. */
static int mpi_first(int *argc, char ***argv, int *rc) {
  int provided, rank, level = -1;
  for (int i = 1; i + 1 < *argc; i++)
    if (!strcmp((*argv)[i], "--mpi-first"))
      level = !strcmp((*argv)[i + 1], "funneled") ? MPI_THREAD_FUNNELED : MPI_THREAD_SERIALIZED;
  if (level < 0) return -1;
  MPI_Init_thread(argc, argv, level, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  *rc = gasnet_init(argc, argv);
  if (level == MPI_THREAD_FUNNELED) {
    if (*rc == GASNET_ERR_RESOURCE)
      printf("ok mt: node %d: gasnet_init refused MPI_THREAD_FUNNELED for a GASNET_PAR client\n", rank);
    else
      printf("FAIL mt: node %d: gasnet_init returned %d with MPI at MPI_THREAD_FUNNELED, expected "
             "GASNET_ERR_RESOURCE\n", rank, *rc);
    fflush(stdout);
    MPI_Finalize();
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  pthread_t th[MAXT], pt;
  long sent = 0;
  int rc = GASNET_OK, first = mpi_first(&argc, &argv, &rc);
  if (first == 1) return 0;
  if (first < 0) rc = gasnet_init(&argc, &argv);
  if (rc != GASNET_OK) {
    fprintf(stderr, "FAIL mt: gasnet_init returned %d\n", rc);
    return 1;
  }
  me = gasnet_mynode();
  nn = gasnet_nodes();
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--threads") && i + 1 < argc) nthreads = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--no-poller")) poller = 0;
    else if (!strcmp(argv[i], "--mpi-first") && i + 1 < argc) i++; /* (serialized: taken above) */
    else {
      if (me == 0) fprintf(stderr, "usage: mt [--threads T (1..%d)] [--rounds R] [--no-poller]\n", MAXT);
      gasnet_exit(2);
    }
  }
  if (nthreads < 1 || nthreads > MAXT || rounds < 1) {
    if (me == 0) fprintf(stderr, "mt: --threads 1..%d, --rounds >= 1\n", MAXT);
    gasnet_exit(2);
  }
#if !defined(GASNET_PAR) || GASNET_PAR != 1 || defined(GASNET_SEQ)
  fail("gasnet.h did not select GASNET_PAR");
#endif
  if (!strstr(GASNET_CONFIG_STRING, "THREADMODEL=PAR")) fail("GASNET_CONFIG_STRING says %s", GASNET_CONFIG_STRING);
  rc = gasnet_attach(table, (int)(sizeof(table) / sizeof(table[0])),
                     ((uintptr_t)nn * (uintptr_t)nthreads + 1) * SLOT, 0);
  if (rc != GASNET_OK) {
    fprintf(stderr, "FAIL mt: node %u: gasnet_attach returned %d\n", (unsigned)me, rc);
    gasnet_exit(1);
  }
  seg = calloc(nn, sizeof(*seg));
  if (!seg || gasnet_getSegmentInfo(seg, (int)nn) != GASNET_OK) {
    fprintf(stderr, "FAIL mt: node %u: gasnet_getSegmentInfo\n", (unsigned)me);
    gasnet_exit(1);
  }
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);

  if (poller && pthread_create(&pt, NULL, poll_thread, NULL)) {
    fail("pthread_create");
    gasnet_exit(1);
  }
  for (int t = 0; t < nthreads; t++)
    if (pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t)) {
      fail("pthread_create");
      gasnet_exit(1);
    }
  for (int t = 0; t < nthreads; t++) {
    void *r;
    pthread_join(th[t], &r);
    sent += (long)(intptr_t)r;
  }
  /* the poller keeps serving peers' requests until every node is done */
  gasnet_barrier_notify(1, 0);
  if ((rc = gasnet_barrier_wait(1, 0)) != GASNET_OK) fail("barrier 1 returned %d", rc);
  atomic_store(&stop_polling, 1);
  if (poller) pthread_join(pt, NULL);

  /* every node's last puts into my segment */
  {
    gasnet_node_t from = (gasnet_node_t)((me + nn - 1) % nn);
    for (int t = 0; t < nthreads; t++) check(slot(me, from, t), HALFSLOT, from, t, rounds, "final puts into my segment", t);
  }
  /* requests: every node's count, summed, is every node's sends */
  {
    long seen;
    gasnet_hsl_lock(&hsl);
    seen = requests_seen;
    gasnet_hsl_unlock(&hsl);
    long *all = counts(me);
    long mine[2] = {seen, sent};
    for (gasnet_node_t p = 0; p < nn; p++) gasnet_put(p, counts(p) + 2 * me, mine, sizeof(mine));
    gasnet_barrier_notify(2, 0);
    gasnet_barrier_wait(2, 0);
    long tot_seen = 0, tot_sent = 0;
    for (gasnet_node_t p = 0; p < nn; p++) tot_seen += all[2 * p], tot_sent += all[2 * p + 1];
    if (tot_seen != tot_sent) fail("requests handled on all nodes %ld, sent %ld", tot_seen, tot_sent);
  }
  /* say so before the last barrier: once past it, a node's gasnet_exit
   * may end this process */
  if (atomic_load(&fails) == 0)
    printf("PASS mt: node %u: %d threads%s x %d rounds, %ld AM requests answered\n", (unsigned)me, nthreads,
           poller ? " + a polling thread" : "", rounds, sent);
  fflush(stdout);
  gasnet_barrier_notify(3, 0);
  gasnet_barrier_wait(3, 0);
  gasnet_exit(atomic_load(&fails) ? 1 : 0);
  return 0;
}
