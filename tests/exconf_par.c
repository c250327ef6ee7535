/*
 * exconf_par.c -- the GASNet-EX conformance test's GASNET_PAR part: 4
 * client threads per process (EXCONF_THREADS) at once doing RMA (NB with
 * leaf events, NBI each with its own NBI set, access regions), AM
 * requests of every category with replies, negotiated-payload
 * Prepare/Commit, and polling; every byte and every reply checked, and
 * the job's totals compared at the end.
 *
 * Usage: mpirun -np N exconf_par [SUBTEST...]   (exconf_par --list)
 * Output as exconf's: "ok NAME ..." / "not ok NAME ..." from rank 0, the
 * failing rank's "FAIL NAME: rank R: ..." lines, and the summary
 * "# exconf_par: N subtests, M failed, T s".
 * Environment: EXCONF_THREADS (4), EXCONF_ROUNDS (rounds per thread, 40),
 * EXCONF_WATCHDOG, EXCONF_TIMES as exconf's.
 *
 * Only the public headers (exconf.h: gasnetex.h, gasnet_coll.h), compiled
 * with -DGASNET_PAR.
 *
 * Segment layout: SLOT(x, y, t) in rank x's segment is written only on
 * behalf of rank y's thread t: its first half takes that thread's puts and
 * Long requests, its second half the Long replies rank y sends to rank
 * x's thread t.
 */
#define _GNU_SOURCE 1
#include "exconf.h"

#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>

#ifndef GASNET_PAR
#error "exconf_par is a GASNET_PAR client: compile with -DGASNET_PAR"
#endif

#define MAXT 16
#define CTRL_SIZE ((uintptr_t)64 * 1024)
#define SLOT_SIZE ((uintptr_t)512 * 1024)
#define SH (SLOT_SIZE / 2)
#define SEGBASE(r) ((uint8_t *)ex_segs[r].addr)
#define SLOT(x, y, t) (SEGBASE(x) + CTRL_SIZE + ((uintptr_t)(y) * (uintptr_t)nthreads + (uintptr_t)(t)) * SLOT_SIZE)
#define MED_MAX 4096   /* Medium payloads (below every stage's Max) */
#define LONG_MAX_B 60000

static int nthreads = 4, rounds = 40;

/* ------------------------------------------------------------------ */
/* counters                                                            */
/* ------------------------------------------------------------------ */
static struct {
  atomic_long replies[4]; /* by category: Short, Medium, Long, NP */
  atomic_long last_seq;
} per[MAXT];
static atomic_long sent_to[EX_MAXN], recv_from[EX_MAXN];
static gex_HSL_t hsl = GEX_HSL_INITIALIZER;
static long hsl_requests; /* under hsl */
static atomic_int stop_polling;
static atomic_long polls;

/* ------------------------------------------------------------------ */
/* handlers                                                            */
/* ------------------------------------------------------------------ */
enum {
  H_SREQ = 140, H_SREP, H_MREQ, H_MREP, H_LREQ, H_LREP, H_NPREQ, H_NPREP
};
static uint32_t pseed(gex_Rank_t from, gex_Rank_t to, int t, long seq, int what) {
  return ex_seed(from * 131u + to, (uint32_t)t, (uint32_t)seq, (uint32_t)what);
}
static gex_Rank_t src_of(gex_Token_t tok, int is_req) {
  gex_Token_Info_t info;
  gex_TI_t got = gex_Token_Info(tok, &info, GEX_TI_SRCRANK | GEX_TI_IS_REQ | GEX_TI_EP);
  CHECK((got & (GEX_TI_SRCRANK | GEX_TI_EP)) == (GEX_TI_SRCRANK | GEX_TI_EP), "gex_Token_Info returned 0x%x", got);
  CHECK(info.gex_ep == ex_ep && info.gex_srcrank < ex_n, "gex_Token_Info: ep %p, srcrank %u", (void *)info.gex_ep,
        (unsigned)info.gex_srcrank);
  CHECK(info.gex_is_req == is_req, "gex_Token_Info: is_req %d in a %s handler", (int)info.gex_is_req,
        is_req ? "request" : "reply");
  return info.gex_srcrank < ex_n ? info.gex_srcrank : 0;
}
static void count_request(gex_Rank_t src) {
  atomic_fetch_add(&recv_from[src], 1);
  gex_HSL_Lock(&hsl);
  hsl_requests++;
  gex_HSL_Unlock(&hsl);
}
static int thread_ok(gex_AM_Arg_t t) {
  CHECK(t >= 0 && t < nthreads, "a reply for thread %d", (int)t);
  return t >= 0 && t < nthreads;
}

