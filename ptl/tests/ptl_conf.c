/*
 * ptl_conf.c -- multi-process conformance tests of ptl: every call and the
 * event sequences of Put, Get, ACK, truncation, drops, locally managed
 * buffers, thresholds, list order, EQ overflow, bad calls, PtlPost, the
 * extension allocator, and (offload mode) publishing and revocation.
 *
 *   mpirun -np N ptl_conf host|offload|mixed [subtest ...]
 *
 * mixed: even ranks host mode, odd ranks offload mode.
 *
 * Uses only ptl.h (and MPI for barriers and verification).  Prints
 * "FAIL <subtest> rank R line L: ..." for each failed check; rank 0 ends
 * with "ptl_conf: N subtests passed" or "ptl_conf: FAILED (...)".  Exit
 * status 1 on failure; a watchdog ends a hung run with status 2.
 */
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tests/ptl_test.h"

static int rank, nprocs, fails, offload, mixed, publishing;
static const char *sub = "init";
static ptl_handle_ni_t ni;
static ptl_handle_eq_t idle_eq; /* polled to make progress in host mode */
static const ptl_process_id_t ANY = {PTL_NID_ANY, PTL_PID_ANY};

void test_fail(int line, const char *fmt, ...) {
  va_list ap;
  printf("FAIL %s rank %d line %d: ", sub, rank, line);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  fflush(stdout);
  fails++;
}

static void watchdog(int sig) {
  (void)sig;
  char msg[128];
  int n = snprintf(msg, sizeof(msg), "FAIL %s rank %d: watchdog: no progress for 60 s\n", sub, rank);
  if (write(1, msg, (size_t)n) < 0) _exit(3);
  _exit(2);
}

static ptl_process_id_t pid_of(int r) { return (ptl_process_id_t){(ptl_nid_t)r, 0}; }

/* Does rank r's NI publish (offload mode, PTL_PUBLISH not 0)? */
static int publishes(int r) { return publishing && (mixed ? r % 2 : offload); }

/* A barrier that keeps ptl progressing (host mode matches only in calls). */
static void tbarrier(void) {
  MPI_Request req;
  int done = 0;
  ptl_event_t ev;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  while (!done) {
    PtlEQGet(idle_eq, &ev);
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (!done) sched_yield();
  }
}

/* Next event, which must be `type` (within 10 s). */
static ptl_event_t expect(ptl_handle_eq_t eq, ptl_event_kind_t type, int line) {
  ptl_event_t ev;
  int which, rc;
  memset(&ev, 0, sizeof(ev));
  rc = PtlEQPoll(&eq, 1, 10000, &ev, &which);
  if (rc != PTL_OK)
    test_fail(line, "waiting for %s: %s", PtlEventKindStr(type), PtlErrorStr(rc));
  else if (ev.type != type)
    test_fail(line, "got %s, wanted %s", PtlEventKindStr(ev.type), PtlEventKindStr(type));
  return ev;
}
#define EXPECT(eq, type) expect(eq, type, __LINE__)

/* No event within ms. */
static void expect_none(ptl_handle_eq_t eq, int ms, int line) {
  ptl_event_t ev;
  int which, rc = PtlEQPoll(&eq, 1, (ptl_time_t)ms, &ev, &which);
  if (rc != PTL_EQ_EMPTY)
    test_fail(line, "unexpected %s (%s)", rc == PTL_OK ? PtlEventKindStr(ev.type) : "", PtlErrorStr(rc));
}
#define EXPECT_NONE(eq, ms) expect_none(eq, ms, __LINE__)

static ptl_sr_value_t status(ptl_sr_index_t i) {
  ptl_sr_value_t v = 0;
  PtlNIStatus(ni, i, &v);
  return v;
}

/* Status register i reaches `want` within 5 s (offload: the progress
 * thread counts asynchronously; host: this process must poll). */
static int status_reaches(ptl_sr_index_t i, ptl_sr_value_t want) {
  ptl_event_t ev;
  for (int k = 0; k < 5000 && status(i) < want; k++) {
    PtlEQGet(idle_eq, &ev);
    usleep(1000);
  }
  return status(i) == want;
}

static void fill(unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(seed * 131u + i * 7u + (i >> 8));
}
static int filled(const unsigned char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (unsigned char)(seed * 131u + i * 7u + (i >> 8))) return 0;
  return 1;
}

#define RW (PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE)
#define MIB (1u << 20)

/* A target entry and an initiator MD, each with its own EQ. */
typedef struct {
  ptl_handle_eq_t teq, ieq;
  ptl_handle_me_t me;
  ptl_handle_md_t tmd, smd;
} pair_t;

/* Target: an ME on pt for exactly `bits` with MD t (events on teq, of
 * teq_size); initiator: a bound MD s (events on ieq). */
static void pair_up(pair_t *p, ptl_pt_index_t pt, ptl_match_bits_t bits, ptl_md_t t, int teq_size, ptl_md_t s) {
  OK(PtlEQAlloc(ni, (ptl_size_t)teq_size, PTL_EQ_HANDLER_NONE, &p->teq));
  OK(PtlEQAlloc(ni, 64, PTL_EQ_HANDLER_NONE, &p->ieq));
  t.eq_handle = p->teq;
  s.eq_handle = p->ieq;
  OK(PtlMEAttach(ni, pt, ANY, bits, 0, PTL_RETAIN, PTL_INS_AFTER, &p->me));
  OK(PtlMDAttach(p->me, t, PTL_RETAIN, &p->tmd));
  OK(PtlMDBind(ni, s, PTL_RETAIN, &p->smd));
}

static void pair_down(pair_t *p) {
  OK(PtlMEUnlink(p->me));
  OK(PtlMDUnlink(p->smd));
  OK(PtlEQFree(p->teq));
  OK(PtlEQFree(p->ieq));
}

/* ================================================================ subtests */
static void t_ids(void) {
  ptl_process_id_t id;
  ptl_handle_ni_t again;
  ptl_interface_t mode;
  ptl_ni_limits_t lim;
  OK(PtlGetId(ni, &id));
  CHECK(id.nid == (ptl_nid_t)rank && id.pid == 0);
  OK(PtlXNIMode(ni, &mode));
  CHECK(mode == (offload ? PTLX_IFACE_OFFLOAD : PTLX_IFACE_HOST));
  OK(PtlNIInit(mode, PTL_PID_ANY, NULL, &lim, &again));
  CHECK(again == ni && lim.max_pt_index == PTLX_PT_INDEX_MAX);
  RC(PtlNIInit(offload ? PTLX_IFACE_HOST : PTLX_IFACE_OFFLOAD, PTL_PID_ANY, NULL, NULL, &again), PTL_IFACE_INVALID);
  OK(PtlNIFini(again)); /* one reference back */
  ptl_handle_ni_t h;
  OK(PtlNIHandle(idle_eq, &h));
  CHECK(h == ni);
}

