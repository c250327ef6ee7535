/*
 * ptl_unit.c -- unit tests of ptl's matching engine (no MPI, no UCX).
 *
 * Builds an NI of the pure layer without a transport and delivers
 * synthetic Puts/Gets through ptl_match()/ptl_match_end(), the functions
 * the transport calls.  One line per case: "ok <name>" or "FAIL <name>:
 * <line> <what>"; exit status 1 if anything failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>

#include "ptl_internal.h"
#include "tests/ptl_test.h"

static int failures, case_failed;
static const char *case_name;

void test_fail(int line, const char *fmt, ...) {
  va_list ap;
  printf("FAIL %s: line %d: ", case_name, line);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  case_failed = 1;
}

static ptl_ni_t *ni;
static ptl_handle_ni_t nih;
static const ptl_process_id_t ANY = {PTL_NID_ANY, PTL_PID_ANY};

static void setup(const char *name) {
  ptl_process_id_t me = {0, 0};
  case_name = name;
  case_failed = 0;
  if (ptl_ni_create(PTLX_IFACE_HOST, me, 4, NULL, &ni) != PTL_OK) {
    printf("FAIL %s: cannot create an NI\n", name);
    exit(1);
  }
  ptl_the_ni = ni;
  nih = ni->handle;
}

static void teardown(void) {
  ptl_ni_destroy(ni);
  ptl_the_ni = NULL;
  if (case_failed)
    failures++;
  else
    printf("ok %s\n", case_name);
}

/* Deliver a Put (or Get) from nid `src`; returns the hit's MD or NULL. */
static ptl_mdo_t *deliver(int op, ptl_nid_t src, ptl_pt_index_t pt, ptl_match_bits_t bits, ptl_size_t len,
                          ptl_size_t roff, ptl_hdr_data_t hdr, ptl_hit_t *out) {
  ptl_req_t r = {op, {src, 0}, pt, bits, len, roff, hdr};
  ptl_hit_t hit;
  ptl_mdo_t *md = NULL;
  ptl_lock(ni);
  if (ptl_match(ni, &r, &hit, PTL_SIDE_RX)) {
    md = hit.md;
    if (out) *out = hit;
    ptl_match_end(ni, &r, &hit, PTL_NI_OK, PTL_SIDE_RX);
  }
  ptl_unlock(ni);
  return md;
}
static ptl_mdo_t *put(ptl_pt_index_t pt, ptl_match_bits_t bits, ptl_size_t len, ptl_size_t roff, ptl_hit_t *out) {
  return deliver(PTL_OP_PUT, 1, pt, bits, len, roff, 0, out);
}

/* An ME at the tail of pt with an MD; returns the MD handle. */
static ptl_handle_md_t attach(ptl_pt_index_t pt, ptl_process_id_t id, ptl_match_bits_t bits, ptl_match_bits_t ign,
                              ptl_md_t d, ptl_unlink_t me_ul, ptl_unlink_t md_ul, ptl_handle_me_t *meh_out) {
  ptl_handle_me_t meh;
  ptl_handle_md_t mdh = PTL_INVALID_HANDLE;
  RC(PtlMEAttach(nih, pt, id, bits, ign, me_ul, PTL_INS_AFTER, &meh), PTL_OK);
  RC(PtlMDAttach(meh, d, md_ul, &mdh), PTL_OK);
  if (meh_out) *meh_out = meh;
  return mdh;
}

static ptl_mdo_t *mdo(ptl_handle_md_t h) { return ptl_pool_get(&ni->mds, h); }

static int next_event(ptl_handle_eq_t eq, ptl_event_t *ev) { return PtlEQGet(eq, ev); }

static char buf[4][256];
#define RW (PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE)

/* ptl_me_publishable, its `after` in *after (when not NULL) */
static int publishable_after(const ptl_meo_t *m, uint64_t *after) {
  uint64_t a;
  int k = ptl_me_publishable(m, &a);
  if (after) *after = a;
  return k;
}
#define publishable(m) publishable_after((m), NULL)

static void t_match_ignore(void) {
  setup("match_and_ignore_bits");
  ptl_handle_md_t a = attach(0, ANY, 0xAB00, 0x00FF, test_md(buf[0], 64, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL),
                             PTL_RETAIN, PTL_RETAIN, NULL);
  CHECK(put(0, 0xAB12, 8, 0, NULL) == mdo(a));
  CHECK(put(0, 0xABFF, 8, 0, NULL) == mdo(a));
  CHECK(put(0, 0xAC00, 8, 0, NULL) == NULL);
  CHECK(put(0, 0x1AB00, 8, 0, NULL) == NULL); /* a bit outside the ignore mask */
  CHECK(put(1, 0xAB00, 8, 0, NULL) == NULL);  /* another portal index */
  ptl_sr_value_t v;
  RC(PtlNIStatus(nih, PTL_SR_DROP_COUNT, &v), PTL_OK);
  CHECK(v == 3);
  RC(PtlNIStatus(nih, PTL_SR_DROP_LENGTH, &v), PTL_OK);
  CHECK(v == 24);
  teardown();
}

static void t_list_order_and_insert(void) {
  setup("list_order_and_insert_positions");
  ptl_handle_eq_t eq;
  ptl_handle_me_t a, b, c, d, e;
  RC(PtlEQAlloc(nih, 64, PTL_EQ_HANDLER_NONE, &eq), PTL_OK);
  /* build C A D B E: A tail, B tail, C head, D before B, E after B */
  RC(PtlMEAttach(nih, 2, ANY, 0, ~0ull, PTL_UNLINK, PTL_INS_AFTER, &a), PTL_OK);
  RC(PtlMEAttach(nih, 2, ANY, 0, ~0ull, PTL_UNLINK, PTL_INS_AFTER, &b), PTL_OK);
  RC(PtlMEAttach(nih, 2, ANY, 0, ~0ull, PTL_UNLINK, PTL_INS_BEFORE, &c), PTL_OK);
  RC(PtlMEInsert(b, ANY, 0, ~0ull, PTL_UNLINK, PTL_INS_BEFORE, &d), PTL_OK);
  RC(PtlMEInsert(b, ANY, 0, ~0ull, PTL_UNLINK, PTL_INS_AFTER, &e), PTL_OK);
  ptl_handle_me_t order[5] = {c, a, d, b, e};
  ptl_handle_md_t mds[5];
  for (int i = 0; i < 5; i++) {
    ptl_md_t m = test_md(buf[0], 64, 1, RW, eq, NULL);
    m.user_ptr = (void *)(uintptr_t)(i + 1);
    RC(PtlMDAttach(order[i], m, PTL_UNLINK, &mds[i]), PTL_OK);
  }
  /* every entry matches everything: first wins, then it is used up */
  for (int i = 0; i < 5; i++) {
    ptl_mdo_t *want = mdo(mds[i]); /* before the put unlinks it */
    CHECK(put(2, (ptl_match_bits_t)i * 77, 4, 0, NULL) == want);
  }
  CHECK(put(2, 1, 4, 0, NULL) == NULL);
  CHECK(ni->pt[2].head == NULL && ni->pt[2].len == 0); /* MEs went with their MDs */
  /* events: per put START, END, UNLINK, with user_ptr telling the entry */
  ptl_event_t ev;
  for (int i = 0; i < 5; i++) {
    RC(next_event(eq, &ev), PTL_OK);
    CHECK(ev.type == PTL_EVENT_PUT_START && ev.md.user_ptr == (void *)(uintptr_t)(i + 1));
    RC(next_event(eq, &ev), PTL_OK);
    CHECK(ev.type == PTL_EVENT_PUT_END && ev.md_handle == mds[i] && ev.md.threshold == 0);
    RC(next_event(eq, &ev), PTL_OK);
    CHECK(ev.type == PTL_EVENT_UNLINK && ev.md_handle == mds[i]);
  }
  RC(next_event(eq, &ev), PTL_EQ_EMPTY);
  /* the unlinked handles are stale now */
  RC(PtlMDUnlink(mds[0]), PTL_MD_INVALID);
  RC(PtlMEUnlink(c), PTL_ME_INVALID);
  RC(PtlMEInsert(c, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &a), PTL_ME_INVALID);
  teardown();
}

