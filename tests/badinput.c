/*
 * badinput.c -- invalid calls that the library must turn into a fatal error
 * naming the call and the bad value, ending the whole job with a non-zero
 * status and without a hang.  (GASNet-1 calls are a layer over GASNet-EX's:
 * an argument error is named by the gex_* call it reaches, gex_RMA_PutNBI
 * for gasnet_put_nbi.)
 *
 * Usage: mpirun -np 2 badinput MODE      (badinput --list: the modes)
 *
 * Before the bad call, the node that makes it prints lines
 *     EXPECT sub <text>     (the text must appear, any case)
 *     EXPECT word <text>    (the text must appear as a whole word)
 * and run-suite.sh requires one output line (other than EXPECT lines) that
 * contains all of them.  The other nodes wait in a barrier (or in
 * gasnet_attach): the fatal error must end them too.
 *
 * This test is specific to stageport (it calls _stp_AMRequestShort, the
 * entry point gasnetex.h's AM macros expand to, with 17 arguments).
 */
#include <gasnet.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the table's function type (gasnet_handlerfn_t is not in GASNet-1) */
typedef __typeof__(((gasnet_handlerentry_t *)0)->fnptr) handlerfn_t;

static gasnet_node_t me, nodes;
static gasnet_seginfo_t seg[64];
static char buf[1 << 16];
static int g_argc;
static char **g_argv;