/* Ring: rank r puts to r+1 (8 B, 4 KiB, 1 MiB: eager and rendezvous). */
static void t_put_ack(void) {
  const size_t sizes[] = {8, 4096, MIB};
  size_t max = MIB + 64;
  unsigned char *tbuf = calloc(1, max), *sbuf = malloc(max);
  pair_t p;
  int to = (rank + 1) % nprocs, from = (rank + nprocs - 1) % nprocs;
  pair_up(&p, 1, 0x5, test_md(tbuf, max, PTL_MD_THRESH_INF, RW, 0, tbuf), 64,
          test_md(sbuf, max, PTL_MD_THRESH_INF, 0, 0, sbuf));
  ptl_handle_eq_t teq = p.teq, ieq = p.ieq;
  ptl_handle_md_t tmd = p.tmd, smd = p.smd;
  tbarrier();
  for (unsigned i = 0; i < 3; i++) {
    size_t n = sizes[i];
    fill(sbuf + 16, n, (unsigned)rank + i);
    OK(PtlPutRegion(smd, 16, n, PTL_ACK_REQ, pid_of(to), 1, 0, 0x5, 32, 0xabc0 + i));
    ptl_event_t e = EXPECT(ieq, PTL_EVENT_SEND_START);
    CHECK(e.md_handle == smd && e.offset == 16 && e.rlength == n && e.hdr_data == 0xabc0 + i);
    e = EXPECT(ieq, PTL_EVENT_SEND_END);
    CHECK(e.md.user_ptr == sbuf && e.mlength == n);
    e = EXPECT(ieq, PTL_EVENT_ACK);
    CHECK(e.initiator.nid == (ptl_nid_t)to && e.mlength == n && e.rlength == n && e.offset == 32);
    CHECK(e.match_bits == 0x5 && e.pt_index == 1 && e.md_handle == smd && e.hdr_data == 0xabc0 + i);
    e = EXPECT(teq, PTL_EVENT_PUT_START);
    CHECK(e.initiator.nid == (ptl_nid_t)from && e.rlength == n && e.offset == 32);
    ptl_seq_t start = e.sequence;
    e = EXPECT(teq, PTL_EVENT_PUT_END);
    CHECK(e.initiator.nid == (ptl_nid_t)from && e.mlength == n && e.hdr_data == 0xabc0 + i && e.link == start);
    CHECK(e.md_handle == tmd && e.md.user_ptr == tbuf && e.pt_index == 1 && e.ni_fail_type == PTL_NI_OK);
    CHECK(filled(tbuf + 32, n, (unsigned)from + i));
    tbarrier();
  }
  /* no ACK asked: SEND events only; ACK_DISABLE at the target: none either */
  OK(PtlPutRegion(smd, 0, 8, PTL_NO_ACK_REQ, pid_of(to), 1, 0, 0x5, 0, 0));
  EXPECT(ieq, PTL_EVENT_SEND_START);
  EXPECT(ieq, PTL_EVENT_SEND_END);
  EXPECT(teq, PTL_EVENT_PUT_START);
  EXPECT(teq, PTL_EVENT_PUT_END);
  tbarrier();
  EXPECT_NONE(ieq, 50);
  OK(PtlMDUnlink(tmd));
  OK(PtlMDAttach(p.me, test_md(tbuf, max, PTL_MD_THRESH_INF, RW | PTL_MD_ACK_DISABLE, teq, tbuf), PTL_RETAIN, &tmd));
  tbarrier();
  OK(PtlPutRegion(smd, 0, 8, PTL_ACK_REQ, pid_of(to), 1, 0, 0x5, 0, 0));
  EXPECT(ieq, PTL_EVENT_SEND_START);
  EXPECT(ieq, PTL_EVENT_SEND_END);
  EXPECT(teq, PTL_EVENT_PUT_START);
  EXPECT(teq, PTL_EVENT_PUT_END);
  tbarrier();
  EXPECT_NONE(ieq, 50);
  pair_down(&p);
  RC(PtlMDUnlink(tmd), PTL_MD_INVALID); /* went with its ME */
  free(tbuf);
  free(sbuf);
}

static void t_get(void) {
  const size_t sizes[] = {8, 4096, MIB};
  size_t max = MIB + 64;
  unsigned char *tbuf = malloc(max), *dbuf = calloc(1, max);
  pair_t p;
  int to = (rank + 1) % nprocs, from = (rank + nprocs - 1) % nprocs;
  fill(tbuf, max, (unsigned)rank);
  pair_up(&p, 2, 0x9, test_md(tbuf, max, PTL_MD_THRESH_INF, RW, 0, NULL), 64,
          test_md(dbuf, max, PTL_MD_THRESH_INF, 0, 0, dbuf));
  ptl_handle_eq_t teq = p.teq, ieq = p.ieq;
  ptl_handle_md_t tmd = p.tmd, dmd = p.smd;
  tbarrier();
  for (unsigned i = 0; i < 3; i++) {
    size_t n = sizes[i];
    memset(dbuf, 0, max);
    OK(PtlGetRegion(dmd, 8, n, pid_of(to), 2, 0, 0x9, 0));
    ptl_event_t e = EXPECT(ieq, PTL_EVENT_REPLY_START);
    CHECK(e.initiator.nid == (ptl_nid_t)to && e.rlength == n && e.offset == 8 && e.md_handle == dmd);
    e = EXPECT(ieq, PTL_EVENT_REPLY_END);
    CHECK(e.mlength == n && e.md.user_ptr == dbuf && e.match_bits == 0x9);
    CHECK(filled(dbuf + 8, n, (unsigned)to));
    e = EXPECT(teq, PTL_EVENT_GET_START);
    CHECK(e.initiator.nid == (ptl_nid_t)from && e.rlength == n && e.offset == 0);
    e = EXPECT(teq, PTL_EVENT_GET_END);
    CHECK(e.mlength == n && e.md_handle == tmd);
    tbarrier();
  }
  /* a Get the target MD does not allow is dropped: its initiator learns it
   * (REPLY_START/END of type PTLX_NI_DROPPED, no data) instead of waiting
   * for ever */
  OK(PtlMDUnlink(tmd));
  OK(PtlMDAttach(p.me, test_md(tbuf, max, PTL_MD_THRESH_INF, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE, teq, NULL),
                 PTL_RETAIN, &tmd));
  ptl_sr_value_t drops = status(PTL_SR_DROP_COUNT);
  tbarrier();
  memset(dbuf, 0x5a, 8);
  OK(PtlGetRegion(dmd, 0, 8, pid_of(to), 2, 0, 0x9, 0));
  ptl_event_t d = EXPECT(ieq, PTL_EVENT_REPLY_START);
  CHECK(d.ni_fail_type == PTLX_NI_DROPPED && d.mlength == 0 && d.initiator.nid == (ptl_nid_t)to);
  d = EXPECT(ieq, PTL_EVENT_REPLY_END);
  CHECK(d.ni_fail_type == PTLX_NI_DROPPED && d.mlength == 0 && d.rlength == 8 && d.match_bits == 0x9);
  CHECK(dbuf[0] == 0x5a && dbuf[7] == 0x5a);
  EXPECT_NONE(ieq, 100);
  tbarrier();
  CHECK(status_reaches(PTL_SR_DROP_COUNT, drops + 1));
  EXPECT_NONE(teq, 0);
  pair_down(&p);
  free(tbuf);
  free(dbuf);
}

static void t_truncate_drop(void) {
  size_t tlen = 512 * 1024, slen = MIB;
  unsigned char *tbuf = calloc(1, tlen), *sbuf = malloc(slen);
  pair_t p;
  int to = (rank + 1) % nprocs;
  fill(sbuf, slen, 77);
  pair_up(&p, 3, 1, test_md(tbuf, tlen, PTL_MD_THRESH_INF, RW | PTL_MD_TRUNCATE, 0, NULL), 64,
          test_md(sbuf, slen, PTL_MD_THRESH_INF, PTL_MD_EVENT_START_DISABLE, 0, NULL));
  ptl_handle_eq_t teq = p.teq, ieq = p.ieq;
  ptl_handle_md_t smd = p.smd;
  /* small and rendezvous-sized Puts, each cut to what fits after offset 100 */
  size_t lens[] = {tlen, slen};
  for (int i = 0; i < 2; i++) {
    memset(tbuf, 0, tlen);
    tbarrier(); /* (host mode: a barrier may already take the next Put in) */
    OK(PtlPutRegion(smd, 0, lens[i], PTL_ACK_REQ, pid_of(to), 3, 0, 1, 100, 0));
    EXPECT(ieq, PTL_EVENT_SEND_END);
    ptl_event_t e = EXPECT(ieq, PTL_EVENT_ACK);
    CHECK(e.rlength == lens[i] && e.mlength == tlen - 100);
    EXPECT(teq, PTL_EVENT_PUT_START);
    e = EXPECT(teq, PTL_EVENT_PUT_END);
    CHECK(e.rlength == lens[i] && e.mlength == tlen - 100 && e.offset == 100);
    CHECK(filled(tbuf + 100, tlen - 100, 77) && tbuf[99] == 0);
    tbarrier();
  }
  /* nothing matches: dropped and counted; a Put that asked for an ACK gets
   * one of type PTLX_NI_DROPPED (mlength 0), one that did not gets nothing */
  ptl_sr_value_t drops = status(PTL_SR_DROP_COUNT), dlen = status(PTL_SR_DROP_LENGTH);
  tbarrier();
  OK(PtlPutRegion(smd, 0, 40, PTL_ACK_REQ, pid_of(to), 3, 0, 2 /* bits */, 0, 0));
  EXPECT(ieq, PTL_EVENT_SEND_END);
  ptl_event_t d = EXPECT(ieq, PTL_EVENT_ACK);
  CHECK(d.ni_fail_type == PTLX_NI_DROPPED && d.mlength == 0 && d.rlength == 40 && d.match_bits == 2);
  OK(PtlPutRegion(smd, 0, 40, PTL_NO_ACK_REQ, pid_of(to), 4 /* pt */, 0, 1, 0, 0));
  EXPECT(ieq, PTL_EVENT_SEND_END);
  tbarrier();
  EXPECT_NONE(ieq, 100);
  tbarrier();
  CHECK(status_reaches(PTL_SR_DROP_COUNT, drops + 2) && status_reaches(PTL_SR_DROP_LENGTH, dlen + 80));
  EXPECT_NONE(teq, 0);
  pair_down(&p);
  free(tbuf);
  free(sbuf);
}