static void h_sreq(gex_Token_t tok, gex_AM_Arg_t t, gex_AM_Arg_t seq, gex_AM_Arg_t x, gex_AM_Arg_t y) {
  gex_Rank_t src = src_of(tok, 1);
  int rc;
  CHECK(x == (gex_AM_Arg_t)pseed(src, ex_me, (int)t, seq, 1) && y == (gex_AM_Arg_t)~x,
        "Short request from %u thread %d seq %d: arguments 0x%x 0x%x", (unsigned)src, (int)t, (int)seq, (unsigned)x,
        (unsigned)y);
  count_request(src);
  rc = gex_AM_ReplyShort4(tok, H_SREP, 0, t, seq, x ^ 0x5A5A5A5A, (gex_AM_Arg_t)ex_me);
  CHECK(rc == 0, "gex_AM_ReplyShort4 returned %d", rc);
}
static void h_srep(gex_Token_t tok, gex_AM_Arg_t t, gex_AM_Arg_t seq, gex_AM_Arg_t x, gex_AM_Arg_t who) {
  gex_Rank_t src = src_of(tok, 0);
  if (!thread_ok(t)) return;
  CHECK(who == (gex_AM_Arg_t)src && x == (gex_AM_Arg_t)(pseed(ex_me, src, (int)t, seq, 1) ^ 0x5A5A5A5A),
        "Short reply from %u for thread %d seq %d: arguments 0x%x, %d", (unsigned)src, (int)t, (int)seq, (unsigned)x,
        (int)who);
  atomic_store(&per[t].last_seq, seq);
  atomic_fetch_add(&per[t].replies[0], 1);
}
static __thread uint8_t hbuf[LONG_MAX_B];
static void h_mreq(gex_Token_t tok, void *buf, size_t n, gex_AM_Arg_t t, gex_AM_Arg_t seq, gex_AM_Arg_t len) {
  gex_Rank_t src = src_of(tok, 1);
  int rc;
  CHECK((size_t)len == n, "Medium request of %zu bytes, the argument says %d", n, (int)len);
  ex_check_pat(buf, n, pseed(src, ex_me, (int)t, seq, 2), "Medium request from %u thread %d seq %d", (unsigned)src,
               (int)t, (int)seq);
  count_request(src);
  n = n / 2 + 1;
  ex_fill(hbuf, n, pseed(ex_me, src, (int)t, seq, 3));
  rc = gex_AM_ReplyMedium3(tok, H_MREP, hbuf, n, GEX_EVENT_NOW, 0, t, seq, (gex_AM_Arg_t)n);
  CHECK(rc == 0, "gex_AM_ReplyMedium3 returned %d", rc);
}
static void h_mrep(gex_Token_t tok, void *buf, size_t n, gex_AM_Arg_t t, gex_AM_Arg_t seq, gex_AM_Arg_t len) {
  gex_Rank_t src = src_of(tok, 0);
  if (!thread_ok(t)) return;
  CHECK((size_t)len == n, "Medium reply of %zu bytes, the argument says %d", n, (int)len);
  ex_check_pat(buf, n, pseed(src, ex_me, (int)t, seq, 3), "Medium reply from %u to thread %d seq %d", (unsigned)src,
               (int)t, (int)seq);
  atomic_fetch_add(&per[t].replies[1], 1);
}
static void h_lreq(gex_Token_t tok, void *buf, size_t n, gex_AM_Arg_t t, gex_AM_Arg_t seq, gex_AM_Arg_t len) {
  gex_Rank_t src = src_of(tok, 1);
  int rc;
  CHECK((size_t)len == n, "Long request of %zu bytes, the argument says %d", n, (int)len);
  if (t < 0 || t >= nthreads) return;
  CHECK(buf == SLOT(ex_me, src, t), "Long request from %u thread %d at %p, sent to %p", (unsigned)src, (int)t, buf,
        (void *)SLOT(ex_me, src, t));
  ex_check_pat(buf, n, pseed(src, ex_me, (int)t, seq, 4), "Long request from %u thread %d seq %d", (unsigned)src,
               (int)t, (int)seq);
  count_request(src);
  n = n / 3 + 1;
  ex_fill(hbuf, n, pseed(ex_me, src, (int)t, seq, 5));
  rc = gex_AM_ReplyLong3(tok, H_LREP, hbuf, n, SLOT(src, ex_me, t) + SH, GEX_EVENT_NOW, 0, t, seq, (gex_AM_Arg_t)n);
  CHECK(rc == 0, "gex_AM_ReplyLong3 returned %d", rc);
}
static void h_lrep(gex_Token_t tok, void *buf, size_t n, gex_AM_Arg_t t, gex_AM_Arg_t seq, gex_AM_Arg_t len) {
  gex_Rank_t src = src_of(tok, 0);
  if (!thread_ok(t)) return;
  CHECK((size_t)len == n && buf == SLOT(ex_me, src, t) + SH, "Long reply of %zu bytes (%d) at %p", n, (int)len, buf);
  ex_check_pat(buf, n, pseed(src, ex_me, (int)t, seq, 5), "Long reply from %u to thread %d seq %d", (unsigned)src,
               (int)t, (int)seq);
  atomic_fetch_add(&per[t].replies[2], 1);
}
/* negotiated payload: the request (Medium or Long), the reply prepared
 * in the handler (GASNet's buffer) */