static void expect(const char *kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void expect(const char *kind, const char *fmt, ...) {
  va_list ap;
  printf("EXPECT %s ", kind);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  fflush(stdout);
}
/* addresses as the library may print them: hex digits, any case, with or
 * without 0x and leading zeros: matched as a substring of the digits */
static void expect_addr(const void *p) { expect("sub", "%" PRIxPTR, (uintptr_t)p); }

/* Wait in a barrier, then keep polling: only the fatal error may end the
 * job.  (The barrier can complete when the node making the bad call had
 * notified before it, e.g. when the bad call is made by a handler.) */
static void wait_forever(void) {
  static volatile int never = 0;
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
  GASNET_BLOCKUNTIL(never);
}

/* ------------------------------------------------------------------ */
/* handlers                                                            */
/* ------------------------------------------------------------------ */
enum { H_REQ = 200, H_MEDLONG = 201, H_REP = 202, H_REPLY_TWICE = 203, H_REQ_IN_HANDLER = 204, H_PUT_IN_HANDLER = 205,
       H_REPLY_MEDIUM_BIG = 206, H_REPLY_RESERVED = 207, H_SLEEP = 208 };
static void h_req(gasnet_token_t t) { (void)t; }
static void h_medlong(gasnet_token_t t, void *b, size_t n) { (void)t, (void)b, (void)n; }
static void h_rep(gasnet_token_t t) { (void)t; }
static void h_sleep(gasnet_token_t t) { /* a handler that takes its time (it does not poll meanwhile) */
  (void)t;
  usleep(2000000);
}
static void h_reply_twice(gasnet_token_t t) {
  expect("sub", "ReplyShort");
  gasnet_AMReplyShort0(t, H_REP);
  gasnet_AMReplyShort0(t, H_REP);
}
static void h_req_in_handler(gasnet_token_t t) {
  (void)t;
  expect("sub", "RequestShort");
  expect("sub", "handler");
  gasnet_AMRequestShort0(0, H_REQ);
}
static void h_put_in_handler(gasnet_token_t t) {
  (void)t;
  expect("sub", "Put");
  expect("sub", "handler");
  gasnet_put(0, seg[0].addr, buf, 8);
}
static void h_reply_medium_big(gasnet_token_t t) {
  size_t n = gasnet_AMMaxMedium() + 1;
  char *b = malloc(n);
  expect("sub", "ReplyMedium");
  expect("word", "%zu", n);
  gasnet_AMReplyMedium0(t, H_MEDLONG, b, n);
}
/* a reply to a library handler index, with a payload that would be written
 * wherever the library handler's pointer arguments say */
static void h_reply_reserved(gasnet_token_t t) {
  expect("sub", "ReplyMedium");
  expect("word", "11");
  gasnet_AMReplyMedium4(t, 11, buf, 64, 0x1000, 0, 0x2000, 0);
}
static gasnet_handlerentry_t table[] = {
    {H_REQ, (handlerfn_t)h_req},
    {H_MEDLONG, (handlerfn_t)h_medlong},
    {H_REP, (handlerfn_t)h_rep},
    {H_REPLY_TWICE, (handlerfn_t)h_reply_twice},
    {H_REQ_IN_HANDLER, (handlerfn_t)h_req_in_handler},
    {H_PUT_IN_HANDLER, (handlerfn_t)h_put_in_handler},
    {H_REPLY_MEDIUM_BIG, (handlerfn_t)h_reply_medium_big},
    {H_REPLY_RESERVED, (handlerfn_t)h_reply_reserved},
    {H_SLEEP, (handlerfn_t)h_sleep},
};

/* ------------------------------------------------------------------ */
/* modes                                                               */
/* ------------------------------------------------------------------ */
enum { BEFORE_INIT, AFTER_INIT, AFTER_ATTACH };
typedef struct {
  const char *name;
  int stage;
  void (*bad)(void); /* run by node `who`; the others wait */
  int who;           /* -1: every node */
  const char *about;
} mode_t_;

static uint8_t *seg_end(gasnet_node_t n) { return (uint8_t *)seg[n].addr + seg[n].size; }

static void m_node_range(void) {
  expect("sub", "Put");
  expect("word", "%u", (unsigned)nodes);
  gasnet_put(nodes, seg[0].addr, buf, 8);
}
static void m_node_range_get(void) {
  expect("sub", "GetNB");
  expect("word", "%u", (unsigned)nodes + 5);
  gasnet_handle_t h = gasnet_get_nb(buf, nodes + 5, seg[0].addr, 8);
  gasnet_wait_syncnb(h);
}
static void m_node_range_am(void) {
  expect("sub", "RequestShort");
  expect("word", "%u", (unsigned)nodes);
  gasnet_AMRequestShort0(nodes, H_REQ);
}
static void m_seg_beyond(void) {
  uint8_t *p = seg_end(0);
  expect("sub", "Put");
  expect_addr(p);
  gasnet_put(0, p, buf, 8);
}
static void m_seg_before(void) {
  uint8_t *p = (uint8_t *)seg[0].addr - 8;
  expect("sub", "Get");
  expect_addr(p);
  gasnet_get(buf, 0, p, 8);
}
static void m_seg_straddle(void) {
  uint8_t *p = seg_end(1) - 4;
  expect("sub", "PutBlocking");
  expect_addr(p);
  gasnet_put_bulk(1, p, buf, 8);
}
static void m_seg_straddle_memset(void) {
  uint8_t *p = seg_end(1) - 100;
  expect("sub", "PutNBI");
  expect_addr(p);
  gasnet_memset_nbi(1, p, 0, 200);
  gasnet_wait_syncnbi_puts();
}
static void m_long_dest_range(void) {
  uint8_t *p = seg_end(1) - 32;
  expect("sub", "RequestLong");
  expect_addr(p);
  gasnet_AMRequestLong0(1, H_MEDLONG, buf, 64, p);
}
static void m_handler_unreg(void) {
  expect("sub", "handler");
  expect("word", "250");
  gasnet_AMRequestShort0(1, 250);
}
/* Client messages to the library's handler indices (1..127): with the
 * arguments below, index 2 (the AM memset) would write 4 KiB at address
 * 0x1000 of the target, index 9 (a put acknowledgement) decrement a
 * counter there; both must be refused at the source. */
static void m_reserved_handler_request(void) {
  expect("sub", "RequestShort");
  expect("word", "2");
  gasnet_AMRequestShort7(1, 2, 0x1000, 0, 0x55, 4096, 0, 0x1000, 0);
}
static void m_reserved_handler_request9(void) {
  expect("sub", "RequestShort");
  expect("word", "9");
  gasnet_AMRequestShort2(1, 9, 0x1000, 0);
}
static void m_reserved_handler_long(void) {
  expect("sub", "RequestLong");
  expect("word", "8");
  gasnet_AMRequestLong2(1, 8, buf, 64, seg[1].addr, 0x1000, 0);
}
static void m_reserved_handler_reply(void) { gasnet_AMRequestShort0(1, H_REPLY_RESERVED); }
static void m_medium_too_big(void) {
  size_t n = gasnet_AMMaxMedium() + 1;
  char *b = calloc(1, n);
  expect("sub", "RequestMedium");
  expect("word", "%zu", n);
  gasnet_AMRequestMedium0(1, H_MEDLONG, b, n);
}
static void m_long_too_big(void) {
  size_t n = gasnet_AMMaxLongRequest() + 1;
  char *b = calloc(1, n);
  expect("sub", "RequestLong");
  expect("word", "%zu", n);
  gasnet_AMRequestLong0(1, H_MEDLONG, b, n, seg[1].addr);
}
static void m_nargs(void) {
  expect("sub", "RequestShort");
  expect("word", "17");
  /* (no macro takes 17 arguments: the entry point they all expand to) */
  _stp_AMRequestShort(_stp_legacy_tm, 1, H_REQ, 0, 17, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17);
}
static void m_bad_stage(void) {
  expect("sub", "STAGEPORT_STAGE");
  expect("sub", "no_such_stage");
  setenv("STAGEPORT_STAGE", "no_such_stage", 1);
  gasnet_init(&g_argc, &g_argv);
}
static void m_env_overflow(void) {
  expect("sub", "STAGEPORT_MAX_SEGSIZE");
  expect("sub", "too large");
  setenv("STAGEPORT_MAX_SEGSIZE", "99999999999G", 1); /* 2^30 times this does not fit 64 bits */
  gasnet_init(&g_argc, &g_argv);
}
static void m_env_negative(void) {
  expect("sub", "STAGEPORT_AM_CREDITS");
  setenv("STAGEPORT_AM_CREDITS", "-1", 1);
  gasnet_init(&g_argc, &g_argv);
  gasnet_attach(table, (int)(sizeof(table) / sizeof(table[0])), GASNET_PAGESIZE, 0);
}
static void m_before_init(void) {
  static uint64_t x, y;
  expect("sub", "Put");
  expect("sub", "init");
  gasnet_put(0, &x, &y, 8);
}
static void m_before_attach(void) {
  static uint64_t x, y;
  expect("sub", "Put");
  expect("sub", "attach");
  gasnet_put(1, &x, &y, 8);
}
static void m_before_attach_am(void) {
  expect("sub", "RequestShort");
  expect("sub", "attach");
  gasnet_AMRequestShort0(1, H_REQ);
}
static void m_before_attach_barrier(void) {
  expect("sub", "gasnet_barrier_notify");
  expect("sub", "attach");
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}
static void m_attach_twice(void) {
  expect("sub", "gasnet_attach");
  gasnet_attach(table, (int)(sizeof(table) / sizeof(table[0])), seg[0].size, 0);
}
/* an invalid handler table: a fatal error, or an error code from attach
 * (which the specification allows; then this test reports it itself) */
static void attach_bad_table(gasnet_handlerentry_t *t, int n, const char *what) {
  int rc = gasnet_attach(t, n, GASNET_PAGESIZE, 0);
  if (rc != GASNET_OK) {
    printf("badinput: node %u: gasnet_attach returned %d (%s) for %s\n", (unsigned)me, rc, gasnet_ErrorName(rc), what);
    fflush(stdout);
    gasnet_exit(1);
  }
}
static void m_attach_reserved_index(void) {
  gasnet_handlerentry_t t[] = {{1, (handlerfn_t)h_req}};
  expect("sub", "gasnet_attach");
  expect("word", "1");
  attach_bad_table(t, 1, "handler index 1");
}
static void m_attach_duplicate_index(void) {
  gasnet_handlerentry_t t[] = {{200, (handlerfn_t)h_req}, {200, (handlerfn_t)h_rep}};
  expect("sub", "gasnet_attach");
  expect("word", "200");
  attach_bad_table(t, 2, "handler index 200 twice");
}
/* attach fails on one node only (a segment size that is no multiple of the
 * page): every node must return the error from gasnet_attach -- none may
 * be left in a collective step of attach -- and node 0 says so. */
static void m_attach_fails_on_one(void) {
  int rc;
  if (me == 0) {
    expect("sub", "node 0: gasnet_attach returned");
    expect("sub", "GASNET_ERR_BAD_ARG");
  }
  rc = gasnet_attach(table, (int)(sizeof(table) / sizeof(table[0])), GASNET_PAGESIZE * (me == nodes - 1 ? 1.5 : 1), 0);
  printf("badinput: node %u: gasnet_attach returned %s\n", (unsigned)me, gasnet_ErrorName(rc));
  fflush(stdout);
  gasnet_exit(rc == GASNET_OK ? 0 : 6);
}
/* A handle used after its operation was synchronized: its record serves the
 * next operation now, which the stale handle must not be taken for. */
static void m_stale_handle(void) {
  gasnet_handle_t h = gasnet_put_nb(1, seg[1].addr, buf, 64), h2;
  gasnet_wait_syncnb(h);
  h2 = gasnet_put_nb_bulk(1, (char *)seg[1].addr + 64, buf, 1 << 15); /* (reuses h's record) */
  expect("sub", "Event_Test");
  expect("sub", "not an operation in flight");
  while (gasnet_try_syncnb(h) != GASNET_OK) continue;
  gasnet_wait_syncnb(h2);
}
static void m_stale_valget(void) {
  gasnet_valget_handle_t v = gasnet_get_nb_val(1, seg[1].addr, 8);
  (void)gasnet_wait_syncnb_valget(v);
  gasnet_valget_handle_t v2 = gasnet_get_nb_val(1, seg[1].addr, 4);
  expect("sub", "gasnet_wait_syncnb_valget");
  expect("sub", "not a value get in flight (synchronized already");
  (void)gasnet_wait_syncnb_valget(v); /* (must not be taken for v2) */
  printf("badinput: node %u: the stale value-get handle returned\n", (unsigned)me);
  fflush(stdout);
  (void)gasnet_wait_syncnb_valget(v2);
}
static void m_null_put_source(void) {
  expect("sub", "PutNBI");
  expect("sub", "source is NULL");
  gasnet_put_nbi(1, seg[1].addr, NULL, 8);
  gasnet_wait_syncnbi_puts();
}
static void m_null_get_destination(void) {
  expect("sub", "Get");
  expect("sub", "destination is NULL");
  gasnet_get(NULL, 1, seg[1].addr, 8);
}
static void m_null_medium_source(void) {
  expect("sub", "RequestMedium");
  expect("sub", "source is NULL");
  gasnet_AMRequestMedium0(1, H_MEDLONG, NULL, 16);
}
static void m_barrier_wait_after_try(void) {
  int rc;
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  while ((rc = gasnet_barrier_try(0, GASNET_BARRIERFLAG_ANONYMOUS)) == GASNET_ERR_NOT_READY) continue;
  expect("sub", "gasnet_barrier_wait");
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}
static void m_send_to_handler(gasnet_handler_t h) { gasnet_AMRequestShort0(1, h); }
static void m_reply_twice(void) { m_send_to_handler(H_REPLY_TWICE); }
static void m_request_in_handler(void) { m_send_to_handler(H_REQ_IN_HANDLER); }
static void m_put_in_handler(void) { m_send_to_handler(H_PUT_IN_HANDLER); }
static void m_reply_medium_too_big(void) { m_send_to_handler(H_REPLY_MEDIUM_BIG); }
static void m_barrier_wait_no_notify(void) {
  expect("sub", "gasnet_barrier_wait");
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}
/* portals: STAGEPORT_AM_OVERSPEND=8 (set before init) makes every node
 * promise 8 times the ReqRB space it has; node 1 sleeps in a handler while
 * node 0 spends its credits on the largest Mediums, which overflow node
 * 1's ReqRBs: the catch-all entry (CB) must turn that into a fatal error.
 * Offload mode only: there ptl's progress thread (the NIC) appends while
 * node 1 sleeps, deterministically; in host mode nothing is matched until
 * node 1 polls, and it drains AM_EQ between UCX's delivery batches, so the
 * overflow depends on how many messages one batch holds (under ASan it
 * did not happen once).  Static credits: node 0 holds its 8 x 64 credits
 * (15 of the largest Mediums; the two ReqRBs take 9) before node 1
 * sleeps.  Under dynamic credits it starts with 8 x 4 -- less than one
 * such Medium -- and the loans it needs come from node 1, which sleeps:
 * whether the overflow came after the sleep depended on how fast node 1
 * recycled its ReqRBs (once they were re-armed in place, not under ASan). */
static void m_credits_overspent(void) {
  static char big[1 << 16];
  expect("sub", "catch-all (CB)");
  expect("sub", "credit accounting is broken");
  gasnet_AMRequestShort0(1, H_SLEEP);
  for (int i = 0; i < 256; i++) gasnet_AMRequestMedium0(1, H_MEDLONG, big, gasnet_AMMaxMedium());
}
static void m_barrier_double_notify(void) {
  expect("sub", "gasnet_barrier_notify");
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
}

/* ------------------------------------------------------------------ */
/* GASNet-EX entry points (gasnet.h includes gasnetex.h): each bad call */
/* must be named as the gex_* call, with the bad value                 */
/* ------------------------------------------------------------------ */
static gex_TM_t ex_tm(void) {
  gex_Client_t c;
  gex_EP_t e;
  gex_TM_t t;
  gex_Segment_t s;
  gasnet_QueryGexObjects(&c, &e, &t, &s);
  return t;
}
static gex_EP_t ex_ep(void) {
  gex_Client_t c;
  gex_EP_t e;
  gex_TM_t t;
  gex_Segment_t s;
  gasnet_QueryGexObjects(&c, &e, &t, &s);
  return e;
}
static void m_ex_put_nb_rank(void) {
  gex_Event_t e;
  expect("sub", "gex_RMA_PutNB");
  expect("word", "%u", (unsigned)nodes + 2);
  e = gex_RMA_PutNB(ex_tm(), nodes + 2, seg[0].addr, buf, 8, GEX_EVENT_NOW, 0);
  gex_Event_Wait(e);
}
static void m_ex_am_short_rank(void) {
  expect("sub", "gex_AM_RequestShort");
  expect("word", "%u", (unsigned)nodes);
  gex_AM_RequestShort0(ex_tm(), nodes, H_REQ, 0);
}
static void m_ex_prepare_rank(void) {
  gex_AM_SrcDesc_t sd;
  expect("sub", "gex_AM_PrepareRequestMedium");
  expect("word", "%u", (unsigned)nodes + 1);
  sd = gex_AM_PrepareRequestMedium(ex_tm(), nodes + 1, NULL, 8, 8, NULL, 0, 0);
  if (sd != GEX_AM_SRCDESC_NO_OP) gex_AM_CommitRequestMedium0(sd, H_MEDLONG, 8);
}
static void m_ex_medium_reserved(void) {
  expect("sub", "gex_AM_RequestMedium");
  expect("word", "5");
  gex_AM_RequestMedium0(ex_tm(), 1, 5, buf, 16, GEX_EVENT_NOW, 0);
}
static void m_ex_medium_too_big(void) {
  size_t n = gex_AM_MaxRequestMedium(ex_tm(), 1, GEX_EVENT_NOW, 0, 0) + 1;
  char *b = calloc(1, n);
  expect("sub", "gex_AM_RequestMedium");
  expect("word", "%zu", n);
  gex_AM_RequestMedium0(ex_tm(), 1, H_MEDLONG, b, n, GEX_EVENT_NOW, 0);
}
static void m_ex_commit_too_big(void) {
  gex_AM_SrcDesc_t sd = gex_AM_PrepareRequestMedium(ex_tm(), 1, NULL, 16, 64, NULL, 0, 0);
  size_t n = gex_AM_SrcDescSize(sd) + 1;
  expect("sub", "gex_AM_CommitRequestMedium");
  expect("word", "%zu", n);
  gex_AM_CommitRequestMedium0(sd, H_MEDLONG, n);
}
/* an event synchronized already, waited for again: a barrier's (the
 * other nodes join it late, so it is pending when gex_Coll_BarrierNB
 * returns on node 0; an RMA event may be complete at once -- ucx) */
static void m_ex_event_wait_stale(void) {
  gex_Event_t e;
  if (me != 0) {
    double end = 0;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    end = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec + 0.3;
    do {
      gasnet_AMPoll();
      clock_gettime(CLOCK_MONOTONIC, &ts);
    } while ((double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec < end);
    gex_Event_Wait(gex_Coll_BarrierNB(ex_tm(), 0));
    return;
  }
  e = gex_Coll_BarrierNB(ex_tm(), 0);
  if (e == GEX_EVENT_INVALID) {
    printf("badinput: node %u: gex_Coll_BarrierNB returned GEX_EVENT_INVALID before the others joined\n", (unsigned)me);
    fflush(stdout);
    gasnet_exit(0);
  }
  gex_Event_Wait(e);
  expect("sub", "gex_Event_Wait");
  expect("sub", "synchronized");
  expect_addr((void *)e);
  gex_Event_Wait(e);
}
static void m_ex_event_test_no_op(void) {
  expect("sub", "gex_Event_Test");
  expect("sub", "GEX_EVENT_NO_OP");
  (void)gex_Event_Test(GEX_EVENT_NO_OP);
}
static void m_ex_query_leaf_category(void) {
  gex_Event_t lc = GEX_EVENT_INVALID, e = gex_RMA_PutNB(ex_tm(), 1, seg[1].addr, buf, 64, &lc, 0);
  expect("sub", "gex_Event_QueryLeaf");
  expect("sub", "0x%x", (unsigned)GEX_EC_PUT);
  (void)gex_Event_QueryLeaf(e, GEX_EC_PUT);
  gex_Event_Wait(e);
}
static void m_ex_bad_team_rma(void) {
  expect("sub", "gex_RMA_PutBlocking");
  expect("sub", "1234");
  gex_RMA_PutBlocking((gex_TM_t)(uintptr_t)0x1234, 1, seg[1].addr, buf, 8, 0);
}
static void m_ex_bad_team_am(void) {
  expect("sub", "gex_AM_RequestShort");
  expect("sub", "1234");
  gex_AM_RequestShort0((gex_TM_t)(uintptr_t)0x1234, 1, H_REQ, 0);
}
static void m_ex_bad_team_query(void) {
  expect("sub", "gex_TM_QuerySize");
  expect("sub", "1234");
  printf("badinput: node %u: gex_TM_QuerySize returned %u\n", (unsigned)me,
         (unsigned)gex_TM_QuerySize((gex_TM_t)(uintptr_t)0x1234));
}
static void m_ex_put_val_9(void) {
  expect("sub", "gex_RMA_PutBlockingVal");
  expect("word", "9");
  gex_RMA_PutBlockingVal(ex_tm(), 1, seg[1].addr, 0x1122334455667788ull, 9, 0);
}
/* an error code rather than a fatal error (as attach_bad_table) */
static void m_ex_register_reserved(void) {
  gex_AM_Entry_t e;
  int rc;
  memset(&e, 0, sizeof(e));
  e.gex_index = 5;
  e.gex_fnptr = (gex_AM_Fn_t)h_req;
  e.gex_flags = GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST;
  e.gex_nargs = 0;
  expect("sub", "gex_EP_RegisterHandlers");
  expect("word", "5");
  rc = gex_EP_RegisterHandlers(ex_ep(), &e, 1);
  if (rc != GASNET_OK) {
    printf("badinput: node %u: gex_EP_RegisterHandlers returned %d (%s) for handler index 5\n", (unsigned)me, rc,
           gasnet_ErrorName(rc));
    fflush(stdout);
    gasnet_exit(1);
  }
}

static const mode_t_ modes[] = {
    {"node_range", AFTER_ATTACH, m_node_range, 0, "gasnet_put to node gasnet_nodes()"},
    {"node_range_get", AFTER_ATTACH, m_node_range_get, 1, "gasnet_get_nb from node gasnet_nodes()+5"},
    {"node_range_am", AFTER_ATTACH, m_node_range_am, 0, "AM request to node gasnet_nodes()"},
    {"seg_beyond", AFTER_ATTACH, m_seg_beyond, 1, "gasnet_put just past the end of the segment"},
    {"seg_before", AFTER_ATTACH, m_seg_before, 1, "gasnet_get just before the start of the segment"},
    {"seg_straddle", AFTER_ATTACH, m_seg_straddle, 0, "gasnet_put_bulk straddling the end of the segment"},
    {"seg_straddle_memset", AFTER_ATTACH, m_seg_straddle_memset, 0, "gasnet_memset_nbi straddling the end"},
    {"long_dest_range", AFTER_ATTACH, m_long_dest_range, 0, "AM Long destination straddling the segment end"},
    {"handler_unreg", AFTER_ATTACH, m_handler_unreg, 0, "AM to handler 250, not registered"},
    {"reserved_handler_request", AFTER_ATTACH, m_reserved_handler_request, 0,
     "AM Short request to handler 2 (the library's memset)"},
    {"reserved_handler_request9", AFTER_ATTACH, m_reserved_handler_request9, 1,
     "AM Short request to handler 9 (a library acknowledgement)"},
    {"reserved_handler_long", AFTER_ATTACH, m_reserved_handler_long, 0, "AM Long request to handler 8"},
    {"reserved_handler_reply", AFTER_ATTACH, m_reserved_handler_reply, 0,
     "a request handler replies (Medium) to handler 11"},
    {"medium_too_big", AFTER_ATTACH, m_medium_too_big, 0, "Medium payload gasnet_AMMaxMedium()+1"},
    {"long_too_big", AFTER_ATTACH, m_long_too_big, 0, "Long payload gasnet_AMMaxLongRequest()+1"},
    {"reply_medium_too_big", AFTER_ATTACH, m_reply_medium_too_big, 0, "Medium reply gasnet_AMMaxMedium()+1"},
    {"nargs", AFTER_ATTACH, m_nargs, 0, "stp_AMRequestShortM with 17 arguments"},
    {"before_init", BEFORE_INIT, m_before_init, -1, "gasnet_put before gasnet_init"},
    {"env_overflow", BEFORE_INIT, m_env_overflow, -1, "STAGEPORT_MAX_SEGSIZE=99999999999G (overflows 64 bits)"},
    {"env_negative", BEFORE_INIT, m_env_negative, -1, "STAGEPORT_AM_CREDITS=-1"},
    {"bad_stage", BEFORE_INIT, m_bad_stage, -1, "gasnet_init with STAGEPORT_STAGE=no_such_stage"},
    {"before_attach", AFTER_INIT, m_before_attach, 0, "gasnet_put after init, before attach"},
    {"before_attach_am", AFTER_INIT, m_before_attach_am, 0, "AM request before attach"},
    {"before_attach_barrier", AFTER_INIT, m_before_attach_barrier, 0, "barrier before attach"},
    {"attach_twice", AFTER_ATTACH, m_attach_twice, 0, "gasnet_attach a second time"},
    {"attach_reserved_index", AFTER_INIT, m_attach_reserved_index, -1, "handler table entry with index 1 (reserved)"},
    {"attach_duplicate_index", AFTER_INIT, m_attach_duplicate_index, -1, "two handler table entries with index 200"},
    {"attach_fails_on_one", AFTER_INIT, m_attach_fails_on_one, -1,
     "the last node's gasnet_attach fails (a bad segment size): every node returns the error"},
    {"stale_handle", AFTER_ATTACH, m_stale_handle, 0, "gasnet_try_syncnb on a handle synchronized already"},
    {"stale_valget", AFTER_ATTACH, m_stale_valget, 0, "gasnet_wait_syncnb_valget on a handle synchronized already"},
    {"null_put_source", AFTER_ATTACH, m_null_put_source, 0, "gasnet_put_nbi from a NULL source"},
    {"null_get_destination", AFTER_ATTACH, m_null_get_destination, 1, "gasnet_get into a NULL destination"},
    {"null_medium_source", AFTER_ATTACH, m_null_medium_source, 0, "AM Medium request from a NULL source"},
    {"barrier_wait_after_try", AFTER_ATTACH, m_barrier_wait_after_try, 0, "gasnet_barrier_wait after a successful try"},
    {"reply_twice", AFTER_ATTACH, m_reply_twice, 0, "a request handler replies twice"},
    {"request_in_handler", AFTER_ATTACH, m_request_in_handler, 0, "an AM request from inside a handler"},
    {"put_in_handler", AFTER_ATTACH, m_put_in_handler, 0, "gasnet_put from inside a handler"},
    {"barrier_wait_no_notify", AFTER_ATTACH, m_barrier_wait_no_notify, 0, "gasnet_barrier_wait without notify"},
    {"barrier_double_notify", AFTER_ATTACH, m_barrier_double_notify, 0, "gasnet_barrier_notify twice"},
    {"ex_put_nb_rank", AFTER_ATTACH, m_ex_put_nb_rank, 0, "gex_RMA_PutNB to rank gasnet_nodes()+2"},
    {"ex_am_short_rank", AFTER_ATTACH, m_ex_am_short_rank, 1, "gex_AM_RequestShort0 to rank gasnet_nodes()"},
    {"ex_prepare_rank", AFTER_ATTACH, m_ex_prepare_rank, 0, "gex_AM_PrepareRequestMedium to rank gasnet_nodes()+1"},
    {"ex_medium_reserved", AFTER_ATTACH, m_ex_medium_reserved, 0, "gex_AM_RequestMedium0 to handler 5 (reserved)"},
    {"ex_medium_too_big", AFTER_ATTACH, m_ex_medium_too_big, 1, "gex_AM_RequestMedium0 of gex_AM_MaxRequestMedium()+1"},
    {"ex_commit_too_big", AFTER_ATTACH, m_ex_commit_too_big, 0, "gex_AM_CommitRequestMedium0 of gex_AM_SrcDescSize()+1"},
    {"ex_event_wait_stale", AFTER_ATTACH, m_ex_event_wait_stale, -1,
     "gex_Event_Wait on a (barrier) event waited for already (node 0)"},
    {"ex_event_test_no_op", AFTER_ATTACH, m_ex_event_test_no_op, 1, "gex_Event_Test(GEX_EVENT_NO_OP)"},
    {"ex_query_leaf_category", AFTER_ATTACH, m_ex_query_leaf_category, 0, "gex_Event_QueryLeaf(root, GEX_EC_PUT)"},
    {"ex_bad_team_rma", AFTER_ATTACH, m_ex_bad_team_rma, 0, "gex_RMA_PutBlocking on team (gex_TM_t)0x1234"},
    {"ex_bad_team_am", AFTER_ATTACH, m_ex_bad_team_am, 1, "gex_AM_RequestShort0 on team (gex_TM_t)0x1234"},
    {"ex_bad_team_query", AFTER_ATTACH, m_ex_bad_team_query, 0, "gex_TM_QuerySize((gex_TM_t)0x1234)"},
    {"ex_put_val_9", AFTER_ATTACH, m_ex_put_val_9, 0, "gex_RMA_PutBlockingVal of 9 bytes"},
    {"ex_register_reserved", AFTER_ATTACH, m_ex_register_reserved, 0,
     "gex_EP_RegisterHandlers with index 5 (reserved): GASNET_ERR_BAD_ARG"},
};
#define NMODES ((int)(sizeof(modes) / sizeof(modes[0])))

/* modes of one stage: listed and run only when STAGEPORT_STAGE names it
 * (and, for `portals`, STAGEPORT_PTL_MODE is not host) */
static const struct {
  const char *stage;
  mode_t_ m;
} stage_modes[] = {
    {"portals",
     {"credits_overspent", AFTER_ATTACH, m_credits_overspent, 0,
      "credits promising 8x the ReqRB space (STAGEPORT_AM_OVERSPEND=8): a request falls to the catch-all CB"}},
};
#define NSTAGE_MODES ((int)(sizeof(stage_modes) / sizeof(stage_modes[0])))

int main(int argc, char **argv) {
  const mode_t_ *m = NULL;
  const char *st = getenv("STAGEPORT_STAGE"), *pm = getenv("STAGEPORT_PTL_MODE");
  if (st && pm && !strcmp(pm, "host")) st = NULL; /* (see m_credits_overspent) */
  for (int i = 0; argc > 1 && i < NMODES; i++)
    if (!strcmp(argv[1], modes[i].name)) m = &modes[i];
  for (int i = 0; argc > 1 && i < NSTAGE_MODES; i++)
    if (!strcmp(argv[1], stage_modes[i].m.name) && st && !strcmp(st, stage_modes[i].stage)) m = &stage_modes[i].m;
  if (!m) {
    FILE *f = argc > 1 && strcmp(argv[1], "--list") && strcmp(argv[1], "--help") ? stderr : stdout;
    if (f == stderr) fprintf(f, "badinput: unknown mode \"%s\"\n", argc > 1 ? argv[1] : "");
    fprintf(f, "usage: mpirun -np 2 badinput MODE\nmodes (those of one stage only when STAGEPORT_STAGE names it):\n");
    for (int i = 0; i < NMODES; i++) fprintf(f, "  %-24s %s\n", modes[i].name, modes[i].about);
    for (int i = 0; i < NSTAGE_MODES; i++)
      if (st && !strcmp(st, stage_modes[i].stage))
        fprintf(f, "  %-24s %s (stage %s)\n", stage_modes[i].m.name, stage_modes[i].m.about, stage_modes[i].stage);
    return f == stderr ? 2 : 0;
  }
  if (!strcmp(m->name, "credits_overspent")) {
    setenv("STAGEPORT_AM_OVERSPEND", "8", 1);
    setenv("STAGEPORT_CREDITS", "static", 1);
  }
  g_argc = argc;
  g_argv = argv;
  if (m->stage == BEFORE_INIT) {
    m->bad();
    printf("badinput: returned from the bad call before gasnet_init\n");
    return 0;
  }
  if (gasnet_init(&argc, &argv) != GASNET_OK) {
    fprintf(stderr, "badinput: gasnet_init failed\n");
    return 3;
  }
  me = gasnet_mynode();
  nodes = gasnet_nodes();
  if (nodes < 2 || nodes > 64) {
    if (me == 0) fprintf(stderr, "badinput: needs 2..64 nodes\n");
    gasnet_exit(3);
  }
  int mine = m->who < 0 || (gasnet_node_t)m->who == me;
  if (m->stage == AFTER_INIT) {
    if (mine) {
      m->bad();
      printf("badinput: node %u: the call returned\n", (unsigned)me);
      fflush(stdout);
    }
  }
  uintptr_t segsize = gasnet_getMaxGlobalSegmentSize();
  if (segsize > ((uintptr_t)64 << 20)) segsize = (uintptr_t)64 << 20;
  if (gasnet_attach(table, (int)(sizeof(table) / sizeof(table[0])), segsize, 0) != GASNET_OK) {
    fprintf(stderr, "badinput: gasnet_attach failed\n");
    gasnet_exit(3);
  }
  gasnet_getSegmentInfo(seg, (int)nodes);
  if (m->stage == AFTER_ATTACH && mine) {
    m->bad();
    printf("badinput: node %u: the call returned\n", (unsigned)me);
    fflush(stdout);
  }
  wait_forever();
  return 0;
}