static void t_locally_managed(void) {
  setup("locally_managed_append_and_full_unlink");
  ptl_handle_eq_t eq;
  ptl_handle_me_t me1, me2;
  RC(PtlEQAlloc(nih, 64, PTL_EQ_HANDLER_NONE, &eq), PTL_OK);
  /* two request buffers (seed 000 ReqRB): 100 bytes, max_size 30 */
  ptl_md_t m = test_md(buf[0], 100, PTL_MD_THRESH_INF, PTL_MD_OP_PUT | PTL_MD_MAX_SIZE, eq, NULL);
  m.max_size = 30;
  ptl_handle_md_t a = attach(3, ANY, 5, 0, m, PTL_UNLINK, PTL_UNLINK, &me1);
  m.start = buf[1];
  ptl_handle_md_t b = attach(3, ANY, 5, 0, m, PTL_UNLINK, PTL_UNLINK, &me2);
  ptl_hit_t h;
  ptl_size_t want[4] = {0, 20, 40, 60};
  for (int i = 0; i < 4; i++) {
    CHECK(put(3, 5, 20, 999 /* ignored */, &h) == mdo(a) || i == 3);
    CHECK(h.offset == want[i] && h.mlength == 20);
  }
  /* after the 4th, 20 bytes remain < max_size: a was unlinked, b takes over */
  CHECK(mdo(a) == NULL);
  CHECK(put(3, 5, 20, 0, &h) == mdo(b) && h.offset == 0);
  ptl_event_t ev;
  int ends = 0, unlinks = 0;
  while (next_event(eq, &ev) == PTL_OK) {
    if (ev.type == PTL_EVENT_PUT_END) {
      ends++;
      CHECK(ev.offset == (ends <= 4 ? want[ends - 1] : 0));
    }
    if (ev.type == PTL_EVENT_UNLINK) {
      unlinks++;
      CHECK(ends == 4 && ev.md_handle == a); /* right after the 4th PUT_END */
    }
  }
  CHECK(ends == 5 && unlinks == 1);
  RC(PtlMEUnlink(me1), PTL_ME_INVALID); /* went with its MD */
  RC(PtlMEUnlink(me2), PTL_OK);
  teardown();
}

/* PTLX_MD_REARM (ptl.h): a full buffer posts DRAINED after its last END
 * and stays; PtlXMERearm empties it and moves it; its errors. */
static void t_rearm(void) {
  setup("rearm_request_buffers");
  ptl_handle_eq_t eq;
  ptl_handle_me_t me1, me2, me3;
  ptl_handle_md_t plain;
  RC(PtlEQAlloc(nih, 64, PTL_EQ_HANDLER_NONE, &eq), PTL_OK);
  ptl_md_t m = test_md(buf[0], 100, PTL_MD_THRESH_INF, PTL_MD_OP_PUT | PTL_MD_MAX_SIZE | PTLX_MD_REARM, eq, NULL);
  m.max_size = 30;
  /* only a locally managed PTL_MD_MAX_SIZE MD that stays (PTL_RETAIN) */
  RC(PtlMEAttach(nih, 4, ANY, 5, 0, PTL_RETAIN, PTL_INS_AFTER, &me3), PTL_OK);
  RC(PtlMDAttach(me3, m, PTL_UNLINK, &plain), PTL_MD_ILLEGAL);
  m.options |= PTL_MD_MANAGE_REMOTE;
  RC(PtlMDAttach(me3, m, PTL_RETAIN, &plain), PTL_MD_ILLEGAL);
  m.options &= ~(unsigned)(PTL_MD_MANAGE_REMOTE | PTL_MD_MAX_SIZE);
  RC(PtlMDAttach(me3, m, PTL_RETAIN, &plain), PTL_MD_ILLEGAL);
  RC(PtlMEUnlink(me3), PTL_OK);
  m.options |= PTL_MD_MAX_SIZE;
  m.user_ptr = (void *)1;
  ptl_handle_md_t a = attach(4, ANY, 5, 0, m, PTL_RETAIN, PTL_RETAIN, &me1);
  m.start = buf[1];
  m.user_ptr = (void *)2;
  ptl_handle_md_t b = attach(4, ANY, 5, 0, m, PTL_RETAIN, PTL_RETAIN, &me2);
  /* a third entry after them: a plain MD (not re-armable) */
  ptl_md_t p = test_md(buf[2], 64, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL);
  plain = attach(4, ANY, 6, 0, p, PTL_RETAIN, PTL_RETAIN, &me3);
  (void)plain;
  RC(PtlXMERearm(me1, me2, PTL_INS_AFTER), PTL_MD_IN_USE); /* still taking messages */
  RC(PtlXMERearm(me3, me1, PTL_INS_AFTER), PTL_MD_INVALID);
  RC(PtlXMERearm(me1, me1, PTL_INS_AFTER), PTL_ME_INVALID);
  RC(PtlXMERearm(me1, me2, (ptl_ins_pos_t)7), PTL_ME_INVALID);
  ptl_hit_t h;
  for (int i = 0; i < 4; i++) CHECK(put(4, 5, 20, 0, &h) == mdo(a) && h.offset == (ptl_size_t)i * 20);
  CHECK(mdo(a) != NULL); /* full, and still there */
  CHECK(put(4, 5, 20, 0, &h) == mdo(b) && h.offset == 0);
  ptl_event_t ev;
  int ends = 0, drained = 0;
  while (next_event(eq, &ev) == PTL_OK) {
    if (ev.type == PTL_EVENT_PUT_END) ends++;
    if (ev.type == PTLX_EVENT_DRAINED) {
      drained++;
      CHECK(ends == 4 && ev.md_handle == a && ev.md.user_ptr == (void *)1); /* right after the 4th PUT_END */
    }
    CHECK(ev.type != PTL_EVENT_UNLINK);
  }
  CHECK(ends == 5 && drained == 1);
  CHECK(strcmp(PtlEventKindStr(PTLX_EVENT_DRAINED), "PTLX_EVENT_DRAINED") == 0);
  /* re-armed after b: b takes messages until it is full, then a from 0 */
  RC(PtlXMERearm(me1, me2, PTL_INS_AFTER), PTL_OK);
  RC(PtlXMERearm(me1, me2, PTL_INS_AFTER), PTL_MD_IN_USE); /* (active again) */
  CHECK(ni->pt[4].head == mdo(b)->me && mdo(b)->me->next == mdo(a)->me && mdo(a)->me->next == mdo(plain)->me);
  for (int i = 1; i < 4; i++) CHECK(put(4, 5, 20, 0, &h) == mdo(b) && h.offset == (ptl_size_t)i * 20);
  CHECK(put(4, 5, 20, 0, &h) == mdo(a) && h.offset == 0);
  drained = 0;
  while (next_event(eq, &ev) == PTL_OK)
    if (ev.type == PTLX_EVENT_DRAINED) drained += ev.md_handle == b;
  CHECK(drained == 1);
  /* moved before the plain entry, as the Core puts a ReqRB before CB */
  RC(PtlXMERearm(me2, me3, PTL_INS_BEFORE), PTL_OK);
  CHECK(ni->pt[4].head == mdo(a)->me && mdo(a)->me->next == mdo(b)->me && mdo(b)->me->next == mdo(plain)->me);
  CHECK(put(4, 5, 20, 0, &h) == mdo(a) && h.offset == 20);
  RC(PtlMEUnlink(me1), PTL_OK);
  RC(PtlMEUnlink(me2), PTL_OK);
  RC(PtlMEUnlink(me3), PTL_OK);
  RC(PtlXMERearm(me1, me3, PTL_INS_AFTER), PTL_ME_INVALID);
  teardown();
}

static void t_threshold(void) {
  setup("threshold_and_auto_unlink");
  ptl_handle_eq_t eq;
  ptl_handle_me_t me;
  RC(PtlEQAlloc(nih, 16, PTL_EQ_HANDLER_NONE, &eq), PTL_OK);
  ptl_handle_md_t a = attach(4, ANY, 1, 0, test_md(buf[0], 64, 2, RW, eq, NULL), PTL_RETAIN, PTL_UNLINK, &me);
  CHECK(put(4, 1, 8, 0, NULL) == mdo(a));
  CHECK(mdo(a) && mdo(a)->d.threshold == 1);
  ptl_mdo_t *want = mdo(a);
  CHECK(deliver(PTL_OP_GET, 1, 4, 1, 8, 0, 0, NULL) == want); /* a Get uses one too */
  CHECK(mdo(a) == NULL);
  CHECK(put(4, 1, 8, 0, NULL) == NULL);
  /* the ME was PTL_RETAIN: still there, without MD; a new MD can go on it */
  ptl_handle_md_t b;
  RC(PtlMDAttach(me, test_md(buf[0], 64, PTL_MD_THRESH_INF, RW, eq, NULL), PTL_RETAIN, &b), PTL_OK);
  RC(PtlMDAttach(me, test_md(buf[0], 64, PTL_MD_THRESH_INF, RW, eq, NULL), PTL_RETAIN, &b), PTL_ME_IN_USE);
  CHECK(put(4, 1, 8, 0, NULL) == mdo(b));
  /* threshold 0 at attach: never matches */
  ptl_handle_md_t c = attach(5, ANY, 1, 0, test_md(buf[0], 64, 0, RW, eq, NULL), PTL_RETAIN, PTL_RETAIN, NULL);
  (void)c;
  CHECK(put(5, 1, 8, 0, NULL) == NULL);
  /* inactive but not PTL_UNLINK: stays, skipped */
  ptl_handle_md_t d = attach(6, ANY, 1, 0, test_md(buf[0], 64, 1, RW, eq, NULL), PTL_RETAIN, PTL_RETAIN, NULL);
  CHECK(put(6, 1, 8, 0, NULL) == mdo(d));
  CHECK(mdo(d) && mdo(d)->inactive);
  CHECK(put(6, 1, 8, 0, NULL) == NULL);
  RC(PtlMDUnlink(d), PTL_OK);
  teardown();
}