/* Seed 000's request buffers: locally managed MDs that unlink themselves
 * when full and are relinked at the tail once drained.  In each of RB_K
 * rounds every rank sends one message to every other and handles what
 * arrives; the rounds bound what is unread at a target (the job of
 * GASNet's credits), so no message can find every buffer full. */
#define RB_BUFS 2
#define RB_LEN 1024
#define RB_MSG 64
#define RB_K 40
static void t_reqrb(void) {
  static unsigned char rb[RB_BUFS][RB_LEN], msg[64][RB_MSG];
  ptl_handle_eq_t teq, ieq;
  ptl_handle_me_t me;
  ptl_handle_md_t smd, bmd[RB_BUFS];
  int got[64] = {0}, unlinks = 0;
  ptl_md_t d = test_md(NULL, RB_LEN, PTL_MD_THRESH_INF, PTL_MD_OP_PUT | PTL_MD_MAX_SIZE, PTL_EQ_NONE, NULL);
  d.max_size = RB_MSG;
  OK(PtlEQAlloc(ni, 256, PTL_EQ_HANDLER_NONE, &teq));
  OK(PtlEQAlloc(ni, 256, PTL_EQ_HANDLER_NONE, &ieq));
  d.eq_handle = teq;
  for (int b = 0; b < RB_BUFS; b++) {
    d.start = rb[b];
    d.user_ptr = (void *)(uintptr_t)b;
    OK(PtlPost(ni, 6, ANY, 0x3, 0, PTL_UNLINK, PTL_INS_AFTER, d, PTL_UNLINK, &me, &bmd[b]));
  }
  OK(PtlMDBind(ni, test_md(msg, sizeof(msg), PTL_MD_THRESH_INF, PTL_MD_EVENT_START_DISABLE, ieq, NULL), PTL_RETAIN,
               &smd));
  tbarrier();
  for (int round = 0; round < RB_K; round++) {
    int acked = 0, arrived = 0;
    for (int dest = 0; dest < nprocs; dest++) {
      unsigned char *m = msg[dest];
      if (dest == rank) continue;
      m[0] = (unsigned char)rank;
      m[1] = (unsigned char)round;
      fill(m + 2, RB_MSG - 2, (unsigned)rank);
      OK(PtlPutRegion(smd, (ptl_size_t)dest * RB_MSG, RB_MSG, PTL_ACK_REQ, pid_of(dest), 6, 0, 0x3, 0,
                      (ptl_hdr_data_t)rank));
    }
    while (acked < nprocs - 1 || arrived < nprocs - 1) {
      ptl_event_t ev;
      ptl_handle_eq_t eqs[2] = {teq, ieq};
      int which, rc = PtlEQPoll(eqs, 2, 10000, &ev, &which);
      if (rc != PTL_OK) {
        RC(rc, PTL_OK);
        break;
      }
      if (which == 1) {
        acked += ev.type == PTL_EVENT_ACK;
      } else if (ev.type == PTL_EVENT_PUT_END) {
        unsigned char *p = (unsigned char *)ev.md.start + ev.offset;
        CHECK(ev.mlength == RB_MSG && ev.hdr_data == p[0] && filled(p + 2, RB_MSG - 2, p[0]));
        CHECK(p[1] == got[p[0]]); /* in order from each sender */
        got[p[0]]++;
        arrived++;
      } else if (ev.type == PTL_EVENT_UNLINK) { /* full, drained: back at the tail */
        int b = (int)(uintptr_t)ev.md.user_ptr;
        unlinks++;
        d.start = rb[b];
        d.user_ptr = ev.md.user_ptr;
        OK(PtlPost(ni, 6, ANY, 0x3, 0, PTL_UNLINK, PTL_INS_AFTER, d, PTL_UNLINK, &me, &bmd[b]));
      }
    }
    tbarrier();
  }
  for (int r = 0; r < nprocs; r++) CHECK(got[r] == (r == rank ? 0 : RB_K));
  CHECK(unlinks >= RB_K * (nprocs - 1) / (RB_LEN / RB_MSG) - 1);
  for (int b = 0; b < RB_BUFS; b++) PtlMDUnlink(bmd[b]);
  OK(PtlMDUnlink(smd));
  OK(PtlEQFree(teq));
  OK(PtlEQFree(ieq));
}