static void h_npreq(gex_Token_t tok, void *buf, size_t n, gex_AM_Arg_t t, gex_AM_Arg_t seq) {
  gex_Rank_t src = src_of(tok, 1);
  gex_AM_SrcDesc_t sd;
  size_t rn = n % 1000 + 1;
  ex_check_pat(buf, n, pseed(src, ex_me, (int)t, seq, 6), "NP request from %u thread %d seq %d (%zu bytes)",
               (unsigned)src, (int)t, (int)seq, n);
  count_request(src);
  sd = gex_AM_PrepareReplyMedium(tok, NULL, rn, rn, NULL, 0, 2);
  CHECK(sd != GEX_AM_SRCDESC_NO_OP, "gex_AM_PrepareReplyMedium returned NO_OP");
  if (sd == GEX_AM_SRCDESC_NO_OP) return;
  CHECK(gex_AM_SrcDescSize(sd) == rn, "gex_AM_SrcDescSize %zu, least = most = %zu", gex_AM_SrcDescSize(sd), rn);
  ex_fill(gex_AM_SrcDescAddr(sd), rn, pseed(ex_me, src, (int)t, seq, 7));
  CHECK_RC(gex_AM_CommitReplyMedium2_v2(sd, H_NPREP, rn, 0, t, seq), 0);
}
static void h_nprep(gex_Token_t tok, void *buf, size_t n, gex_AM_Arg_t t, gex_AM_Arg_t seq) {
  gex_Rank_t src = src_of(tok, 0);
  if (!thread_ok(t)) return;
  ex_check_pat(buf, n, pseed(src, ex_me, (int)t, seq, 7), "NP reply from %u to thread %d seq %d", (unsigned)src, (int)t,
               (int)seq);
  atomic_fetch_add(&per[t].replies[3], 1);
}