static void t_truncate_offsets_ops(void) {
  setup("truncate_offsets_and_ops_allowed");
  ptl_hit_t h;
  ptl_handle_md_t t =
      attach(7, ANY, 1, 0, test_md(buf[0], 10, PTL_MD_THRESH_INF, RW | PTL_MD_TRUNCATE, PTL_EQ_NONE, NULL), PTL_RETAIN,
             PTL_RETAIN, NULL);
  CHECK(put(7, 1, 10, 6, &h) == mdo(t) && h.offset == 6 && h.mlength == 4);
  CHECK(put(7, 1, 10, 10, &h) == mdo(t) && h.mlength == 0);
  CHECK(put(7, 1, 10, 11, &h) == NULL); /* offset past the MD: skipped even with TRUNCATE */
  ptl_handle_md_t n =
      attach(8, ANY, 1, 0, test_md(buf[0], 10, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL), PTL_RETAIN, PTL_RETAIN, NULL);
  CHECK(put(8, 1, 4, 6, &h) == mdo(n) && h.mlength == 4);
  CHECK(put(8, 1, 5, 6, &h) == NULL);          /* does not fit, no TRUNCATE: skipped */
  CHECK(put(8, 1, 1, UINT64_MAX, &h) == NULL); /* no wrap-around */
  /* the walk goes on past an entry that does not fit or does not allow the op */
  ptl_handle_md_t g = attach(
      9, ANY, 1, 0, test_md(buf[0], 8, PTL_MD_THRESH_INF, PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE, PTL_EQ_NONE, NULL),
      PTL_RETAIN, PTL_RETAIN, NULL);
  ptl_handle_md_t s =
      attach(9, ANY, 1, 0, test_md(buf[1], 4, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL), PTL_RETAIN, PTL_RETAIN, NULL);
  ptl_handle_md_t l =
      attach(9, ANY, 1, 0, test_md(buf[2], 64, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL), PTL_RETAIN, PTL_RETAIN, NULL);
  CHECK(put(9, 1, 4, 0, NULL) == mdo(s));
  CHECK(put(9, 1, 8, 0, NULL) == mdo(l));
  CHECK(deliver(PTL_OP_GET, 1, 9, 1, 8, 0, 0, NULL) == mdo(g));
  CHECK(deliver(PTL_OP_GET, 1, 9, 1, 9, 0, 0, NULL) == mdo(l));
  teardown();
}

static void t_source_filter(void) {
  setup("source_filter");
  ptl_process_id_t only3 = {3, PTL_PID_ANY}, pid7 = {PTL_NID_ANY, 7};
  ptl_handle_md_t a = attach(10, only3, 1, 0, test_md(buf[0], 64, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL), PTL_RETAIN,
                             PTL_RETAIN, NULL);
  ptl_handle_md_t b = attach(10, pid7, 1, 0, test_md(buf[0], 64, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL), PTL_RETAIN,
                             PTL_RETAIN, NULL);
  (void)b;
  CHECK(deliver(PTL_OP_PUT, 3, 10, 1, 8, 0, 0, NULL) == mdo(a));
  CHECK(deliver(PTL_OP_PUT, 2, 10, 1, 8, 0, 0, NULL) == NULL); /* pid 0 != 7 */
  ptl_sr_value_t v;
  PtlNIStatus(nih, PTLX_SR_ME_TRAVERSED, &v);
  CHECK(v == 1 + 2);
  teardown();
}

static void t_events(void) {
  setup("event_fields_and_switches");
  ptl_handle_eq_t eq;
  ptl_event_t ev;
  ptl_hit_t h;
  RC(PtlEQAlloc(nih, 16, PTL_EQ_HANDLER_NONE, &eq), PTL_OK);
  ptl_md_t m = test_md(buf[0], 64, PTL_MD_THRESH_INF, RW, eq, NULL);
  m.user_ptr = &m;
  ptl_handle_md_t a = attach(11, ANY, 0x77, 0, m, PTL_RETAIN, PTL_RETAIN, NULL);
  CHECK(deliver(PTL_OP_PUT, 2, 11, 0x77, 16, 8, 0xfeedULL, &h) == mdo(a));
  RC(next_event(eq, &ev), PTL_OK);
  CHECK(ev.type == PTL_EVENT_PUT_START && ev.initiator.nid == 2 && ev.pt_index == 11 && ev.match_bits == 0x77);
  ptl_seq_t start = ev.sequence;
  RC(next_event(eq, &ev), PTL_OK);
  CHECK(ev.type == PTL_EVENT_PUT_END && ev.rlength == 16 && ev.mlength == 16 && ev.offset == 8);
  CHECK(ev.hdr_data == 0xfeed && ev.md.user_ptr == &m && ev.md_handle == a && ev.link == start);
  CHECK(ev.ni_fail_type == PTL_NI_OK && ev.sequence == start + 1);
  /* START off: END only; both off: nothing */
  m.options |= PTL_MD_EVENT_START_DISABLE;
  ptl_handle_md_t b = attach(12, ANY, 0, 0, m, PTL_RETAIN, PTL_RETAIN, NULL);
  CHECK(put(12, 0, 4, 0, NULL) == mdo(b));
  RC(next_event(eq, &ev), PTL_OK);
  CHECK(ev.type == PTL_EVENT_PUT_END && ev.link == 0);
  m.options |= PTL_MD_EVENT_END_DISABLE;
  ptl_handle_md_t c = attach(13, ANY, 0, 0, m, PTL_RETAIN, PTL_RETAIN, NULL);
  CHECK(put(13, 0, 4, 0, NULL) == mdo(c));
  RC(next_event(eq, &ev), PTL_EQ_EMPTY);
  /* PTLX_MD_EVENT_SEND_DISABLE: a send that works posts nothing, one that
   * fails its SEND_END (unless END events are off); the other kinds stay */
  {
    ptl_md_t q = test_md(buf[1], 64, PTL_MD_THRESH_INF, 0, eq, &m);
    ptl_handle_md_t qh;
    ptl_evinfo_t ok = {{4, 0}, 9, 0x55, 8, 8, 16, 0xbeef, 0, PTL_NI_OK}, bad = ok;
    bad.fail = PTL_NI_FAIL;
    q.options = PTLX_MD_EVENT_SEND_DISABLE;
    RC(PtlMDBind(nih, q, PTL_RETAIN, &qh), PTL_OK);
    CHECK(ptl_md_event(ni, mdo(qh), PTL_EVENT_SEND_START, &ok, PTL_SIDE_APP) == 0);
    CHECK(ptl_md_event(ni, mdo(qh), PTL_EVENT_SEND_END, &ok, PTL_SIDE_APP) == 0);
    CHECK(ptl_md_event(ni, mdo(qh), PTL_EVENT_SEND_START, &bad, PTL_SIDE_APP) == 0);
    RC(next_event(eq, &ev), PTL_EQ_EMPTY);
    CHECK(ptl_md_event(ni, mdo(qh), PTL_EVENT_SEND_END, &bad, PTL_SIDE_APP) != 0);
    CHECK(ptl_md_event(ni, mdo(qh), PTL_EVENT_ACK, &ok, PTL_SIDE_APP) != 0);
    RC(next_event(eq, &ev), PTL_OK);
    CHECK(ev.type == PTL_EVENT_SEND_END && ev.ni_fail_type == PTL_NI_FAIL && ev.md_handle == qh);
    CHECK(ev.match_bits == 0x55 && ev.offset == 16 && ev.hdr_data == 0xbeef && ev.md.user_ptr == &m);
    RC(next_event(eq, &ev), PTL_OK);
    CHECK(ev.type == PTL_EVENT_ACK && ev.ni_fail_type == PTL_NI_OK);
    RC(PtlMDUnlink(qh), PTL_OK);
    q.options |= PTL_MD_EVENT_END_DISABLE;
    RC(PtlMDBind(nih, q, PTL_RETAIN, &qh), PTL_OK);
    CHECK(ptl_md_event(ni, mdo(qh), PTL_EVENT_SEND_END, &bad, PTL_SIDE_APP) == 0);
    RC(next_event(eq, &ev), PTL_EQ_EMPTY);
    RC(PtlMDUnlink(qh), PTL_OK);
  }
  RC(PtlEQFree(eq), PTL_OK);
  RC(next_event(eq, &ev), PTL_EQ_INVALID);
  CHECK(put(11, 0x77, 4, 0, NULL) == mdo(a)); /* MD of a freed EQ: events dropped, counted */
  ptl_sr_value_t v;
  PtlNIStatus(nih, PTLX_SR_EQ_DROPPED, &v);
  CHECK(v == 2);
  teardown();
}