static void t_threshold(void) {
  unsigned char tbuf[64], sbuf[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  ptl_handle_eq_t teq, ieq;
  ptl_handle_me_t me;
  ptl_handle_md_t tmd, smd;
  int to = (rank + 1) % nprocs;
  OK(PtlEQAlloc(ni, 64, PTL_EQ_HANDLER_NONE, &teq));
  OK(PtlEQAlloc(ni, 64, PTL_EQ_HANDLER_NONE, &ieq));
  OK(PtlMEAttach(ni, 7, ANY, 0, 0, PTL_UNLINK, PTL_INS_AFTER, &me));
  OK(PtlMDAttach(me, test_md(tbuf, 64, 2, RW | PTL_MD_EVENT_START_DISABLE, teq, NULL), PTL_UNLINK, &tmd));
  /* initiator MD: threshold 4 = 2 sends + 2 ACKs, then it unlinks itself */
  OK(PtlMDBind(ni, test_md(sbuf, 8, 4, PTL_MD_EVENT_START_DISABLE, ieq, NULL), PTL_UNLINK, &smd));
  ptl_sr_value_t drops = status(PTL_SR_DROP_COUNT);
  tbarrier();
  for (int i = 0; i < 2; i++) {
    OK(PtlPut(smd, PTL_ACK_REQ, pid_of(to), 7, 0, 0, 0, 0));
    EXPECT(ieq, PTL_EVENT_SEND_END);
    EXPECT(ieq, PTL_EVENT_ACK);
    EXPECT(teq, PTL_EVENT_PUT_END);
  }
  EXPECT(ieq, PTL_EVENT_UNLINK);
  ptl_event_t e = EXPECT(teq, PTL_EVENT_UNLINK);
  CHECK(e.md_handle == tmd);
  RC(PtlPut(smd, PTL_ACK_REQ, pid_of(to), 7, 0, 0, 0, 0), PTL_MD_INVALID);
  RC(PtlMEUnlink(me), PTL_ME_INVALID); /* the ME went with its MD */
  /* a third Put finds nothing */
  OK(PtlMDBind(ni, test_md(sbuf, 8, PTL_MD_THRESH_INF, 0, ieq, NULL), PTL_RETAIN, &smd));
  tbarrier();
  OK(PtlPut(smd, PTL_NO_ACK_REQ, pid_of(to), 7, 0, 0, 0, 0));
  EXPECT(ieq, PTL_EVENT_SEND_START);
  EXPECT(ieq, PTL_EVENT_SEND_END);
  tbarrier();
  CHECK(status_reaches(PTL_SR_DROP_COUNT, drops + 1));
  OK(PtlMDUnlink(smd));
  OK(PtlEQFree(teq));
  OK(PtlEQFree(ieq));
}

/* First match in list order, insert positions and source filters, across
 * processes: rank 0's list on pt 8 is
 *   C (bits 2)  A (only from rank 1, bits 1)  D (bits 1, inserted before B)  B (bits 1) */
static void t_first_match(void) {
  unsigned char tb[4][16], sbuf[8] = {0};
  ptl_handle_eq_t teq, ieq;
  ptl_handle_me_t a, b, c, dd;
  ptl_handle_md_t md[4], smd;
  OK(PtlEQAlloc(ni, 64, PTL_EQ_HANDLER_NONE, &teq));
  OK(PtlEQAlloc(ni, 64, PTL_EQ_HANDLER_NONE, &ieq));
  OK(PtlMDBind(ni, test_md(sbuf, 8, PTL_MD_THRESH_INF, PTL_MD_EVENT_START_DISABLE, ieq, NULL), PTL_RETAIN, &smd));
  if (rank == 0) {
    ptl_process_id_t only1 = {1, 0};
    OK(PtlMEAttach(ni, 8, only1, 1, 0, PTL_RETAIN, PTL_INS_AFTER, &a));
    OK(PtlMEAttach(ni, 8, ANY, 1, 0, PTL_RETAIN, PTL_INS_AFTER, &b));
    OK(PtlMEAttach(ni, 8, ANY, 2, 0, PTL_RETAIN, PTL_INS_BEFORE, &c));
    OK(PtlMEInsert(b, ANY, 1, 0, PTL_RETAIN, PTL_INS_BEFORE, &dd));
    ptl_handle_me_t mes[4] = {a, b, c, dd};
    for (int i = 0; i < 4; i++)
      OK(PtlMDAttach(
          mes[i],
          test_md(tb[i], 16, PTL_MD_THRESH_INF, RW | PTL_MD_EVENT_START_DISABLE, teq, (void *)(uintptr_t)(i + 1)),
          PTL_RETAIN, &md[i]));
  }
  tbarrier();
  if (rank != 0) {
    OK(PtlPut(smd, PTL_ACK_REQ, pid_of(0), 8, 0, 1, 0, 0));
    EXPECT(ieq, PTL_EVENT_SEND_END);
    EXPECT(ieq, PTL_EVENT_ACK);
    if (rank == 1) {
      OK(PtlPut(smd, PTL_ACK_REQ, pid_of(0), 8, 0, 2, 0, 0));
      EXPECT(ieq, PTL_EVENT_SEND_END);
      EXPECT(ieq, PTL_EVENT_ACK);
    }
  } else {
    int seen[5] = {0};
    for (int i = 0; i < nprocs; i++) { /* nprocs - 1 bits-1 Puts + rank 1's bits-2 Put */
      ptl_event_t e = EXPECT(teq, PTL_EVENT_PUT_END);
      int which = (int)(uintptr_t)e.md.user_ptr;
      if (e.match_bits == 2)
        CHECK(which == 3); /* C */
      else if (e.initiator.nid == 1)
        CHECK(which == 1); /* A: its source filter */
      else
        CHECK(which == 4); /* D before B */
      if (which >= 1 && which <= 4) seen[which]++;
    }
    CHECK(seen[2] == 0);
  }
  tbarrier();
  if (rank == 0) {
    OK(PtlMEUnlink(a));
    OK(PtlMEUnlink(b));
    OK(PtlMEUnlink(c));
    OK(PtlMEUnlink(dd));
  }
  OK(PtlMDUnlink(smd));
  OK(PtlEQFree(teq));
  OK(PtlEQFree(ieq));
}

/* An EQ too small for what arrives reports PTL_EQ_DROPPED. */
static void t_eq_overflow(void) {
  unsigned char tbuf[64], sbuf[8] = {0};
  pair_t p;
  int nput = 6;
  pair_up(&p, 9, 0, test_md(tbuf, 64, PTL_MD_THRESH_INF, RW | PTL_MD_EVENT_START_DISABLE, 0, NULL), 4,
          test_md(sbuf, 8, PTL_MD_THRESH_INF, PTL_MD_EVENT_START_DISABLE, 0, NULL));
  ptl_handle_eq_t teq = p.teq, ieq = p.ieq;
  ptl_handle_md_t smd = p.smd;
  ptl_sr_value_t lost0 = status(PTLX_SR_EQ_DROPPED);
  tbarrier();
  if (rank == 1)
    for (int i = 0; i < nput; i++) {
      OK(PtlPut(smd, PTL_ACK_REQ, pid_of(0), 9, 0, 0, 0, (ptl_hdr_data_t)i));
      EXPECT(ieq, PTL_EVENT_SEND_END);
      EXPECT(ieq, PTL_EVENT_ACK); /* so all have arrived before rank 0 looks */
    }
  tbarrier();
  if (rank == 0) {
    ptl_event_t e;
    RC(PtlEQGet(teq, &e), PTL_EQ_DROPPED);
    CHECK(e.type == PTL_EVENT_PUT_END && e.hdr_data == 0);
    for (int i = 1; i < 4; i++) {
      RC(PtlEQGet(teq, &e), PTL_OK);
      CHECK(e.hdr_data == (ptl_hdr_data_t)i);
    }
    RC(PtlEQGet(teq, &e), PTL_EQ_EMPTY);
    CHECK(status(PTLX_SR_EQ_DROPPED) == lost0 + (ptl_sr_value_t)(nput - 4));
  }
  tbarrier();
  pair_down(&p);
}

static void t_bad_calls(void) {
  unsigned char buf[16];
  ptl_handle_md_t md, stale;
  ptl_handle_eq_t eq;
  ptl_handle_me_t me;
  ptl_event_t e;
  int which;
  OK(PtlEQAlloc(ni, 4, PTL_EQ_HANDLER_NONE, &eq));
  OK(PtlMDBind(ni, test_md(buf, 16, PTL_MD_THRESH_INF, 0, eq, NULL), PTL_RETAIN, &stale));
  OK(PtlMDUnlink(stale));
  OK(PtlMDBind(ni, test_md(buf, 16, PTL_MD_THRESH_INF, 0, eq, NULL), PTL_RETAIN, &md));
  RC(PtlPut(stale, PTL_ACK_REQ, pid_of(0), 0, 0, 0, 0, 0), PTL_MD_INVALID);
  RC(PtlGet(stale, pid_of(0), 0, 0, 0, 0), PTL_MD_INVALID);
  RC(PtlPut(PTL_INVALID_HANDLE, PTL_ACK_REQ, pid_of(0), 0, 0, 0, 0, 0), PTL_MD_INVALID);
  RC(PtlPutRegion(md, 8, 9, PTL_ACK_REQ, pid_of(0), 0, 0, 0, 0, 0), PTL_MD_ILLEGAL);
  RC(PtlPutRegion(md, 17, 0, PTL_ACK_REQ, pid_of(0), 0, 0, 0, 0, 0), PTL_MD_ILLEGAL);
  RC(PtlGetRegion(md, 0, 17, pid_of(0), 0, 0, 0, 0), PTL_MD_ILLEGAL);
  RC(PtlPut(md, PTL_ACK_REQ, pid_of(nprocs), 0, 0, 0, 0, 0), PTL_PROCESS_INVALID);
  RC(PtlPut(md, PTL_ACK_REQ, (ptl_process_id_t){0, 5}, 0, 0, 0, 0, 0), PTL_PROCESS_INVALID);
  RC(PtlPut(md, PTL_ACK_REQ, pid_of(0), PTLX_PT_INDEX_MAX + 1, 0, 0, 0, 0), PTL_PT_INDEX_INVALID);
  RC(PtlPut(md, PTL_ACK_REQ, pid_of(0), 0, 1, 0, 0, 0), PTL_AC_INDEX_INVALID);
  RC(PtlGet(md, pid_of(0), 0, 7, 0, 0), PTL_AC_INDEX_INVALID);
  RC(PtlMEAttach(ni, 0, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER, NULL), PTL_SEGV);
  RC(PtlMEUnlink(md), PTL_ME_INVALID);
  RC(PtlMDUnlink(eq), PTL_MD_INVALID);
  RC(PtlMDBind(ni, test_md(buf, 16, 1, PTL_MD_IOVEC, eq, NULL), PTL_RETAIN, &stale), PTL_MD_ILLEGAL);
  RC(PtlMDBind(ni, test_md(buf, 16, 1, 0, eq + 1, NULL), PTL_RETAIN, &stale), PTL_EQ_INVALID);
  RC(PtlMDBind(ni + 1, test_md(buf, 16, 1, 0, eq, NULL), PTL_RETAIN, &stale), PTL_NI_INVALID);
  RC(PtlEQPoll(&eq, 1, 0, NULL, &which), PTL_SEGV);
  RC(PtlNIStatus(ni, 999, NULL), PTL_SEGV);
  RC(PtlNIInit(77, PTL_PID_ANY, NULL, NULL, &me), PTL_IFACE_INVALID);
  RC(PtlNIInit(PTL_IFACE_DEFAULT, 3, NULL, NULL, &me), PTL_PID_INVALID);
  OK(PtlMEAttach(ni, 10, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
  OK(PtlMEUnlink(me));
  RC(PtlMEUnlink(me), PTL_ME_INVALID);
  RC(PtlMDAttach(me, test_md(buf, 16, 1, 0, eq, NULL), PTL_RETAIN, &stale), PTL_ME_INVALID);
  OK(PtlMDUnlink(md));
  RC(PtlEQGet(eq, &e), PTL_EQ_EMPTY); /* the EQ looked up last is remembered ... */
  OK(PtlEQFree(eq));                  /* ... until it is freed */
  RC(PtlEQGet(eq, &e), PTL_EQ_INVALID);
  RC(PtlEQWait(eq, &e), PTL_EQ_INVALID);
  ptl_handle_eq_t eq2;
  OK(PtlEQAlloc(ni, 4, PTL_EQ_HANDLER_NONE, &eq2)); /* (its slot, perhaps) */
  RC(PtlEQGet(eq, &e), PTL_EQ_INVALID);
  RC(PtlEQGet(eq2, &e), PTL_EQ_EMPTY);
  RC(PtlEQGet(eq, &e), PTL_EQ_INVALID);
  RC(PtlEQGet(eq2, &e), PTL_EQ_EMPTY);
  OK(PtlEQFree(eq2));
  RC(PtlEQGet(eq2, &e), PTL_EQ_INVALID);
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void t_eq_poll(void) {
  unsigned char tbuf[16], sbuf[8] = {0};
  ptl_handle_eq_t eqs[2], ieq;
  ptl_handle_me_t me;
  ptl_handle_md_t tmd, smd;
  ptl_event_t e;
  int which = -1;
  OK(PtlEQAlloc(ni, 8, PTL_EQ_HANDLER_NONE, &eqs[0]));
  OK(PtlEQAlloc(ni, 8, PTL_EQ_HANDLER_NONE, &eqs[1]));
  OK(PtlEQAlloc(ni, 8, PTL_EQ_HANDLER_NONE, &ieq));
  double t0 = now_s();
  RC(PtlEQPoll(eqs, 2, 60, &e, &which), PTL_EQ_EMPTY);
  double dt = now_s() - t0;
  CHECK(dt >= 0.055 && dt < 2.0);
  OK(PtlMEAttach(ni, 11, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
  OK(PtlMDAttach(me, test_md(tbuf, 16, PTL_MD_THRESH_INF, RW | PTL_MD_EVENT_START_DISABLE, eqs[1], NULL), PTL_RETAIN,
                 &tmd));
  OK(PtlMDBind(ni, test_md(sbuf, 8, PTL_MD_THRESH_INF, PTL_MD_EVENT_START_DISABLE, ieq, NULL), PTL_RETAIN, &smd));
  tbarrier();
  OK(PtlPut(smd, PTL_NO_ACK_REQ, pid_of((rank + 1) % nprocs), 11, 0, 0, 0, 0));
  RC(PtlEQPoll(eqs, 2, PTL_TIME_FOREVER, &e, &which), PTL_OK);
  CHECK(which == 1 && e.type == PTL_EVENT_PUT_END);
  EXPECT(ieq, PTL_EVENT_SEND_END);
  tbarrier();
  OK(PtlMEUnlink(me));
  OK(PtlMDUnlink(smd));
  OK(PtlEQFree(eqs[0]));
  OK(PtlEQFree(eqs[1]));
  OK(PtlEQFree(ieq));
}

/* PtlMEMDPost inserts before its base, atomically with its MD. */
static void t_post(void) {
  unsigned char t1[16], t2[16], sbuf[8] = {0};
  ptl_handle_eq_t teq, ieq;
  ptl_handle_me_t base, me2;
  ptl_handle_md_t md1, md2, smd;
  OK(PtlEQAlloc(ni, 16, PTL_EQ_HANDLER_NONE, &teq));
  OK(PtlEQAlloc(ni, 16, PTL_EQ_HANDLER_NONE, &ieq));
  OK(PtlPost(ni, 12, ANY, 4, 0, PTL_UNLINK, PTL_INS_AFTER,
             test_md(t1, 16, 1, RW | PTL_MD_EVENT_START_DISABLE, teq, (void *)1), PTL_UNLINK, &base, &md1));
  OK(PtlMEMDPost(ni, base, ANY, 4, 0, PTL_UNLINK, PTL_INS_BEFORE,
                 test_md(t2, 16, 1, RW | PTL_MD_EVENT_START_DISABLE, teq, (void *)2), PTL_UNLINK, &me2, &md2, teq));
  OK(PtlMDBind(ni, test_md(sbuf, 8, PTL_MD_THRESH_INF, PTL_MD_EVENT_START_DISABLE, ieq, NULL), PTL_RETAIN, &smd));
  tbarrier();
  int to = (rank + 1) % nprocs;
  for (int i = 0; i < 2; i++) {
    OK(PtlPut(smd, PTL_ACK_REQ, pid_of(to), 12, 0, 4, 0, 0));
    EXPECT(ieq, PTL_EVENT_SEND_END);
    EXPECT(ieq, PTL_EVENT_ACK);
  }
  ptl_event_t e = EXPECT(teq, PTL_EVENT_PUT_END);
  CHECK(e.md.user_ptr == (void *)2);
  EXPECT(teq, PTL_EVENT_UNLINK);
  e = EXPECT(teq, PTL_EVENT_PUT_END);
  CHECK(e.md.user_ptr == (void *)1);
  EXPECT(teq, PTL_EVENT_UNLINK);
  tbarrier();
  RC(PtlMEUnlink(base), PTL_ME_INVALID);
  OK(PtlMDUnlink(smd));
  OK(PtlEQFree(teq));
  OK(PtlEQFree(ieq));
}

/* MD costs: ordinary memory is registered (and pinned, if this process may
 * pin it: otherwise counted in PTLX_SR_MD_PIN_FAIL and still usable),
 * extension memory not; both carry data; Puts to oneself work.  (The suite
 * also runs this with pinning refused: run-ptl-tests.sh.) */
static void t_memory_self(void) {
  void *x = NULL;
  size_t n = 64 * 1024;
  unsigned char *plain = malloc(n);
  ptl_handle_md_t xm, pm, tm;
  ptl_handle_me_t me;
  ptl_handle_eq_t ieq;
  OK(PtlEQAlloc(ni, 16, PTL_EQ_HANDLER_NONE, &ieq));
  OK(PtlXMemAlloc(ni, n, &x));
  CHECK(x != NULL);
  ptl_sr_value_t regs = status(PTLX_SR_MD_REGISTER), pin_fails = status(PTLX_SR_MD_PIN_FAIL);
  int can_pin = mlock(plain, n) == 0; /* what ptl's own mlock of these pages will meet */
  if (can_pin) munlock(plain, n);
  OK(PtlMDBind(ni, test_md((char *)x + 100, n - 100, PTL_MD_THRESH_INF, PTL_MD_EVENT_START_DISABLE, ieq, NULL),
               PTL_RETAIN, &xm));
  CHECK(status(PTLX_SR_MD_REGISTER) == regs);
  OK(PtlMDBind(ni, test_md(plain, n, PTL_MD_THRESH_INF, PTL_MD_EVENT_START_DISABLE, ieq, NULL), PTL_RETAIN, &pm));
  CHECK(status(PTLX_SR_MD_REGISTER) == regs + 1);
  CHECK(status(PTLX_SR_MD_PIN_FAIL) == pin_fails + (can_pin ? 0 : 1));
  /* self: extension memory -> ordinary memory MD on pt 13 */
  OK(PtlMEAttach(ni, 13, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
  OK(PtlMDAttach(me, test_md(plain, n, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL), PTL_RETAIN, &tm));
  tbarrier();
  fill((unsigned char *)x + 100, n - 100, 5);
  memset(plain, 0, n);
  OK(PtlPut(xm, PTL_ACK_REQ, pid_of(rank), 13, 0, 0, 0, 0));
  EXPECT(ieq, PTL_EVENT_SEND_END);
  EXPECT(ieq, PTL_EVENT_ACK);
  CHECK(filled(plain, n - 100, 5));
  memset((char *)x + 100, 0, n - 100);
  OK(PtlGet(xm, pid_of(rank), 13, 0, 0, 0));
  EXPECT(ieq, PTL_EVENT_REPLY_END); /* START events are off on xm */
  CHECK(filled((unsigned char *)x + 100, n - 100, 5));
  tbarrier();
  OK(PtlMEUnlink(me));
  OK(PtlMDUnlink(xm));
  OK(PtlMDUnlink(pm));
  OK(PtlXMemFree(ni, x));
  RC(PtlXMemFree(ni, x), PTL_SEGV);
  OK(PtlEQFree(ieq));
  free(plain);
}

/* Offload publishing: an event-free persistent ME is reached by RMA; an
 * overlapping ME inserted before it takes over at once (revocation); when
 * that goes, the shortcut comes back; an unlinked ME receives nothing. */
static int put_ack(ptl_handle_md_t smd, ptl_handle_eq_t ieq, int to, ptl_pt_index_t pt, ptl_match_bits_t bits,
                   ptl_size_t off, int want_ack) {
  ptl_event_t e;
  OK(PtlPutRegion(smd, 0, 64, PTL_ACK_REQ, pid_of(to), pt, 0, bits, off, 0));
  e = EXPECT(ieq, PTL_EVENT_SEND_END);
  e = EXPECT(ieq, PTL_EVENT_ACK);
  if (want_ack) CHECK(e.ni_fail_type == PTL_NI_OK);
  else CHECK(e.ni_fail_type == PTLX_NI_DROPPED && e.mlength == 0); /* dropped: an ACK that says so */
  EXPECT_NONE(ieq, 0);
  return e.type == PTL_EVENT_ACK && e.ni_fail_type == PTL_NI_OK;
}

/* Every field of an initiator event. */
static void check_ev(const ptl_event_t *e, int line, ptl_event_kind_t type, int initiator, ptl_pt_index_t pt,
                     ptl_match_bits_t bits, ptl_size_t rlength, ptl_size_t mlength, ptl_size_t offset,
                     ptl_handle_md_t mdh, const ptl_md_t *md, ptl_hdr_data_t hdr) {
  if (e->type != type || e->initiator.nid != (ptl_nid_t)initiator || e->initiator.pid != 0 || e->uid != 0 ||
      e->jid != 0 || e->pt_index != pt || e->match_bits != bits || e->rlength != rlength || e->mlength != mlength ||
      e->offset != offset || e->md_handle != mdh || e->md.start != md->start || e->md.length != md->length ||
      e->md.threshold != md->threshold || e->md.max_size != md->max_size || e->md.options != md->options ||
      e->md.user_ptr != md->user_ptr || e->md.eq_handle != md->eq_handle || e->hdr_data != hdr ||
      e->ni_fail_type != PTL_NI_OK)
    test_fail(line, "%s: a field differs (initiator %u, pt %u, bits %llx, rlength %llu, mlength %llu, offset %llu, "
                    "hdr %llx, fail %u)",
              PtlEventKindStr(e->type), e->initiator.nid, e->pt_index, (unsigned long long)e->match_bits,
              (unsigned long long)e->rlength, (unsigned long long)e->mlength, (unsigned long long)e->offset,
              (unsigned long long)e->hdr_data, e->ni_fail_type);
}

static void t_publish(void) {
  void *seg;
  size_t segn = 1 << 16;
  unsigned char sbuf[64], ybuf[256];
  ptl_handle_md_t rar, smd, ymd;
  ptl_handle_me_t x, y;
  ptl_handle_eq_t ieq, yeq;
  int to = (rank + 1) % nprocs, from = (rank + nprocs - 1) % nprocs;
  int shortcut = publishes(rank) && publishes(to); /* both ends offload, publishing */
  OK(PtlXMemAlloc(ni, segn, &seg));
  memset(seg, 0, segn);
  OK(PtlEQAlloc(ni, 64, PTL_EQ_HANDLER_NONE, &ieq));
  OK(PtlEQAlloc(ni, 64, PTL_EQ_HANDLER_NONE, &yeq));
  /* GASNet's RAR: low 4 bits select, the rest ignored; persistent, no events */
  OK(PtlMEAttach(ni, 14, ANY, 0x0, ~0xFull, PTL_RETAIN, PTL_INS_AFTER, &x));
  OK(PtlMDAttach(x, test_md(seg, segn, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL), PTL_RETAIN, &rar));
  OK(PtlMDBind(ni, test_md(sbuf, 64, PTL_MD_THRESH_INF, PTL_MD_EVENT_START_DISABLE, ieq, NULL), PTL_RETAIN, &smd));
  CHECK(status(PTLX_SR_PUBLISHED) == (publishes(rank) ? 1u : 0u));
  tbarrier();
  /* the publication travels asynchronously: wait until Puts take the shortcut */
  ptl_sr_value_t sc0 = status(PTLX_SR_SHORTCUT_PUT);
  double t0 = now_s();
  int i = 0;
  do {
    fill(sbuf, 64, (unsigned)i);
    put_ack(smd, ieq, to, 14, 0x1230 /* upper bits ignored */, 64 * (size_t)(i % 16), 1);
    i++;
  } while (shortcut && status(PTLX_SR_SHORTCUT_PUT) == sc0 && now_s() - t0 < 5);
  CHECK(shortcut ? status(PTLX_SR_SHORTCUT_PUT) > sc0 : status(PTLX_SR_SHORTCUT_PUT) == sc0);
  int ifrom = 0; /* how many Puts `from` made until its shortcut worked */
  tbarrier();    /* (host mode: plain MPI calls do not progress ptl) */
  MPI_Sendrecv(&i, 1, MPI_INT, to, 0, &ifrom, 1, MPI_INT, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  CHECK(filled((unsigned char *)seg + 64 * (size_t)((ifrom - 1) % 16), 64, (unsigned)(ifrom - 1)));
  /* Get through the shortcut too */
  unsigned char gbuf[64];
  ptl_handle_md_t gmd;
  OK(PtlMDBind(ni, test_md(gbuf, 64, PTL_MD_THRESH_INF, 0, ieq, NULL), PTL_RETAIN, &gmd));
  fill((unsigned char *)seg + 4096, 64, 99 + (unsigned)rank);
  tbarrier();
  ptl_sr_value_t g0 = status(PTLX_SR_SHORTCUT_GET);
  ptl_sr_value_t gs0 = status(PTL_SR_SEND_COUNT), gr0 = status(PTL_SR_RECV_COUNT), grl0 = status(PTL_SR_RECV_LENGTH);
  OK(PtlGetRegion(gmd, 0, 64, pid_of(to), 14, 0, 0x0, 4096));
  EXPECT(ieq, PTL_EVENT_REPLY_START);
  EXPECT(ieq, PTL_EVENT_REPLY_END);
  CHECK(filled(gbuf, 64, 99 + (unsigned)to));
  CHECK(status(PTLX_SR_SHORTCUT_GET) == g0 + (shortcut ? 1u : 0u));
  if (publishes(from) && publishes(rank)) { /* (else from's matched Get here makes a reply: a send) */
    /* a Get is a send and its reply a receive, whichever way it went */
    CHECK(status(PTL_SR_SEND_COUNT) == gs0 + 1);
    CHECK(status(PTL_SR_RECV_COUNT) == gr0 + 1 && status(PTL_SR_RECV_LENGTH) == grl0 + 64);
  }
  tbarrier();
  /* every field of the initiator's events, whichever way the operation
   * went (shortcut: no START events unless asked for, as here) */
  unsigned char ebuf[256];
  ptl_md_t ed = test_md(ebuf, sizeof(ebuf), PTL_MD_THRESH_INF, 0, ieq, ebuf + 1);
  ptl_handle_md_t emd;
  ed.max_size = 17; /* (no PTL_MD_MAX_SIZE: just reported back) */
  OK(PtlMDBind(ni, ed, PTL_RETAIN, &emd));
  fill(ebuf, sizeof(ebuf), 5);
  ptl_sr_value_t sce = status(PTLX_SR_SHORTCUT_PUT);
  OK(PtlPutRegion(emd, 8, 48, PTL_ACK_REQ, pid_of(to), 14, 0, 0x77770, 128, 0x1122334455667788ull));
  ptl_event_t es = EXPECT(ieq, PTL_EVENT_SEND_START), ee = EXPECT(ieq, PTL_EVENT_SEND_END),
              ea = EXPECT(ieq, PTL_EVENT_ACK);
  CHECK(status(PTLX_SR_SHORTCUT_PUT) == sce + (shortcut ? 1u : 0u));
  check_ev(&es, __LINE__, PTL_EVENT_SEND_START, rank, 14, 0x77770, 48, 48, 8, emd, &ed, 0x1122334455667788ull);
  check_ev(&ee, __LINE__, PTL_EVENT_SEND_END, rank, 14, 0x77770, 48, 48, 8, emd, &ed, 0x1122334455667788ull);
  check_ev(&ea, __LINE__, PTL_EVENT_ACK, to, 14, 0x77770, 48, 48, 128, emd, &ed, 0x1122334455667788ull);
  CHECK(es.link == 0 && ee.link == es.sequence && ea.link == 0);
  CHECK(ee.sequence == es.sequence + 1 && ea.sequence == ee.sequence + 1);
  OK(PtlGetRegion(emd, 16, 40, pid_of(to), 14, 0, 0x30, 4096 + 8));
  ptl_event_t rs = EXPECT(ieq, PTL_EVENT_REPLY_START), re = EXPECT(ieq, PTL_EVENT_REPLY_END);
  check_ev(&rs, __LINE__, PTL_EVENT_REPLY_START, to, 14, 0x30, 40, 40, 16, emd, &ed, 0);
  check_ev(&re, __LINE__, PTL_EVENT_REPLY_END, to, 14, 0x30, 40, 40, 16, emd, &ed, 0);
  CHECK(rs.link == 0 && re.link == rs.sequence && rs.sequence == ea.sequence + 1 && re.sequence == rs.sequence + 1);
  CHECK(memcmp(ebuf + 16, gbuf + 8, 40) == 0); /* the same bytes of `to`'s segment as gbuf got */
  if (shortcut) { /* an EQ with room for two of the three events: the ACK is
                  * dropped, counted, and reported by the next take (a
                  * matched ACK would wait in the progress thread's ring) */
    ptl_handle_eq_t seq2;
    ptl_handle_md_t smd2;
    ptl_event_t e1, e2;
    ptl_sr_value_t lost0 = status(PTLX_SR_EQ_DROPPED);
    OK(PtlEQAlloc(ni, 2, PTL_EQ_HANDLER_NONE, &seq2));
    OK(PtlMDBind(ni, test_md(ebuf, sizeof(ebuf), PTL_MD_THRESH_INF, 0, seq2, NULL), PTL_RETAIN, &smd2));
    OK(PtlPutRegion(smd2, 0, 64, PTL_ACK_REQ, pid_of(to), 14, 0, 0x0, 256, 9));
    CHECK(status(PTLX_SR_EQ_DROPPED) == lost0 + 1);
    RC(PtlEQGet(seq2, &e1), PTL_EQ_DROPPED);
    CHECK(e1.type == PTL_EVENT_SEND_START && e1.hdr_data == 9);
    RC(PtlEQGet(seq2, &e2), PTL_OK);
    CHECK(e2.type == PTL_EVENT_SEND_END && e2.link == e1.sequence && e2.sequence == e1.sequence + 1);
    RC(PtlEQGet(seq2, &e2), PTL_EQ_EMPTY);
    OK(PtlMDUnlink(smd2));
    OK(PtlEQFree(seq2));
  }
  OK(PtlMDUnlink(emd));
  tbarrier();

  /* an overlapping ME with events inserted before x: revoked when Insert returns */
  ptl_sr_value_t rev0 = status(PTLX_SR_REVOKED);
  OK(PtlMEInsert(x, ANY, 0x0, ~0xFull, PTL_RETAIN, PTL_INS_BEFORE, &y));
  OK(PtlMDAttach(y, test_md(ybuf, 256, PTL_MD_THRESH_INF, RW | PTL_MD_EVENT_START_DISABLE, yeq, NULL), PTL_RETAIN,
                 &ymd));
  CHECK(status(PTLX_SR_REVOKED) == rev0 + (publishes(rank) ? 1u : 0u));
  /* y is published in its place, as an event entry (END events only) --
   * over memory UCX cannot map into peers, so no initiator writes it */
  CHECK(status(PTLX_SR_PUBLISHED) == (publishes(rank) ? 1u : 0u));
  tbarrier(); /* out of band: the new list must govern from here on */
  ptl_sr_value_t sc1 = status(PTLX_SR_SHORTCUT_PUT);
  for (int k = 0; k < 3; k++) {
    fill(sbuf, 64, 200 + (unsigned)k);
    put_ack(smd, ieq, to, 14, 0x5550, 64 * (ptl_size_t)k, 1);
    ptl_event_t e = EXPECT(yeq, PTL_EVENT_PUT_END);
    CHECK(e.initiator.nid == (ptl_nid_t)from && filled(ybuf + 64 * k, 64, 200 + (unsigned)k));
  }
  CHECK(status(PTLX_SR_SHORTCUT_PUT) == sc1);
  tbarrier();
  /* y goes: x qualifies again (published asynchronously) */
  OK(PtlMEUnlink(y));
  CHECK(status(PTLX_SR_PUBLISHED) == (publishes(rank) ? 1u : 0u));
  tbarrier();
  t0 = now_s();
  do put_ack(smd, ieq, to, 14, 0x10, 0, 1);
  while (shortcut && status(PTLX_SR_SHORTCUT_PUT) == sc1 && now_s() - t0 < 5);
  CHECK(shortcut ? status(PTLX_SR_SHORTCUT_PUT) > sc1 : status(PTLX_SR_SHORTCUT_PUT) == sc1);
  /* a Put is a send of its length, whichever way it went */
  ptl_sr_value_t ps0 = status(PTL_SR_SEND_COUNT), psl0 = status(PTL_SR_SEND_LENGTH);
  put_ack(smd, ieq, to, 14, 0x10, 0, 1);
  CHECK(status(PTL_SR_SEND_COUNT) == ps0 + 1 && status(PTL_SR_SEND_LENGTH) == psl0 + 64);
  tbarrier();
  /* x unlinked: nothing reaches the old memory, the Put is dropped */
  ptl_sr_value_t drops = status(PTL_SR_DROP_COUNT);
  OK(PtlMEUnlink(x));
  RC(PtlMDUnlink(rar), PTL_MD_INVALID);
  memset(seg, 0, segn);
  tbarrier();
  fill(sbuf, 64, 7);
  put_ack(smd, ieq, to, 14, 0x0, 0, 0);
  tbarrier();
  CHECK(status_reaches(PTL_SR_DROP_COUNT, drops + 1));
  CHECK(((unsigned char *)seg)[5] == 0);
  tbarrier();
  OK(PtlMDUnlink(smd));
  OK(PtlMDUnlink(gmd));
  OK(PtlEQFree(ieq));
  OK(PtlEQFree(yeq));
  OK(PtlXMemFree(ni, seg));
}

/* This process's locked memory (VmLck), in KiB; -1 if unknown. */
static long vmlck_kib(void) {
  char line[256];
  long v = -1;
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  while (fgets(line, sizeof(line), f))
    if (!strncmp(line, "VmLck:", 6)) v = atol(line + 6);
  fclose(f);
  return v;
}

/* MDs over overlapping memory are each pinned; unlinking one must leave
 * the other's pages pinned (mlock does not nest: counted per page). */
static void t_pin_overlap(void) {
  long page = sysconf(_SC_PAGESIZE), base, withb;
  unsigned char *buf = NULL;
  ptl_handle_md_t a, b;
  if (posix_memalign((void **)&buf, (size_t)page, (size_t)page * 8)) {
    test_fail(__LINE__, "no memory");
    return;
  }
  memset(buf, 1, (size_t)page * 8);
  base = vmlck_kib();
  OK(PtlMDBind(ni, test_md(buf, (size_t)page * 4, PTL_MD_THRESH_INF, 0, PTL_EQ_NONE, NULL), PTL_RETAIN, &a));
  if (vmlck_kib() - base != 4 * page / 1024) { /* pinning refused or not real (a sanitizer's mlock): nothing to see */
    printf("# pin_overlap rank %d: pinning not in effect (VmLck %ld -> %ld KiB), check skipped\n", rank, base,
           vmlck_kib());
    OK(PtlMDUnlink(a));
    free(buf);
    return;
  }
  /* b covers a's last two pages and two more */
  OK(PtlMDBind(ni, test_md(buf + 2 * page, (size_t)page * 4, PTL_MD_THRESH_INF, 0, PTL_EQ_NONE, NULL), PTL_RETAIN,
               &b));
  withb = vmlck_kib();
  /* b pinned its two new pages, or (a locked-memory limit) none */
  CHECK(withb - base == 6 * page / 1024 || withb - base == 4 * page / 1024);
  OK(PtlMDUnlink(b)); /* b's own pages go, the two it shares with a stay */
  CHECK(vmlck_kib() - base == 4 * page / 1024);
  OK(PtlMDUnlink(a));
  CHECK(vmlck_kib() == base);
  free(buf);
}

/* Seeded random Puts and Gets between all processes, verified. */
static void t_stress(void) {
  enum { SEG = 1 << 18, OPS = 150 };
  void *seg, *loc;
  ptl_handle_me_t me;
  ptl_handle_md_t segmd, locmd;
  ptl_handle_eq_t ieq;
  OK(PtlXMemAlloc(ni, SEG, &seg));
  loc = malloc(SEG);
  OK(PtlEQAlloc(ni, 1024, PTL_EQ_HANDLER_NONE, &ieq));
  OK(PtlMEAttach(ni, 15, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me));
  OK(PtlMDAttach(me, test_md(seg, SEG, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL), PTL_RETAIN, &segmd));
  OK(PtlMDBind(ni, test_md(loc, SEG, PTL_MD_THRESH_INF, PTL_MD_EVENT_START_DISABLE, ieq, NULL), PTL_RETAIN, &locmd));
  /* each process owns the slice [rank * SEG/nprocs, ...) of everyone's segment */
  size_t slice = SEG / (size_t)nprocs;
  tbarrier();
  unsigned seed = 12345u + (unsigned)rank;
  for (int op = 0; op < OPS; op++) {
    int to = (int)(rand_r(&seed) % (unsigned)nprocs);
    size_t len = 1 + rand_r(&seed) % (rand_r(&seed) % 4 ? 256 : slice / 2);
    size_t off = (size_t)rank * slice + rand_r(&seed) % (slice - len);
    fill((unsigned char *)loc + off, len, (unsigned)op);
    OK(PtlPutRegion(locmd, off, len, PTL_ACK_REQ, pid_of(to), 15, 0, 0, off, 0));
    EXPECT(ieq, PTL_EVENT_SEND_END);
    EXPECT(ieq, PTL_EVENT_ACK);
    memset((unsigned char *)loc + off, 0, len);
    OK(PtlGetRegion(locmd, off, len, pid_of(to), 15, 0, 0, off));
    ptl_event_t e = EXPECT(ieq, PTL_EVENT_REPLY_END);
    CHECK(e.mlength == len && filled((unsigned char *)loc + off, len, (unsigned)op));
  }
  tbarrier();
  OK(PtlMEUnlink(me));
  OK(PtlMDUnlink(locmd));
  OK(PtlEQFree(ieq));
  OK(PtlXMemFree(ni, seg));
  free(loc);
}

static const struct {
  const char *name;
  void (*fn)(void);
} subtests[] = {
    {"ids", t_ids},
    {"put_ack", t_put_ack},
    {"get", t_get},
    {"truncate_drop", t_truncate_drop},
    {"reqrb", t_reqrb},
    {"threshold", t_threshold},
    {"first_match", t_first_match},
    {"eq_overflow", t_eq_overflow},
    {"bad_calls", t_bad_calls},
    {"eq_poll", t_eq_poll},
    {"post", t_post},
    {"memory_self", t_memory_self},
    {"pin_overlap", t_pin_overlap},
    {"publish", t_publish},
    {"stress", t_stress},
};

int main(int argc, char **argv) {
  int maxif, total = 0, nrun = 0, bad = 0;
  ptl_interface_t iface;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (argc < 2 || (strcmp(argv[1], "host") && strcmp(argv[1], "offload") && strcmp(argv[1], "mixed"))) {
    if (!rank) fprintf(stderr, "usage: ptl_conf host|offload|mixed [subtest ...]\n");
    MPI_Finalize();
    return 2;
  }
  mixed = !strcmp(argv[1], "mixed");
  publishing = !getenv("PTL_PUBLISH") || strcmp(getenv("PTL_PUBLISH"), "0");
  offload = mixed ? rank % 2 : !strcmp(argv[1], "offload");
  iface = offload ? PTLX_IFACE_OFFLOAD : PTLX_IFACE_HOST;
  signal(SIGALRM, watchdog);
  alarm(60);
  RC(PtlNIInit(iface, PTL_PID_ANY, NULL, NULL, &ni), PTL_NO_INIT);
  OK(PtlInit(&maxif));
  OK(PtlNIInit(iface, PTL_PID_ANY, NULL, NULL, &ni));
  OK(PtlEQAlloc(ni, 4, PTL_EQ_HANDLER_NONE, &idle_eq));
  for (size_t i = 0; i < sizeof(subtests) / sizeof(subtests[0]); i++) {
    int wanted = argc == 2;
    for (int a = 2; a < argc; a++) wanted |= !strcmp(argv[a], subtests[i].name);
    if (!wanted) continue;
    sub = subtests[i].name;
    int before = fails;
    alarm(60);
    subtests[i].fn();
    tbarrier();
    nrun++;
    int mine = fails > before, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    bad += any;
  }
  sub = "fini";
  OK(PtlEQFree(idle_eq));
  OK(PtlNIFini(ni));
  PtlFini();
  MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    if (total)
      printf("ptl_conf: FAILED (%d of %d subtests, %d checks)\n", bad, nrun, total);
    else
      printf("ptl_conf: %d subtests passed (np=%d, %s)\n", nrun, nprocs, argv[1]);
  }
  MPI_Finalize();
  return total ? 1 : 0;
}