static gex_AM_Entry_t table[] = {
    {EX_H_RESULT, (gex_AM_Fn_t)ex_h_result, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 3, NULL, "result"},
    {H_SREQ, (gex_AM_Fn_t)h_sreq, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 4, NULL, "sreq"},
    {H_SREP, (gex_AM_Fn_t)h_srep, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 4, NULL, "srep"},
    {H_MREQ, (gex_AM_Fn_t)h_mreq, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 3, NULL, "mreq"},
    {H_MREP, (gex_AM_Fn_t)h_mrep, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY, 3, NULL, "mrep"},
    {H_LREQ, (gex_AM_Fn_t)h_lreq, GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQUEST, 3, NULL, "lreq"},
    {H_LREP, (gex_AM_Fn_t)h_lrep, GEX_FLAG_AM_LONG | GEX_FLAG_AM_REPLY, 3, NULL, "lrep"},
    {H_NPREQ, (gex_AM_Fn_t)h_npreq, GEX_FLAG_AM_MEDLONG | GEX_FLAG_AM_REQUEST, 2, NULL, "npreq"},
    {H_NPREP, (gex_AM_Fn_t)h_nprep, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY, 2, NULL, "nprep"},
};

/* ------------------------------------------------------------------ */
/* the worker threads                                                  */
/* ------------------------------------------------------------------ */
enum { DO_RMA = 1, DO_AM = 2, DO_NP = 4, DO_ALL = 7 };
static int g_what;

typedef struct {
  int t;
  uint8_t *src, *back; /* SH bytes each, out of the segment */
  uint64_t rng;
  long seq;
} worker_t;

static uint32_t rnd(worker_t *w) {
  w->rng = w->rng * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(w->rng >> 33);
}
/* wait (polling) for a per-thread reply count */
static void wait_replies(int t, int cat, long want, const char *what) {
  double dl = ex_now() + 30;
  while (atomic_load(&per[t].replies[cat]) < want) {
    gasnet_AMPoll();
    if (ex_now() > dl) {
      ex_fail("thread %d: timed out waiting for %s replies (%ld of %ld)", t, what, atomic_load(&per[t].replies[cat]),
              want);
      return;
    }
  }
}

static void do_rma(worker_t *w, gex_Rank_t peer) {
  uint8_t *dst = SLOT(peer, ex_me, w->t);
  size_t n = 1 + rnd(w) % 60000, k = 1 + rnd(w) % 20000;
  uint32_t s1 = ex_seed(ex_me, (uint32_t)w->t, (uint32_t)w->seq, 1), s2 = s1 ^ 0x1111, s3 = s1 ^ 0x2222;
  gex_Event_t leaf = GEX_EVENT_NO_OP, root, g;
  int rc;
  /* NB: wait the leaf, overwrite the source, wait the root */
  ex_fill(w->src, n, s1);
  root = gex_RMA_PutNB(ex_tm, peer, dst, w->src, n, &leaf, 0);
  CHECK(root != GEX_EVENT_NO_OP && leaf != GEX_EVENT_NO_OP, "gex_RMA_PutNB: root %p, leaf %p", (void *)root,
        (void *)leaf);
  gex_Event_Wait(leaf);
  memset(w->src, 0xEE, n);
  gex_Event_Wait(root);
  memset(w->back, 0xAA, n);
  g = gex_RMA_GetNB(ex_tm, w->back, peer, dst, n, 0);
  gex_Event_Wait(g);
  ex_check_pat(w->back, n, s1, "thread %d: PutNB/GetNB of %zu bytes with rank %u", w->t, n, (unsigned)peer);
  /* NBI: this thread's own set */
  ex_fill(w->src, k, s2);
  ex_fill(w->src + 65536, k, s3);
  CHECK_RC(gex_RMA_PutNBI(ex_tm, peer, dst + 65536, w->src, k, GEX_EVENT_GROUP, 0), 0);
  CHECK_RC(gex_RMA_PutNBI(ex_tm, peer, dst + 131072, w->src + 65536, k, GEX_EVENT_DEFER, 0), 0);
  gex_NBI_Wait(GEX_EC_LC, 0);
  memset(w->src, 0xEE, k);
  while ((rc = gex_NBI_Test(GEX_EC_PUT, 0)) != GASNET_OK) {
    CHECK(rc == GASNET_ERR_NOT_READY, "gex_NBI_Test returned %d", rc);
    if (rc != GASNET_ERR_NOT_READY) break;
    gasnet_AMPoll();
  }
  memset(w->src + 65536, 0xEE, k);
  memset(w->back, 0xAA, 2 * k);
  CHECK_RC(gex_RMA_GetNBI(ex_tm, w->back, peer, dst + 65536, k, 0), 0);
  CHECK_RC(gex_RMA_GetNBI(ex_tm, w->back + k, peer, dst + 131072, k, 0), 0);
  gex_NBI_Wait(GEX_EC_GET, 0);
  ex_check_pat(w->back, k, s2, "thread %d: PutNBI (GROUP) of %zu bytes to rank %u", w->t, k, (unsigned)peer);
  ex_check_pat(w->back + k, k, s3, "thread %d: PutNBI (DEFER) of %zu bytes to rank %u", w->t, k, (unsigned)peer);
  /* an access region */
  {
    gex_Event_t e;
    uint64_t v = ((uint64_t)s1 << 32) | s3;
    memset(w->back, 0xAA, k);
    gex_NBI_BeginAccessRegion(0);
    CHECK_RC(gex_RMA_GetNBI(ex_tm, w->back, peer, dst + 65536, k, 0), 0);
    CHECK_RC(gex_RMA_PutNBIVal(ex_tm, peer, dst + 200000, v, 8, 0), 0);
    e = gex_NBI_EndAccessRegion(0);
    gex_Event_Wait(e);
    ex_check_pat(w->back, k, s2, "thread %d: GetNBI in an access region", w->t);
    CHECK(gex_RMA_GetBlockingVal(ex_tm, peer, dst + 200000, 8, 0) == v, "thread %d: PutNBIVal in an access region",
          w->t);
  }
}