static void t_eq_overflow(void) {
  setup("eq_overflow_reports_dropped");
  ptl_handle_eq_t eq;
  ptl_event_t ev;
  RC(PtlEQAlloc(nih, 4, PTL_EQ_HANDLER_NONE, &eq), PTL_OK);
  ptl_handle_md_t a =
      attach(14, ANY, 0, 0, test_md(buf[0], 64, PTL_MD_THRESH_INF, RW | PTL_MD_EVENT_START_DISABLE, eq, NULL),
             PTL_RETAIN, PTL_RETAIN, NULL);
  for (int i = 0; i < 6; i++) CHECK(put(14, 0, (ptl_size_t)i, 0, NULL) == mdo(a));
  RC(next_event(eq, &ev), PTL_EQ_DROPPED); /* valid event, losses reported */
  CHECK(ev.type == PTL_EVENT_PUT_END && ev.rlength == 0);
  for (int i = 1; i < 4; i++) {
    RC(next_event(eq, &ev), PTL_OK);
    CHECK(ev.rlength == (ptl_size_t)i);
  }
  RC(next_event(eq, &ev), PTL_EQ_EMPTY);
  ptl_sr_value_t v;
  PtlNIStatus(nih, PTLX_SR_EQ_DROPPED, &v);
  CHECK(v == 2);
  /* room again: no more drops reported */
  CHECK(put(14, 0, 9, 0, NULL) == mdo(a));
  RC(next_event(eq, &ev), PTL_OK);
  CHECK(ev.rlength == 9);
  /* PtlEQPoll over several EQs: the one with an event */
  ptl_handle_eq_t eqs[2];
  int which = -1;
  RC(PtlEQAlloc(nih, 2, PTL_EQ_HANDLER_NONE, &eqs[0]), PTL_OK);
  eqs[1] = eq;
  CHECK(put(14, 0, 3, 0, NULL) == mdo(a));
  RC(PtlEQPoll(eqs, 2, 0, &ev, &which), PTL_OK);
  CHECK(which == 1);
  RC(PtlEQPoll(eqs, 2, 5, &ev, &which), PTL_EQ_EMPTY); /* 5 ms timeout */
  RC(PtlEQPoll(eqs, 0, 0, &ev, &which), PTL_EQ_INVALID);
  RC(PtlEQAlloc(nih, 0, PTL_EQ_HANDLER_NONE, &eqs[0]), PTL_OK);
  CHECK(eqs[0] == PTL_EQ_NONE);
  teardown();
}

static void t_handles_and_errors(void) {
  setup("handles_and_error_codes");
  ptl_handle_me_t me;
  ptl_handle_md_t md, md2;
  ptl_handle_eq_t eq;
  RC(PtlEQAlloc(nih, 4, PTL_EQ_HANDLER_NONE, &eq), PTL_OK);
  RC(PtlMEAttach(nih, PTLX_PT_INDEX_MAX + 1, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me), PTL_PT_INDEX_INVALID);
  RC(PtlMEAttach(nih + 1, 0, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me), PTL_NI_INVALID);
  RC(PtlMEAttach(nih, 0, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER, NULL), PTL_SEGV);
  RC(PtlMEAttach(nih, 0, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER, &me), PTL_OK);
  RC(PtlMDAttach(me, test_md(NULL, 8, 1, PTL_MD_IOVEC, PTL_EQ_NONE, NULL), PTL_RETAIN, &md), PTL_MD_ILLEGAL);
  RC(PtlMDAttach(me, test_md(NULL, 8, 1, 0, PTL_EQ_NONE, NULL), PTL_RETAIN, &md), PTL_MD_ILLEGAL);
  RC(PtlMDAttach(me, test_md(buf[0], 8, 1, 0, eq + 1, NULL), PTL_RETAIN, &md), PTL_EQ_INVALID);
  RC(PtlMDAttach(eq, test_md(buf[0], 8, 1, 0, PTL_EQ_NONE, NULL), PTL_RETAIN, &md), PTL_ME_INVALID); /* wrong kind */
  RC(PtlMDBind(nih, test_md(buf[0], 8, 1, 0, PTL_EQ_NONE, NULL), PTL_RETAIN, &md), PTL_OK);
  RC(PtlMDUnlink(md), PTL_OK);
  RC(PtlMDUnlink(md), PTL_MD_INVALID);
  RC(PtlMDBind(nih, test_md(buf[0], 8, 1, 0, PTL_EQ_NONE, NULL), PTL_RETAIN, &md2), PTL_OK);
  CHECK(md2 != md); /* same slot, new generation */
  RC(PtlMDUnlink(md), PTL_MD_INVALID);
  mdo(md2)->pending = 1;
  RC(PtlMDUnlink(md2), PTL_MD_IN_USE);
  mdo(md2)->pending = 0;
  RC(PtlMDUnlink(md2), PTL_OK);
  RC(PtlMDUnlink(PTL_INVALID_HANDLE), PTL_MD_INVALID);
  RC(PtlEQFree(eq), PTL_OK);
  RC(PtlEQFree(eq), PTL_EQ_INVALID);
  ptl_handle_ni_t h;
  RC(PtlNIHandle(me, &h), PTL_OK);
  CHECK(h == nih);
  RC(PtlNIHandle(md2, &h), PTL_HANDLE_INVALID);
  ptl_sr_value_t v;
  RC(PtlNIStatus(nih, PTLX_SR_MAX, &v), PTL_SR_INDEX_INVALID);
  CHECK(strcmp(PtlErrorStr(PTL_EQ_DROPPED), "PTL_EQ_DROPPED") == 0);
  CHECK(strcmp(PtlEventKindStr(PTL_EVENT_ACK), "PTL_EVENT_ACK") == 0);
  teardown();
}

static void t_post_and_attach_any(void) {
  setup("post_memdpost_attach_any");
  ptl_handle_me_t me, base, me2;
  ptl_handle_md_t md, md2;
  ptl_pt_index_t pt;
  RC(PtlPost(nih, 20, ANY, 1, 0, PTL_UNLINK, PTL_INS_AFTER, test_md(buf[0], 8, 1, RW, PTL_EQ_NONE, NULL), PTL_UNLINK,
             &base, &md),
     PTL_OK);
  RC(PtlMEMDPost(nih, base, ANY, 1, 0, PTL_UNLINK, PTL_INS_BEFORE, test_md(buf[1], 8, 1, RW, PTL_EQ_NONE, NULL),
                 PTL_UNLINK, &me2, &md2, PTL_EQ_NONE),
     PTL_OK);
  ptl_mdo_t *first = mdo(md2), *second = mdo(md);
  CHECK(put(20, 1, 8, 0, NULL) == first); /* inserted before base */
  CHECK(put(20, 1, 8, 0, NULL) == second);
  CHECK(ni->pt[20].len == 0);
  RC(PtlPost(nih, 20, ANY, 1, 0, PTL_UNLINK, PTL_INS_AFTER, test_md(buf[0], 8, 1, RW, 12345, NULL), PTL_UNLINK, &me,
             &md),
     PTL_EQ_INVALID);
  CHECK(ni->pt[20].len == 0); /* nothing half-made */
  RC(PtlMEAttachAny(nih, &pt, ANY, 0, 0, PTL_RETAIN, &me), PTL_OK);
  CHECK(pt == 0);
  RC(PtlMEAttachAny(nih, &pt, ANY, 0, 0, PTL_RETAIN, &me), PTL_OK);
  CHECK(pt == 1);
  teardown();
}

