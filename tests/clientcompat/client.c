/*
 * client.c -- a GASNet-1 client written as for any GASNet: gasnet.h only
 * (stageport.h when there is one, to say which stage ran), built by its
 * own Makefile through an installed conduit fragment and started by
 * gasnetrun (tests/run-suite.sh, kind clientcompat).
 *
 * Each node: an AM Short round trip and a Medium with its payload checked,
 * blocking and non-blocking puts into its right neighbour's segment each
 * read back with gets, a barrier, then the data its left neighbour put
 * checked in its own segment.  Under GASNET_PAR, CLIENT_THREADS threads do
 * all of that at once, each in its own part of the segment, each waiting
 * for its own replies.  Every node prints
 *     # clientcompat: node N stage=S client_stage=C conduit=T threads=M release=R
 * (client_stage: the stage the conduit directory selected, seen through
 * gasnet.h; "none" when gasnet.h did not bring stageport_conduit.h) and
 * ends with "node N ok" or FAIL lines and a non-zero exit.
 */
#include <gasnet.h>
#if defined(__has_include)
#if __has_include(<stageport.h>)
#include <stageport.h>
#endif
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a GASNet-1 client's check of the release it needs, at compile time
 * (osss-gasnet's configure wants 1.18.0 or newer) */
#if ((GASNET_RELEASE_VERSION_MAJOR << 16) | (GASNET_RELEASE_VERSION_MINOR << 8) | GASNET_RELEASE_VERSION_PATCH) < \
    ((1 << 16) | (18 << 8) | 0)
#error "GASNet release older than 1.18.0"
#endif

#if defined(GASNET_PAR)
#define CLIENT_THREADS 3
#define MODE "PAR"
#elif defined(GASNET_PARSYNC)
#define CLIENT_THREADS 1
#define MODE "PARSYNC"
#else
#define CLIENT_THREADS 1
#define MODE "SEQ"
#endif
#ifdef STAGEPORT_CLIENT_STAGE
#define CLIENT_STAGE STAGEPORT_CLIENT_STAGE
#else
#define CLIENT_STAGE "none"
#endif
#ifdef GASNET_CONDUIT_NAME_STR
#define CONDUIT GASNET_CONDUIT_NAME_STR
#else
#define CONDUIT "none"
#endif

#define REGION 65536 /* segment bytes per thread */
#define CHUNK 4096
#define ROUNDS 20
#define H_PING 201
#define H_PONG 202
#define H_MED 203
#define H_MEDACK 204

static gasnet_node_t me, nodes, right, left;
static gasnet_seginfo_t *segs;
static int errors;                       /* atomic */
static int pongs[CLIENT_THREADS];        /* atomic: replies per thread */
static int pong_sum[CLIENT_THREADS];     /* atomic */
static int medacks[CLIENT_THREADS];      /* atomic */
static int medbad;                       /* atomic */

static void fail(const char *what, int tid, long detail) {
  if (__atomic_fetch_add(&errors, 1, __ATOMIC_RELAXED) < 10)
    printf("FAIL node %u thread %d: %s (%ld)\n", (unsigned)me, tid, what, detail);
}
static unsigned char pattern(gasnet_node_t from, int tid, int round, size_t i) {
  return (unsigned char)(from * 131 + tid * 31 + round * 7 + i);
}

static void h_ping(gasnet_token_t t, gasnet_handlerarg_t tid, gasnet_handlerarg_t v) {
  gasnet_AMReplyShort2(t, H_PONG, tid, v + 1);
}
static void h_pong(gasnet_token_t t, gasnet_handlerarg_t tid, gasnet_handlerarg_t v) {
  (void)t;
  __atomic_fetch_add(&pong_sum[tid], v, __ATOMIC_RELAXED);
  __atomic_fetch_add(&pongs[tid], 1, __ATOMIC_RELEASE);
}
static void h_med(gasnet_token_t t, void *buf, size_t n, gasnet_handlerarg_t tid, gasnet_handlerarg_t round) {
  gasnet_node_t src;
  size_t i;
  int ok = n == CHUNK;
  gasnet_AMGetMsgSource(t, &src);
  for (i = 0; ok && i < n; i++) ok = ((unsigned char *)buf)[i] == pattern(src, tid, round, i);
  if (!ok) __atomic_fetch_add(&medbad, 1, __ATOMIC_RELAXED);
  gasnet_AMReplyShort2(t, H_MEDACK, tid, ok);
}
static void h_medack(gasnet_token_t t, gasnet_handlerarg_t tid, gasnet_handlerarg_t ok) {
  (void)t;
  if (!ok) fail("Medium payload arrived damaged", tid, 0);
  __atomic_fetch_add(&medacks[tid], 1, __ATOMIC_RELEASE);
}

static void *work(void *arg) {
  int tid = (int)(long)arg, r;
  unsigned char *out = malloc(CHUNK), *back = malloc(CHUNK);
  char *mine = (char *)segs[right].addr + (size_t)tid * REGION;
  size_t i;
  for (r = 0; r < ROUNDS; r++) {
    char *dst = mine + (size_t)(r % (REGION / CHUNK)) * CHUNK;
    gasnet_handle_t h;
    for (i = 0; i < CHUNK; i++) out[i] = pattern(me, tid, r, i);
    /* AM Short round trip, then a Medium */
    gasnet_AMRequestShort2(right, H_PING, tid, r);
    GASNET_BLOCKUNTIL(__atomic_load_n(&pongs[tid], __ATOMIC_ACQUIRE) == r + 1);
    gasnet_AMRequestMedium2(right, H_MED, out, CHUNK, tid, r);
    GASNET_BLOCKUNTIL(__atomic_load_n(&medacks[tid], __ATOMIC_ACQUIRE) == r + 1);
    /* put and get, blocking on even rounds, non-blocking on odd */
    memset(back, 0, CHUNK);
    if (r % 2 == 0) {
      gasnet_put(right, dst, out, CHUNK);
      gasnet_get(back, right, dst, CHUNK);
    } else {
      h = gasnet_put_nb(right, dst, out, CHUNK);
      gasnet_wait_syncnb(h);
      h = gasnet_get_nb(back, right, dst, CHUNK);
      gasnet_wait_syncnb(h);
    }
    if (memcmp(out, back, CHUNK)) fail("get did not return what was put", tid, r);
  }
  if (pong_sum[tid] != ROUNDS * (ROUNDS + 1) / 2) fail("AM round trips: wrong reply arguments", tid, pong_sum[tid]);
  free(out);
  free(back);
  return NULL;
}

int main(int argc, char **argv) {
  gasnet_handlerentry_t table[] = {
      {H_PING, (void (*)())h_ping},
      {H_PONG, (void (*)())h_pong},
      {H_MED, (void (*)())h_med},
      {H_MEDACK, (void (*)())h_medack},
  };
  pthread_t th[CLIENT_THREADS];
  const char *stage = "unknown";
  int t, r;
  size_t i;

  if (gasnet_init(&argc, &argv) != GASNET_OK) return 2;
  if (gasnet_attach(table, sizeof table / sizeof table[0], CLIENT_THREADS * REGION, 0) != GASNET_OK) return 2;
  me = gasnet_mynode();
  nodes = gasnet_nodes();
  right = (me + 1) % nodes;
  left = (me + nodes - 1) % nodes;
  segs = malloc(nodes * sizeof *segs);
  gasnet_getSegmentInfo(segs, nodes);
#ifdef STAGEPORT
  stage = stageport_stage();
#endif
  printf("# clientcompat: node %u stage=%s client_stage=%s conduit=%s threads=%s release=%d.%d.%d\n",
         (unsigned)me, stage, CLIENT_STAGE, CONDUIT, MODE, GASNET_RELEASE_VERSION_MAJOR,
         GASNET_RELEASE_VERSION_MINOR, GASNET_RELEASE_VERSION_PATCH);
  fflush(stdout);

  if (CLIENT_THREADS == 1) {
    work((void *)0L);
  } else {
    for (t = 0; t < CLIENT_THREADS; t++)
      if (pthread_create(&th[t], NULL, work, (void *)(long)t)) fail("pthread_create", t, 0);
    for (t = 0; t < CLIENT_THREADS; t++) pthread_join(th[t], NULL);
  }
  if (medbad) fail("Medium payloads received damaged", -1, medbad);

  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  if (gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS) != GASNET_OK) fail("barrier", -1, 0);
  /* what the left neighbour's threads put last in each chunk of their regions */
  for (t = 0; t < CLIENT_THREADS; t++)
    for (r = ROUNDS - REGION / CHUNK > 0 ? ROUNDS - REGION / CHUNK : 0; r < ROUNDS; r++) {
      const unsigned char *p = (const unsigned char *)segs[me].addr + (size_t)t * REGION +
                               (size_t)(r % (REGION / CHUNK)) * CHUNK;
      for (i = 0; i < CHUNK; i++)
        if (p[i] != pattern(left, t, r, i)) {
          fail("segment does not hold what the left neighbour put", t, r);
          break;
        }
    }
  gasnet_barrier_notify(1, 0);
  if (gasnet_barrier_wait(1, 0) != GASNET_OK) fail("named barrier", -1, 1);

  if (errors == 0) printf("node %u ok\n", (unsigned)me);
  fflush(stdout);
  /* gasnet_exit ends every node wherever it is -- a node still inside the
   * barrier above too, before it printed: everybody prints first */
  gasnet_barrier_notify(2, 0);
  if (gasnet_barrier_wait(2, 0) != GASNET_OK) fail("last barrier", -1, 2);
  gasnet_exit(errors ? 1 : 0);
  return 0;
}