static void do_am(worker_t *w) {
  gex_Rank_t d = rnd(w) % ex_n;
  long seq = w->seq;
  size_t n;
  uint32_t x = pseed(ex_me, d, w->t, seq, 1);
  long want;
  int rc;
  /* Short */
  want = atomic_load(&per[w->t].replies[0]) + 1;
  atomic_fetch_add(&sent_to[d], 1);
  rc = gex_AM_RequestShort4(ex_tm, d, H_SREQ, 0, w->t, seq, x, ~x);
  CHECK(rc == 0, "gex_AM_RequestShort4 returned %d", rc);
  wait_replies(w->t, 0, want, "Short");
  CHECK(atomic_load(&per[w->t].last_seq) == seq, "thread %d: the Short reply is for seq %ld, sent %ld", w->t,
        atomic_load(&per[w->t].last_seq), seq);
  /* Medium, lc by the round: NOW, or an event */
  d = rnd(w) % ex_n;
  n = rnd(w) % MED_MAX;
  ex_fill(w->src, n, pseed(ex_me, d, w->t, seq, 2));
  want = atomic_load(&per[w->t].replies[1]) + 1;
  atomic_fetch_add(&sent_to[d], 1);
  if (seq & 1) {
    gex_Event_t e = GEX_EVENT_NO_OP;
    rc = gex_AM_RequestMedium3(ex_tm, d, H_MREQ, w->src, n, &e, 0, w->t, seq, (gex_AM_Arg_t)n);
    gex_Event_Wait(e);
  } else {
    rc = gex_AM_RequestMedium3(ex_tm, d, H_MREQ, w->src, n, GEX_EVENT_NOW, 0, w->t, seq, (gex_AM_Arg_t)n);
  }
  CHECK(rc == 0, "gex_AM_RequestMedium3 returned %d", rc);
  memset(w->src, 0xEE, n);
  wait_replies(w->t, 1, want, "Medium");
  /* Long, to its slot at d (one at a time per thread) */
  d = rnd(w) % ex_n;
  n = rnd(w) % LONG_MAX_B;
  ex_fill(w->src, n, pseed(ex_me, d, w->t, seq, 4));
  want = atomic_load(&per[w->t].replies[2]) + 1;
  atomic_fetch_add(&sent_to[d], 1);
  rc = gex_AM_RequestLong3(ex_tm, d, H_LREQ, w->src, n, SLOT(d, ex_me, w->t), GEX_EVENT_NOW, 0, w->t, seq,
                           (gex_AM_Arg_t)n);
  CHECK(rc == 0, "gex_AM_RequestLong3 returned %d", rc);
  memset(w->src, 0xEE, n);
  wait_replies(w->t, 2, want, "Long");
}