static void t_publish_rule(void) {
  setup("publish_rule_first_match");
  ptl_handle_me_t x, y;
  ptl_handle_eq_t eq;
  ptl_md_t free_md = test_md(buf[0], 64, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL);
  RC(PtlEQAlloc(nih, 4, PTL_EQ_HANDLER_NONE, &eq), PTL_OK);
  attach(30, ANY, 0x10, 0xFFF0 /* low 4 bits select, as GASNet's RAR */, free_md, PTL_RETAIN, PTL_RETAIN, &x);
  ptl_meo_t *mx = ptl_pool_get(&ni->mes, x);
  ptl_lock(ni);
  CHECK(publishable(mx));
  ptl_unlock(ni);
  /* disjoint in a bit neither ignores: x stays publishable */
  RC(PtlMEInsert(x, ANY, 0x11, 0xFFF0, PTL_RETAIN, PTL_INS_BEFORE, &y), PTL_OK);
  CHECK(publishable(mx));
  RC(PtlMEUnlink(y), PTL_OK);
  /* overlapping, even without an MD: x is shadowed */
  RC(PtlMEInsert(x, ANY, 0x20, 0xFFF0, PTL_RETAIN, PTL_INS_BEFORE, &y), PTL_OK);
  CHECK(!publishable(mx));
  RC(PtlMEUnlink(y), PTL_OK);
  /* overlapping bits but another source only: disjoint */
  ptl_process_id_t only2 = {2, PTL_PID_ANY}, only3 = {3, PTL_PID_ANY};
  RC(PtlMEInsert(x, only2, 0x10, 0, PTL_RETAIN, PTL_INS_BEFORE, &y), PTL_OK);
  CHECK(!publishable(mx)); /* x accepts everyone, so nid 2's messages could go to y */
  RC(PtlMEUnlink(y), PTL_OK);
  /* ... but it overlaps an x restricted to another nid only if nids agree */
  mx->match_id = only3;
  RC(PtlMEInsert(x, only2, 0x10, 0, PTL_RETAIN, PTL_INS_BEFORE, &y), PTL_OK);
  CHECK(publishable(mx));
  mx->match_id = ANY;
  CHECK(!publishable(mx));
  RC(PtlMEUnlink(y), PTL_OK);
  /* an entry after x never shadows it */
  RC(PtlMEInsert(x, ANY, 0, ~0ull, PTL_RETAIN, PTL_INS_AFTER, &y), PTL_OK);
  CHECK(publishable(mx));
  RC(PtlMEUnlink(y), PTL_OK);
  /* eligibility: events, threshold, local management, unlink policy */
  ptl_md_t m;
  ptl_handle_me_t z;
  ptl_handle_md_t zd;
  struct {
    ptl_md_t md;
    ptl_unlink_t me_ul;
    int ok;
  } cases[] = {
      {test_md(buf[0], 64, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL), PTL_RETAIN, 1},
      {test_md(buf[0], 64, PTL_MD_THRESH_INF, RW, eq, NULL), PTL_RETAIN, 0},
      {test_md(buf[0], 64, PTL_MD_THRESH_INF, RW | PTL_MD_EVENT_START_DISABLE | PTL_MD_EVENT_END_DISABLE, eq, NULL),
       PTL_RETAIN, 1},
      {test_md(buf[0], 64, 5, RW, PTL_EQ_NONE, NULL), PTL_RETAIN, 0},
      {test_md(buf[0], 64, PTL_MD_THRESH_INF, PTL_MD_OP_PUT, PTL_EQ_NONE, NULL), PTL_RETAIN, 0},
      {test_md(buf[0], 64, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL), PTL_UNLINK, 0},
  };
  for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    m = cases[i].md;
    zd = attach(31 + i, ANY, 0, 0, m, cases[i].me_ul, PTL_RETAIN, &z);
    CHECK(publishable(ptl_pool_get(&ni->mes, z)) == cases[i].ok);
    RC(PtlMDUnlink(zd), PTL_OK);
    ptl_meo_t *zm = ptl_pool_get(&ni->mes, z); /* gone with its MD if PTL_UNLINK */
    CHECK(!zm || !publishable(zm));
  }
  teardown();
}

/* ---------------------------------------------------------------- event entries (ptl.h section 5) */
/* The shared parts of EQs in plain memory (the transport gives UCX memory
 * that peers map; here the region is the memory itself). */
static void *eq_mem(ptl_ni_t *n, size_t len, void **region) {
  (void)n;
  return *region = aligned_alloc(64, len);
}
static void eq_mem_free(ptl_ni_t *n, void *region) {
  (void)n;
  free(region);
}
static const ptl_hooks_t shared_eq_hooks = {.eq_mem = eq_mem, .eq_mem_free = eq_mem_free};

static void t_event_entries(void) {
  ptl_process_id_t me = {0, 0};
  case_name = "event_entries_rule_reserve_ring";
  case_failed = 0;
  if (ptl_ni_create(PTLX_IFACE_OFFLOAD, me, 4, &shared_eq_hooks, &ni) != PTL_OK) {
    printf("FAIL %s: cannot create an NI\n", case_name);
    exit(1);
  }
  ptl_the_ni = ni;
  nih = ni->handle;
  ptl_handle_eq_t eq;
  ptl_handle_me_t z, y;
  ptl_handle_md_t zd, yd;
  RC(PtlEQAlloc(nih, 8, PTL_EQ_HANDLER_NONE, &eq), PTL_OK);
  ptl_eqo_t *eqo = ptl_pool_get(&ni->eqs, eq);
  CHECK(eqo && eqo->sh && eqo->region && eqo->mask == 7);

  /* eligibility */
  unsigned endonly = PTL_MD_EVENT_START_DISABLE, lm = PTL_MD_OP_PUT | PTL_MD_MAX_SIZE;
  struct {
    ptl_md_t md;
    ptl_unlink_t me_ul;
    int kind;
  } cases[] = {
      {test_md(buf[0], 64, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL), PTL_RETAIN, PTL_PUB_PLAIN},
      {test_md(buf[0], 64, PTL_MD_THRESH_INF, RW | endonly, eq, NULL), PTL_RETAIN, PTL_PUB_EVENTS},
      {test_md(buf[0], 64, PTL_MD_THRESH_INF, RW, eq, NULL), PTL_RETAIN, 0},              /* START events */
      {test_md(buf[0], 64, 5, RW | endonly, eq, NULL), PTL_RETAIN, 0},                     /* a threshold */
      {test_md(buf[0], 64, PTL_MD_THRESH_INF, RW | endonly, eq, NULL), PTL_UNLINK, 0},     /* ME may go */
      {test_md(buf[0], 64, PTL_MD_THRESH_INF, lm | endonly, eq, NULL), PTL_UNLINK, PTL_PUB_EVENTS},
      {test_md(buf[0], 64, PTL_MD_THRESH_INF, PTL_MD_OP_PUT | endonly, eq, NULL), PTL_UNLINK, 0}, /* no MAX_SIZE */
      {test_md(buf[0], 64, PTL_MD_THRESH_INF, lm, PTL_EQ_NONE, NULL), PTL_RETAIN, 0},       /* no events */
      {test_md(buf[0], 64, PTL_MD_THRESH_INF, RW | PTL_MD_MAX_SIZE | endonly, eq, NULL), PTL_RETAIN, 0},
  };
  for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    cases[i].md.max_size = 16;
    zd = attach(40 + i, ANY, 0, 0, cases[i].md, cases[i].me_ul, PTL_RETAIN, &z);
    ptl_lock(ni);
    if (publishable(ptl_pool_get(&ni->mes, z)) != cases[i].kind) test_fail(__LINE__, "eligibility case %u", i);
    ptl_unlock(ni);
    RC(PtlMDUnlink(zd), PTL_OK);
    if (ptl_pool_get(&ni->mes, z)) RC(PtlMEUnlink(z), PTL_OK);
  }

  /* an earlier overlapping entry shadows -- unless its MD is inactive */
  ptl_md_t rb = test_md(buf[0], 64, PTL_MD_THRESH_INF, lm | endonly, eq, NULL);
  rb.max_size = 16;
  yd = attach(50, ANY, 7, 0, rb, PTL_UNLINK, PTL_UNLINK, &y);
  rb.start = buf[1];
  zd = attach(50, ANY, 7, 0, rb, PTL_UNLINK, PTL_UNLINK, &z);
  ptl_meo_t *mz = ptl_pool_get(&ni->mes, z), *my = ptl_pool_get(&ni->mes, y);
  uint64_t after = 99;
  ptl_lock(ni);
  CHECK(!publishable(mz));
  /* ... unless it is a published request buffer of the same match set: z follows it in order */
  my->pub = PTL_PUB_YES;
  my->xslot1 = 1;
  my->pub_order = 7;
  CHECK(publishable_after(mz, &after) == PTL_PUB_EVENTS && after == 7);
  my->bits = 3; /* y takes whatever has bit 0 set: overlapping, not the same match set */
  my->mask = 1;
  CHECK(!publishable(mz));
  my->bits = 7;
  my->mask = mz->mask;
  my->xslot1 = 0; /* not locally managed one-sidedly: it cannot be seen full */
  CHECK(!publishable(mz));
  my->xslot1 = 1;
  mz->md->d.options |= PTL_MD_MANAGE_REMOTE; /* z must be a request buffer too */
  CHECK(!publishable(mz));
  mz->md->d.options &= ~(unsigned)PTL_MD_MANAGE_REMOTE;
  my->pub = PTL_PUB_NO; /* y unpublished shadows z again */
  CHECK(!publishable(mz));
  ptl_md_deactivate(mdo(yd));
  CHECK(publishable_after(mz, &after) == PTL_PUB_EVENTS && after == 0);
  my->xslot1 = 0;
  ptl_unlock(ni);

  /* the shared running offset: concatenation, the one crossing, then nothing */
  ptl_xmd_t xm;
  uint64_t off, ml, ops;
  int crossed;
  memset(&xm, 0, sizeof(xm));
  atomic_store(&xm.word, 8); /* 8 bytes appended before it was published */
  CHECK(ptl_xmd_reserve(&xm, 64, 16, lm, 24, &off, &ml, &crossed, &ops, 0) && off == 8 && ml == 24 && !crossed && ops == 1);
  CHECK(ptl_xmd_reserve(&xm, 64, 16, lm, 0, &off, &ml, &crossed, &ops, 0) && off == 32 && ml == 0 && !crossed && ops == 2);
  CHECK(!ptl_xmd_reserve(&xm, 64, 16, lm, 40, &off, &ml, &crossed, &ops, 0)); /* does not fit, no TRUNCATE */
  CHECK(ptl_xmd_reserve(&xm, 64, 16, lm | PTL_MD_TRUNCATE, 40, &off, &ml, &crossed, &ops, 0) && off == 32 && ml == 32 &&
        crossed && ops == 3);
  CHECK(!ptl_xmd_reserve(&xm, 64, 16, lm, 0, &off, &ml, &crossed, &ops, 0)); /* inactive: not even 0 bytes */
  CHECK(!ptl_xmd_end(&xm, 0, 1));
  CHECK(!ptl_xmd_end(&xm, 1, 3));
  CHECK(!ptl_xmd_drained(&xm)); /* the 2nd has not ended */
  CHECK(ptl_xmd_end(&xm, 0, 2)); /* the last to end says so (a re-armed buffer's DRAINED) */
  CHECK(ptl_xmd_drained(&xm));
  /* re-armed (PtlXMERearm's steps): the order first, then the offset back
   * to 0 with the count going on; a reservation at the old order fails */
  atomic_store(&xm.order, 9);
  atomic_store(&xm.final, 0);
  atomic_store(&xm.word, atomic_load(&xm.word) & ~PTL_XMD_OFF_MASK);
  CHECK(!ptl_xmd_drained(&xm));
  CHECK(!ptl_xmd_reserve(&xm, 64, 16, lm, 8, &off, &ml, &crossed, &ops, 5));
  CHECK(ptl_xmd_reserve(&xm, 64, 16, lm, 8, &off, &ml, &crossed, &ops, 9) && off == 0 && ops == 4);
  CHECK(!ptl_xmd_end(&xm, 0, ops));

  /* a published request buffer matched by the progress thread (the rx
   * side): offsets from the shared state, and its UNLINK waits for an
   * append still in flight */
  ptl_mdo_t *mdz = mdo(zd);
  memset(&xm, 0, sizeof(xm));
  mdz->xmd = &xm;
  ptl_hit_t h;
  CHECK(ptl_xmd_reserve(&xm, 64, 16, lm, 8, &off, &ml, &crossed, &ops, 0) && off == 0); /* a one-sided append, in flight */
  CHECK(put(50, 7, 24, 0, &h) == mdz && h.offset == 8 && h.mlength == 24);
  CHECK(put(50, 7, 24, 0, &h) == mdz && h.offset == 32 && mdz->inactive); /* 8 bytes left < 16 */
  CHECK(mdo(zd) == mdz);          /* not unlinked: the one-sided append has not ended */
  CHECK(put(50, 7, 8, 0, &h) == NULL); /* nothing else takes it: dropped */
  ptl_xmd_end(&xm, 0, ops);
  CHECK(ptl_xmd_drained(&xm));
  mdz->xmd = NULL; /* (the transport's poll unlinks it now; here:) */
  RC(PtlMDUnlink(zd), PTL_OK);

  /* the ring: several producers reserve by position, the consumer takes in
   * position order, a full ring refuses */
  ptl_eq_slot_t *sl[8];
  uint64_t pos[8], base, hcopy = 0;
  ptl_event_t ev;
  ptl_seq_t seq0 = 0;
  int n_before = 0;
  while (PtlEQGet(eq, &ev) == PTL_OK) { /* the PUT_ENDs of the matched Puts above */
    CHECK(ev.type == PTL_EVENT_PUT_END);
    seq0 = ev.sequence + 1;
    n_before++;
  }
  CHECK(n_before == 2);
  base = atomic_load(&eqo->sh->tail);
  for (int i = 0; i < 8; i++) {
    sl[i] = ptl_eq_reserve(eqo->sh, eqo->mask, &pos[i], &hcopy);
    if (!sl[i] || pos[i] != base + (uint64_t)i) {
      test_fail(__LINE__, "reserving slot %d", i);
      teardown();
      return;
    }
  }
  CHECK(ptl_eq_reserve(eqo->sh, eqo->mask, &pos[0], &hcopy) == NULL);
  for (int i = 7; i >= 0; i--) { /* filled out of order, full and compact forms mixed: taken in order */
    ptl_mdo_t *m = mdo(yd);
    if (i % 2)
      ptl_rec_put(sl[i], PTL_EVENT_PUT_END, me.nid, 50, 7, (ptl_size_t)i + 1, (ptl_size_t)i, 8 * (ptl_size_t)i, yd,
                  (ptl_hdr_data_t)i);
    else
      ptl_ev_put(&sl[i]->ev, PTL_EVENT_PUT_END, me, 50, 7, (ptl_size_t)i + 1, (ptl_size_t)i, 8 * (ptl_size_t)i, yd,
                 &m->d, (ptl_hdr_data_t)i, 0, PTL_NI_OK, 0);
    atomic_store_explicit(&sl[i]->seq, pos[i] + 1, memory_order_release);
  }
  for (int i = 0; i < 8; i++) { /* both forms give the same event: the MD snapshot from the MD */
    const ptl_mdo_t *m = mdo(yd);
    CHECK(PtlEQGet(eq, &ev) == PTL_OK && ev.hdr_data == (ptl_hdr_data_t)i && ev.sequence == seq0 + (ptl_seq_t)i &&
          ev.link == 0);
    CHECK(ev.type == PTL_EVENT_PUT_END && ev.initiator.nid == me.nid && ev.initiator.pid == 0 && ev.uid == 0 &&
          ev.jid == 0 && ev.pt_index == 50 && ev.match_bits == 7 && ev.rlength == (ptl_size_t)i + 1 &&
          ev.mlength == (ptl_size_t)i && ev.offset == 8 * (ptl_size_t)i && ev.md_handle == yd &&
          ev.ni_fail_type == PTL_NI_OK && !memcmp(&ev.md, &m->d, sizeof(ev.md)));
  }
  CHECK(PtlEQGet(eq, &ev) == PTL_EQ_EMPTY);
  { /* a producer whose tail is older than the head it reads next (other producers and the consumer moved on
     * in between: here, the head moved by hand) finds room, not a full ring */
    uint64_t t = atomic_load(&eqo->sh->tail), h0 = atomic_load(&eqo->sh->head), stale = 0, p2;
    atomic_store(&eqo->sh->head, t + 3);
    CHECK(ptl_eq_reserve(eqo->sh, eqo->mask, &p2, &stale) != NULL && p2 == t);
    atomic_store(&eqo->sh->tail, t); /* (undone: nothing was written there) */
    atomic_store(&eqo->sh->head, h0);
  }
  CHECK((sl[0] = ptl_eq_reserve(eqo->sh, eqo->mask, &pos[0], &hcopy)) && pos[0] == base + 8); /* room again */
  ptl_ev_put(&sl[0]->ev, PTL_EVENT_PUT_END, me, 50, 7, 0, 0, 0, yd, &mdo(yd)->d, 99, 0, PTL_NI_OK, 0);
  atomic_store_explicit(&sl[0]->seq, pos[0] + 1, memory_order_release);
  atomic_fetch_add(&eqo->sh->xdropped, 2); /* two events a one-sided writer found no room for */
  CHECK(PtlEQGet(eq, &ev) == PTL_EQ_DROPPED);
  CHECK(ni->sr[PTL_SIDE_APP][PTLX_SR_EQ_DROPPED] == 2);
  CHECK(PtlEQGet(eq, &ev) == PTL_EQ_EMPTY);

  /* an unlinked event entry's MD waits for the consumer: its compact
   * record, taken after the unlink and after new MDs were bound, still
   * shows it; its slot is reused only once the consumer is past */
  ptl_handle_md_t gd, nd, nd2;
  ptl_md_t gdesc = test_md(buf[2], 64, PTL_MD_THRESH_INF, RW | endonly, eq, (void *)0x5eed);
  RC(PtlMDBind(nih, gdesc, PTL_RETAIN, &gd), PTL_OK);
  mdo(gd)->xev = 1; /* (as if published as an event entry) */
  CHECK((sl[0] = ptl_eq_reserve(eqo->sh, eqo->mask, &pos[0], &hcopy)) != NULL);
  ptl_rec_put(sl[0], PTL_EVENT_PUT_END, me.nid, 51, 9, 16, 16, 24, gd, 0xabc);
  atomic_store_explicit(&sl[0]->seq, pos[0] + 1, memory_order_release);
  RC(PtlMDUnlink(gd), PTL_OK);
  RC(PtlMDUnlink(gd), PTL_MD_INVALID); /* its handle is dead at once */
  RC(PtlMDBind(nih, test_md(buf[3], 8, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL), PTL_RETAIN, &nd), PTL_OK);
  CHECK((nd & 0xffffff) != (gd & 0xffffff)); /* (the slot bits: not reused) */
  CHECK(PtlEQGet(eq, &ev) == PTL_OK);
  CHECK(ev.type == PTL_EVENT_PUT_END && ev.md_handle == gd && ev.md.user_ptr == (void *)0x5eed &&
        ev.md.start == buf[2] && ev.md.length == 64 && ev.md.eq_handle == eq && ev.hdr_data == 0xabc &&
        ev.offset == 24 && ev.pt_index == 51);
  RC(PtlMDBind(nih, test_md(buf[3], 8, PTL_MD_THRESH_INF, RW, PTL_EQ_NONE, NULL), PTL_RETAIN, &nd2), PTL_OK);
  CHECK((nd2 & 0xffffff) == (gd & 0xffffff) && ni->limbo == NULL); /* past it: the slot is free again */
  RC(PtlMDUnlink(nd), PTL_OK);
  RC(PtlMDUnlink(nd2), PTL_OK);
  teardown();
}