static void do_np(worker_t *w) {
  gex_Rank_t d = rnd(w) % ex_n;
  long seq = w->seq, want = atomic_load(&per[w->t].replies[3]) + 1;
  int is_long = (int)(seq & 1), client = (int)((seq >> 1) & 1);
  size_t most = 1 + rnd(w) % MED_MAX, size, nb;
  gex_AM_SrcDesc_t sd;
  void *addr;
  uint8_t *dst = SLOT(d, ex_me, w->t) + 100000;
  if (is_long)
    sd = gex_AM_PrepareRequestLong(ex_tm, d, client ? w->src : NULL, 1, most, dst, client ? GEX_EVENT_NOW : NULL, 0, 2);
  else
    sd = gex_AM_PrepareRequestMedium(ex_tm, d, client ? w->src : NULL, 1, most, client ? GEX_EVENT_NOW : NULL, 0, 2);
  CHECK(sd != GEX_AM_SRCDESC_NO_OP, "thread %d: gex_AM_PrepareRequest%s returned NO_OP", w->t, is_long ? "Long" : "Medium");
  if (sd == GEX_AM_SRCDESC_NO_OP) return;
  size = gex_AM_SrcDescSize(sd);
  addr = gex_AM_SrcDescAddr(sd);
  CHECK(size >= 1 && size <= most, "thread %d: gex_AM_SrcDescSize %zu outside [1, %zu]", w->t, size, most);
  if (client) CHECK(addr == w->src, "thread %d: gex_AM_SrcDescAddr is not the client's buffer", w->t);
  else CHECK_ONCE(addr && (uintptr_t)addr % alignof(max_align_t) == 0, "thread %d: gex_AM_SrcDescAddr %p", w->t, addr);
  if (seq % 7 == 3) { /* cancelled: nothing is sent */
    CHECK_RC(is_long ? gex_AM_CancelRequestLong(sd, 0) : gex_AM_CancelRequestMedium(sd, 0), 0);
    return;
  }
  nb = seq % 5 == 0 ? 0 : size - (size_t)(seq % 3) * (size / 4);
  ex_fill(addr, nb, pseed(ex_me, d, w->t, seq, 6));
  atomic_fetch_add(&sent_to[d], 1);
  if (is_long) CHECK_RC(gex_AM_CommitRequestLong2_v2(sd, H_NPREQ, nb, dst, 0, w->t, seq), 0);
  else gex_AM_CommitRequestMedium2(sd, H_NPREQ, nb, w->t, seq);
  if (client) memset(w->src, 0xEE, nb);
  wait_replies(w->t, 3, want, "NP");
}

static void *worker(void *arg) {
  worker_t w;
  memset(&w, 0, sizeof(w));
  w.t = (int)(intptr_t)arg;
  w.rng = ex_seed(ex_me, (uint32_t)w.t, 77, 0) | 1;
  w.src = malloc(SH);
  w.back = malloc(SH);
  if (!w.src || !w.back) {
    ex_fail("out of memory");
    return NULL;
  }
  for (int r = 0; r < rounds; r++) {
    gex_Rank_t peer = (gex_Rank_t)((ex_me + 1 + (unsigned)r + (unsigned)w.t) % ex_n);
    w.seq = (long)r * 1000 + w.t;
    if (g_what & DO_RMA) do_rma(&w, peer);
    if (g_what & DO_AM) do_am(&w);
    if (g_what & DO_NP) do_np(&w);
    if (r % 8 == 0) { /* the HSL from a client thread, against the handlers */
      gex_HSL_Lock(&hsl);
      CHECK(hsl_requests >= 0, "HSL-guarded count %ld", hsl_requests);
      gex_HSL_Unlock(&hsl);
    }
  }
  /* no NBI operation of this thread left */
  CHECK_RC(gex_NBI_Test(GEX_EC_ALL, 0), GASNET_OK);
  free(w.src);
  free(w.back);
  return NULL;
}
static void *poller(void *arg) {
  (void)arg;
  while (!atomic_load(&stop_polling)) {
    gasnet_AMPoll();
    atomic_fetch_add(&polls, 1);
    sched_yield();
  }
  return NULL;
}

static void run_threads(int what, int with_poller) {
  pthread_t th[MAXT], pt;
  long totals[EX_MAXN], *all = calloc(ex_n, sizeof(totals)), hsl_now;
  g_what = what;
  atomic_store(&stop_polling, 0);
  if (with_poller && pthread_create(&pt, NULL, poller, NULL)) ex_fail("pthread_create (poller)");
  for (int t = 0; t < nthreads; t++)
    if (pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t)) ex_fail("pthread_create (worker %d)", t);
  for (int t = 0; t < nthreads; t++) pthread_join(th[t], NULL);
  atomic_store(&stop_polling, 1);
  if (with_poller) pthread_join(pt, NULL);
  /* the job's totals: what every rank sent here ran here, once */
  for (gex_Rank_t r = 0; r < ex_n; r++) totals[r] = atomic_load(&sent_to[r]);
  memcpy(SEGBASE(ex_me), totals, sizeof(totals));
  ex_barrier();
  for (gex_Rank_t r = 0; r < ex_n; r++)
    CHECK_RC(gex_RMA_GetBlocking(ex_tm, all + (size_t)r * EX_MAXN, r, SEGBASE(r), sizeof(totals), 0), 0);
  ex_barrier();
  {
    long sum = 0;
    for (gex_Rank_t r = 0; r < ex_n; r++) {
      CHECK(atomic_load(&recv_from[r]) == all[(size_t)r * EX_MAXN + ex_me], "%ld requests from rank %u ran here, it sent %ld",
            atomic_load(&recv_from[r]), (unsigned)r, all[(size_t)r * EX_MAXN + ex_me]);
      sum += atomic_load(&recv_from[r]);
    }
    gex_HSL_Lock(&hsl);
    hsl_now = hsl_requests;
    gex_HSL_Unlock(&hsl);
    CHECK(hsl_now == sum, "the HSL-guarded count is %ld, %ld requests ran", hsl_now, sum);
  }
  free(all);
}

static gex_HSL_t *try_hsl;
static atomic_int try_rc;
static void *try_other(void *arg) {
  (void)arg;
  atomic_store(&try_rc, gex_HSL_Trylock(try_hsl));
  if (atomic_load(&try_rc) == GASNET_OK) gex_HSL_Unlock(try_hsl);
  return NULL;
}
static void t_par_queries(void) {
  gex_HSL_t h;
  pthread_t th;
  CHECK(gex_System_QueryMaxThreads() >= (uint64_t)nthreads + 2,
        "gex_System_QueryMaxThreads() = %" PRIu64 ", less than the %d threads here", gex_System_QueryMaxThreads(),
        nthreads + 2);
  gex_HSL_Init(&h);
  try_hsl = &h;
  CHECK_RC(gex_HSL_Trylock(&h), GASNET_OK);
  /* held here: another thread's Trylock fails */
  atomic_store(&try_rc, -1);
  CHECK(pthread_create(&th, NULL, try_other, NULL) == 0, "pthread_create");
  pthread_join(th, NULL);
  CHECK(atomic_load(&try_rc) == GASNET_ERR_NOT_READY, "gex_HSL_Trylock of an HSL another thread holds returned %d",
        atomic_load(&try_rc));
  gex_HSL_Unlock(&h);
  /* released: it succeeds */
  atomic_store(&try_rc, -1);
  CHECK(pthread_create(&th, NULL, try_other, NULL) == 0, "pthread_create");
  pthread_join(th, NULL);
  CHECK(atomic_load(&try_rc) == GASNET_OK, "gex_HSL_Trylock of a free HSL returned %d", atomic_load(&try_rc));
  gex_HSL_Destroy(&h);
}