/* ---------------------------------------------------------------- atomics (ptl.h section 6) */
/* ptl_atomic_check's rules, ptl_atomic_apply on every (op, type) against
 * the model (aligned and misaligned, several elements, the old values
 * fetched), and matching: an atomic needs PUT, a fetching one PUT and GET,
 * neither truncates; their events. */
static void t_atomics(void) {
  static const int64_t iv[] = {7, -5, 0, 3, 1000000007, -1, 12, 0x5a5a5a5a, INT64_MIN, 0x7fffffff};
  static const double dv[] = {1.5, -2.25, 0.0, 3.0, 1e6, -0.5, 12.0, 7.75, -1e9, 0.125};
  enum { NV = 10 };
  setup("atomics_apply_check_match");
  /* check */
  CHECK(ptl_atomic_check(0, PTL_SUM, PTL_INT32_T, 4) == PTL_OK);
  CHECK(ptl_atomic_check(0, PTL_SUM, PTL_DOUBLE, 24) == PTL_OK);
  CHECK(ptl_atomic_check(0, PTL_SUM, PTL_DOUBLE, 12) == PTLX_ARG_INVALID);   /* not whole elements */
  CHECK(ptl_atomic_check(0, PTL_SUM, PTL_INT64_T, 0) == PTLX_ARG_INVALID);   /* nothing */
  CHECK(ptl_atomic_check(0, PTL_SUM, PTL_INT64_T, PTLX_MAX_ATOMIC_SIZE) == PTL_OK);
  CHECK(ptl_atomic_check(0, PTL_SUM, PTL_INT64_T, PTLX_MAX_ATOMIC_SIZE + 8) == PTLX_ARG_INVALID);
  CHECK(ptl_atomic_check(0, PTL_BOR, PTL_FLOAT, 4) == PTLX_ARG_INVALID);     /* bitwise: integers */
  CHECK(ptl_atomic_check(0, PTL_LXOR, PTL_DOUBLE, 8) == PTLX_ARG_INVALID);   /* logical too */
  CHECK(ptl_atomic_check(0, PTL_SWAP, PTL_INT64_T, 8) == PTLX_ARG_INVALID);  /* swaps: PtlSwap only */
  CHECK(ptl_atomic_check(1, PTL_SUM, PTL_INT64_T, 8) == PTLX_ARG_INVALID);   /* and PtlSwap nothing else */
  CHECK(ptl_atomic_check(1, PTL_SWAP, PTL_INT64_T, 24) == PTL_OK);           /* SWAP: several elements */
  CHECK(ptl_atomic_check(1, PTL_CSWAP, PTL_INT64_T, 16) == PTLX_ARG_INVALID); /* CSWAP: one */
  CHECK(ptl_atomic_check(1, PTL_MSWAP, PTL_DOUBLE, 8) == PTLX_ARG_INVALID);
  CHECK(ptl_atomic_check(1, PTL_CSWAP_GT, PTL_FLOAT, 4) == PTL_OK);
  CHECK(ptl_atomic_check(0, (ptl_op_t)PTLX_OP_COUNT, PTL_INT32_T, 4) == PTLX_ARG_INVALID);
  CHECK(ptl_atomic_check(0, PTL_SUM, (ptl_datatype_t)PTLX_DATATYPE_COUNT, 4) == PTLX_ARG_INVALID);
  /* apply: every valid (op, type), 3 elements (1 for the conditional and
   * masked swaps), aligned and 1 byte off, over pairs of test values */
  int napplied = 0;
  for (int dt = PTL_INT32_T; dt < PTLX_DATATYPE_COUNT; dt++)
    for (int op = PTL_MIN; op < PTLX_OP_COUNT; op++) {
      size_t sz = ptl_dt_size((ptl_datatype_t)dt);
      int nel = op > PTL_SWAP ? 1 : 3;
      if (ptl_atomic_check(op >= PTL_SWAP, (ptl_op_t)op, (ptl_datatype_t)dt, sz * (size_t)nel) != PTL_OK) continue;
      for (int v = 0; v < NV * NV; v++)
        for (int mis = 0; mis < 2; mis++) {
          _Alignas(8) unsigned char tb[40], xb[24], ob[8], fb[24], want[24], init[24];
          for (int i = 0; i < nel; i++) {
            int a = (v / NV + i) % NV, b = (v % NV + 2 * i) % NV;
            int32_t i32a = (int32_t)iv[a], i32b = (int32_t)iv[b];
            float fa = (float)dv[a], fb2 = (float)dv[b];
            unsigned char *ti = init + i * sz, *xi = xb + i * sz;
            if (dt == PTL_FLOAT) memcpy(ti, &fa, 4), memcpy(xi, &fb2, 4);
            else if (dt == PTL_DOUBLE) memcpy(ti, &dv[a], 8), memcpy(xi, &dv[b], 8);
            else if (sz == 4) memcpy(ti, &i32a, 4), memcpy(xi, &i32b, 4);
            else memcpy(ti, &iv[a], 8), memcpy(xi, &iv[b], 8);
          }
          /* the operand: the target's value, the data's, or the target's with its low bit flipped */
          memcpy(ob, v % 3 == 1 ? xb : init, sz);
          if (v % 3 == 2) ob[0] ^= 1;
          memcpy(tb + mis, init, sz * (size_t)nel);
          memcpy(want, init, sz * (size_t)nel);
          for (int i = 0; i < nel; i++) am_model((ptl_op_t)op, (ptl_datatype_t)dt, want + i * sz, xb + i * sz, ob);
          ptl_atomic_apply(tb + mis, xb, ob, fb, sz * (size_t)nel, (ptl_op_t)op, (ptl_datatype_t)dt);
          napplied++;
          if (memcmp(tb + mis, want, sz * (size_t)nel) || memcmp(fb, init, sz * (size_t)nel)) {
            test_fail(__LINE__, "op %d type %d values %d%s: %s differs from the model", op, dt, v,
                      mis ? " (misaligned)" : "", memcmp(fb, init, sz * (size_t)nel) ? "fetched" : "result");
            break;
          }
        }
    }
  CHECK(napplied > 10000);
  /* matching: rights, no truncation, events */
  ptl_handle_eq_t eq;
  ptl_event_t ev;
  ptl_hit_t hit;
  RC(PtlEQAlloc(nih, 16, PTL_EQ_HANDLER_NONE, &eq), PTL_OK);
  ptl_handle_md_t wo = attach(3, ANY, 0x1, 0, test_md(buf[0], 32, PTL_MD_THRESH_INF,
                                                      PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_TRUNCATE, eq, NULL),
                              PTL_RETAIN, PTL_RETAIN, NULL);
  ptl_handle_md_t rw = attach(3, ANY, 0x1, 0, test_md(buf[1], 64, PTL_MD_THRESH_INF, RW, eq, NULL), PTL_RETAIN,
                              PTL_RETAIN, NULL);
  CHECK(deliver(PTL_OP_ATOMIC, 2, 3, 0x1, 8, 0, 0xabc, &hit) == mdo(wo)); /* PUT is enough */
  CHECK(next_event(eq, &ev) == PTL_OK && ev.type == PTL_EVENT_ATOMIC_START && ev.hdr_data == 0xabc &&
        ev.md_handle == wo && ev.mlength == 8);
  CHECK(next_event(eq, &ev) == PTL_OK && ev.type == PTL_EVENT_ATOMIC_END && ev.hdr_data == 0xabc && ev.link == 0);
  CHECK(deliver(PTL_OP_FETCH, 2, 3, 0x1, 8, 0, 0xdef, &hit) == mdo(rw)); /* PUT-only skipped: PUT and GET needed */
  CHECK(next_event(eq, &ev) == PTL_OK && ev.type == PTL_EVENT_FETCH_ATOMIC_START && ev.md_handle == rw &&
        ev.hdr_data == 0xdef);
  CHECK(next_event(eq, &ev) == PTL_OK && ev.type == PTL_EVENT_FETCH_ATOMIC_END && ev.link == ev.sequence - 1);
  CHECK(deliver(PTL_OP_ATOMIC, 2, 3, 0x1, 16, 24, 0, &hit) == mdo(rw)); /* no truncation: wo (TRUNCATE) skipped */
  CHECK(deliver(PTL_OP_ATOMIC, 2, 3, 0x1, 16, 60, 0, &hit) == NULL);    /* fits nowhere: dropped */
  CHECK(ni->sr[PTL_SIDE_RX][PTL_SR_DROP_COUNT] == 1);
  CHECK(deliver(PTL_OP_PUT, 2, 3, 0x1, 16, 24, 0, &hit) == mdo(wo)); /* a Put truncates there */
  CHECK(hit.mlength == 8);
  CHECK(strcmp(PtlEventKindStr(PTL_EVENT_FETCH_ATOMIC_END), "PTL_EVENT_FETCH_ATOMIC_END") == 0);
  CHECK(strcmp(PtlErrorStr(PTLX_ARG_INVALID), "PTLX_ARG_INVALID") == 0);
  teardown();
}