static void t_par_rma(void) { run_threads(DO_RMA, 0); }
static void t_par_am(void) { run_threads(DO_AM, 0); }
static void t_par_np(void) { run_threads(DO_NP, 0); }
static void t_par_all(void) { run_threads(DO_ALL, 1); }

static const ex_subtest_t subtests[] = {
    {"par_queries", t_par_queries, "gex_System_QueryMaxThreads, an HSL held by one thread, tried by another"},
    {"par_rma", t_par_rma, "threads at once: PutNB (leaf), GetNB, PutNBI/GetNBI in their own NBI sets, access regions"},
    {"par_am", t_par_am, "threads at once: Short, Medium, Long requests, every reply checked"},
    {"par_np", t_par_np, "threads at once: negotiated-payload requests and replies, Cancel"},
    {"par_all", t_par_all, "all of it at once, with a thread that only polls"},
};
#define NSUBTESTS ((int)EX_ARRAY_LEN(subtests))

static void reset(void) {
  for (int t = 0; t < MAXT; t++) {
    for (int c = 0; c < 4; c++) atomic_store(&per[t].replies[c], 0);
    atomic_store(&per[t].last_seq, -1);
  }
  for (int r = 0; r < EX_MAXN; r++) {
    atomic_store(&sent_to[r], 0);
    atomic_store(&recv_from[r], 0);
  }
  gex_HSL_Lock(&hsl);
  hsl_requests = 0;
  gex_HSL_Unlock(&hsl);
}

int main(int argc, char **argv) {
  int rc, code;
  uintptr_t segsize;
  ex_prog = "exconf_par";
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--list") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      ex_usage(stdout, subtests, NSUBTESTS);
      return 0;
    }
  if (getenv("EXCONF_THREADS")) nthreads = atoi(getenv("EXCONF_THREADS"));
  if (getenv("EXCONF_ROUNDS")) rounds = atoi(getenv("EXCONF_ROUNDS"));
  if (nthreads < 1 || nthreads > MAXT) nthreads = 4;
  ex_pat_init();
  rc = gex_Client_Init(&ex_client, &ex_ep, &ex_tm, "EXCONF_PAR", &argc, &argv, 0);
  if (rc != GASNET_OK) {
    fprintf(stderr, "exconf_par: gex_Client_Init returned %d (%s)\n", rc, gasnet_ErrorName(rc));
    return 1;
  }
  ex_me = gex_System_QueryJobRank();
  ex_n = gex_System_QueryJobSize();
  if (ex_n > EX_MAXN) {
    if (ex_me == 0) fprintf(stderr, "exconf_par: at most %d ranks\n", EX_MAXN);
    gasnet_exit(2);
  }
  rc = gex_EP_RegisterHandlers(ex_ep, table, EX_ARRAY_LEN(table));
  if (rc != GASNET_OK) {
    printf("not ok startup: rank %u: gex_EP_RegisterHandlers returned %d\n", (unsigned)ex_me, rc);
    gasnet_exit(1);
  }
  segsize = CTRL_SIZE + (uintptr_t)ex_n * (uintptr_t)nthreads * SLOT_SIZE;
  if (segsize > gasnet_getMaxGlobalSegmentSize()) {
    if (ex_me == 0) printf("not ok startup: needs a segment of %zu bytes\n", (size_t)segsize);
    gasnet_exit(1);
  }
  rc = gex_Segment_Attach(&ex_seg, ex_tm, segsize);
  if (rc != GASNET_OK) {
    printf("not ok startup: rank %u: gex_Segment_Attach returned %d\n", (unsigned)ex_me, rc);
    gasnet_exit(1);
  }
  ex_exchange_segments();
  code = ex_run(argc, argv, subtests, NSUBTESTS, reset, NULL, NULL);
  gasnet_exit(code);
  return code;
}