/* IOVEC MDs (Portals 3.3 PTL_MD_IOVEC): random piece lists (lengths 0..40,
 * up to 300 pieces, in shuffled memory order) against a byte-by-byte model:
 * every random range gathers, scatters and resolves to one pointer exactly
 * as the model says; the matching engine sees the total length; an atomic
 * across pieces skips the entry; the IOVEC entry is never publishable. */
static void t_iovec(void) {
  setup("iovec_pieces");
  enum { MAXP = 300, RAW = MAXP * 48 };
  static unsigned char raw[RAW], out[RAW], model[RAW];
  static ptl_md_iovec_t v[MAXP];
  static size_t where[MAXP * 40]; /* logical byte -> raw index */
  unsigned seed = 12345;
#define RND() (seed = seed * 1103515245u + 12345u, (seed >> 8) & 0xffffffu)
  for (int round = 0; round < 200; round++) {
    size_t n = 1 + RND() % MAXP, total = 0, slot[MAXP];
    ptl_handle_md_t mdh;
    for (size_t i = 0; i < n; i++) slot[i] = i;
    for (size_t i = n; i > 1; i--) { /* a shuffle: pieces in another order in memory */
      size_t j = RND() % i, t = slot[i - 1];
      slot[i - 1] = slot[j];
      slot[j] = t;
    }
    for (size_t i = 0; i < RAW; i++) raw[i] = (unsigned char)RND();
    for (size_t i = 0; i < n; i++) {
      size_t len = RND() % 5 == 0 ? 0 : RND() % 41;
      v[i].iov_base = len ? raw + slot[i] * 48 + 3 : NULL;
      v[i].iov_len = len;
      for (size_t k = 0; k < len; k++) where[total + k] = slot[i] * 48 + 3 + k;
      total += len;
    }
    RC(PtlMDBind(nih, test_md(v, n, PTL_MD_THRESH_INF, PTL_MD_IOVEC, PTL_EQ_NONE, NULL), PTL_RETAIN, &mdh), PTL_OK);
    ptl_mdo_t *md = mdo(mdh);
    CHECK(md->len == total);
    for (int k = 0; k < 20 && total; k++) {
      size_t off = RND() % total, len = RND() % (total - off + 1), same = 1;
      for (size_t i = 1; i < len; i++) same &= where[off + i] == where[off] + i;
      char *at = ptl_md_piece_at(md, off, len);
      if (len) CHECK(same ? at == (char *)raw + where[off] : at == NULL);
      ptl_md_gather(md, off, out, len);
      for (size_t i = 0; i < len; i++) CHECK(out[i] == raw[where[off + i]]);
      memcpy(model, raw, RAW);
      for (size_t i = 0; i < len; i++) out[i] = (unsigned char)RND(), model[where[off + i]] = out[i];
      ptl_md_scatter(md, off, out, len);
      CHECK(!memcmp(model, raw, RAW));
    }
    RC(PtlMDUnlink(mdh), PTL_OK);
    if (case_failed) break;
  }
#undef RND
  /* matching: the total length, truncation at it, an atomic within a piece and across two */
  {
    static unsigned char a[16], b[16];
    ptl_md_iovec_t two[3] = {{a, 16}, {NULL, 0}, {b, 16}};
    ptl_hit_t hit;
    ptl_handle_me_t meh;
    ptl_handle_md_t h = attach(4, ANY, 0x1, 0,
                               test_md(two, 3, PTL_MD_THRESH_INF,
                                       PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE | PTL_MD_TRUNCATE |
                                           PTL_MD_IOVEC | PTL_MD_EVENT_START_DISABLE | PTL_MD_EVENT_END_DISABLE,
                                       PTL_EQ_NONE, NULL),
                               PTL_RETAIN, PTL_RETAIN, &meh);
    uint64_t after;
    CHECK(put(4, 0x1, 40, 0, &hit) == mdo(h) && hit.mlength == 32); /* truncated at 32, not 3 */
    CHECK(put(4, 0x1, 8, 20, &hit) == mdo(h) && hit.offset == 20 && hit.mlength == 8);
    CHECK(deliver(PTL_OP_ATOMIC, 1, 4, 0x1, 8, 16, 0, &hit) == mdo(h)); /* all in b */
    CHECK(deliver(PTL_OP_ATOMIC, 1, 4, 0x1, 8, 12, 0, &hit) == NULL);   /* a[12..16) + b[0..4): skipped */
    CHECK(ptl_me_publishable(ptl_pool_get(&ni->mes, meh), &after) == 0);
  }
  teardown();
}

int main(void) {
  t_match_ignore();
  t_list_order_and_insert();
  t_locally_managed();
  t_rearm();
  t_threshold();
  t_truncate_offsets_ops();
  t_source_filter();
  t_events();
  t_eq_overflow();
  t_handles_and_errors();
  t_post_and_attach_any();
  t_publish_rule();
  t_event_entries();
  t_atomics();
  t_iovec();
  printf("%s\n", failures ? "ptl_unit: FAILED" : "ptl_unit: all passed");
  return failures ? 1 : 0;
}
