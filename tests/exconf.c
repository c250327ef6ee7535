/*
 * exconf.c -- the GASNet-EX conformance test: every gex_* entry point of
 * the primordial team checked against the GASNet-EX API description
 * (../shared/reference/gasnet-ex-api.txt and gasnet-ex-immediate.txt),
 * every value asserted, on whatever stage STAGEPORT_STAGE names.
 *
 * Usage: mpirun -np N exconf [SUBTEST...]   (no argument: all subtests)
 *        exconf --list                      (the subtests; no launcher)
 *
 * Output: from rank 0, "ok NAME (K checks)" or "ok NAME # SKIP why" or
 * "not ok NAME: F failure(s) on rank(s) ..." per subtest, the failing
 * rank's "FAIL NAME: rank R: ..." lines, "# exconf: immediate refusals N
 * (...)" and last "# exconf: N subtests, M failed, T s".  The exit status
 * is non-zero when any subtest failed anywhere.
 *
 * Environment: EXCONF_WATCHDOG (seconds per subtest, default 60; 0: off),
 * EXCONF_TIMES=1 (the time of every subtest), EXCONF_FLOOD_ATTEMPTS
 * (immediate_flood's most attempts, default 12000).  For IMMEDIATE
 * refusals to happen, run with the Cores' smallest credits (e.g.
 * STAGEPORT_AM_CREDITS=2 on the mpi stage): immediate_flood floods a rank
 * that does not poll for a while.
 *
 * Only the public headers: gasnetex.h, gasnet_coll.h (exconf.h).
 *
 * Segment layout on every rank (ex_segs[r] is rank r's):
 *   [0, CTRL_SIZE)             control: the allgather slot, barrier words,
 *                              immediate_flood's record
 *   AREA(r, src)               4 MiB written only by rank src: its first
 *                              half takes src's puts and Long requests,
 *                              the second half src's Long replies
 *   SCRATCH                    4 MiB nobody else writes (in-segment
 *                              local buffers)
 */
#define _GNU_SOURCE 1
#include "exconf.h"

#include <pthread.h>
#include <sched.h>
#include <stdalign.h>

#define CTRL_SIZE ((uintptr_t)256 * 1024)
#define AREA_SIZE ((uintptr_t)4 << 20)
#define HALF (AREA_SIZE / 2)
#define SCRATCH_SIZE ((uintptr_t)4 << 20)
#define SEGBASE(r) ((uint8_t *)ex_segs[r].addr)
#define CTRL(r) SEGBASE(r)
#define AREA(r, src) (SEGBASE(r) + CTRL_SIZE + (uintptr_t)(src) * AREA_SIZE)
#define SCRATCH (SEGBASE(ex_me) + CTRL_SIZE + (uintptr_t)ex_n * AREA_SIZE)
/* control area */
#define CTRL_GATHER(r) (CTRL(r))                  /* 32 KiB: allgather */
#define CTRL_BARWORD(r, src) (CTRL(r) + 32768 + (uintptr_t)(src) * 8) /* coll_barrier */
#define CTRL_FLOOD(r) (CTRL(r) + 65536)           /* immediate_flood: value, bitmap */
#define GATHER_MAX 32768

/* The largest Long payload tested: the Max, or 1 MiB (the Portals Core's
 * Max; the UCX Core's is 2 GiB) */
#define LONG_CAP ((size_t)1 << 20)
static size_t cap_long(size_t n) { return n < LONG_CAP ? n : LONG_CAP; }

/* out-of-segment buffers (4 MiB each) */
static uint8_t *oob, *oob2, *rep_scratch;

static size_t imin(size_t a, size_t b) { return a < b ? a : b; }

/* ------------------------------------------------------------------ */
/* collective helpers                                                  */
/* ------------------------------------------------------------------ */
/* every rank contributes n <= GATHER_MAX bytes; all[j*n..] gets rank j's */
static void allgather(const void *mine, size_t n, void *all) {
  if (n > GATHER_MAX) {
    ex_fail("allgather of %zu bytes: more than %d", n, GATHER_MAX);
    return;
  }
  memcpy(CTRL_GATHER(ex_me), mine, n);
  ex_barrier();
  for (gex_Rank_t j = 0; j < ex_n; j++) {
    int rc = gex_RMA_GetBlocking(ex_tm, (uint8_t *)all + j * n, j, CTRL_GATHER(j), n, 0);
    CHECK(rc == 0, "allgather: gex_RMA_GetBlocking returned %d", rc);
  }
  ex_barrier();
}

/* ------------------------------------------------------------------ */
/* what was recorded between gex_Client_Init and gex_Segment_Attach     */
/* ------------------------------------------------------------------ */
static struct {
  gex_Rank_t jobrank, jobsize;
  size_t lub[4]; /* RequestMedium, ReplyMedium, RequestLong, ReplyLong */
  size_t max[4][17];          /* the same, lc NOW (GROUP: none for replies), flags 0, to the next rank */
  size_t least_alloc[4], least_client[4];
  gex_Segment_t ep_seg;       /* gex_EP_QuerySegment before attach */
  uintptr_t bound_size;       /* gex_EP_QueryBoundSegmentNB(me) size before attach */
  int bound_ev_invalid;
  void *cdata_client, *cdata_ep, *cdata_tm, *cdata_seg;
  int am_pongs, am_pre_replies;
  int reg_rc, init2_rc, init2_untouched;
  uint64_t max_threads;
  uintptr_t max_local, max_global, segsize;
} pre;

/* ------------------------------------------------------------------ */
/* AM bookkeeping                                                      */
/* ------------------------------------------------------------------ */
enum { CAT_S = 0, CAT_M = 1, CAT_L = 2, NCAT = 3 };
static const char *const cat_name[NCAT] = {"Short", "Medium", "Long"};
/* received here: requests from src, replies from src (handlers run), bytes */
static struct {
  long rq[NCAT][EX_MAXN], rqb[NCAT][EX_MAXN], rp[NCAT][EX_MAXN], rpb[NCAT][EX_MAXN];
} recv_c;
/* sent from here: requests to dst, and the replies expected from dst */
static struct {
  long rq[NCAT][EX_MAXN], rqb[NCAT][EX_MAXN], rp[NCAT][EX_MAXN], rpb[NCAT][EX_MAXN];
} sent_c;
static long refusals;          /* IMMEDIATE refusals seen on this rank (every subtest) */
static long flood_attempts, flood_refused; /* immediate_flood (rank 0) */
static double flood_longest;   /* its longest IMMEDIATE call, seconds */
static long slot_fallbacks;    /* replies that wanted a pointer lc but found no free slot */
static long token_max_checks;  /* gex_Token_MaxReply* compared in handlers */

/* the handler modes (the same on every rank during a subtest) */
enum { MODE_ARGS, MODE_NP, MODE_INFERRED };
static int g_mode;

/* argument value i of an AM (from -> to, category, M, request or reply) */
static gex_AM_Arg_t argval(gex_Rank_t from, gex_Rank_t to, int cat, unsigned m, unsigned i, int rep) {
  return (gex_AM_Arg_t)ex_seed(from * 131u + to, (unsigned)cat * 64u + m + (unsigned)rep * 32u, i, 0xA11A);
}
static void args_of(gex_AM_Arg_t *a, gex_Rank_t from, gex_Rank_t to, int cat, unsigned m, int rep) {
  for (unsigned i = 0; i < 16; i++) a[i] = argval(from, to, cat, m, i, rep);
}
/* payload pattern of an AM */
static uint32_t pseed(gex_Rank_t from, gex_Rank_t to, int cat, unsigned m, size_t n, int rep) {
  return ex_seed(from * 131u + to, (unsigned)cat * 64u + m + (unsigned)rep * 32u, (uint32_t)n, 0xDA7A);
}
/* the offset of Long payloads in their area: odd M unaligned */
static uintptr_t loff(unsigned m) { return (m & 1) ? 5 : 0; }
/* request flags: every fourth M with IMMEDIATE; reply flags: every third */
static gex_Flags_t req_flags(unsigned m) { return (m % 4 == 3) ? GEX_FLAG_IMMEDIATE : 0; }
static gex_Flags_t rep_flags(unsigned m) { return (m % 3 == 2) ? GEX_FLAG_IMMEDIATE : 0; }

/* Replies with a pointer lc: their source is a slot, overwritten once
 * the event (waited outside the handler) says the source is free. */
#define NSLOT 16
#define SLOT_SZ ((size_t)65536)
static struct {
  int busy;
  gex_Event_t ev;
  uint8_t *buf;
  size_t n;
} slots[NSLOT];
static gex_Event_t dummy_ev; /* a gex_Event_t * for the Max queries */
static int rep_lc_ptr(unsigned m, size_t reqn) { return (m & 1) && reqn <= SLOT_SZ; }

static void drain_slots(int wait) {
  for (int i = 0; i < NSLOT; i++) {
    if (!slots[i].busy) continue;
    if (wait) gex_Event_Wait(slots[i].ev);
    else if (slots[i].ev != GEX_EVENT_INVALID && gex_Event_Test(slots[i].ev) != GASNET_OK) continue;
    memset(slots[i].buf, 0xEE, slots[i].n); /* the source is free: overwrite it */
    slots[i].busy = 0;
  }
}
static void poll_hook(void) { drain_slots(0); }

/* the argument handlers' indices (assigned: gex_index 0 at registration) */
static gex_AM_Index_t h_args_s[17], h_args_p[17];
static gex_AM_Fn_t fn_args_s[17], fn_args_p[17];
static int tag_s[17], tag_p[17]; /* their cdata: &tag_s[m] */
static char name_s[17][24], name_p[17][24];

/* The Max of a reply, as the requester and the replier both compute it. */
static size_t max_reply(int cat, gex_Token_t tok, gex_Rank_t peer, const gex_Event_t *lc, gex_Flags_t f, unsigned m) {
  if (tok) return cat == CAT_M ? gex_Token_MaxReplyMedium(tok, lc, f, m) : gex_Token_MaxReplyLong(tok, lc, f, m);
  return cat == CAT_M ? gex_AM_MaxReplyMedium(ex_tm, peer, lc, f, m) : gex_AM_MaxReplyLong(ex_tm, peer, lc, f, m);
}

/* MODE_ARGS: the reply to a request of reqn bytes (its lc and size) */
static size_t args_rep_n(int cat, gex_Token_t tok, gex_Rank_t peer, unsigned m, size_t reqn) {
  const gex_Event_t *lc = rep_lc_ptr(m, reqn) ? &dummy_ev : GEX_EVENT_NOW;
  size_t n = imin(reqn, max_reply(cat, tok, peer, lc, rep_flags(m), m));
  return cat == CAT_L ? cap_long(n) : n;
}

/* MODE_NP: the replier's variant, and the reply's size */
static unsigned np_variant(unsigned m, size_t reqn) { return (m + (unsigned)reqn) % 5; }
static size_t np_rep_n(int cat, gex_Token_t tok, gex_Rank_t peer, unsigned m, size_t reqn) {
  unsigned v = np_variant(m, reqn);
  const gex_Event_t *lc = NULL;
  gex_Flags_t f = 0;
  size_t n;
  switch (v) {
    case 0: case 2: lc = NULL; f = GEX_FLAG_AM_PREPARE_LEAST_ALLOC; break;
    case 1: lc = GEX_EVENT_NOW; f = GEX_FLAG_AM_PREPARE_LEAST_CLIENT; break;
    case 3: lc = GEX_EVENT_NOW; f = 0; break;
    default: lc = reqn <= SLOT_SZ ? &dummy_ev : GEX_EVENT_NOW; f = GEX_FLAG_AM_PREPARE_LEAST_CLIENT; break;
  }
  n = imin(reqn, max_reply(cat, tok, peer, lc, f, m));
  return cat == CAT_L ? cap_long(n) : n;
}

/* check what gex_Token_Info says about a handler's token */
static void check_token(gex_Token_t t, gex_Token_Info_t *info, gex_AM_Index_t idx, gex_AM_Fn_t fn, gex_Flags_t flags,
                        unsigned nargs, const void *cdata, const char *name, const char *who) {
  gex_TI_t got = gex_Token_Info(t, info, GEX_TI_ALL);
  CHECK((got & (GEX_TI_SRCRANK | GEX_TI_EP)) == (GEX_TI_SRCRANK | GEX_TI_EP),
        "%s: gex_Token_Info returned 0x%x, without the required SRCRANK and EP", who, (unsigned)got);
  CHECK(got == GEX_TI_ALL, "%s: gex_Token_Info returned 0x%x, GASNET_SUPPORTS_TI_* promise 0x%x", who, (unsigned)got,
        (unsigned)GEX_TI_ALL);
  CHECK(info->gex_srcrank < ex_n, "%s: gex_srcrank %u", who, (unsigned)info->gex_srcrank);
  CHECK(info->gex_ep == ex_ep, "%s: gex_ep %p, the primordial endpoint is %p", who, (void *)info->gex_ep, (void *)ex_ep);
  CHECK(info->gex_entry != NULL, "%s: gex_entry is NULL", who);
  if (info->gex_entry) {
    const gex_AM_Entry_t *e = info->gex_entry;
    CHECK(e->gex_index == idx, "%s: entry gex_index %u, expected %u", who, (unsigned)e->gex_index, (unsigned)idx);
    CHECK(e->gex_fnptr == fn, "%s: entry gex_fnptr is not the handler's", who);
    CHECK(e->gex_flags == flags, "%s: entry gex_flags 0x%x, expected 0x%x", who, (unsigned)e->gex_flags, (unsigned)flags);
    CHECK(e->gex_nargs == nargs, "%s: entry gex_nargs %u, expected %u", who, e->gex_nargs, nargs);
    CHECK(e->gex_cdata == cdata, "%s: entry gex_cdata %p, expected %p", who, e->gex_cdata, cdata);
    CHECK(e->gex_name && name && !strcmp(e->gex_name, name), "%s: entry gex_name \"%s\", expected \"%s\"", who,
          e->gex_name ? e->gex_name : "(null)", name);
  }
  CHECK(info->gex_is_req == 0 || info->gex_is_req == 1, "%s: gex_is_req %d", who, (int)info->gex_is_req);
  CHECK(info->gex_is_long == 0 || info->gex_is_long == 1, "%s: gex_is_long %d", who, (int)info->gex_is_long);
}

/* gex_Token_MaxReply* inside a request handler equal gex_AM_MaxReply* for
 * the same arguments (towards the requester) */
static void check_token_max(gex_Token_t t, gex_Rank_t src, unsigned m) {
  const gex_Event_t *lcs[3] = {GEX_EVENT_NOW, &dummy_ev, NULL};
  for (int l = 0; l < 3; l++)
    for (int fi = 0; fi < 2; fi++) {
      gex_Flags_t f = fi ? GEX_FLAG_IMMEDIATE : 0;
      size_t a = gex_Token_MaxReplyMedium(t, lcs[l], f, m), b = gex_AM_MaxReplyMedium(ex_tm, src, lcs[l], f, m);
      size_t c = gex_Token_MaxReplyLong(t, lcs[l], f, m), d = gex_AM_MaxReplyLong(ex_tm, src, lcs[l], f, m);
      CHECK(a == b, "gex_Token_MaxReplyMedium(lc %d, flags 0x%x, %u args) = %zu, gex_AM_MaxReplyMedium = %zu", l,
            (unsigned)f, m, a, b);
      CHECK(c == d, "gex_Token_MaxReplyLong(lc %d, flags 0x%x, %u args) = %zu, gex_AM_MaxReplyLong = %zu", l,
            (unsigned)f, m, c, d);
      __atomic_add_fetch(&token_max_checks, 2, __ATOMIC_RELAXED);
    }
}

/* a slot for a pointer-lc reply, or NULL */
static int slot_get(size_t n) {
  if (n > SLOT_SZ) return -1;
  for (int i = 0; i < NSLOT; i++)
    if (!slots[i].busy) return i;
  slot_fallbacks++;
  return -1;
}

/* reply with a fixed-payload AM (MODE_ARGS, and MODE_NP's variant 3) */
static void reply_fixed(gex_Token_t t, int cat, gex_Rank_t src, unsigned m, size_t reqn, int np3) {
  gex_AM_Arg_t a[16];
  gex_Flags_t f = np3 ? 0 : rep_flags(m);
  int rc;
  args_of(a, ex_me, src, cat, m, 1);
  if (cat == CAT_S) {
    rc = ex_rep_short(t, h_args_s[m], f, m, a);
    if (rc) {
      CHECK(f & GEX_FLAG_IMMEDIATE, "gex_AM_ReplyShort%u returned %d without IMMEDIATE", m, rc);
      refusals++;
      rc = ex_rep_short(t, h_args_s[m], 0, m, a);
      CHECK(rc == 0, "gex_AM_ReplyShort%u returned %d without IMMEDIATE", m, rc);
    }
    return;
  }
  {
    size_t n = np3 ? np_rep_n(cat, t, src, m, reqn) : args_rep_n(cat, t, src, m, reqn);
    int s = (!np3 && rep_lc_ptr(m, reqn)) ? slot_get(n) : -1;
    uint8_t *buf = s >= 0 ? slots[s].buf : rep_scratch;
    gex_Event_t *lc = s >= 0 ? &slots[s].ev : GEX_EVENT_NOW;
    void *dst = cat == CAT_L ? AREA(src, ex_me) + HALF + loff(m) : NULL;
    ex_fill(buf, n, pseed(ex_me, src, cat, m, n, 1));
    for (int attempt = 0; attempt < 2; attempt++) {
      gex_Flags_t ff = attempt ? 0 : f;
      rc = cat == CAT_M ? ex_rep_medium(t, h_args_p[m], buf, n, lc, ff, m, a)
                        : ex_rep_long(t, h_args_p[m], buf, n, dst, lc, ff, m, a);
      if (!rc) break;
      CHECK(ff & GEX_FLAG_IMMEDIATE, "gex_AM_Reply%s%u returned %d without IMMEDIATE", cat_name[cat], m, rc);
      refusals++;
    }
    if (s >= 0) {
      slots[s].busy = 1;
      slots[s].n = n;
    }
  }
}

/* MODE_NP: the reply by Prepare/Commit (or Cancel), variant by (M, reqn) */
static void reply_np(gex_Token_t t, int cat, gex_Rank_t src, unsigned m, size_t reqn) {
  unsigned v = np_variant(m, reqn);
  size_t n = np_rep_n(cat, t, src, m, reqn), least = n ? n : 1, most = least;
  gex_AM_Arg_t a[16];
  void *dst = cat == CAT_L ? AREA(src, ex_me) + HALF + loff(m) : NULL;
  const void *cbuf = NULL;
  gex_Event_t *lc = NULL;
  int s = -1, rc;
  gex_AM_SrcDesc_t sd;
  if (cat == CAT_S) { /* (a Short has no negotiated form) */
    reply_fixed(t, cat, src, m, reqn, 0);
    return;
  }
  args_of(a, ex_me, src, cat, m, 1);
  if (v == 1 || v == 4) {
    if (v == 4 && reqn <= SLOT_SZ) s = slot_get(n);
    cbuf = s >= 0 ? slots[s].buf : rep_scratch;
    lc = s >= 0 ? &slots[s].ev : GEX_EVENT_NOW;
    if (v == 1) most = 4 * least + 100; /* (may exceed the Max) */
    ex_fill((void *)cbuf, n, pseed(ex_me, src, cat, m, n, 1));
  }
  if (v == 3) { /* (cancelled: a small GASNet buffer) */
    least = 1;
    most = 64;
  }
  if (cat == CAT_M) sd = gex_AM_PrepareReplyMedium(t, cbuf, least, most, lc, 0, m);
  else sd = gex_AM_PrepareReplyLong(t, cbuf, least, most, (v & 1) ? dst : NULL, lc, 0, m);
  CHECK(sd != GEX_AM_SRCDESC_NO_OP, "gex_AM_PrepareReply%s (variant %u) returned NO_OP without IMMEDIATE", cat_name[cat], v);
  if (sd == GEX_AM_SRCDESC_NO_OP) {
    reply_fixed(t, cat, src, m, reqn, 1); /* (a reply all the same: the requester waits for one) */
    return;
  }
  {
    size_t size = gex_AM_SrcDescSize(sd);
    void *addr = gex_AM_SrcDescAddr(sd);
    CHECK(size >= least && size <= most, "gex_AM_SrcDescSize %zu outside [%zu, %zu] (reply, variant %u)", size, least, most, v);
    if (cbuf) CHECK(addr == cbuf, "gex_AM_SrcDescAddr %p, the client_buf was %p", addr, cbuf);
    else CHECK_ONCE(addr && (uintptr_t)addr % alignof(max_align_t) == 0, "gex_AM_SrcDescAddr %p: not aligned for any type", addr);
    if (size < n && v != 3) {
      rc = cat == CAT_M ? gex_AM_CancelReplyMedium(sd, 0) : gex_AM_CancelReplyLong(sd, 0);
      reply_fixed(t, cat, src, m, reqn, 1);
      return;
    }
    if (!cbuf && v != 3) ex_fill(addr, n, pseed(ex_me, src, cat, m, n, 1));
  }
  switch (v) {
    case 0: case 1: case 4:
      rc = v == 1 ? (cat == CAT_M ? ex_commit_rep_medium_v2(sd, h_args_p[m], n, 0, m, a)
                                  : ex_commit_rep_long_v2(sd, h_args_p[m], n, dst, 0, m, a))
                  : (cat == CAT_M ? ex_commit_rep_medium(sd, h_args_p[m], n, m, a)
                                  : ex_commit_rep_long(sd, h_args_p[m], n, dst, m, a));
      CHECK(rc == 0, "gex_AM_CommitReply%s (variant %u) returned %d", cat_name[cat], v, rc);
      break;
    case 2: /* commit_flags IMMEDIATE: a refusal leaves the descriptor prepared */
      rc = cat == CAT_M ? ex_commit_rep_medium_v2(sd, h_args_p[m], n, GEX_FLAG_IMMEDIATE, m, a)
                        : ex_commit_rep_long_v2(sd, h_args_p[m], n, dst, GEX_FLAG_IMMEDIATE, m, a);
      if (rc) {
        refusals++;
        CHECK(gex_AM_SrcDescSize(sd) >= least, "a refused CommitReply_v2 changed the descriptor's size");
        rc = cat == CAT_M ? ex_commit_rep_medium_v2(sd, h_args_p[m], n, 0, m, a)
                          : ex_commit_rep_long_v2(sd, h_args_p[m], n, dst, 0, m, a);
        CHECK(rc == 0, "gex_AM_CommitReply%s_v2 without IMMEDIATE returned %d", cat_name[cat], rc);
      }
      break;
    default: /* 3: cancelled, then a fixed-payload reply */
      rc = cat == CAT_M ? gex_AM_CancelReplyMedium(sd, 0) : gex_AM_CancelReplyLong(sd, 0);
      CHECK(rc == 0, "gex_AM_CancelReply%s returned %d", cat_name[cat], rc);
      reply_fixed(t, cat, src, m, reqn, 1);
      break;
  }
  if (s >= 0) {
    slots[s].busy = 1;
    slots[s].n = n;
  }
}

/* MODE_INFERRED: replies by the forms without M (M = 0, 1, 2, 16) */
static int reply_inferred(gex_Token_t t, int cat, gex_Rank_t src, unsigned m, size_t reqn) {
  gex_AM_Arg_t a[16];
  size_t n = cat == CAT_S ? 0 : args_rep_n(cat, t, src, m, reqn);
  void *dst = AREA(src, ex_me) + HALF + loff(m);
  gex_AM_Index_t h = cat == CAT_S ? h_args_s[m] : h_args_p[m];
  gex_Event_t *lc = GEX_EVENT_NOW;
  int rc = -1;
  if (rep_lc_ptr(m, reqn)) return 0; /* (the inferred test sends only sizes this path replies to) */
  args_of(a, ex_me, src, cat, m, 1);
  if (cat != CAT_S) ex_fill(rep_scratch, n, pseed(ex_me, src, cat, m, n, 1));
  switch (cat * 100 + (int)m) {
    case 0: rc = gex_AM_ReplyShort(t, h, 0); break;
    case 1: rc = gex_AM_ReplyShort(t, h, 0, a[0]); break;
    case 2: rc = gex_AM_ReplyShort(t, h, GEX_FLAG_IMMEDIATE, a[0], a[1]); break;
    case 16: rc = gex_AM_ReplyShort(t, h, 0, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11],
                                    a[12], a[13], a[14], a[15]); break;
    case 100: rc = gex_AM_ReplyMedium(t, h, rep_scratch, n, lc, 0); break;
    case 101: rc = gex_AM_ReplyMedium(t, h, rep_scratch, n, lc, 0, a[0]); break;
    case 102: rc = gex_AM_ReplyMedium(t, h, rep_scratch, n, lc, GEX_FLAG_IMMEDIATE, a[0], a[1]); break;
    case 116: /* a negotiated reply, committed by the form without M */
    case 200:
      if (n <= (cat == CAT_M ? gex_Token_MaxReplyMedium(t, GEX_EVENT_NOW, GEX_FLAG_AM_PREPARE_LEAST_CLIENT, m)
                             : gex_Token_MaxReplyLong(t, GEX_EVENT_NOW, GEX_FLAG_AM_PREPARE_LEAST_CLIENT, m))) {
        gex_AM_SrcDesc_t sd = cat == CAT_M ? gex_AM_PrepareReplyMedium(t, rep_scratch, n ? n : 1, n ? n : 1, lc, 0, m)
                                           : gex_AM_PrepareReplyLong(t, rep_scratch, n ? n : 1, n ? n : 1, NULL, lc, 0, m);
        CHECK(sd != GEX_AM_SRCDESC_NO_OP && gex_AM_SrcDescAddr(sd) == rep_scratch,
              "gex_AM_PrepareReply%s (client buffer) returned %p", cat_name[cat], (void *)sd);
        if (sd != GEX_AM_SRCDESC_NO_OP) {
          if (cat == CAT_M)
            rc = gex_AM_CommitReplyMedium_v2(sd, h, n, 0, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9],
                                             a[10], a[11], a[12], a[13], a[14], a[15]);
          else
            gex_AM_CommitReplyLong(sd, h, n, dst), rc = 0;
          break;
        }
      }
      rc = cat == CAT_M ? gex_AM_ReplyMedium(t, h, rep_scratch, n, lc, 0, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
                                             a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15])
                        : gex_AM_ReplyLong(t, h, rep_scratch, n, dst, lc, 0);
      break;
    case 201: rc = gex_AM_ReplyLong(t, h, rep_scratch, n, dst, lc, 0, a[0]); break;
    case 202: rc = gex_AM_ReplyLong(t, h, rep_scratch, n, dst, lc, GEX_FLAG_IMMEDIATE, a[0], a[1]); break;
    case 216: rc = gex_AM_ReplyLong(t, h, rep_scratch, n, dst, lc, 0, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
                                    a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]); break;
    default: ex_fail("inferred reply: unexpected M %u", m); return 0;
  }
  if (rc) { /* (only the IMMEDIATE ones may be refused) */
    CHECK(m == 2, "an inferred-form reply without IMMEDIATE returned %d", rc);
    refusals++;
    reply_fixed(t, cat, src, m, reqn, 0);
  }
  return 1;
}

/* Every argument handler: checks, counts, replies to requests. */
static void on_am(gex_Token_t t, int payload, void *buf, size_t nbytes, unsigned m, const gex_AM_Arg_t *a) {
  gex_Token_Info_t info;
  char who[64];
  gex_Rank_t src;
  int cat, rep;
  snprintf(who, sizeof(who), "%s handler of %u args", payload ? "MEDLONG" : "Short", m);
  check_token(t, &info, payload ? h_args_p[m] : h_args_s[m], payload ? fn_args_p[m] : fn_args_s[m],
              (payload ? GEX_FLAG_AM_MEDLONG : GEX_FLAG_AM_SHORT) | GEX_FLAG_AM_REQREP, m,
              payload ? (void *)&tag_p[m] : (void *)&tag_s[m], payload ? name_p[m] : name_s[m], who);
  src = info.gex_srcrank < ex_n ? info.gex_srcrank : 0;
  rep = !info.gex_is_req;
  cat = !payload ? CAT_S : info.gex_is_long ? CAT_L : CAT_M;
  if (!payload) CHECK(!info.gex_is_long, "%s: gex_is_long set for a Short", who);
  for (unsigned i = 0; i < m; i++)
    CHECK(a[i] == argval(src, ex_me, cat, m, i, rep), "%s %s %s from %u: argument %u is 0x%x, expected 0x%x", who,
          cat_name[cat], rep ? "reply" : "request", (unsigned)src, i, (unsigned)a[i],
          (unsigned)argval(src, ex_me, cat, m, i, rep));
  if (payload) {
    if (cat == CAT_L) {
      uint8_t *want = AREA(ex_me, src) + (rep ? HALF : 0) + loff(m);
      CHECK(buf == want, "%s: Long %s from %u delivered at %p, sent to %p", who, rep ? "reply" : "request",
            (unsigned)src, buf, (void *)want);
    }
    if (nbytes) CHECK(buf != NULL, "%s: NULL payload of %zu bytes", who, nbytes);
    if (buf)
      ex_check_pat(buf, nbytes, pseed(src, ex_me, cat, m, nbytes, rep), "%s %s %s from %u, %zu bytes", who,
                   cat_name[cat], rep ? "reply" : "request", (unsigned)src, nbytes);
  }
  if (rep) {
    __atomic_add_fetch(&recv_c.rp[cat][src], 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&recv_c.rpb[cat][src], (long)nbytes, __ATOMIC_RELAXED);
    return;
  }
  __atomic_add_fetch(&recv_c.rq[cat][src], 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&recv_c.rqb[cat][src], (long)nbytes, __ATOMIC_RELAXED);
  if (payload) check_token_max(t, src, m);
  if (g_mode == MODE_INFERRED && (m <= 2 || m == 16)) {
    if (reply_inferred(t, cat, src, m, nbytes)) return;
  }
  if (g_mode == MODE_NP) reply_np(t, cat, src, m, nbytes);
  else reply_fixed(t, cat, src, m, nbytes, 0);
}

#define H_ARGS(n)                                                                                  \
  static void h_s##n(gex_Token_t t EX_P##n) {                                                      \
    gex_AM_Arg_t v[17] = {0 EX_N##n};                                                              \
    on_am(t, 0, NULL, 0, n, v + 1);                                                                \
  }                                                                                                \
  static void h_p##n(gex_Token_t t, void *buf, size_t nbytes EX_P##n) {                            \
    gex_AM_Arg_t v[17] = {0 EX_N##n};                                                              \
    on_am(t, 1, buf, nbytes, n, v + 1);                                                            \
  }
EX_M_LIST(H_ARGS)
#undef H_ARGS

/* ------------------------------------------------------------------ */
/* the other handlers (fixed indices)                                  */
/* ------------------------------------------------------------------ */
enum {
  H_HSL = 129,     /* Short REQUEST 0: an HSL-guarded count */
  H_FLOOD_S = 130, /* Short REQUEST 1 (attempt): immediate_flood */
  H_FLOOD_M = 131, /* Medium REQUEST 1 (attempt) */
  H_FLOOD_L = 132, /* Long REQUEST 1 (attempt) */
  H_PING = 133,    /* Short REQUEST 1: replies H_PONG */
  H_PONG = 134,    /* Short REPLY 1 */
  H_PRE = 135,     /* Medium REQREP 1: echoes the payload back */
  H_HOLD = 136,    /* Medium REQUEST 2: np_payload_held -- replies H_HELD first, then checks its payload again */
  H_HELD = 137,    /* Short REPLY 1 */
  H_SIGNAL = 250,  /* Short REQUEST 2: a count (a fixed index among the assigned ones) */
  H_REG_FIXED = 200 /* registered by the "register" subtest */
};

static gex_HSL_t hsl_static = GEX_HSL_INITIALIZER;
static long hsl_count; /* under hsl_static */
static void h_hsl(gex_Token_t t) {
  (void)t;
  gex_HSL_Lock(&hsl_static);
  hsl_count++;
  gex_HSL_Unlock(&hsl_static);
}

static long pongs, pre_replies, signals[EX_MAXN];
static void h_ping(gex_Token_t t, gex_AM_Arg_t a) {
  gex_Token_Info_t info;
  int rc;
  gex_Token_Info(t, &info, GEX_TI_SRCRANK);
  CHECK(a == (gex_AM_Arg_t)(info.gex_srcrank * 7 + 1), "ping from %u carries %d", (unsigned)info.gex_srcrank, (int)a);
  check_token_max(t, info.gex_srcrank, 1);
  rc = gex_AM_ReplyShort1(t, H_PONG, 0, a ^ 0x5A5A5A5A);
  CHECK(rc == 0, "gex_AM_ReplyShort1 returned %d", rc);
}
static void h_pong(gex_Token_t t, gex_AM_Arg_t a) {
  gex_Token_Info_t info;
  gex_Token_Info(t, &info, GEX_TI_ALL);
  CHECK(!info.gex_is_req && !info.gex_is_long, "pong: is_req %d is_long %d", (int)info.gex_is_req, (int)info.gex_is_long);
  CHECK(a == (gex_AM_Arg_t)((ex_me * 7 + 1) ^ 0x5A5A5A5A), "pong from %u carries 0x%x", (unsigned)info.gex_srcrank,
        (unsigned)a);
  pongs++;
}
/* np_payload_held: request k (a0) of size a1, pattern (src, me, k); the
 * reply goes first, and then the handler keeps reading its payload, which
 * must stay as it came for as long as the handler runs -- though its
 * sender, answered, sends on at once (the UCX Core runs a big-box request
 * in its slot: the sender must not write the slot again yet) */
static long held_replies;  /* H_HELD replies taken (requester) */
static long held_handled;  /* H_HOLD requests checked (target) */
static void h_hold(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t k, gex_AM_Arg_t size) {
  gex_Token_Info_t info;
  uint32_t seed;
  double end;
  int rc;
  gex_Token_Info(t, &info, GEX_TI_SRCRANK);
  seed = ex_seed(info.gex_srcrank, ex_me, 0xb0, (uint32_t)k);
  CHECK((size_t)size == n, "H_HOLD: %zu bytes, the argument says %d", n, (int)size);
  ex_check_pat(buf, n, seed, "H_HOLD request %d from %u, as it arrived", (int)k, (unsigned)info.gex_srcrank);
  rc = gex_AM_ReplyShort1(t, H_HELD, 0, k);
  CHECK(rc == 0, "gex_AM_ReplyShort1 returned %d", rc);
  for (end = ex_now() + 300e-6; ex_now() < end;) continue; /* (the sender's next requests are on their way) */
  ex_check_pat(buf, n, seed, "H_HOLD request %d from %u, after its reply and 300 us", (int)k,
               (unsigned)info.gex_srcrank);
  __atomic_add_fetch(&held_handled, 1, __ATOMIC_RELAXED);
}
static void h_held(gex_Token_t t, gex_AM_Arg_t k) {
  (void)t, (void)k;
  __atomic_add_fetch(&held_replies, 1, __ATOMIC_RELAXED);
}

/* Medium request: payload of a0 bytes, pattern (src, me); echoes it */
static void h_pre(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t a) {
  gex_Token_Info_t info;
  gex_Token_Info(t, &info, GEX_TI_ALL);
  CHECK((size_t)a == n, "H_PRE: %zu bytes, the argument says %d", n, (int)a);
  if (info.gex_is_req) {
    int rc;
    ex_check_pat(buf, n, ex_seed(info.gex_srcrank, ex_me, 0x9e, 0), "H_PRE request from %u", (unsigned)info.gex_srcrank);
    ex_fill(rep_scratch, n, ex_seed(ex_me, info.gex_srcrank, 0x9f, 0));
    rc = gex_AM_ReplyMedium1(t, H_PRE, rep_scratch, n, GEX_EVENT_NOW, 0, a);
    CHECK(rc == 0, "gex_AM_ReplyMedium1 returned %d", rc);
  } else {
    ex_check_pat(buf, n, ex_seed(info.gex_srcrank, ex_me, 0x9f, 0), "H_PRE reply from %u", (unsigned)info.gex_srcrank);
    pre_replies++;
  }
}
static void h_signal(gex_Token_t t, gex_AM_Arg_t who, gex_AM_Arg_t v) {
  gex_Token_Info_t info;
  gex_Token_Info(t, &info, GEX_TI_SRCRANK);
  CHECK(who == (gex_AM_Arg_t)info.gex_srcrank && v == (who ^ 0x1234), "H_SIGNAL from %u: arguments %d, %d",
        (unsigned)info.gex_srcrank, (int)who, (int)v);
  if (info.gex_srcrank < EX_MAXN) signals[info.gex_srcrank]++;
}

/* immediate_flood: what rank 1 received, by attempt */
#define FLOOD_MAX 16384
#define FLOOD_MED 24
#define FLOOD_LONG 16
static uint8_t flood_got[FLOOD_MAX];
static long flood_got_n;
static void flood_record(gex_Token_t t, gex_AM_Arg_t a, int kind) {
  gex_Token_Info_t info;
  gex_Token_Info(t, &info, GEX_TI_SRCRANK);
  CHECK(info.gex_srcrank == 0 && ex_me == 1, "a flood AM from %u to %u", (unsigned)info.gex_srcrank, (unsigned)ex_me);
  if (a < 0 || a >= FLOOD_MAX) {
    ex_fail("a flood AM (kind %d) with attempt number %d", kind, (int)a);
    return;
  }
  flood_got[a]++;
  flood_got_n++;
}
static void h_flood_s(gex_Token_t t, gex_AM_Arg_t a) { flood_record(t, a, 0); }
static void h_flood_m(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t a) {
  CHECK(n == FLOOD_MED, "flood Medium of %zu bytes", n);
  ex_check_pat(buf, n, ex_seed(0xF1, (uint32_t)a, 0, 0), "flood Medium %d", (int)a);
  flood_record(t, a, 1);
}
static void h_flood_l(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t a) {
  CHECK(n == FLOOD_LONG, "flood Long of %zu bytes", n);
  CHECK(buf == AREA(1, 0) + (uintptr_t)a * FLOOD_LONG, "flood Long %d at %p", (int)a, buf);
  ex_check_pat(buf, n, ex_seed(0xF2, (uint32_t)a, 0, 0), "flood Long %d", (int)a);
  flood_record(t, a, 2);
}

/* the "register" subtest's handlers: one fixed, two assigned */
static gex_AM_Index_t reg_idx[3];
static long reg_count[3];
static int reg_tag[3];
static const char *const reg_names[3] = {"reg_fixed_200", "reg_assigned_a", "reg_assigned_b"};
static void reg_common(gex_Token_t t, gex_AM_Arg_t a, int k, gex_AM_Fn_t fn) {
  gex_Token_Info_t info;
  check_token(t, &info, reg_idx[k], fn, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 1, &reg_tag[k], reg_names[k],
              reg_names[k]);
  CHECK(info.gex_is_req == 1 && info.gex_is_long == 0, "%s: is_req %d is_long %d", reg_names[k], (int)info.gex_is_req,
        (int)info.gex_is_long);
  CHECK(a == (gex_AM_Arg_t)(info.gex_srcrank * 1000 + k), "%s: argument %d from %u", reg_names[k], (int)a,
        (unsigned)info.gex_srcrank);
  reg_count[k]++;
}
static void h_reg0(gex_Token_t t, gex_AM_Arg_t a) { reg_common(t, a, 0, (gex_AM_Fn_t)h_reg0); }
static void h_reg1(gex_Token_t t, gex_AM_Arg_t a) { reg_common(t, a, 1, (gex_AM_Fn_t)h_reg1); }
static void h_reg2(gex_Token_t t, gex_AM_Arg_t a) { reg_common(t, a, 2, (gex_AM_Fn_t)h_reg2); }

/* The table registered before gex_Segment_Attach: the argument handlers
 * with gex_index 0 (assigned), fixed ones placed between them in the
 * table (assignment must follow table order, fixed ones first). */
static gex_AM_Entry_t table[64];
static size_t table_n;
static gex_AM_Index_t table_expected[64]; /* what each entry's index must be */
static void add_entry(gex_AM_Index_t idx, gex_AM_Fn_t fn, gex_Flags_t flags, unsigned nargs, const void *cdata,
                      const char *name) {
  gex_AM_Entry_t e;
  memset(&e, 0, sizeof(e));
  e.gex_index = idx;
  e.gex_fnptr = fn;
  e.gex_flags = flags;
  e.gex_nargs = nargs;
  e.gex_cdata = cdata;
  e.gex_name = name;
  table[table_n++] = e;
}
static gex_AM_Fn_t args_fn(int payload, unsigned m) {
  switch (m) {
#define C(n) \
  case n: return payload ? (gex_AM_Fn_t)h_p##n : (gex_AM_Fn_t)h_s##n;
    EX_M_LIST(C)
#undef C
  }
  return NULL;
}
/* the description's rule: fixed indices first; then each 0 entry, in
 * table order, the highest index still free */
static void expected_assignment(const gex_AM_Entry_t *t, size_t n, const int *taken_before, gex_AM_Index_t *out) {
  int taken[256];
  memcpy(taken, taken_before, sizeof(taken));
  for (size_t i = 0; i < n; i++)
    if (t[i].gex_index) taken[t[i].gex_index] = 1, out[i] = t[i].gex_index;
  for (size_t i = 0; i < n; i++) {
    int k;
    if (t[i].gex_index) continue;
    for (k = 255; k >= GEX_AM_INDEX_BASE && taken[k]; k--) continue;
    out[i] = (gex_AM_Index_t)k;
    taken[k] = 1;
  }
}
static int taken_now[256]; /* indices registered so far */
static int build_and_register(void) {
  int rc;
  for (unsigned m = 0; m < 17; m++) {
    fn_args_s[m] = args_fn(0, m);
    fn_args_p[m] = args_fn(1, m);
    snprintf(name_s[m], sizeof(name_s[m]), "args_short_%u", m);
    snprintf(name_p[m], sizeof(name_p[m]), "args_medlong_%u", m);
  }
  for (unsigned m = 0; m < 9; m++)
    add_entry(0, fn_args_s[m], GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQREP, m, &tag_s[m], name_s[m]);
  add_entry(EX_H_RESULT, (gex_AM_Fn_t)ex_h_result, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 3, NULL, "result");
  add_entry(H_HSL, (gex_AM_Fn_t)h_hsl, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 0, NULL, "hsl");
  add_entry(H_SIGNAL, (gex_AM_Fn_t)h_signal, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 2, NULL, "signal");
  for (unsigned m = 9; m < 17; m++)
    add_entry(0, fn_args_s[m], GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQREP, m, &tag_s[m], name_s[m]);
  add_entry(H_FLOOD_S, (gex_AM_Fn_t)h_flood_s, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 1, NULL, "flood_s");
  add_entry(H_FLOOD_M, (gex_AM_Fn_t)h_flood_m, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 1, NULL, "flood_m");
  add_entry(H_FLOOD_L, (gex_AM_Fn_t)h_flood_l, GEX_FLAG_AM_LONG | GEX_FLAG_AM_REQUEST, 1, NULL, "flood_l");
  for (unsigned m = 0; m < 17; m++)
    add_entry(0, fn_args_p[m], GEX_FLAG_AM_MEDLONG | GEX_FLAG_AM_REQREP, m, &tag_p[m], name_p[m]);
  add_entry(H_PING, (gex_AM_Fn_t)h_ping, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 1, NULL, "ping");
  add_entry(H_PONG, (gex_AM_Fn_t)h_pong, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 1, NULL, "pong");
  add_entry(H_PRE, (gex_AM_Fn_t)h_pre, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQREP, 1, NULL, "pre");
  add_entry(H_HOLD, (gex_AM_Fn_t)h_hold, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REQUEST, 2, NULL, "hold");
  add_entry(H_HELD, (gex_AM_Fn_t)h_held, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 1, NULL, "held");
  expected_assignment(table, table_n, taken_now, table_expected);
  rc = gex_EP_RegisterHandlers(ex_ep, table, table_n);
  for (size_t i = 0; i < table_n; i++) {
    taken_now[table[i].gex_index] = 1;
    for (unsigned m = 0; m < 17; m++) {
      if (table[i].gex_fnptr == fn_args_s[m]) h_args_s[m] = table[i].gex_index;
      if (table[i].gex_fnptr == fn_args_p[m]) h_args_p[m] = table[i].gex_index;
    }
  }
  return rc;
}

/* ------------------------------------------------------------------ */
/* AM verification and senders                                        */
/* ------------------------------------------------------------------ */
/* After a subtest's AMs: every reply expected here arrived; what each
 * rank sent here arrived, exactly (count and bytes, per category) --
 * nothing refused was delivered, nothing accepted was lost. */
static void am_verify(void) {
  struct {
    long rq[NCAT][EX_MAXN], rqb[NCAT][EX_MAXN];
  } mine, *all = calloc(ex_n, sizeof(mine));
  for (int c = 0; c < NCAT; c++)
    for (gex_Rank_t d = 0; d < ex_n; d++)
      EX_WAIT(__atomic_load_n(&recv_c.rp[c][d], __ATOMIC_RELAXED) >= sent_c.rp[c][d], 30,
              "%ld %s replies from rank %u (%ld arrived)", sent_c.rp[c][d], cat_name[c], (unsigned)d, recv_c.rp[c][d]);
  drain_slots(1);
  memcpy(mine.rq, sent_c.rq, sizeof(mine.rq));
  memcpy(mine.rqb, sent_c.rqb, sizeof(mine.rqb));
  allgather(&mine, sizeof(mine), all);
  for (gex_Rank_t s = 0; s < ex_n; s++)
    for (int c = 0; c < NCAT; c++) {
      CHECK(recv_c.rq[c][s] == all[s].rq[c][ex_me], "%ld %s requests from rank %u ran here, it sent %ld", recv_c.rq[c][s],
            cat_name[c], (unsigned)s, all[s].rq[c][ex_me]);
      CHECK(recv_c.rqb[c][s] == all[s].rqb[c][ex_me], "%ld payload bytes of %s requests from rank %u, it sent %ld",
            recv_c.rqb[c][s], cat_name[c], (unsigned)s, all[s].rqb[c][ex_me]);
      CHECK(recv_c.rp[c][s] == sent_c.rp[c][s], "%ld %s replies from rank %u, expected %ld", recv_c.rp[c][s],
            cat_name[c], (unsigned)s, sent_c.rp[c][s]);
      CHECK(recv_c.rpb[c][s] == sent_c.rpb[c][s], "%ld payload bytes of %s replies from rank %u, expected %ld",
            recv_c.rpb[c][s], cat_name[c], (unsigned)s, sent_c.rpb[c][s]);
    }
  free(all);
}

enum { LC_NOW, LC_GROUP, LC_PTR, NLC };
static const char *const lc_name[NLC] = {"GEX_EVENT_NOW", "GEX_EVENT_GROUP", "an event pointer"};
static gex_Event_t *lc_of(int lcm, gex_Event_t *ev) {
  return lcm == LC_NOW ? GEX_EVENT_NOW : lcm == LC_GROUP ? GEX_EVENT_GROUP : ev;
}
/* the reply the handlers will send to a request of n bytes */
static size_t expected_rep_n(int cat, gex_Rank_t t, unsigned m, size_t n) {
  if (cat == CAT_S) return 0;
  return g_mode == MODE_NP ? np_rep_n(cat, NULL, t, m, n) : args_rep_n(cat, NULL, t, m, n);
}
static void count_sent(int cat, gex_Rank_t t, unsigned m, size_t n) {
  sent_c.rq[cat][t]++;
  sent_c.rqb[cat][t] += (long)n;
  sent_c.rp[cat][t]++;
  sent_c.rpb[cat][t] += (long)expected_rep_n(cat, t, m, n);
}
/* the source of a local completion: after it, overwrite and go on */
static void after_lc(int lcm, gex_Event_t ev, void *src, size_t n) {
  if (lcm == LC_GROUP) gex_NBI_Wait(GEX_EC_AM, 0);
  else if (lcm == LC_PTR) gex_Event_Wait(ev);
  if (src) memset(src, 0xEE, n); /* the target must still get the original bytes */
}

/* Long requests wait for their replies: from ranks [t0, t1) */
static int no_long_wait; /* (the caller waits, for several ranks at once) */
static void wait_long_replies(gex_Rank_t t0, gex_Rank_t t1) {
  for (gex_Rank_t t = t0; t < t1; t++)
    EX_WAIT(__atomic_load_n(&recv_c.rp[CAT_L][t], __ATOMIC_RELAXED) == sent_c.rp[CAT_L][t], 30,
            "the replies to Long requests to rank %u (%ld of %ld)", (unsigned)t, recv_c.rp[CAT_L][t], sent_c.rp[CAT_L][t]);
}

/* A fixed-payload request of category cat with m arguments and n bytes
 * to t; lc mode lcm; source in or out of the segment; flags (IMMEDIATE:
 * a refusal is counted and the request sent again without it).  Long
 * requests wait for their reply (the areas take one at a time). */
static void send_fixed_f(int cat, gex_Rank_t t, unsigned m, size_t n, int lcm, int inseg, gex_Flags_t f) {
  gex_AM_Arg_t a[16];
  gex_Event_t ev = GEX_EVENT_INVALID;
  uint8_t *src = inseg ? SCRATCH : oob;
  void *dst = cat == CAT_L ? AREA(t, ex_me) + loff(m) : NULL;
  int rc = 0;
  drain_slots(0); /* (the replies' sources free again) */
  args_of(a, ex_me, t, cat, m, 0);
  if (cat != CAT_S) ex_fill(src, n, pseed(ex_me, t, cat, m, n, 0));
  count_sent(cat, t, m, n);
  for (int attempt = 0; attempt < 2; attempt++) {
    gex_Flags_t ff = attempt ? 0 : f;
    rc = cat == CAT_S ? ex_req_short(ex_tm, t, h_args_s[m], ff, m, a)
         : cat == CAT_M ? ex_req_medium(ex_tm, t, h_args_p[m], src, n, lc_of(lcm, &ev), ff, m, a)
                        : ex_req_long(ex_tm, t, h_args_p[m], src, n, dst, lc_of(lcm, &ev), ff, m, a);
    if (!rc) break;
    CHECK(ff & GEX_FLAG_IMMEDIATE, "gex_AM_Request%s%u (%zu bytes, lc %s) returned %d without IMMEDIATE",
          cat_name[cat], m, n, lc_name[lcm], rc);
    refusals++;
  }
  if (rc) return;
  if (cat != CAT_S) after_lc(lcm, ev, src, n);
  if (cat == CAT_L && !no_long_wait) wait_long_replies(t, t + 1);
}
static void send_fixed(int cat, gex_Rank_t t, unsigned m, size_t n, int lcm, int inseg) {
  send_fixed_f(cat, t, m, n, lcm, inseg, req_flags(m));
}

/* the four payload sizes of a category: 0, 1, odd, the Max */
static size_t size_k(int cat, gex_Rank_t t, unsigned m, int lcm, gex_Event_t *ev, int k) {
  size_t max = cat == CAT_M ? gex_AM_MaxRequestMedium(ex_tm, t, lc_of(lcm, ev), req_flags(m), m)
                            : cap_long(gex_AM_MaxRequestLong(ex_tm, t, lc_of(lcm, ev), req_flags(m), m));
  switch (k) {
    case 0: return 0;
    case 1: return 1;
    case 2: return imin(2 * m + 13 + (size_t)lcm * 1000, max) | 1;
    default: return max;
  }
}

static void t_am_short_args(void) {
  for (gex_Rank_t t = 0; t < ex_n; t++)
    for (unsigned m = 0; m < 17; m++) send_fixed(CAT_S, t, m, 0, LC_NOW, 0);
  am_verify();
}
/* every M with sizes 0, 1 and odd in every lc mode; the Max with one lc
 * mode per M (each mode over the M), and with all three for M = 16 */
static void am_payload_args(int cat) {
  no_long_wait = 1; /* (one Long to every rank, then their replies) */
  for (unsigned m = 0; m < 17; m++)
    for (int lcm = 0; lcm < NLC; lcm++)
      for (int k = 0; k < 4; k++) {
        if (k == 3 && m != 16 && (int)(m % NLC) != lcm) continue;
        for (gex_Rank_t t = 0; t < ex_n; t++) {
          gex_Event_t ev;
          send_fixed(cat, t, m, size_k(cat, t, m, lcm, &ev, k), lcm, (int)((m + (unsigned)k + (unsigned)lcm) & 1));
        }
        wait_long_replies(0, ex_n);
      }
  no_long_wait = 0;
  am_verify();
}
static void t_am_medium_args(void) { am_payload_args(CAT_M); }
static void t_am_long_args(void) {
  size_t max = gex_AM_MaxRequestLong(ex_tm, 0, GEX_EVENT_NOW, 0, 0);
  if (max > LONG_CAP && ex_me == 0) {
    printf("# exconf: gex_AM_MaxRequestLong = %zu is more than the test's areas hold: Long payloads up to %zu\n", max,
           (size_t)LONG_CAP);
    fflush(stdout);
  }
  am_payload_args(CAT_L);
}

/* the forms without M (the count inferred from the arguments) */
static void t_am_inferred(void) {
  g_mode = MODE_INFERRED;
  for (gex_Rank_t t = 0; t < ex_n; t++) {
    static const unsigned ms[4] = {0, 1, 2, 16};
    for (int i = 0; i < 4; i++) {
      unsigned m = ms[i];
      gex_AM_Arg_t a[16];
      int rc = -1;
      size_t n = 2000 + m;
      uint8_t *src = oob;
      void *dst = AREA(t, ex_me) + loff(m);
      gex_AM_Index_t hs = h_args_s[m], hp = h_args_p[m];
      /* Short */
      args_of(a, ex_me, t, CAT_S, m, 0);
      count_sent(CAT_S, t, m, 0);
      switch (m) {
        case 0: rc = gex_AM_RequestShort(ex_tm, t, hs, 0); break;
        case 1: rc = gex_AM_RequestShort(ex_tm, t, hs, 0, a[0]); break;
        case 2: rc = gex_AM_RequestShort(ex_tm, t, hs, 0, a[0], a[1]); break;
        default: rc = gex_AM_RequestShort(ex_tm, t, hs, 0, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9],
                                          a[10], a[11], a[12], a[13], a[14], a[15]); break;
      }
      CHECK(rc == 0, "gex_AM_RequestShort (inferred, %u args) returned %d", m, rc);
      /* Medium */
      args_of(a, ex_me, t, CAT_M, m, 0);
      ex_fill(src, n, pseed(ex_me, t, CAT_M, m, n, 0));
      count_sent(CAT_M, t, m, n);
      switch (m) {
        case 0: rc = gex_AM_RequestMedium(ex_tm, t, hp, src, n, GEX_EVENT_NOW, 0); break;
        case 1: rc = gex_AM_RequestMedium(ex_tm, t, hp, src, n, GEX_EVENT_NOW, 0, a[0]); break;
        case 2: rc = gex_AM_RequestMedium(ex_tm, t, hp, src, n, GEX_EVENT_NOW, 0, a[0], a[1]); break;
        default: rc = gex_AM_RequestMedium(ex_tm, t, hp, src, n, GEX_EVENT_NOW, 0, a[0], a[1], a[2], a[3], a[4], a[5],
                                           a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]); break;
      }
      CHECK(rc == 0, "gex_AM_RequestMedium (inferred, %u args) returned %d", m, rc);
      memset(src, 0xEE, n);
      /* Long */
      args_of(a, ex_me, t, CAT_L, m, 0);
      ex_fill(src, n, pseed(ex_me, t, CAT_L, m, n, 0));
      count_sent(CAT_L, t, m, n);
      switch (m) {
        case 0: rc = gex_AM_RequestLong(ex_tm, t, hp, src, n, dst, GEX_EVENT_NOW, 0); break;
        case 1: rc = gex_AM_RequestLong(ex_tm, t, hp, src, n, dst, GEX_EVENT_NOW, 0, a[0]); break;
        case 2: rc = gex_AM_RequestLong(ex_tm, t, hp, src, n, dst, GEX_EVENT_NOW, 0, a[0], a[1]); break;
        default: rc = gex_AM_RequestLong(ex_tm, t, hp, src, n, dst, GEX_EVENT_NOW, 0, a[0], a[1], a[2], a[3], a[4], a[5],
                                         a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]); break;
      }
      CHECK(rc == 0, "gex_AM_RequestLong (inferred, %u args) returned %d", m, rc);
      memset(src, 0xEE, n);
      EX_WAIT(__atomic_load_n(&recv_c.rp[CAT_L][t], __ATOMIC_RELAXED) == sent_c.rp[CAT_L][t], 30,
              "the reply to an inferred Long to rank %u", (unsigned)t);
      /* Commits without M */
      {
        gex_AM_SrcDesc_t sd;
        size_t k = 333 + m;
        if (m == 2 || m == 1) {
          sd = gex_AM_PrepareRequestMedium(ex_tm, t, NULL, k, k, NULL, 0, m);
          CHECK(sd != GEX_AM_SRCDESC_NO_OP, "gex_AM_PrepareRequestMedium returned NO_OP");
          if (sd == GEX_AM_SRCDESC_NO_OP) continue;
          CHECK(gex_AM_SrcDescSize(sd) == k, "gex_AM_SrcDescSize %zu, least = most = %zu", gex_AM_SrcDescSize(sd), k);
          args_of(a, ex_me, t, CAT_M, m, 0);
          ex_fill(gex_AM_SrcDescAddr(sd), k, pseed(ex_me, t, CAT_M, m, k, 0));
          count_sent(CAT_M, t, m, k);
          if (m == 2) gex_AM_CommitRequestMedium(sd, hp, k, a[0], a[1]);
          else CHECK_RC(gex_AM_CommitRequestMedium_v2(sd, hp, k, 0, a[0]), 0);
        } else {
          sd = gex_AM_PrepareRequestLong(ex_tm, t, NULL, k, k, m ? dst : NULL, NULL, 0, m);
          CHECK(sd != GEX_AM_SRCDESC_NO_OP, "gex_AM_PrepareRequestLong returned NO_OP");
          if (sd == GEX_AM_SRCDESC_NO_OP) continue;
          CHECK(gex_AM_SrcDescSize(sd) == k, "gex_AM_SrcDescSize %zu, least = most = %zu", gex_AM_SrcDescSize(sd), k);
          args_of(a, ex_me, t, CAT_L, m, 0);
          ex_fill(gex_AM_SrcDescAddr(sd), k, pseed(ex_me, t, CAT_L, m, k, 0));
          count_sent(CAT_L, t, m, k);
          if (m == 0) gex_AM_CommitRequestLong(sd, hp, k, dst);
          else CHECK_RC(gex_AM_CommitRequestLong_v2(sd, hp, k, dst, 0, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
                                                    a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]), 0);
          EX_WAIT(__atomic_load_n(&recv_c.rp[CAT_L][t], __ATOMIC_RELAXED) == sent_c.rp[CAT_L][t], 30,
                  "the reply to a committed Long to rank %u", (unsigned)t);
        }
      }
    }
  }
  am_verify();
}

/* ------------------------------------------------------------------ */
/* negotiated payload                                                  */
/* ------------------------------------------------------------------ */
/* the request cases: buffer (GASNet's or the client's, in or out of the
 * segment), least and most, the size committed, the commit form, the
 * Prepare's flags, lc, or a Cancel */
enum { L_ONE, L_MAX, L_17 };
enum { M_LEAST, M_MAX, M_BEYOND, M_64 };
enum { N_ZERO, N_ONE, N_SIZE, N_ODD };
enum { C_V1, C_V2, C_V2IMM, C_CANCEL };
static const struct {
  int client, inseg, least, most, nb, commit, prep_imm, lcm;
} np_cases[] = {
    {0, 0, L_ONE, M_LEAST, N_ONE, C_V1, 0, LC_NOW},     {0, 0, L_ONE, M_MAX, N_SIZE, C_V1, 0, LC_NOW},
    {0, 0, L_MAX, M_MAX, N_SIZE, C_V2, 0, LC_NOW},      {0, 0, L_ONE, M_BEYOND, N_ODD, C_V2IMM, 0, LC_NOW},
    {0, 0, L_ONE, M_64, N_ZERO, C_V1, 1, LC_NOW},       {0, 0, L_ONE, M_MAX, N_SIZE, C_CANCEL, 0, LC_NOW},
    {1, 1, L_ONE, M_MAX, N_SIZE, C_V1, 0, LC_NOW},      {1, 0, L_MAX, M_MAX, N_SIZE, C_V2, 0, LC_GROUP},
    {1, 0, L_17, M_BEYOND, N_ODD, C_V2IMM, 0, LC_PTR},  {1, 1, L_ONE, M_MAX, N_SIZE, C_CANCEL, 0, LC_PTR},
    {1, 1, L_ONE, M_LEAST, N_ZERO, C_V1, 0, LC_NOW},    {0, 0, L_MAX, M_MAX, N_SIZE, C_V1, 1, LC_NOW},
};
#define NP_NCASES ((int)EX_ARRAY_LEN(np_cases))

static void send_np(int cat, gex_Rank_t t, unsigned m, int c) {
  gex_AM_Arg_t a[16];
  gex_Event_t ev = GEX_EVENT_INVALID;
  gex_Event_t *lc = np_cases[c].client ? lc_of(np_cases[c].lcm, &ev) : NULL;
  uint8_t *cbuf = np_cases[c].client ? (np_cases[c].inseg ? SCRATCH : oob) : NULL;
  gex_Flags_t pf = np_cases[c].prep_imm ? GEX_FLAG_IMMEDIATE : 0;
  gex_Flags_t qf = (np_cases[c].client ? GEX_FLAG_AM_PREPARE_LEAST_CLIENT : GEX_FLAG_AM_PREPARE_LEAST_ALLOC) | pf;
  size_t max = cat == CAT_M ? gex_AM_MaxRequestMedium(ex_tm, t, lc, qf, m) : gex_AM_MaxRequestLong(ex_tm, t, lc, qf, m);
  size_t least, most, size, nb;
  void *dst = AREA(t, ex_me) + loff(m), *addr;
  gex_AM_SrcDesc_t sd;
  int rc;
  if (cat == CAT_L) max = cap_long(max);
  least = np_cases[c].least == L_ONE ? 1 : np_cases[c].least == L_17 ? 17 : max;
  most = np_cases[c].most == M_LEAST ? least : np_cases[c].most == M_MAX ? max : np_cases[c].most == M_64 ? 64
                                                                                  : 4 * max + 100;
  if (most < least) most = least;
  drain_slots(0);
  args_of(a, ex_me, t, cat, m, 0);
  for (int attempt = 0;; attempt++) {
    gex_Flags_t f = attempt ? 0 : pf;
    sd = cat == CAT_M ? gex_AM_PrepareRequestMedium(ex_tm, t, cbuf, least, most, lc, f, m)
                      : gex_AM_PrepareRequestLong(ex_tm, t, cbuf, least, most, (c & 1) ? dst : NULL, lc, f, m);
    if (sd != GEX_AM_SRCDESC_NO_OP || attempt) break;
    CHECK(f & GEX_FLAG_IMMEDIATE, "gex_AM_PrepareRequest%s returned NO_OP without IMMEDIATE", cat_name[cat]);
    refusals++;
  }
  CHECK(sd != GEX_AM_SRCDESC_NO_OP, "gex_AM_PrepareRequest%s (case %d, %u args) returned NO_OP without IMMEDIATE",
        cat_name[cat], c, m);
  if (sd == GEX_AM_SRCDESC_NO_OP) return;
  size = gex_AM_SrcDescSize(sd);
  addr = gex_AM_SrcDescAddr(sd);
  CHECK(size >= least && size <= most, "gex_AM_PrepareRequest%s (case %d): gex_AM_SrcDescSize %zu outside [%zu, %zu]",
        cat_name[cat], c, size, least, most);
  if (cbuf) CHECK(addr == cbuf, "gex_AM_SrcDescAddr %p, the client_buf was %p", addr, (void *)cbuf);
  else CHECK_ONCE(addr && (uintptr_t)addr % alignof(max_align_t) == 0, "gex_AM_SrcDescAddr %p: not aligned for any type", addr);
  if (np_cases[c].commit == C_CANCEL) { /* nothing is delivered (am_verify) */
    rc = cat == CAT_M ? gex_AM_CancelRequestMedium(sd, 0) : gex_AM_CancelRequestLong(sd, 0);
    CHECK(rc == 0, "gex_AM_CancelRequest%s returned %d", cat_name[cat], rc);
    return;
  }
  nb = np_cases[c].nb == N_ZERO ? 0 : np_cases[c].nb == N_ONE ? 1 : np_cases[c].nb == N_SIZE ? size : (size / 3) | 1;
  if (nb > size) nb = size;
  if (cat == CAT_L) nb = cap_long(nb);
  if (cbuf && nb > 2 * HALF) nb = 2 * HALF; /* (the client's buffers hold 4 MiB) */
  ex_fill(addr, nb, pseed(ex_me, t, cat, m, nb, 0));
  count_sent(cat, t, m, nb);
  switch (np_cases[c].commit) {
    case C_V1:
      rc = cat == CAT_M ? ex_commit_req_medium(sd, h_args_p[m], nb, m, a) : ex_commit_req_long(sd, h_args_p[m], nb, dst, m, a);
      break;
    case C_V2:
      rc = cat == CAT_M ? ex_commit_req_medium_v2(sd, h_args_p[m], nb, 0, m, a)
                        : ex_commit_req_long_v2(sd, h_args_p[m], nb, dst, 0, m, a);
      break;
    default:
      rc = cat == CAT_M ? ex_commit_req_medium_v2(sd, h_args_p[m], nb, GEX_FLAG_IMMEDIATE, m, a)
                        : ex_commit_req_long_v2(sd, h_args_p[m], nb, dst, GEX_FLAG_IMMEDIATE, m, a);
      if (rc) { /* refused: the descriptor stays valid */
        refusals++;
        CHECK(gex_AM_SrcDescAddr(sd) == addr && gex_AM_SrcDescSize(sd) == size,
              "a refused gex_AM_CommitRequest%s_v2 changed its descriptor", cat_name[cat]);
        rc = cat == CAT_M ? ex_commit_req_medium(sd, h_args_p[m], nb, m, a)
                          : ex_commit_req_long(sd, h_args_p[m], nb, dst, m, a);
      }
      break;
  }
  CHECK(rc == 0, "gex_AM_CommitRequest%s (case %d, %u args) returned %d", cat_name[cat], c, m, rc);
  if (cbuf) after_lc(np_cases[c].lcm, ev, cbuf, nb);
  if (cat == CAT_L && !no_long_wait) wait_long_replies(t, t + 1);
}
/* every case with every M, but the cases of the largest payloads with
 * every third M only (and M = 16) */
static void np_test(int cat) {
  g_mode = MODE_NP;
  no_long_wait = 1; /* (one Long to every rank, then their replies) */
  for (unsigned m = 0; m < 17; m++)
    for (int c = 0; c < NP_NCASES; c++) {
      int big = np_cases[c].least == L_MAX ||
                ((np_cases[c].nb == N_SIZE || np_cases[c].nb == N_ODD) &&
                 (np_cases[c].most == M_MAX || np_cases[c].most == M_BEYOND));
      if (big && m != 16 && (m + (unsigned)c) % 3) continue;
      for (gex_Rank_t t = 0; t < ex_n; t++) send_np(cat, t, m, c);
      wait_long_replies(0, ex_n);
    }
  no_long_wait = 0;
  am_verify();
}
static void t_np_medium(void) { np_test(CAT_M); }
static void t_np_long(void) { np_test(CAT_L); }

/* A negotiated-payload Medium request's payload (GASNet-allocated buffer,
 * written in place) stays intact for its handler's whole run, also after
 * the handler replied and its sender, answered, sent on: each rank keeps
 * two requests in flight to the next one, for each size. */
static void t_np_payload_held(void) {
  static const size_t sizes[] = {512, 2048, 8192, 16384, 65536};
  const int rounds = 24;
  gex_Rank_t to = (gex_Rank_t)((ex_me + 1) % ex_n);
  long expect_handled = 0;
  for (size_t z = 0; z < EX_ARRAY_LEN(sizes); z++) {
    size_t n = imin(sizes[z], gex_AM_MaxRequestMedium(ex_tm, to, GEX_EVENT_NOW, 0, 2));
    long base = __atomic_load_n(&held_replies, __ATOMIC_RELAXED);
    for (int k = 0; k < rounds; k++) {
      gex_AM_SrcDesc_t sd;
      int rc;
      while (__atomic_load_n(&held_replies, __ATOMIC_RELAXED) - base < k - 1) gasnet_AMPoll(); /* (two in flight) */
      sd = gex_AM_PrepareRequestMedium(ex_tm, to, NULL, n, n, NULL, 0, 2);
      CHECK(sd != GEX_AM_SRCDESC_NO_OP && gex_AM_SrcDescSize(sd) == n,
            "gex_AM_PrepareRequestMedium of %zu bytes: NO_OP or another size", n);
      if (sd == GEX_AM_SRCDESC_NO_OP) return;
      ex_fill(gex_AM_SrcDescAddr(sd), n, ex_seed(ex_me, to, 0xb0, (uint32_t)k));
      rc = gex_AM_CommitRequestMedium2(sd, H_HOLD, n, k, (gex_AM_Arg_t)n);
      CHECK(rc == 0, "gex_AM_CommitRequestMedium2 returned %d", rc);
    }
    while (__atomic_load_n(&held_replies, __ATOMIC_RELAXED) - base < rounds) gasnet_AMPoll();
    expect_handled += rounds;
  }
  while (__atomic_load_n(&held_handled, __ATOMIC_RELAXED) < expect_handled) gasnet_AMPoll(); /* (the last handler) */
  ex_barrier();
  CHECK(__atomic_load_n(&held_handled, __ATOMIC_RELAXED) == expect_handled, "H_HOLD ran %ld times, %ld expected",
        __atomic_load_n(&held_handled, __ATOMIC_RELAXED), expect_handled);
  held_replies = held_handled = 0;
  ex_barrier();
}

/* ------------------------------------------------------------------ */
/* RMA                                                                 */
/* ------------------------------------------------------------------ */
static gex_TM_t tm_pair(void) { return gex_TM_Pair(ex_ep, 0); }

/* read n bytes of t's memory at p (blocking) into buf */
static void get_into(void *buf, gex_Rank_t t, void *p, size_t n) {
  int rc = gex_RMA_GetBlocking(ex_tm, buf, t, p, n, 0);
  CHECK(rc == 0, "gex_RMA_GetBlocking returned %d", rc);
}

static void t_rma_blocking(void) {
  static const size_t sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 13, 4095, 65536, (size_t)1 << 20};
  for (gex_Rank_t t = 0; t < ex_n; t++)
    for (size_t si = 0; si < EX_ARRAY_LEN(sizes); si++)
      for (int inseg = 0; inseg < 2; inseg++)
        for (uintptr_t off = 0; off < 6; off += 3) {
          size_t n = sizes[si];
          uint8_t *src = inseg ? SCRATCH : oob, *back = inseg ? SCRATCH + HALF : oob2;
          uint8_t *dst = AREA(t, ex_me) + off;
          gex_TM_t tm = inseg ? tm_pair() : ex_tm; /* (a TM-pair names the same endpoints) */
          uint32_t seed = ex_seed(ex_me, t, (uint32_t)n, (uint32_t)(off * 2 + (uintptr_t)inseg));
          int rc;
          ex_fill(src, n, seed);
          memset(back, 0xAA, n);
          rc = gex_RMA_PutBlocking(tm, t, dst, src, n, 0);
          CHECK(rc == 0, "gex_RMA_PutBlocking returned %d", rc);
          memset(src, 0xEE, n); /* reusable on return */
          rc = gex_RMA_GetBlocking(tm, back, t, dst, n, 0);
          CHECK(rc == 0, "gex_RMA_GetBlocking returned %d", rc);
          ex_check_pat(back, n, seed, "PutBlocking/GetBlocking of %zu bytes at offset %u with rank %u (%s buffers)", n,
                       (unsigned)off, (unsigned)t, inseg ? "in-segment" : "out-of-segment");
        }
  /* zero bytes: nothing moves */
  for (gex_Rank_t t = 0; t < ex_n; t++) {
    uint8_t b[16];
    memset(oob, 0x11, 16);
    CHECK_RC(gex_RMA_PutBlocking(ex_tm, t, AREA(t, ex_me), oob, 16, 0), 0);
    memset(oob, 0x22, 16);
    memset(b, 0x33, 16);
    CHECK_RC(gex_RMA_PutBlocking(ex_tm, t, AREA(t, ex_me), oob, 0, 0), 0);
    CHECK_RC(gex_RMA_GetBlocking(ex_tm, b, t, AREA(t, ex_me), 0, 0), 0);
    ex_check_byte(b, 16, 0x33, "a 0-byte gex_RMA_GetBlocking wrote its destination");
    get_into(b, t, AREA(t, ex_me), 16);
    ex_check_byte(b, 16, 0x11, "a 0-byte gex_RMA_PutBlocking to rank %u wrote its destination", (unsigned)t);
  }
  /* last, every rank's data seen by the target itself */
  for (gex_Rank_t t = 0; t < ex_n; t++) {
    ex_fill(SCRATCH, 65536, ex_seed(ex_me, t, 0xF1, 0));
    CHECK_RC(gex_RMA_PutBlocking(ex_tm, t, AREA(t, ex_me) + 7, SCRATCH, 65536, 0), 0);
  }
  ex_barrier();
  for (gex_Rank_t s = 0; s < ex_n; s++)
    ex_check_pat(AREA(ex_me, s) + 7, 65536, ex_seed(s, ex_me, 0xF1, 0), "rank %u's PutBlocking, read by its target",
                 (unsigned)s);
}

static void t_rma_nb(void) {
  static const size_t sizes[] = {1, 7, 4099, 65536, (size_t)1 << 20};
  enum { P_NOW, P_DEFER, P_LEAF };
  for (gex_Rank_t t = 0; t < ex_n; t++)
    for (size_t si = 0; si < EX_ARRAY_LEN(sizes); si++)
      for (int mode = P_NOW; mode <= P_LEAF; mode++)
        for (int inseg = 0; inseg < 2; inseg++) {
          size_t n = sizes[si];
          uint8_t *src = inseg ? SCRATCH : oob, *back = inseg ? SCRATCH + HALF : oob2;
          uint8_t *dst = AREA(t, ex_me) + (uintptr_t)mode * 3;
          uint32_t seed = ex_seed(ex_me, t, (uint32_t)n, (uint32_t)(mode * 2 + inseg) + 100);
          gex_Event_t leaf = GEX_EVENT_NO_OP, root, g;
          int rc;
          ex_fill(src, n, seed);
          root = gex_RMA_PutNB(ex_tm, t, dst, src, n,
                               mode == P_NOW ? GEX_EVENT_NOW : mode == P_DEFER ? GEX_EVENT_DEFER : &leaf, 0);
          CHECK(root != GEX_EVENT_NO_OP, "gex_RMA_PutNB returned GEX_EVENT_NO_OP without IMMEDIATE");
          if (mode == P_NOW) memset(src, 0xEE, n);
          if (mode == P_LEAF) {
            CHECK(leaf != GEX_EVENT_NO_OP, "gex_RMA_PutNB did not write its lc event");
            if (root != GEX_EVENT_INVALID) {
              gex_Event_t q1 = gex_Event_QueryLeaf(root, GEX_EC_LC), q2 = gex_Event_QueryLeaf(root, GEX_EC_LC);
              CHECK(q1 == q2, "gex_Event_QueryLeaf(root, GEX_EC_LC) twice: %p, then %p", (void *)q1, (void *)q2);
              CHECK(q1 != GEX_EVENT_NO_OP, "gex_Event_QueryLeaf returned GEX_EVENT_NO_OP");
            }
            if (si & 1) {
              gex_Event_Wait(leaf);
            } else {
              while ((rc = gex_Event_Test(leaf)) != GASNET_OK) {
                CHECK(rc == GASNET_ERR_NOT_READY, "gex_Event_Test(leaf) returned %d", rc);
                if (rc != GASNET_ERR_NOT_READY) break;
                gasnet_AMPoll();
              }
            }
            memset(src, 0xEE, n); /* locally complete: the root must still deliver the original */
          }
          if (inseg) {
            gex_Event_Wait(root);
          } else {
            while ((rc = gex_Event_Test(root)) != GASNET_OK) {
              CHECK(rc == GASNET_ERR_NOT_READY, "gex_Event_Test(root) returned %d", rc);
              if (rc != GASNET_ERR_NOT_READY) break;
              gasnet_AMPoll();
            }
          }
          if (mode == P_DEFER) memset(src, 0xEE, n);
          memset(back, 0xAA, n);
          g = gex_RMA_GetNB(ex_tm, back, t, dst, n, 0);
          CHECK(g != GEX_EVENT_NO_OP, "gex_RMA_GetNB returned GEX_EVENT_NO_OP without IMMEDIATE");
          gex_Event_Wait(g);
          ex_check_pat(back, n, seed, "PutNB (lc %s) of %zu bytes to rank %u, read back by GetNB",
                       mode == P_NOW ? "GEX_EVENT_NOW" : mode == P_DEFER ? "GEX_EVENT_DEFER" : "a leaf", n, (unsigned)t);
        }
  /* zero bytes, every lc: an event that completes, nothing written */
  for (gex_Rank_t t = 0; t < ex_n; t++) {
    uint8_t b[8];
    gex_Event_t leaf = GEX_EVENT_NO_OP, e;
    memset(oob, 0x44, 8);
    CHECK_RC(gex_RMA_PutBlocking(ex_tm, t, AREA(t, ex_me), oob, 8, 0), 0);
    memset(oob, 0x55, 8);
    for (int mode = 0; mode < 3; mode++) {
      e = gex_RMA_PutNB(ex_tm, t, AREA(t, ex_me), oob, 0, mode == 0 ? GEX_EVENT_NOW : mode == 1 ? GEX_EVENT_DEFER : &leaf, 0);
      CHECK(e != GEX_EVENT_NO_OP, "a 0-byte gex_RMA_PutNB returned GEX_EVENT_NO_OP");
      if (mode == 2) {
        CHECK(leaf != GEX_EVENT_NO_OP, "a 0-byte gex_RMA_PutNB did not write its lc event");
        gex_Event_Wait(leaf);
      }
      gex_Event_Wait(e);
    }
    memset(b, 0x66, 8);
    e = gex_RMA_GetNB(ex_tm, b, t, AREA(t, ex_me), 0, 0);
    CHECK(e != GEX_EVENT_NO_OP, "a 0-byte gex_RMA_GetNB returned GEX_EVENT_NO_OP");
    gex_Event_Wait(e);
    ex_check_byte(b, 8, 0x66, "a 0-byte gex_RMA_GetNB wrote its destination");
    CHECK_RC(gex_RMA_PutNBI(ex_tm, t, AREA(t, ex_me), oob, 0, GEX_EVENT_GROUP, 0), 0);
    CHECK_RC(gex_RMA_GetNBI(ex_tm, b, t, AREA(t, ex_me), 0, 0), 0);
    gex_NBI_Wait(GEX_EC_ALL, 0);
    ex_check_byte(b, 8, 0x66, "a 0-byte gex_RMA_GetNBI wrote its destination");
    get_into(b, t, AREA(t, ex_me), 8);
    ex_check_byte(b, 8, 0x44, "0-byte puts to rank %u wrote their destination", (unsigned)t);
  }
  {
    gex_Event_t q = gex_Event_QueryLeaf(GEX_EVENT_INVALID, GEX_EC_LC);
    CHECK(q == GEX_EVENT_INVALID || gex_Event_Test(q) == GASNET_OK,
          "gex_Event_QueryLeaf(GEX_EVENT_INVALID) returned an event that is not complete");
    CHECK_RC(gex_Event_Test(GEX_EVENT_INVALID), GASNET_OK);
    gex_Event_Wait(GEX_EVENT_INVALID);
  }
}

static void t_rma_nbi(void) {
  static const size_t sizes[] = {1, 8, 4099, 65536, 600000};
  for (gex_Rank_t t = 0; t < ex_n; t++)
    for (size_t si = 0; si < EX_ARRAY_LEN(sizes); si++) {
      size_t n = sizes[si];
      uint8_t *d[3], *s[3] = {SCRATCH, oob, oob2}, *b[3] = {SCRATCH + HALF, oob + HALF, oob2 + HALF};
      uint32_t seed[3];
      int rc;
      for (int i = 0; i < 3; i++) {
        d[i] = AREA(t, ex_me) + (uintptr_t)i * 620000 + (uintptr_t)i;
        seed[i] = ex_seed(ex_me, t, (uint32_t)n, (uint32_t)i + 200);
        ex_fill(s[i], n, seed[i]);
        memset(b[i], 0xAA, n);
      }
      CHECK_RC(gex_RMA_PutNBI(ex_tm, t, d[0], s[0], n, GEX_EVENT_NOW, 0), 0);
      memset(s[0], 0xEE, n);
      CHECK_RC(gex_RMA_PutNBI(ex_tm, t, d[1], s[1], n, GEX_EVENT_GROUP, 0), 0);
      CHECK_RC(gex_RMA_PutNBI(tm_pair(), t, d[2], s[2], n, GEX_EVENT_DEFER, 0), 0);
      gex_NBI_Wait(GEX_EC_LC, 0);
      memset(s[1], 0xEE, n);
      if (si & 1) {
        gex_NBI_Wait(GEX_EC_PUT, 0);
      } else {
        while ((rc = gex_NBI_Test(GEX_EC_PUT, 0)) != GASNET_OK) {
          CHECK(rc == GASNET_ERR_NOT_READY, "gex_NBI_Test(GEX_EC_PUT) returned %d", rc);
          if (rc != GASNET_ERR_NOT_READY) break;
          gasnet_AMPoll();
        }
      }
      memset(s[2], 0xEE, n);
      for (int i = 0; i < 3; i++) CHECK_RC(gex_RMA_GetNBI(ex_tm, b[i], t, d[i], n, 0), 0);
      if (si & 1) {
        gex_NBI_Wait(GEX_EC_GET, 0);
      } else {
        while ((rc = gex_NBI_Test(GEX_EC_GET, 0)) != GASNET_OK) {
          CHECK(rc == GASNET_ERR_NOT_READY, "gex_NBI_Test(GEX_EC_GET) returned %d", rc);
          if (rc != GASNET_ERR_NOT_READY) break;
          gasnet_AMPoll();
        }
      }
      for (int i = 0; i < 3; i++)
        ex_check_pat(b[i], n, seed[i], "PutNBI (lc %s) of %zu bytes to rank %u, read back by GetNBI",
                     i == 0 ? "NOW" : i == 1 ? "GROUP" : "DEFER", n, (unsigned)t);
      /* puts and gets together, one GEX_EC_ALL */
      for (int i = 0; i < 3; i++) {
        seed[i] ^= 0x5555;
        ex_fill(s[i], n, seed[i]);
        CHECK_RC(gex_RMA_PutNBI(ex_tm, t, d[i], s[i], n, GEX_EVENT_DEFER, 0), 0);
      }
      gex_NBI_Wait(GEX_EC_ALL, 0);
      for (int i = 0; i < 3; i++) CHECK_RC(gex_RMA_GetNBI(ex_tm, b[i], t, d[i], n, 0), 0);
      gex_NBI_Wait(GEX_EC_ALL, 0);
      for (int i = 0; i < 3; i++)
        ex_check_pat(b[i], n, seed[i], "PutNBI + gex_NBI_Wait(GEX_EC_ALL) of %zu bytes to rank %u", n, (unsigned)t);
    }
  CHECK_RC(gex_NBI_Test(GEX_EC_ALL, 0), GASNET_OK); /* nothing left */
}

/* the bytes of an n-byte value: the native n-byte integer (low-order
 * bytes of v) */
static void val_bytes(uint8_t *out, uint64_t v, size_t n) {
  const uint16_t one = 1;
  if (*(const uint8_t *)&one) {
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(v >> (8 * i));
  } else {
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
  }
}
static uint64_t val_mask(uint64_t v, size_t n) { return n >= 8 ? v : v & (((uint64_t)1 << (8 * n)) - 1); }
static void check_val_at(gex_Rank_t t, uint8_t *p, uint64_t v, size_t n, const char *how) {
  uint8_t got[16], want[16];
  uint64_t g;
  memset(got, 0xAA, sizeof(got));
  get_into(got, t, p - 1, n + 2);
  val_bytes(want + 1, v, n);
  want[0] = got[0];
  CHECK(!memcmp(got + 1, want + 1, n), "%s of %zu bytes to rank %u: the bytes differ from the native integer", how, n,
        (unsigned)t);
  CHECK(got[n + 1] == 0x77 && got[0] == 0x77, "%s of %zu bytes to rank %u wrote outside its %zu bytes", how, n,
        (unsigned)t, n);
  if (n == 1 || n == 2 || n == 4 || n == 8) {
    uint64_t nat = 0;
    if (n == 1) nat = got[1];
    if (n == 2) { uint16_t x; memcpy(&x, got + 1, 2); nat = x; }
    if (n == 4) { uint32_t x; memcpy(&x, got + 1, 4); nat = x; }
    if (n == 8) memcpy(&nat, got + 1, 8);
    CHECK(nat == val_mask(v, n), "%s of %zu bytes: read as uint%zu_t 0x%" PRIx64 ", expected 0x%" PRIx64, how, n, n * 8,
          nat, val_mask(v, n));
  }
  g = gex_RMA_GetBlockingVal(ex_tm, t, p, n, 0);
  CHECK(g == val_mask(v, n), "gex_RMA_GetBlockingVal of %zu bytes after %s: 0x%" PRIx64 ", expected 0x%" PRIx64, n, how,
        g, val_mask(v, n));
}
static void t_rma_val(void) {
  for (gex_Rank_t t = 0; t < ex_n; t++)
    for (size_t n = 1; n <= 8; n++) {
      uint8_t *p = AREA(t, ex_me) + 64 * n + 1; /* (unaligned) */
      uint64_t v = ((uint64_t)ex_seed(ex_me, t, (uint32_t)n, 1) << 32) | ex_seed(ex_me, t, (uint32_t)n, 2);
      gex_Event_t e;
      memset(oob, 0x77, 16);
      CHECK_RC(gex_RMA_PutBlocking(ex_tm, t, p - 1, oob, 16, 0), 0);
      CHECK_RC(gex_RMA_PutBlockingVal(ex_tm, t, p, v, n, 0), 0);
      check_val_at(t, p, v, n, "gex_RMA_PutBlockingVal");
      v = ~v * 3;
      e = gex_RMA_PutNBVal(ex_tm, t, p, v, n, 0);
      CHECK(e != GEX_EVENT_NO_OP, "gex_RMA_PutNBVal returned NO_OP without IMMEDIATE");
      gex_Event_Wait(e);
      check_val_at(t, p, v, n, "gex_RMA_PutNBVal");
      v = v * 0x9E3779B97F4A7C15ull + 1;
      CHECK_RC(gex_RMA_PutNBIVal(ex_tm, t, p, v, n, 0), 0);
      gex_NBI_Wait(GEX_EC_PUT, 0);
      check_val_at(t, p, v, n, "gex_RMA_PutNBIVal");
    }
}

/* A put of a naturally aligned 1, 2, 4 or 8 bytes is one store into the
 * destination: a peer may be watching the word (a lock handed over), and a
 * second store of the same bytes after the peer has acted on the first
 * would undo what the peer wrote since (GASNet-EX's testacc).  Counted for
 * loopback puts, the ones this process's own CPU performs: the page is
 * made read-only, each write fault lets one instruction through (the trap
 * flag) and protects the page again.  (Puts to other processes are
 * written by their stage's network path; testacc checks those.) */
#if defined(__x86_64__) && defined(__linux__)
#include <sys/mman.h>
#include <ucontext.h>
static char *ws_page;
static volatile sig_atomic_t ws_stores;
static void ws_segv(int sig, siginfo_t *si, void *ucv) {
  ucontext_t *uc = ucv;
  (void)sig;
  if ((char *)si->si_addr < ws_page || (char *)si->si_addr >= ws_page + GASNET_PAGESIZE) abort(); /* not ours */
  ws_stores++;
  mprotect(ws_page, GASNET_PAGESIZE, PROT_READ | PROT_WRITE);
  uc->uc_mcontext.gregs[REG_EFL] |= 0x100; /* trap after this one instruction */
}
static void ws_trap(int sig, siginfo_t *si, void *ucv) {
  ucontext_t *uc = ucv;
  (void)sig;
  (void)si;
  uc->uc_mcontext.gregs[REG_EFL] &= ~0x100;
  mprotect(ws_page, GASNET_PAGESIZE, PROT_READ);
}
static void t_rma_word_store(void) {
  struct sigaction sa, old_segv, old_trap;
  static const char *const how[4] = {"gex_RMA_PutBlockingVal", "gex_RMA_PutBlocking", "gex_RMA_PutNBI",
                                     "gex_RMA_PutNB"};
  ws_page = (char *)SCRATCH + SCRATCH_SIZE - GASNET_PAGESIZE; /* (page aligned; only this subtest uses it) */
  memset(&sa, 0, sizeof(sa));
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sa.sa_sigaction = ws_segv;
  sigaction(SIGSEGV, &sa, &old_segv);
  sa.sa_sigaction = ws_trap;
  sigaction(SIGTRAP, &sa, &old_trap);
  for (size_t n = 1; n <= 8; n *= 2)
    for (int k = 0; k < 4; k++) {
      uint8_t *p = (uint8_t *)ws_page + 64 * n;
      uint64_t v = ((uint64_t)ex_seed(ex_me, (uint32_t)k, (uint32_t)n, 1) << 32) | ex_seed(ex_me, 0, (uint32_t)n, 2);
      uint64_t src = v; /* (aligned: an aligned word, as a client's own variable is) */
      int stores;
      memset(ws_page, 0x77, GASNET_PAGESIZE);
      ws_stores = 0;
      mprotect(ws_page, GASNET_PAGESIZE, PROT_READ);
      switch (k) {
        case 0: CHECK_RC(gex_RMA_PutBlockingVal(ex_tm, ex_me, p, v, n, 0), 0); break;
        case 1: CHECK_RC(gex_RMA_PutBlocking(ex_tm, ex_me, p, &src, n, 0), 0); break;
        case 2:
          CHECK_RC(gex_RMA_PutNBI(ex_tm, ex_me, p, &src, n, GEX_EVENT_NOW, 0), 0);
          gex_NBI_Wait(GEX_EC_PUT, 0);
          break;
        default: gex_Event_Wait(gex_RMA_PutNB(ex_tm, ex_me, p, &src, n, GEX_EVENT_NOW, 0)); break;
      }
      mprotect(ws_page, GASNET_PAGESIZE, PROT_READ | PROT_WRITE);
      stores = ws_stores;
      CHECK(stores == 1, "%s of %zu aligned bytes to this rank wrote the destination page with %d stores "
            "(one expected: a second store of the same bytes can undo a peer's write)", how[k], n, stores);
      check_val_at(ex_me, p, v, n, how[k]);
    }
  sigaction(SIGSEGV, &old_segv, NULL);
  sigaction(SIGTRAP, &old_trap, NULL);
}
#else
static void t_rma_word_store(void) {
  ex_skip_reason = "counting stores needs x86-64 Linux (the trap flag)";
}
#endif

/* ------------------------------------------------------------------ */
/* events                                                              */
/* ------------------------------------------------------------------ */
static int count_valid(const gex_Event_t *ev, size_t n) {
  int k = 0;
  for (size_t i = 0; i < n; i++) k += ev[i] != GEX_EVENT_INVALID;
  return k;
}
/* an array mixing INVALID entries, gets, a put's root and its leaf */
#define NEV 9
static void fill_events(gex_Event_t *ev, gex_Rank_t t, uint32_t round) {
  uint8_t *a = AREA(t, ex_me);
  ex_fill(oob, 65536, ex_seed(round, 1, 0, 0));
  ex_fill(SCRATCH, (size_t)1 << 20, ex_seed(round, 2, 0, 0));
  ex_fill(oob2, 4096, ex_seed(round, 3, 0, 0));
  CHECK_RC(gex_RMA_PutBlocking(ex_tm, t, a, oob, 65536, 0), 0);
  CHECK_RC(gex_RMA_PutBlocking(ex_tm, t, a + 65536, SCRATCH, (size_t)1 << 20, 0), 0);
  memset(oob, 0xAA, 65536);
  memset(SCRATCH + HALF, 0xAA, (size_t)1 << 20);
  ev[0] = GEX_EVENT_INVALID;
  ev[1] = gex_RMA_GetNB(ex_tm, oob, t, a, 65536, 0);
  ev[2] = GEX_EVENT_INVALID;
  ev[3] = gex_RMA_PutNB(ex_tm, t, a + 1300000, oob2, 4096, &ev[4], 0); /* root, then its leaf */
  ev[5] = gex_RMA_GetNB(ex_tm, SCRATCH + HALF, t, a + 65536, (size_t)1 << 20, 0);
  ev[6] = gex_RMA_GetNB(ex_tm, oob + 65536, ex_me, AREA(ex_me, ex_me), 8, 0);
  ev[7] = GEX_EVENT_INVALID;
  ev[8] = gex_Coll_BarrierNB(ex_tm, 0);
  for (int i = 0; i < NEV; i++) CHECK(ev[i] != GEX_EVENT_NO_OP, "event %d is GEX_EVENT_NO_OP", i);
}
static void check_events_data(gex_Rank_t t, uint32_t round, const char *how) {
  uint8_t b[4096];
  ex_check_pat(oob, 65536, ex_seed(round, 1, 0, 0), "GetNB synchronized by %s", how);
  ex_check_pat(SCRATCH + HALF, (size_t)1 << 20, ex_seed(round, 2, 0, 0), "GetNB (1 MiB) synchronized by %s", how);
  get_into(b, t, AREA(t, ex_me) + 1300000, 4096);
  ex_check_pat(b, 4096, ex_seed(round, 3, 0, 0), "PutNB synchronized by %s", how);
}
static void t_events(void) {
  gex_Rank_t t = (ex_me + 1) % ex_n;
  gex_Event_t ev[NEV];
  uint32_t round = 0;
  int rc, valid, before;
  /* only INVALID: success at once, entries untouched */
  for (int i = 0; i < NEV; i++) ev[i] = GEX_EVENT_INVALID;
  CHECK_RC(gex_Event_TestSome(ev, NEV, 0), GASNET_OK);
  CHECK_RC(gex_Event_TestAll(ev, NEV, 0), GASNET_OK);
  gex_Event_WaitSome(ev, NEV, 0);
  gex_Event_WaitAll(ev, NEV, 0);
  CHECK(count_valid(ev, NEV) == 0, "an all-INVALID array changed");
  /* TestSome: success iff some completed (those set INVALID) */
  fill_events(ev, t, ++round);
  for (double dl = ex_now() + 30; (valid = count_valid(ev, NEV)) > 0 && ex_now() < dl;) {
    rc = gex_Event_TestSome(ev, NEV, 0);
    before = valid;
    valid = count_valid(ev, NEV);
    CHECK(rc == GASNET_OK || rc == GASNET_ERR_NOT_READY, "gex_Event_TestSome returned %d", rc);
    if (rc == GASNET_OK) CHECK(valid < before, "gex_Event_TestSome succeeded with %d events left of %d", valid, before);
    else CHECK(valid == before, "gex_Event_TestSome returned NOT_READY and changed the array (%d -> %d)", before, valid);
    gasnet_AMPoll();
  }
  CHECK(count_valid(ev, NEV) == 0, "events still pending after TestSome loops");
  check_events_data(t, round, "gex_Event_TestSome");
  /* WaitSome: at least one each time */
  fill_events(ev, t, ++round);
  for (int k = 0; k < NEV + 1 && (before = count_valid(ev, NEV)) > 0; k++) {
    gex_Event_WaitSome(ev, NEV, 0);
    CHECK(count_valid(ev, NEV) < before, "gex_Event_WaitSome returned with %d of %d events left",
          count_valid(ev, NEV), before);
  }
  CHECK(count_valid(ev, NEV) == 0, "events still pending after WaitSome calls");
  check_events_data(t, round, "gex_Event_WaitSome");
  /* TestAll: NOT_READY until all are done */
  fill_events(ev, t, ++round);
  for (double dl = ex_now() + 30;;) {
    rc = gex_Event_TestAll(ev, NEV, 0);
    CHECK(rc == GASNET_OK || rc == GASNET_ERR_NOT_READY, "gex_Event_TestAll returned %d", rc);
    if (rc == GASNET_OK) {
      CHECK(count_valid(ev, NEV) == 0, "gex_Event_TestAll succeeded with %d events left", count_valid(ev, NEV));
      break;
    }
    if (rc != GASNET_ERR_NOT_READY || ex_now() > dl) {
      ex_fail("gex_Event_TestAll: no success");
      break;
    }
    gasnet_AMPoll();
  }
  check_events_data(t, round, "gex_Event_TestAll");
  /* WaitAll */
  fill_events(ev, t, ++round);
  gex_Event_WaitAll(ev, NEV, 0);
  CHECK(count_valid(ev, NEV) == 0, "gex_Event_WaitAll returned with %d events left", count_valid(ev, NEV));
  check_events_data(t, round, "gex_Event_WaitAll");
  /* one at a time: Test until done, Wait */
  fill_events(ev, t, ++round);
  for (int i = NEV - 1; i >= 0; i--) {
    if (i == 4) continue; /* (the leaf: before its root, below) */
    if (i == 3) gex_Event_Wait(ev[4]);
    if (i % 2) {
      gex_Event_Wait(ev[i]);
    } else {
      double dl = ex_now() + 30;
      while ((rc = gex_Event_Test(ev[i])) != GASNET_OK && ex_now() < dl) {
        CHECK(rc == GASNET_ERR_NOT_READY, "gex_Event_Test returned %d", rc);
        gasnet_AMPoll();
      }
      CHECK(rc == GASNET_OK, "gex_Event_Test: event %d never completed", i);
    }
  }
  check_events_data(t, round, "gex_Event_Test/Wait");
  /* NBI categories: a get does not complete GEX_EC_PUT and v.v. is not
   * promised, but each category's wait completes its own */
  ex_fill(oob2, 4096, ex_seed(round, 9, 0, 0));
  CHECK_RC(gex_RMA_PutNBI(ex_tm, t, AREA(t, ex_me) + 1400000, oob2, 4096, GEX_EVENT_DEFER, 0), 0);
  memset(oob, 0xAA, 4096);
  CHECK_RC(gex_RMA_GetNBI(ex_tm, oob, t, AREA(t, ex_me), 4096, 0), 0);
  gex_NBI_Wait(GEX_EC_GET, 0);
  ex_check_pat(oob, 4096, ex_seed(round, 1, 0, 0), "GetNBI after gex_NBI_Wait(GEX_EC_GET)");
  gex_NBI_Wait(GEX_EC_PUT, 0);
  {
    uint8_t b[4096];
    get_into(b, t, AREA(t, ex_me) + 1400000, 4096);
    ex_check_pat(b, 4096, ex_seed(round, 9, 0, 0), "PutNBI after gex_NBI_Wait(GEX_EC_PUT)");
  }
}

static void t_access_region(void) {
  gex_Rank_t t = (ex_me + 1) % ex_n;
  uint8_t *a = AREA(t, ex_me), *outside = oob, *inside = oob + 65536, *s1 = oob2, *s2 = oob2 + 200000, *s3 = oob2 + 300000;
  gex_Event_t e, enb;
  uint64_t v = 0x1122334455667788ull ^ ex_me;
  ex_fill(SCRATCH, 131072, ex_seed(ex_me, 0xAC, 0, 0));
  CHECK_RC(gex_RMA_PutBlocking(ex_tm, t, a, SCRATCH, 131072, 0), 0);
  memset(outside, 0xAA, 65536);
  memset(inside, 0xAA, 65536);
  ex_fill(s1, 100000, ex_seed(ex_me, 0xAC, 1, 0));
  ex_fill(s2, 3333, ex_seed(ex_me, 0xAC, 2, 0));
  ex_fill(s3, 8, ex_seed(ex_me, 0xAC, 3, 0));
  ex_fill(SCRATCH + HALF, 5000, ex_seed(ex_me, 0xAC, 4, 0));
  CHECK_RC(gex_RMA_GetNBI(ex_tm, outside, t, a, 65536, 0), 0); /* outside the region: the NBI set's */
  gex_NBI_BeginAccessRegion(0);
  CHECK_RC(gex_RMA_PutNBI(ex_tm, t, a + 262144, s1, 100000, GEX_EVENT_DEFER, 0), 0);
  CHECK_RC(gex_RMA_PutNBI(ex_tm, t, a + 524288, s2, 3333, GEX_EVENT_GROUP, 0), 0);
  CHECK_RC(gex_RMA_PutNBI(ex_tm, t, a + 600000, s3, 8, GEX_EVENT_NOW, 0), 0);
  memset(s3, 0xEE, 8);
  CHECK_RC(gex_RMA_GetNBI(ex_tm, inside, t, a + 65536, 65536, 0), 0);
  CHECK_RC(gex_RMA_PutNBIVal(ex_tm, t, a + 600100, v, 8, 0), 0);
  enb = gex_RMA_PutNB(ex_tm, t, a + 700000, SCRATCH + HALF, 5000, GEX_EVENT_DEFER, 0); /* its own event */
  e = gex_NBI_EndAccessRegion(0);
  CHECK(e != GEX_EVENT_NO_OP, "gex_NBI_EndAccessRegion returned GEX_EVENT_NO_OP");
  gex_Event_Wait(e);
  gex_Event_Wait(enb);
  ex_check_pat_from(inside, 65536, ex_seed(ex_me, 0xAC, 0, 0), 65536, "GetNBI in an access region");
  {
    uint8_t *b = malloc(100000);
    get_into(b, t, a + 262144, 100000);
    ex_check_pat(b, 100000, ex_seed(ex_me, 0xAC, 1, 0), "PutNBI (DEFER) in an access region");
    get_into(b, t, a + 524288, 3333);
    ex_check_pat(b, 3333, ex_seed(ex_me, 0xAC, 2, 0), "PutNBI (GROUP) in an access region");
    get_into(b, t, a + 600000, 8);
    ex_check_pat(b, 8, ex_seed(ex_me, 0xAC, 3, 0), "PutNBI (NOW) in an access region");
    CHECK(gex_RMA_GetBlockingVal(ex_tm, t, a + 600100, 8, 0) == v, "PutNBIVal in an access region");
    get_into(b, t, a + 700000, 5000);
    ex_check_pat(b, 5000, ex_seed(ex_me, 0xAC, 4, 0), "PutNB in an access region");
    free(b);
  }
  gex_NBI_Wait(GEX_EC_GET, 0);
  ex_check_pat(outside, 65536, ex_seed(ex_me, 0xAC, 0, 0), "GetNBI before the access region");
  /* an empty region */
  gex_NBI_BeginAccessRegion(0);
  e = gex_NBI_EndAccessRegion(0);
  CHECK(e != GEX_EVENT_NO_OP, "an empty access region's event is GEX_EVENT_NO_OP");
  CHECK_RC(gex_Event_Test(e), GASNET_OK);
  /* several regions, synchronized together */
  {
    gex_Event_t evs[8];
    for (int i = 0; i < 8; i++) {
      gex_NBI_BeginAccessRegion(0);
      CHECK_RC(gex_RMA_GetNBI(ex_tm, oob + (uintptr_t)i * 8192, t, a + 65536 + (uintptr_t)i * 4096, 8192, 0), 0);
      evs[i] = gex_NBI_EndAccessRegion(0);
    }
    gex_Event_WaitAll(evs, 8, 0);
    CHECK(count_valid(evs, 8) == 0, "gex_Event_WaitAll on access-region events left %d", count_valid(evs, 8));
    for (int i = 0; i < 8; i++)
      ex_check_pat_from(oob + (uintptr_t)i * 8192, 8192, ex_seed(ex_me, 0xAC, 0, 0), 65536 + (size_t)i * 4096,
                        "access region %d of 8: its GetNBI", i);
  }
}

/* ------------------------------------------------------------------ */
/* IMMEDIATE                                                           */
/* ------------------------------------------------------------------ */
/* Every injection call takes GEX_FLAG_IMMEDIATE: done, or refused with
 * no effect (then done again without it). */
static void t_immediate_accept(void) {
  enum { OPS = 9 };
  static const char *const opname[OPS] = {"gex_RMA_PutBlocking", "gex_RMA_PutNBI (NOW)", "gex_RMA_PutNBI (GROUP)",
                                         "gex_RMA_PutNB (NOW)",  "gex_RMA_PutNB (DEFER)", "gex_RMA_PutNB (leaf)",
                                         "gex_RMA_PutBlockingVal", "gex_RMA_PutNBVal", "gex_RMA_PutNBIVal"};
  const size_t n = 3000;
  for (gex_Rank_t t = 0; t < ex_n; t++) {
    /* puts: the target holds the old bytes until a put is done */
    for (int op = 0; op < OPS; op++)
      for (int attempt = 0; attempt < 2; attempt++) {
        gex_Flags_t f = attempt ? 0 : GEX_FLAG_IMMEDIATE;
        uint8_t *dst = AREA(t, ex_me) + (uintptr_t)op * 4096, b[4096];
        size_t k = op >= 6 ? 8 : n;
        uint32_t oldseed = ex_seed(ex_me, t, (uint32_t)op, 1), newseed = ex_seed(ex_me, t, (uint32_t)op, 2);
        uint64_t v;
        gex_Event_t e = GEX_EVENT_INVALID, leaf = GEX_EVENT_INVALID;
        int refused = 0;
        if (!attempt) {
          ex_fill(oob, k, oldseed);
          CHECK_RC(gex_RMA_PutBlocking(ex_tm, t, dst, oob, k, 0), 0);
        }
        ex_fill(oob, k, newseed);
        memcpy(&v, oob, 8);
        {
          const uint16_t one = 1;
          if (!*(const uint8_t *)&one) { /* (big-endian: the value whose native bytes are the pattern's) */
            v = 0;
            for (int i = 0; i < 8; i++) v = (v << 8) | oob[i];
          }
        }
        switch (op) {
          case 0: refused = gex_RMA_PutBlocking(ex_tm, t, dst, oob, k, f) != 0; break;
          case 1: refused = gex_RMA_PutNBI(ex_tm, t, dst, oob, k, GEX_EVENT_NOW, f) != 0; break;
          case 2: refused = gex_RMA_PutNBI(ex_tm, t, dst, oob, k, GEX_EVENT_GROUP, f) != 0; break;
          case 3: refused = (e = gex_RMA_PutNB(ex_tm, t, dst, oob, k, GEX_EVENT_NOW, f)) == GEX_EVENT_NO_OP; break;
          case 4: refused = (e = gex_RMA_PutNB(ex_tm, t, dst, oob, k, GEX_EVENT_DEFER, f)) == GEX_EVENT_NO_OP; break;
          case 5: refused = (e = gex_RMA_PutNB(ex_tm, t, dst, oob, k, &leaf, f)) == GEX_EVENT_NO_OP; break;
          case 6: refused = gex_RMA_PutBlockingVal(ex_tm, t, dst, v, 8, f) != 0; break;
          case 7: refused = (e = gex_RMA_PutNBVal(ex_tm, t, dst, v, 8, f)) == GEX_EVENT_NO_OP; break;
          default: refused = gex_RMA_PutNBIVal(ex_tm, t, dst, v, 8, f) != 0; break;
        }
        if (refused) {
          CHECK(f, "%s refused without IMMEDIATE", opname[op]);
          refusals++;
          get_into(b, t, dst, k);
          ex_check_pat(b, k, oldseed, "%s with IMMEDIATE was refused, but the target changed", opname[op]);
          continue; /* again without IMMEDIATE */
        }
        if (op == 5) gex_Event_Wait(leaf);
        if (op == 2) gex_NBI_Wait(GEX_EC_LC, 0);
        if (op == 4) gex_Event_Wait(e);
        else memset(oob, 0xEE, k);
        if (op != 4) gex_Event_Wait(e);
        gex_NBI_Wait(GEX_EC_PUT, 0);
        get_into(b, t, dst, k);
        ex_check_pat(b, k, newseed, "%s with%s IMMEDIATE to rank %u", opname[op], f ? "" : "out", (unsigned)t);
        break;
      }
    /* gets: a refused one leaves its destination alone */
    for (int op = 0; op < 4; op++)
      for (int attempt = 0; attempt < 2; attempt++) {
        gex_Flags_t f = attempt ? 0 : GEX_FLAG_IMMEDIATE;
        uint8_t *src = AREA(t, ex_me) + (uintptr_t)op * 4096; /* (the puts' new bytes) */
        size_t k = op == 3 ? 8 : n;
        gex_Event_t e = GEX_EVENT_INVALID;
        int refused = 0;
        uint64_t v = 0;
        memset(oob2, 0xAA, k);
        switch (op) {
          case 0: refused = gex_RMA_GetBlocking(ex_tm, oob2, t, src, k, f) != 0; break;
          case 1: refused = gex_RMA_GetNBI(ex_tm, oob2, t, src, k, f) != 0; break;
          case 2: refused = (e = gex_RMA_GetNB(ex_tm, oob2, t, src, k, f)) == GEX_EVENT_NO_OP; break;
          default: v = gex_RMA_GetBlockingVal(ex_tm, t, src, 8, f); memcpy(oob2, &v, 8); break;
        }
        if (refused) {
          CHECK(f, "gex_RMA_Get (form %d) refused without IMMEDIATE", op);
          refusals++;
          ex_check_byte(oob2, k, 0xAA, "a refused IMMEDIATE get (form %d) wrote its destination", op);
          continue;
        }
        gex_Event_Wait(e);
        gex_NBI_Wait(GEX_EC_GET, 0);
        if (op == 3) { /* the native 8-byte integer of the 4th put's bytes */
          uint8_t w[8];
          uint64_t want;
          ex_fill(w, 8, ex_seed(ex_me, t, 3, 2));
          memcpy(&want, w, 8);
          CHECK(v == want, "gex_RMA_GetBlockingVal with IMMEDIATE: 0x%" PRIx64 ", expected 0x%" PRIx64, v, want);
        } else {
          ex_check_pat(oob2, k, ex_seed(ex_me, t, (uint32_t)op, 2), "gex_RMA_Get (form %d) with%s IMMEDIATE", op,
                       f ? "" : "out");
        }
        break;
      }
    /* AM requests of every category and lc with IMMEDIATE (the handlers'
     * replies take it too: rep_flags) */
    for (int lcm = 0; lcm < NLC; lcm++)
      for (unsigned m = 2; m <= 5; m += 3) {
        send_fixed_f(CAT_S, t, m, 0, lcm, 0, GEX_FLAG_IMMEDIATE);
        send_fixed_f(CAT_M, t, m, 777, lcm, lcm & 1, GEX_FLAG_IMMEDIATE);
        send_fixed_f(CAT_L, t, m, 7777, lcm, lcm & 1, GEX_FLAG_IMMEDIATE);
      }
    /* negotiated payload: Prepare and Commit_v2 with IMMEDIATE */
    for (int cat = CAT_M; cat <= CAT_L; cat++)
      for (int c = 0; c < NP_NCASES; c++)
        if (np_cases[c].prep_imm || np_cases[c].commit == C_V2IMM) send_np(cat, t, (unsigned)c, c);
    /* the segment query: a rank of this process is always answered */
    {
      void *owner = NULL, *local = NULL;
      uintptr_t size = 0;
      gex_Event_t e = gex_EP_QueryBoundSegmentNB(ex_tm, t, &owner, &local, &size, GEX_FLAG_IMMEDIATE);
      if (t == ex_me) CHECK(e == GEX_EVENT_INVALID, "gex_EP_QueryBoundSegmentNB(self, IMMEDIATE) returned %p", (void *)e);
      CHECK(e == GEX_EVENT_INVALID || e == GEX_EVENT_NO_OP, "gex_EP_QueryBoundSegmentNB(IMMEDIATE) returned %p",
            (void *)e);
      if (e == GEX_EVENT_INVALID)
        CHECK(owner == ex_segs[t].addr && size == ex_segs[t].size, "gex_EP_QueryBoundSegmentNB(%u, IMMEDIATE): %p+%zu",
              (unsigned)t, owner, (size_t)size);
    }
  }
  am_verify();
}

/* One rank (1) stops polling while another (0) floods it with IMMEDIATE
 * injections: what was accepted must arrive, exactly once each, and what
 * was refused must have had no effect.  Refusals happen where the Core
 * runs out of credits or buffers (run with the smallest credits).  The
 * blocking kinds are tried only once refusals show that resources are
 * short (an accepted blocking put to a rank that does not poll may wait
 * for it). */
#define FLOOD_V 0x0123456789ABCDEFull
enum { K_SHORT, K_MEDIUM, K_LONG, K_NP, K_PUTNB, K_PUTNBI, K_GETNB, K_GETNBI, K_PUTNBVAL, K_PUTNBIVAL, K_PUTB, K_GETB,
       K_PUTBVAL, K_NKINDS };
static const char *const kind_name[K_NKINDS] = {"Short", "Medium", "Long", "NP Medium", "PutNB", "PutNBI", "GetNB",
                                                "GetNBI", "PutNBVal", "PutNBIVal", "PutBlocking", "GetBlocking",
                                                "PutBlockingVal"};
static int kind_is_am(int k) { return k <= K_NP; }
static int kind_is_get(int k) { return k == K_GETNB || k == K_GETNBI || k == K_GETB; }
static void t_immediate_flood(void) {
  const double sleep_s = 1.5, flood_s = 0.6;
  long maxa = getenv("EXCONF_FLOOD_ATTEMPTS") ? atol(getenv("EXCONF_FLOOD_ATTEMPTS")) : 12000;
  uint8_t *flood_ctrl = CTRL_FLOOD(1); /* [0,8) the gets' value, [8,24) the record, succ[] at 64, kinds[] after */
  if (ex_n < 2) {
    ex_skip_reason = "needs 2 ranks";
    return;
  }
  if (maxa < 16) maxa = 16;
  if (maxa > FLOOD_MAX - 1) maxa = FLOOD_MAX - 1;
  memset(flood_got, 0, sizeof(flood_got));
  flood_got_n = 0;
  if (ex_me == 1) { /* rank 1's memory before the flood */
    uint64_t v = FLOOD_V;
    memcpy(flood_ctrl, &v, 8);
    memset(flood_ctrl + 8, 0, 64 + 2 * FLOOD_MAX);
    memset(AREA(1, 0), 0, (size_t)FLOOD_MAX * FLOOD_LONG);
    memset(AREA(1, 0) + HALF, 0, (size_t)FLOOD_MAX * 8);
  }
  ex_barrier();
  if (ex_me == 1) {
    /* no GASNet call for sleep_s */
    double end = ex_now() + sleep_s;
    while (ex_now() < end) {
      struct timespec ts = {0, 10 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
  } else if (ex_me == 0) {
    uint8_t *succ = calloc(FLOOD_MAX, 1), *kinds = calloc(FLOOD_MAX, 1), medbuf[FLOOD_MED], lbuf[FLOOD_LONG];
    uint64_t *getbuf = calloc(FLOOD_MAX, 8), *vals = calloc(FLOOD_MAX, 8);
    gex_Event_t *evs = calloc(FLOOD_MAX, sizeof(gex_Event_t));
    size_t nev = 0;
    long a, np_refused = 0, last, kind_refused[K_NKINDS] = {0}, kind_tried[K_NKINDS] = {0};
    int longest_kind = -1;
    double t0 = ex_now();
    struct {
      int64_t attempts, last;
    } hdr;
    flood_longest = 0;
    for (a = 0; a < maxa && ex_now() - t0 < flood_s; a++) {
      int rc = 0, kind = (int)(a % K_NKINDS);
      double c0, dt;
      gex_Event_t e;
      gex_AM_SrcDesc_t sd;
      uint8_t *slot = AREA(1, 0) + HALF + (uintptr_t)a * 8;
      if (kind >= K_PUTB && flood_refused < 32) kind = K_SHORT; /* (the blocking kinds: once resources are short) */
      kinds[a] = (uint8_t)kind;
      kind_tried[kind]++;
      vals[a] = (uint64_t)a + 1;
      c0 = ex_now();
      switch (kind) {
        case K_SHORT: rc = gex_AM_RequestShort1(ex_tm, 1, H_FLOOD_S, GEX_FLAG_IMMEDIATE, a); break;
        case K_MEDIUM:
          ex_fill(medbuf, FLOOD_MED, ex_seed(0xF1, (uint32_t)a, 0, 0));
          rc = gex_AM_RequestMedium1(ex_tm, 1, H_FLOOD_M, medbuf, FLOOD_MED, GEX_EVENT_NOW, GEX_FLAG_IMMEDIATE, a);
          break;
        case K_LONG:
          ex_fill(lbuf, FLOOD_LONG, ex_seed(0xF2, (uint32_t)a, 0, 0));
          rc = gex_AM_RequestLong1(ex_tm, 1, H_FLOOD_L, lbuf, FLOOD_LONG, AREA(1, 0) + (uintptr_t)a * FLOOD_LONG,
                                   GEX_EVENT_NOW, GEX_FLAG_IMMEDIATE, a);
          break;
        case K_NP:
          sd = gex_AM_PrepareRequestMedium(ex_tm, 1, NULL, FLOOD_MED, FLOOD_MED, NULL, GEX_FLAG_IMMEDIATE, 1);
          if (sd == GEX_AM_SRCDESC_NO_OP) {
            rc = 1;
            break;
          }
          {
            void *addr = gex_AM_SrcDescAddr(sd);
            size_t size = gex_AM_SrcDescSize(sd);
            CHECK(size == FLOOD_MED, "gex_AM_SrcDescSize %zu, least = most = %d", size, FLOOD_MED);
            ex_fill(addr, FLOOD_MED, ex_seed(0xF1, (uint32_t)a, 0, 0));
            rc = gex_AM_CommitRequestMedium1_v2(sd, H_FLOOD_M, FLOOD_MED, GEX_FLAG_IMMEDIATE, a);
            if (rc) { /* refused: the descriptor stays valid; cancelled */
              np_refused++;
              CHECK(gex_AM_SrcDescAddr(sd) == addr && gex_AM_SrcDescSize(sd) == size,
                    "a refused gex_AM_CommitRequestMedium1_v2 changed its descriptor");
              CHECK_RC(gex_AM_CancelRequestMedium(sd, 0), 0);
            }
          }
          break;
        case K_PUTNB:
          e = gex_RMA_PutNB(ex_tm, 1, slot, &vals[a], 8, GEX_EVENT_NOW, GEX_FLAG_IMMEDIATE);
          if (e == GEX_EVENT_NO_OP) rc = 1;
          else evs[nev++] = e;
          break;
        case K_PUTNBI: rc = gex_RMA_PutNBI(ex_tm, 1, slot, &vals[a], 8, GEX_EVENT_NOW, GEX_FLAG_IMMEDIATE); break;
        case K_GETNB:
          e = gex_RMA_GetNB(ex_tm, &getbuf[a], 1, flood_ctrl, 8, GEX_FLAG_IMMEDIATE);
          if (e == GEX_EVENT_NO_OP) rc = 1;
          else evs[nev++] = e;
          break;
        case K_GETNBI: rc = gex_RMA_GetNBI(ex_tm, &getbuf[a], 1, flood_ctrl, 8, GEX_FLAG_IMMEDIATE); break;
        case K_PUTNBVAL:
          e = gex_RMA_PutNBVal(ex_tm, 1, slot, vals[a], 8, GEX_FLAG_IMMEDIATE);
          if (e == GEX_EVENT_NO_OP) rc = 1;
          else evs[nev++] = e;
          break;
        case K_PUTNBIVAL: rc = gex_RMA_PutNBIVal(ex_tm, 1, slot, vals[a], 8, GEX_FLAG_IMMEDIATE); break;
        case K_PUTB: rc = gex_RMA_PutBlocking(ex_tm, 1, slot, &vals[a], 8, GEX_FLAG_IMMEDIATE); break;
        case K_GETB: rc = gex_RMA_GetBlocking(ex_tm, &getbuf[a], 1, flood_ctrl, 8, GEX_FLAG_IMMEDIATE); break;
        default: rc = gex_RMA_PutBlockingVal(ex_tm, 1, slot, vals[a], 8, GEX_FLAG_IMMEDIATE); break;
      }
      dt = ex_now() - c0;
      if (dt > flood_longest) flood_longest = dt, longest_kind = kind;
      if (rc) {
        kind_refused[kind]++;
        flood_refused++;
        refusals++;
        gasnet_AMPoll(); /* (the best practice: poll after a refusal) */
      } else {
        succ[a] = 1;
      }
    }
    /* last: a Commit_v2 with IMMEDIATE; if refused, committed without */
    last = a;
    kinds[last] = K_NP;
    {
      gex_AM_SrcDesc_t sd = gex_AM_PrepareRequestMedium(ex_tm, 1, NULL, FLOOD_MED, FLOOD_MED, NULL, 0, 1);
      CHECK(sd != GEX_AM_SRCDESC_NO_OP, "gex_AM_PrepareRequestMedium returned NO_OP without IMMEDIATE");
      if (sd != GEX_AM_SRCDESC_NO_OP) {
        void *addr = gex_AM_SrcDescAddr(sd);
        size_t size = gex_AM_SrcDescSize(sd);
        int rc;
        ex_fill(addr, FLOOD_MED, ex_seed(0xF1, (uint32_t)last, 0, 0));
        rc = gex_AM_CommitRequestMedium1_v2(sd, H_FLOOD_M, FLOOD_MED, GEX_FLAG_IMMEDIATE, last);
        if (rc) {
          np_refused++;
          flood_refused++;
          refusals++;
          CHECK(gex_AM_SrcDescAddr(sd) == addr && gex_AM_SrcDescSize(sd) == size,
                "a refused gex_AM_CommitRequestMedium1_v2 changed its descriptor");
          gex_AM_CommitRequestMedium1(sd, H_FLOOD_M, FLOOD_MED, last); /* (waits for rank 1) */
        }
        succ[last] = 1;
      }
    }
    flood_attempts = last + 1;
    gex_Event_WaitAll(evs, nev, 0);
    gex_NBI_Wait(GEX_EC_ALL, 0);
    for (a = 0; a < last; a++)
      if (kind_is_get(kinds[a]))
        CHECK(getbuf[a] == (succ[a] ? FLOOD_V : 0), "flood %s %ld (%s): 0x%" PRIx64, kind_name[kinds[a]], a,
              succ[a] ? "accepted" : "refused: must not write", getbuf[a]);
    hdr.attempts = flood_attempts;
    hdr.last = last;
    CHECK_RC(gex_RMA_PutBlocking(ex_tm, 1, flood_ctrl + 64, succ, (size_t)flood_attempts, 0), 0);
    CHECK_RC(gex_RMA_PutBlocking(ex_tm, 1, flood_ctrl + 64 + FLOOD_MAX, kinds, (size_t)flood_attempts, 0), 0);
    CHECK_RC(gex_RMA_PutBlocking(ex_tm, 1, flood_ctrl + 8, &hdr, sizeof(hdr), 0), 0);
    printf("# exconf: immediate_flood: %ld IMMEDIATE attempts against a rank not polling, %ld refused (by kind, "
           "refused/tried:", flood_attempts, flood_refused);
    for (int k = 0; k < K_NKINDS; k++) printf(" %s %ld/%ld", kind_name[k], kind_refused[k], kind_tried[k]);
    printf("; %ld Commit_v2); longest IMMEDIATE call %.1f ms (%s)\n", np_refused, flood_longest * 1e3,
           longest_kind >= 0 ? kind_name[longest_kind] : "-");
    fflush(stdout);
    free(succ);
    free(kinds);
    free(getbuf);
    free(vals);
    free(evs);
  }
  ex_barrier();
  if (ex_me == 1) {
    int64_t hdr[2];
    const uint8_t *succ = flood_ctrl + 64, *kinds = flood_ctrl + 64 + FLOOD_MAX;
    long want = 0;
    memcpy(hdr, flood_ctrl + 8, sizeof(hdr));
    CHECK(hdr[0] > 0 && hdr[0] <= FLOOD_MAX && hdr[1] == hdr[0] - 1, "flood record: %" PRId64 " attempts, last %" PRId64,
          hdr[0], hdr[1]);
    if (hdr[0] <= 0 || hdr[0] > FLOOD_MAX) return;
    for (long a = 0; a < hdr[0]; a++)
      if (kind_is_am(kinds[a]) && succ[a]) want++;
    EX_WAIT(__atomic_load_n(&flood_got_n, __ATOMIC_RELAXED) >= want, 30, "%ld flood AMs (%ld arrived)", want,
            flood_got_n);
    {
      double end = ex_now() + 0.2; /* (anything more that would arrive) */
      while (ex_now() < end) ex_poll();
    }
    CHECK(flood_got_n == want, "%ld flood AMs ran, %ld were accepted", flood_got_n, want);
    for (long a = 0; a < hdr[0]; a++) {
      int kind = kinds[a];
      uint64_t slot;
      memcpy(&slot, AREA(1, 0) + HALF + (uintptr_t)a * 8, 8);
      if (kind_is_am(kind)) {
        CHECK(flood_got[a] == (succ[a] ? 1 : 0), "flood %s %ld %s, ran %d times", kind_name[kind], a,
              succ[a] ? "accepted" : "refused", flood_got[a]);
      } else {
        CHECK(flood_got[a] == 0, "attempt %ld is a put or get, but an AM carried its number", a);
        if (kind_is_get(kind))
          CHECK(slot == 0, "flood get %ld: its put slot was written", a);
        else
          CHECK(slot == (succ[a] ? (uint64_t)a + 1 : 0), "flood %s %ld (%s): the target holds %" PRIu64,
                kind_name[kind], a, succ[a] ? "accepted" : "refused: must not write", slot);
      }
    }
  }
  if (ex_me != 0 && ex_me != 1) CHECK(1, "(a bystander)");
}

/* ------------------------------------------------------------------ */
/* HSL, collectives                                                    */
/* ------------------------------------------------------------------ */
static gex_HSL_t *thr_hsl;
static int thr_state;
static void *hsl_holder(void *arg) {
  (void)arg;
  gex_HSL_Lock(thr_hsl);
  __atomic_store_n(&thr_state, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&thr_state, __ATOMIC_SEQ_CST) != 2) sched_yield();
  gex_HSL_Unlock(thr_hsl);
  return NULL;
}
static void t_hsl(void) {
  gex_HSL_t h, h2 = GEX_HSL_INITIALIZER;
  pthread_t th;
  const int K = 40;
  long c;
  gex_HSL_Lock(&hsl_static);
  gex_HSL_Unlock(&hsl_static);
  CHECK_RC(gex_HSL_Trylock(&hsl_static), GASNET_OK);
  gex_HSL_Unlock(&hsl_static);
  CHECK_RC(gex_HSL_Trylock(&h2), GASNET_OK);
  gex_HSL_Unlock(&h2);
  gex_HSL_Destroy(&h2);
  gex_HSL_Init(&h);
  gex_HSL_Lock(&hsl_static); /* nested, released in reverse order */
  gex_HSL_Lock(&h);
  gex_HSL_Unlock(&h);
  gex_HSL_Unlock(&hsl_static);
  CHECK_RC(gex_HSL_Trylock(&h), GASNET_OK);
  gex_HSL_Unlock(&h);
  /* held by another thread: Trylock fails, then succeeds once released */
  thr_hsl = &h;
  thr_state = 0;
  CHECK(pthread_create(&th, NULL, hsl_holder, NULL) == 0, "pthread_create");
  while (__atomic_load_n(&thr_state, __ATOMIC_SEQ_CST) != 1) sched_yield();
  CHECK_RC(gex_HSL_Trylock(&h), GASNET_ERR_NOT_READY);
  __atomic_store_n(&thr_state, 2, __ATOMIC_SEQ_CST);
  pthread_join(th, NULL);
  CHECK_RC(gex_HSL_Trylock(&h), GASNET_OK);
  gex_HSL_Unlock(&h);
  gex_HSL_Destroy(&h);
  /* handlers take the lock; the client reads under it */
  for (int k = 0; k < K; k++)
    for (gex_Rank_t t = 0; t < ex_n; t++) CHECK_RC(gex_AM_RequestShort0(ex_tm, t, H_HSL, 0), 0);
  for (double dl = ex_now() + 30;;) {
    gex_HSL_Lock(&hsl_static);
    c = hsl_count;
    gex_HSL_Unlock(&hsl_static);
    if (c >= (long)K * (long)ex_n || ex_now() > dl) break;
    gasnet_AMPoll();
  }
  CHECK(c == (long)K * (long)ex_n, "the HSL handler ran %ld times, expected %ld", c, (long)K * (long)ex_n);
}

static void t_coll_barrier(void) {
  gex_Rank_t next = (ex_me + 1) % ex_n, prev = (ex_me + ex_n - 1) % ex_n;
  for (uint64_t round = 1; round <= 60; round++) {
    uint64_t *mine = (uint64_t *)(void *)(CTRL_BARWORD(ex_me, prev) + (round % 2) * EX_MAXN * 8);
    int rc;
    /* a value to the next rank before the barrier: there after it */
    CHECK_RC(gex_RMA_PutBlocking(ex_tm, next, CTRL_BARWORD(next, ex_me) + (round % 2) * EX_MAXN * 8, &round, 8, 0), 0);
    switch (round % 3) {
      case 0: gex_Coll_BarrierBlocking(ex_tm, 0); break;
      case 1: gex_Event_Wait(gex_Coll_BarrierNB(ex_tm, 0)); break;
      default: {
        gex_Event_t e = gex_Coll_BarrierNB(ex_tm, 0);
        double dl = ex_now() + 30;
        CHECK(e != GEX_EVENT_NO_OP, "gex_Coll_BarrierNB returned GEX_EVENT_NO_OP");
        while ((rc = gex_Event_Test(e)) != GASNET_OK && ex_now() < dl) {
          CHECK(rc == GASNET_ERR_NOT_READY, "gex_Event_Test(barrier) returned %d", rc);
          gasnet_AMPoll();
        }
        CHECK(rc == GASNET_OK, "the barrier never completed");
        break;
      }
    }
    CHECK(*(volatile uint64_t *)mine == round, "after barrier %" PRIu64 ": rank %u's value before it is %" PRIu64, round,
          (unsigned)prev, *(volatile uint64_t *)mine);
  }
  /* a rank that arrives late holds every other rank in the barrier */
  {
    static uint64_t late;
    uint64_t one = 1;
    if (ex_me == 0) {
      double end = ex_now() + 0.2;
      while (ex_now() < end) gasnet_AMPoll();
      for (gex_Rank_t t = 0; t < ex_n; t++)
        CHECK_RC(gex_RMA_PutBlocking(ex_tm, t, CTRL_BARWORD(t, EX_MAXN - 1) + 2 * EX_MAXN * 8, &one, 8, 0), 0);
    }
    gex_Coll_BarrierBlocking(ex_tm, 0);
    memcpy(&late, CTRL_BARWORD(ex_me, EX_MAXN - 1) + 2 * EX_MAXN * 8, 8);
    CHECK(late == 1, "left the barrier before rank 0 (late) entered it");
    gex_Coll_BarrierBlocking(ex_tm, 0);
    memset(CTRL_BARWORD(ex_me, EX_MAXN - 1) + 2 * EX_MAXN * 8, 0, 8);
  }
}

static void t_coll_broadcast(void) {
  static const size_t sizes[] = {0, 1, 4096, (size_t)1 << 20};
  for (gex_Rank_t root = 0; root < ex_n; root++)
    for (size_t si = 0; si < EX_ARRAY_LEN(sizes); si++)
      for (int v = 0; v < 3; v++) { /* destination in the segment, out of it, the root's dst == src */
        size_t n = sizes[si];
        uint32_t seed = ex_seed(root, (uint32_t)n, (uint32_t)v, 0xBC);
        uint8_t *src = oob2, *dst = v == 0 ? SCRATCH : oob;
        gex_Event_t e;
        int rc;
        if (v == 2 && ex_me == root) dst = src;
        if (ex_me == root) ex_fill(src, n, seed);
        if (dst != src) memset(dst, 0xAA, n + 64);
        e = gex_Coll_BroadcastNB(ex_tm, root, dst, src, n, 0);
        CHECK(e != GEX_EVENT_NO_OP, "gex_Coll_BroadcastNB returned GEX_EVENT_NO_OP");
        if (si & 1) {
          gex_Event_Wait(e);
        } else {
          double dl = ex_now() + 30;
          while ((rc = gex_Event_Test(e)) != GASNET_OK && ex_now() < dl) {
            CHECK(rc == GASNET_ERR_NOT_READY, "gex_Event_Test(broadcast) returned %d", rc);
            gasnet_AMPoll();
          }
          CHECK(rc == GASNET_OK, "the broadcast never completed");
        }
        ex_check_pat(dst, n, seed, "broadcast of %zu bytes from root %u (%s)", n, (unsigned)root,
                     v == 0 ? "in-segment destination" : v == 1 ? "out-of-segment destination" : "dst == src at the root");
        if (dst != src) ex_check_byte(dst + n, 64, 0xAA, "broadcast of %zu bytes from root %u wrote past its end", n,
                                      (unsigned)root);
      }
}

/* ------------------------------------------------------------------ */
/* queries                                                             */
/* ------------------------------------------------------------------ */
static long pre_fails; /* failures reported before the subtests started */

static void t_queries(void) {
  gex_TM_t pair = gex_TM_Pair(ex_ep, 0);
  static int cd[4];
  /* the objects */
  CHECK(!strcmp(gex_Client_QueryName(ex_client), "EXCONF"), "gex_Client_QueryName: \"%s\"", gex_Client_QueryName(ex_client));
  CHECK_EQ(gex_Client_QueryFlags(ex_client), 0, "gex_Client_QueryFlags");
  CHECK(gex_EP_QueryClient(ex_ep) == ex_client, "gex_EP_QueryClient");
  CHECK_EQ(gex_EP_QueryFlags(ex_ep), 0, "gex_EP_QueryFlags");
  CHECK(gex_EP_QuerySegment(ex_ep) == ex_seg, "gex_EP_QuerySegment after attach: %p, attach gave %p",
        (void *)gex_EP_QuerySegment(ex_ep), (void *)ex_seg);
  CHECK_EQ(gex_EP_QueryIndex(ex_ep), 0, "gex_EP_QueryIndex of the primordial endpoint");
  CHECK(gex_TM_QueryClient(ex_tm) == ex_client, "gex_TM_QueryClient");
  CHECK(gex_TM_QueryEP(ex_tm) == ex_ep, "gex_TM_QueryEP");
  CHECK_EQ(gex_TM_QueryFlags(ex_tm), 0, "gex_TM_QueryFlags");
  CHECK_EQ(gex_TM_QueryRank(ex_tm), ex_me, "gex_TM_QueryRank");
  CHECK_EQ(gex_TM_QuerySize(ex_tm), ex_n, "gex_TM_QuerySize");
  CHECK(ex_seg != GEX_SEGMENT_INVALID, "gex_Segment_Attach gave GEX_SEGMENT_INVALID");
  CHECK(gex_Segment_QueryClient(ex_seg) == ex_client, "gex_Segment_QueryClient");
  CHECK_EQ(gex_Segment_QueryFlags(ex_seg), 0, "gex_Segment_QueryFlags");
  CHECK_EQ(gex_Segment_QuerySize(ex_seg), pre.segsize, "gex_Segment_QuerySize (the size attached)");
  CHECK((uintptr_t)gex_Segment_QueryAddr(ex_seg) % GASNET_PAGESIZE == 0, "gex_Segment_QueryAddr %p: not page aligned",
        gex_Segment_QueryAddr(ex_seg));
  CHECK_EQ(gex_System_QueryJobRank(), ex_me, "gex_System_QueryJobRank");
  CHECK_EQ(gex_System_QueryJobSize(), ex_n, "gex_System_QueryJobSize");
  CHECK_EQ(gex_System_QueryMaxThreads(), 1, "gex_System_QueryMaxThreads (GASNET_SEQ)");
  CHECK_EQ(gex_System_QueryHiddenAMConcurrencyLevel(), GASNET_HIDDEN_AM_CONCURRENCY_LEVEL,
           "gex_System_QueryHiddenAMConcurrencyLevel");
  {
    unsigned cnt = 99;
    const gex_ProgressThreadInfo_t *info = NULL;
    CHECK_RC(gex_System_QueryProgressThreads(ex_client, &cnt, &info, 0), GASNET_ERR_RESOURCE);
  }
  /* TM-pair */
  CHECK(pair != GEX_TM_INVALID && pair != ex_tm, "gex_TM_Pair(ep, 0) = %p (the team is %p)", (void *)pair, (void *)ex_tm);
  CHECK(pair == gex_TM_Pair(ex_ep, 0), "two gex_TM_Pair(ep, 0) differ");
  /* translations */
  for (gex_Rank_t r = 0; r < ex_n; r++) {
    gex_EP_Location_t loc = gex_TM_TranslateRankToEP(ex_tm, r, 0);
    CHECK_EQ(gex_TM_TranslateRankToJobrank(ex_tm, r), r, "gex_TM_TranslateRankToJobrank");
    CHECK_EQ(gex_TM_TranslateJobrankToRank(ex_tm, r), r, "gex_TM_TranslateJobrankToRank");
    CHECK(loc.gex_rank == r && loc.gex_ep_index == 0, "gex_TM_TranslateRankToEP(%u) = {%u, %u}", (unsigned)r,
          (unsigned)loc.gex_rank, (unsigned)loc.gex_ep_index);
  }
  /* every rank's bound segment, as that rank said (broadcast) */
  for (gex_Rank_t r = 0; r < ex_n; r++)
    for (int how = 0; how < 3; how++) {
      void *owner = (void *)1, *local = (void *)1;
      uintptr_t size = 1;
      gex_TM_t tm = how == 1 ? pair : ex_tm;
      gex_Event_t e = gex_EP_QueryBoundSegmentNB(tm, r, &owner, &local, &size, how == 2 ? GEX_FLAG_IMMEDIATE : 0);
      CHECK(e != GEX_EVENT_NO_OP || how == 2, "gex_EP_QueryBoundSegmentNB without IMMEDIATE returned GEX_EVENT_NO_OP");
      if (e == GEX_EVENT_NO_OP) {
        CHECK(r != ex_me, "gex_EP_QueryBoundSegmentNB(self, IMMEDIATE) returned GEX_EVENT_NO_OP");
        continue;
      }
      gex_Event_Wait(e);
      CHECK(owner == ex_segs[r].addr && size == ex_segs[r].size,
            "gex_EP_QueryBoundSegmentNB(rank %u, %s): %p + %zu, rank %u's gex_Segment_Query* say %p + %zu", (unsigned)r,
            how == 1 ? "TM-pair" : how == 2 ? "IMMEDIATE" : "team", owner, (size_t)size, (unsigned)r, ex_segs[r].addr,
            (size_t)ex_segs[r].size);
      /* localaddr: mapped here only for this process (the nbrhd is itself) */
      CHECK(local == (r == ex_me ? ex_segs[r].addr : NULL), "gex_EP_QueryBoundSegmentNB(rank %u): localaddr %p",
            (unsigned)r, local);
    }
  {
    void *owner = NULL, *local = NULL;
    uintptr_t size = 0;
    gex_Event_Wait(gex_EP_QueryBoundSegmentNB(ex_tm, ex_me, NULL, NULL, NULL, 0)); /* (every output optional) */
    CHECK_RC(gex_Segment_QueryBound(ex_tm, (ex_me + 1) % ex_n, &owner, &local, &size), 0);
    CHECK(owner == ex_segs[(ex_me + 1) % ex_n].addr && size == ex_segs[(ex_me + 1) % ex_n].size,
          "gex_Segment_QueryBound: %p + %zu", owner, (size_t)size);
  }
  /* one endpoint only */
  {
    int verbose = gex_System_GetVerboseErrors();
    gex_EP_t ep2 = GEX_EP_INVALID;
    gex_System_SetVerboseErrors(0);
    CHECK_EQ(gex_System_GetVerboseErrors(), 0, "gex_System_GetVerboseErrors after Set(0)");
    CHECK_RC(gex_EP_Create(&ep2, ex_client, GEX_EP_CAPABILITY_RMA, 0), GASNET_ERR_RESOURCE);
    CHECK_RC(gex_EP_Create(&ep2, ex_client, GEX_EP_CAPABILITY_ALL, 0), GASNET_ERR_RESOURCE);
    CHECK(ep2 == GEX_EP_INVALID, "a refused gex_EP_Create wrote its endpoint");
    gex_System_SetVerboseErrors(1);
    CHECK_EQ(gex_System_GetVerboseErrors(), 1, "gex_System_GetVerboseErrors after Set(1)");
    gex_System_SetVerboseErrors(verbose);
  }
  /* client data: NULL at first, round trips, one per object */
  CHECK(pre.cdata_client == NULL && pre.cdata_ep == NULL && pre.cdata_tm == NULL && pre.cdata_seg == NULL,
        "the objects' CData were not NULL at first: %p %p %p %p", pre.cdata_client, pre.cdata_ep, pre.cdata_tm,
        pre.cdata_seg);
  gex_Client_SetCData(ex_client, &cd[0]);
  gex_EP_SetCData(ex_ep, &cd[1]);
  gex_TM_SetCData(ex_tm, &cd[2]);
  gex_Segment_SetCData(ex_seg, &cd[3]);
  CHECK(gex_Client_QueryCData(ex_client) == &cd[0], "gex_Client_QueryCData");
  CHECK(gex_EP_QueryCData(ex_ep) == &cd[1], "gex_EP_QueryCData");
  CHECK(gex_TM_QueryCData(ex_tm) == &cd[2], "gex_TM_QueryCData");
  CHECK(gex_Segment_QueryCData(ex_seg) == &cd[3], "gex_Segment_QueryCData");
  gex_Client_SetCData(ex_client, NULL);
  gex_EP_SetCData(ex_ep, NULL);
  gex_TM_SetCData(ex_tm, NULL);
  gex_Segment_SetCData(ex_seg, NULL);
  CHECK(!gex_Client_QueryCData(ex_client) && !gex_EP_QueryCData(ex_ep) && !gex_TM_QueryCData(ex_tm) &&
            !gex_Segment_QueryCData(ex_seg),
        "CData set back to NULL");
  /* neighbourhood: this process alone; host: the processes on this machine */
  {
    gex_RankInfo_t *info = NULL;
    gex_Rank_t cnt = 0, idx = 99, nbs = 0, nbr = 0, hs = 0, hr = 0, nhosts = 0, want_cnt = 0;
    struct {
      char host[64];
      uint32_t nbr, hr;
    } mine, *all = calloc(ex_n, sizeof(mine));
    gex_System_QueryNbrhdInfo(&info, &cnt, &idx);
    CHECK(cnt == 1 && idx == 0 && info && info[0].gex_jobrank == ex_me, "gex_System_QueryNbrhdInfo: %u members, index %u",
          (unsigned)cnt, (unsigned)idx);
    gex_System_QueryNbrhdInfo(NULL, NULL, NULL);
    gex_System_QueryMyPosition(&nbs, &nbr, &hs, &hr);
    gex_System_QueryMyPosition(NULL, NULL, NULL, NULL);
    memset(&mine, 0, sizeof(mine));
    gethostname(mine.host, sizeof(mine.host) - 1);
    mine.nbr = nbr;
    mine.hr = hr;
    allgather(&mine, sizeof(mine), all);
    gex_System_QueryHostInfo(&info, &cnt, &idx);
    gex_System_QueryHostInfo(NULL, NULL, NULL);
    CHECK(info && idx < cnt && info[idx].gex_jobrank == ex_me, "gex_System_QueryHostInfo: my index %u of %u", (unsigned)idx,
          (unsigned)cnt);
    for (gex_Rank_t r = 0; r < ex_n; r++) {
      int first = 1;
      if (!strcmp(all[r].host, mine.host)) {
        CHECK(want_cnt < cnt && info && info[want_cnt].gex_jobrank == r,
              "gex_System_QueryHostInfo: entry %u is rank %u, expected rank %u (same host name)", (unsigned)want_cnt,
              want_cnt < cnt && info ? (unsigned)info[want_cnt].gex_jobrank : 9999u, (unsigned)r);
        want_cnt++;
        CHECK(all[r].hr == hr, "ranks %u and %u share a host but not host_set_rank (%u, %u)", (unsigned)r,
              (unsigned)ex_me, (unsigned)all[r].hr, (unsigned)hr);
      } else {
        CHECK(all[r].hr != hr, "ranks %u and %u are on different hosts but share host_set_rank %u", (unsigned)r,
              (unsigned)ex_me, (unsigned)hr);
      }
      if (r != ex_me) CHECK(all[r].nbr != nbr, "ranks %u and %u share nbrhd_set_rank %u", (unsigned)r, (unsigned)ex_me,
                            (unsigned)nbr);
      for (gex_Rank_t q = 0; q < r; q++)
        if (!strcmp(all[q].host, all[r].host)) first = 0;
      nhosts += first;
    }
    CHECK(cnt == want_cnt, "gex_System_QueryHostInfo: %u processes on this host, %u have its name", (unsigned)cnt,
          (unsigned)want_cnt);
    CHECK(nbs == ex_n && nbr < nbs, "gex_System_QueryMyPosition: nbrhd set %u of %u (every process its own nbrhd)",
          (unsigned)nbr, (unsigned)nbs);
    CHECK(hs == nhosts && hr < hs, "gex_System_QueryMyPosition: host %u of %u, %u host names", (unsigned)hr, (unsigned)hs,
          (unsigned)nhosts);
    free(all);
  }
}

/* ------------------------------------------------------------------ */
/* AM payload limits                                                   */
/* ------------------------------------------------------------------ */
static size_t max_q(int k, gex_TM_t tm, gex_Rank_t r, const gex_Event_t *lc, gex_Flags_t f, unsigned m) {
  switch (k) {
    case 0: return gex_AM_MaxRequestMedium(tm, r, lc, f, m);
    case 1: return gex_AM_MaxReplyMedium(tm, r, lc, f, m);
    case 2: return gex_AM_MaxRequestLong(tm, r, lc, f, m);
    default: return gex_AM_MaxReplyLong(tm, r, lc, f, m);
  }
}
static const char *const max_name[4] = {"gex_AM_MaxRequestMedium", "gex_AM_MaxReplyMedium", "gex_AM_MaxRequestLong",
                                        "gex_AM_MaxReplyLong"};
static void lubs(size_t *l) {
  l[0] = gex_AM_LUBRequestMedium();
  l[1] = gex_AM_LUBReplyMedium();
  l[2] = gex_AM_LUBRequestLong();
  l[3] = gex_AM_LUBReplyLong();
}
/* Max >= LUB >= 512 for every rank (and GEX_RANK_INVALID, and through a
 * TM-pair), argument count, lc_opt and flags; non-increasing in the count;
 * GEX_RANK_INVALID's the least over the ranks */
static void check_limits(const size_t *lub, const char *when) {
  gex_TM_t pair = gex_TM_Pair(ex_ep, 0);
  const gex_Event_t *lcs[4] = {GEX_EVENT_NOW, GEX_EVENT_GROUP, &dummy_ev, NULL};
  CHECK_EQ(gex_AM_MaxArgs(), 16, "gex_AM_MaxArgs()");
  for (int k = 0; k < 4; k++) CHECK(lub[k] >= 512, "%s: LUB %d is %zu, less than 512", when, k, lub[k]);
  for (int k = 0; k < 4; k++)
    for (int l = 0; l < 4; l++) {
      if ((k & 1) && l == 1) continue; /* (GEX_EVENT_GROUP: requests only) */
      for (int fi = 0; fi < 2; fi++) {
        gex_Flags_t f = fi ? GEX_FLAG_IMMEDIATE : 0;
        size_t prev_inv = (size_t)-1;
        for (unsigned m = 0; m < 17; m++) {
          size_t inv = max_q(k, ex_tm, GEX_RANK_INVALID, lcs[l], f, m), least = (size_t)-1;
          for (gex_Rank_t r = 0; r < ex_n; r++) {
            size_t v = max_q(k, ex_tm, r, lcs[l], f, m), vp = max_q(k, pair, r, lcs[l], f, m);
            CHECK(v >= lub[k], "%s: %s(rank %u, lc %d, flags 0x%x, %u args) = %zu < LUB %zu", when, max_name[k],
                  (unsigned)r, l, (unsigned)f, m, v, lub[k]);
            CHECK(v >= 512, "%s: %s = %zu < 512", when, max_name[k], v);
            CHECK(vp == v, "%s: %s through a TM-pair %zu, through the team %zu", when, max_name[k], vp, v);
            if (v < least) least = v;
          }
          CHECK(inv == least, "%s: %s(GEX_RANK_INVALID, lc %d, flags 0x%x, %u args) = %zu, the least over the ranks %zu",
                when, max_name[k], l, (unsigned)f, m, inv, least);
          CHECK(inv <= prev_inv, "%s: %s grows from %zu to %zu with %u args", when, max_name[k], prev_inv, inv, m);
          prev_inv = inv;
        }
      }
    }
}
static void t_am_limits(void) {
  size_t lub[4], lub_sym[4][17][EX_MAXN];
  gex_TM_t pair = gex_TM_Pair(ex_ep, 0);
  lubs(lub);
  for (int k = 0; k < 4; k++)
    CHECK(lub[k] == pre.lub[k], "%s's LUB before gex_Segment_Attach %zu, now %zu", max_name[k], pre.lub[k], lub[k]);
  check_limits(lub, "after attach");
  /* stable over the job: what was queried before attach */
  for (int k = 0; k < 4; k++)
    for (unsigned m = 0; m < 17; m++) {
      size_t v = max_q(k, ex_tm, (ex_me + 1) % ex_n, GEX_EVENT_NOW, 0, m);
      CHECK(v == pre.max[k][m], "%s(%u args) before attach %zu, now %zu", max_name[k], m, pre.max[k][m], v);
    }
  /* symmetric: my query towards r equals r's towards me */
  {
    static size_t all[EX_MAXN][4][17][EX_MAXN];
    for (int k = 0; k < 4; k++)
      for (unsigned m = 0; m < 17; m++)
        for (gex_Rank_t r = 0; r < ex_n; r++)
          lub_sym[k][m][r] = max_q(k, ex_tm, r, (k & 1) ? (const gex_Event_t *)&dummy_ev : GEX_EVENT_GROUP,
                                   m & 1 ? GEX_FLAG_IMMEDIATE : 0, m);
    allgather(lub_sym, sizeof(lub_sym), all);
    for (gex_Rank_t r = 0; r < ex_n; r++)
      for (int k = 0; k < 4; k++)
        for (unsigned m = 0; m < 17; m++)
          CHECK(all[r][k][m][ex_me] == lub_sym[k][m][r], "%s(%u args): rank %u towards me %zu, me towards it %zu",
                max_name[k], m, (unsigned)r, all[r][k][m][ex_me], lub_sym[k][m][r]);
  }
  /* the LEAST queries: a Prepare with that least_payload succeeds */
  for (gex_Rank_t r = 0; r < ex_n; r++)
    for (int k = 0; k < 4; k += 2)
      for (int client = 0; client < 2; client++)
        for (unsigned m = 0; m < 17; m += 8) {
          gex_Flags_t f = client ? GEX_FLAG_AM_PREPARE_LEAST_CLIENT : GEX_FLAG_AM_PREPARE_LEAST_ALLOC;
          const gex_Event_t *lc = client ? GEX_EVENT_NOW : NULL;
          size_t least = max_q(k, ex_tm, r, lc, f, m), lp = max_q(k, pair, r, lc, f, m);
          gex_AM_SrcDesc_t sd;
          CHECK(least >= 512, "%s with %s = %zu < 512", max_name[k], client ? "LEAST_CLIENT" : "LEAST_ALLOC", least);
          CHECK(lp == least, "%s (LEAST) through a TM-pair differs", max_name[k]);
          if (client && least > 2 * HALF) continue; /* (more than the client's buffers here hold) */
          sd = k == 0 ? gex_AM_PrepareRequestMedium(ex_tm, r, client ? oob : NULL, least, least, (gex_Event_t *)lc, 0, m)
                      : gex_AM_PrepareRequestLong(ex_tm, r, client ? oob : NULL, least, least, NULL, (gex_Event_t *)lc, 0, m);
          CHECK(sd != GEX_AM_SRCDESC_NO_OP, "a Prepare with least_payload = %s(%s) = %zu returned NO_OP", max_name[k],
                client ? "LEAST_CLIENT" : "LEAST_ALLOC", least);
          if (sd == GEX_AM_SRCDESC_NO_OP) continue;
          CHECK(gex_AM_SrcDescSize(sd) == least, "gex_AM_SrcDescSize %zu, least = most = %zu", gex_AM_SrcDescSize(sd),
                least);
          if (!client) memset(gex_AM_SrcDescAddr(sd), 0x5A, least); /* (GASNet's buffer holds it) */
          CHECK_RC(k == 0 ? gex_AM_CancelRequestMedium(sd, 0) : gex_AM_CancelRequestLong(sd, 0), 0);
        }
  /* gex_Token_MaxReply* in a handler: the pings' handlers compare */
  {
    long before = token_max_checks;
    for (gex_Rank_t r = 0; r < ex_n; r++) CHECK_RC(gex_AM_RequestShort1(ex_tm, r, H_PING, 0, ex_me * 7 + 1), 0);
    EX_WAIT(pongs == (long)ex_n, 30, "%u pongs (%ld)", (unsigned)ex_n, pongs);
    ex_barrier();
    CHECK(token_max_checks > before, "no gex_Token_MaxReply* comparison was made in a handler");
  }
}

/* ------------------------------------------------------------------ */
/* registration                                                        */
/* ------------------------------------------------------------------ */
static void t_register(void) {
  gex_AM_Entry_t t2[3];
  gex_AM_Index_t want[3];
  int seen[256] = {0};
  CHECK_RC(pre.reg_rc, GASNET_OK);
  for (size_t i = 0; i < table_n; i++) {
    unsigned idx = table[i].gex_index;
    CHECK(idx == table_expected[i], "table entry %zu (%s): index %u, expected %u (fixed first, then each 0 entry the "
          "highest free index, in table order)", i, table[i].gex_name, idx, (unsigned)table_expected[i]);
    CHECK(idx >= GEX_AM_INDEX_BASE && idx <= 255, "table entry %zu: index %u", i, idx);
    CHECK(!seen[idx], "index %u assigned twice", idx);
    seen[idx] = 1;
  }
  CHECK_RC(gex_EP_RegisterHandlers(ex_ep, NULL, 0), GASNET_OK);
  /* a second table: one fixed index, two assigned */
  memset(t2, 0, sizeof(t2));
  for (int k = 0; k < 3; k++) {
    t2[k].gex_index = k == 0 ? H_REG_FIXED : 0;
    t2[k].gex_fnptr = k == 0 ? (gex_AM_Fn_t)h_reg0 : k == 1 ? (gex_AM_Fn_t)h_reg1 : (gex_AM_Fn_t)h_reg2;
    t2[k].gex_flags = GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST;
    t2[k].gex_nargs = 1;
    t2[k].gex_cdata = &reg_tag[k];
    t2[k].gex_name = reg_names[k];
  }
  expected_assignment(t2, 3, taken_now, want);
  CHECK_RC(gex_EP_RegisterHandlers(ex_ep, t2, 3), GASNET_OK);
  for (int k = 0; k < 3; k++) {
    CHECK(t2[k].gex_index == want[k], "second table, entry %d: index %u, expected %u", k, (unsigned)t2[k].gex_index,
          (unsigned)want[k]);
    CHECK(t2[k].gex_flags == (GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST) && t2[k].gex_nargs == 1 &&
              t2[k].gex_cdata == &reg_tag[k],
          "gex_EP_RegisterHandlers changed more than gex_index");
    reg_idx[k] = t2[k].gex_index;
    taken_now[reg_idx[k]] = 1;
  }
  memset(t2, 0xA5, sizeof(t2)); /* (the library keeps its own copy) */
  ex_barrier();                 /* everybody registered */
  for (gex_Rank_t r = 0; r < ex_n; r++)
    for (int k = 0; k < 3; k++) CHECK_RC(gex_AM_RequestShort1(ex_tm, r, reg_idx[k], 0, ex_me * 1000 + (unsigned)k), 0);
  for (int k = 0; k < 3; k++)
    EX_WAIT(reg_count[k] == (long)ex_n, 30, "%u requests to %s (%ld)", (unsigned)ex_n, reg_names[k], reg_count[k]);
}

/* ------------------------------------------------------------------ */
/* before attach                                                       */
/* ------------------------------------------------------------------ */
static void t_preattach(void) {
  size_t lub[4];
  CHECK(pre_fails == 0, "%ld failure(s) before gex_Segment_Attach (the \"FAIL startup\" lines above)", pre_fails);
  CHECK_EQ(pre.jobrank, ex_me, "gex_System_QueryJobRank before attach");
  CHECK_EQ(pre.jobsize, ex_n, "gex_System_QueryJobSize before attach");
  CHECK(pre.ep_seg == GEX_SEGMENT_INVALID, "gex_EP_QuerySegment before attach: %p", (void *)pre.ep_seg);
  CHECK(pre.bound_size == 0, "gex_EP_QueryBoundSegmentNB(self) before attach: size %zu (no bound segment yet)",
        (size_t)pre.bound_size);
  CHECK(pre.am_pongs == 1 && pre.am_pre_replies == 2, "AMs before attach: %d pongs (1), %d Medium replies (2)",
        pre.am_pongs, pre.am_pre_replies);
  CHECK_EQ(pre.max_threads, 1, "gex_System_QueryMaxThreads before attach");
  CHECK(pre.init2_rc == GASNET_ERR_RESOURCE && pre.init2_untouched,
        "a second gex_Client_Init returned %d (GASNET_ERR_RESOURCE expected)%s", pre.init2_rc,
        pre.init2_untouched ? "" : " and wrote its outputs");
  CHECK(pre.max_local >= pre.max_global && pre.max_global >= pre.segsize && pre.max_global % GASNET_PAGESIZE == 0,
        "gasnet_getMaxLocalSegmentSize %zu, gasnet_getMaxGlobalSegmentSize %zu, the test's segment %zu",
        (size_t)pre.max_local, (size_t)pre.max_global, (size_t)pre.segsize);
  lubs(lub);
  for (int k = 0; k < 4; k++) {
    CHECK(lub[k] == pre.lub[k], "%s's LUB before attach %zu, after %zu", max_name[k], pre.lub[k], lub[k]);
    CHECK(pre.least_alloc[k] == max_q(k, ex_tm, (ex_me + 1) % ex_n, NULL, GEX_FLAG_AM_PREPARE_LEAST_ALLOC, 0),
          "%s(LEAST_ALLOC) changed at attach", max_name[k]);
    CHECK(pre.least_client[k] == max_q(k, ex_tm, (ex_me + 1) % ex_n, GEX_EVENT_NOW, GEX_FLAG_AM_PREPARE_LEAST_CLIENT, 0),
          "%s(LEAST_CLIENT) changed at attach", max_name[k]);
  }
}

/* ------------------------------------------------------------------ */
/* the subtests                                                        */
/* ------------------------------------------------------------------ */
static const ex_subtest_t subtests[] = {
    {"preattach", t_preattach, "between gex_Client_Init and gex_Segment_Attach: LUBs, limits, AMs, no segment yet"},
    {"queries", t_queries, "client/EP/TM/segment queries, TM-pair, translations, bound segments, EP_Create, CData, "
                           "nbrhd and host"},
    {"am_limits", t_am_limits, "gex_AM_MaxArgs, Max* >= LUB* for every count/lc/flags/rank, symmetry, LEAST_*, Token_Max*"},
    {"register", t_register, "gex_EP_RegisterHandlers: fixed and assigned indices, a second table, gex_Token_Info entry"},
    {"am_short_args", t_am_short_args, "Short requests and replies with 0..16 arguments, every rank, every value"},
    {"am_medium_args", t_am_medium_args, "Medium with 0..16 arguments, sizes 0, 1, odd, Max, every request lc_opt"},
    {"am_long_args", t_am_long_args, "Long with 0..16 arguments, sizes 0, 1, odd, Max, every request lc_opt"},
    {"am_inferred", t_am_inferred, "the AM and Commit forms without M (count inferred)"},
    {"np_medium", t_np_medium, "negotiated-payload Medium requests and replies: buffers, least/most, v1/v2, Cancel"},
    {"np_long", t_np_long, "negotiated-payload Long requests and replies"},
    {"np_payload_held", t_np_payload_held, "an NP Medium request's payload stays intact while its handler runs on "
                                           "after replying, its sender sending on"},
    {"rma_blocking", t_rma_blocking, "PutBlocking/GetBlocking: sizes 0..1 MiB, in/out-of-segment, TM-pair, every rank"},
    {"rma_nb", t_rma_nb, "PutNB (lc NOW, DEFER, leaf), GetNB, QueryLeaf, Test/Wait"},
    {"rma_nbi", t_rma_nbi, "PutNBI (lc NOW, GROUP, DEFER), GetNBI, gex_NBI_Test/Wait by category"},
    {"rma_val", t_rma_val, "PutBlockingVal/PutNBVal/PutNBIVal/GetBlockingVal, 1..8 bytes"},
    {"rma_word_store", t_rma_word_store, "a loopback put of an aligned 1/2/4/8-byte word is one store (testacc)"},
    {"events", t_events, "Test/Wait, TestSome/WaitSome/TestAll/WaitAll with INVALID and leaf entries, NBI categories"},
    {"access_region", t_access_region, "gex_NBI_Begin/EndAccessRegion: one event for the NBI operations inside"},
    {"immediate_accept", t_immediate_accept, "every injection call with GEX_FLAG_IMMEDIATE: done, or refused with no effect"},
    {"immediate_flood", t_immediate_flood, "IMMEDIATE injections against a rank that does not poll: exact delivery"},
    {"hsl", t_hsl, "gex_HSL_*: initializer, init, lock, trylock, destroy, from handlers"},
    {"coll_barrier", t_coll_barrier, "gex_Coll_BarrierNB/BarrierBlocking synchronize"},
    {"coll_broadcast", t_coll_broadcast, "gex_Coll_BroadcastNB: every root, 0 B .. 1 MiB"},
};
#define NSUBTESTS ((int)EX_ARRAY_LEN(subtests))

static void reset(void) {
  memset(&recv_c, 0, sizeof(recv_c));
  memset(&sent_c, 0, sizeof(sent_c));
  memset(reg_count, 0, sizeof(reg_count));
  memset(signals, 0, sizeof(signals));
  pongs = 0;
  gex_HSL_Lock(&hsl_static);
  hsl_count = 0;
  gex_HSL_Unlock(&hsl_static);
  g_mode = MODE_ARGS;
}
static void after(void) {
  drain_slots(1);
  g_mode = MODE_ARGS;
}

/* the totals, before the summary */
static void final_report(void) {
  long mine[3] = {refusals, flood_attempts, flood_refused}, *all = calloc(ex_n, sizeof(mine)), tot = 0;
  allgather(mine, sizeof(mine), all);
  if (ex_me == 0) {
    char by[256];
    int k = 0;
    by[0] = 0;
    for (gex_Rank_t r = 0; r < ex_n && k < 200; r++) {
      k += snprintf(by + k, sizeof(by) - (size_t)k, "%s%ld", r ? " " : "", all[r * 3]);
      tot += all[r * 3];
    }
    printf("# exconf: immediate refusals %ld (by rank: %s; immediate_flood: %ld of %ld attempts refused)\n", tot, by,
           all[2], all[1]);
    if (slot_fallbacks) printf("# exconf: %ld pointer-lc replies fell back to GEX_EVENT_NOW (no free slot)\n", slot_fallbacks);
    fflush(stdout);
  }
  free(all);
}

int main(int argc, char **argv) {
  int rc, code;
  uintptr_t segsize;
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--list") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      ex_usage(stdout, subtests, NSUBTESTS);
      return 0;
    }
  ex_pat_init();
  rc = gex_Client_Init(&ex_client, &ex_ep, &ex_tm, "EXCONF", &argc, &argv, 0);
  if (rc != GASNET_OK) {
    fprintf(stderr, "exconf: gex_Client_Init returned %d (%s)\n", rc, gasnet_ErrorName(rc));
    return 1;
  }
  ex_me = gex_TM_QueryRank(ex_tm);
  ex_n = gex_TM_QuerySize(ex_tm);
  if (ex_n > EX_MAXN) {
    if (ex_me == 0) fprintf(stderr, "exconf: at most %d ranks\n", EX_MAXN);
    gasnet_exit(2);
  }
  oob = malloc(2 * HALF);
  oob2 = malloc(2 * HALF);
  rep_scratch = malloc(2 * HALF);
  for (int i = 0; i < NSLOT; i++) slots[i].buf = malloc(SLOT_SZ);
  if (!oob || !oob2 || !rep_scratch) {
    fprintf(stderr, "exconf: out of memory\n");
    gasnet_exit(2);
  }

  /* ---- between gex_Client_Init and gex_Segment_Attach ---- */
  {
    /* one client per process: a second gex_Client_Init is refused */
    gex_Client_t c2 = GEX_CLIENT_INVALID;
    gex_EP_t e2 = GEX_EP_INVALID;
    gex_TM_t t2 = GEX_TM_INVALID;
    pre.init2_rc = gex_Client_Init(&c2, &e2, &t2, "EXCONF2", &argc, &argv, 0);
    pre.init2_untouched = c2 == GEX_CLIENT_INVALID && e2 == GEX_EP_INVALID && t2 == GEX_TM_INVALID;
  }
  pre.jobrank = gex_System_QueryJobRank();
  pre.jobsize = gex_System_QueryJobSize();
  pre.max_threads = gex_System_QueryMaxThreads();
  pre.cdata_client = gex_Client_QueryCData(ex_client);
  pre.cdata_ep = gex_EP_QueryCData(ex_ep);
  pre.cdata_tm = gex_TM_QueryCData(ex_tm);
  pre.ep_seg = gex_EP_QuerySegment(ex_ep);
  {
    gex_Event_t e = gex_EP_QueryBoundSegmentNB(ex_tm, ex_me, NULL, NULL, &pre.bound_size, 0);
    gex_Event_Wait(e);
  }
  lubs(pre.lub);
  check_limits(pre.lub, "before attach"); /* (failures: "FAIL startup", counted by preattach) */
  for (int k = 0; k < 4; k++) {
    for (unsigned m = 0; m < 17; m++) pre.max[k][m] = max_q(k, ex_tm, (ex_me + 1) % ex_n, GEX_EVENT_NOW, 0, m);
    pre.least_alloc[k] = max_q(k, ex_tm, (ex_me + 1) % ex_n, NULL, GEX_FLAG_AM_PREPARE_LEAST_ALLOC, 0);
    pre.least_client[k] = max_q(k, ex_tm, (ex_me + 1) % ex_n, GEX_EVENT_NOW, GEX_FLAG_AM_PREPARE_LEAST_CLIENT, 0);
  }
  pre.reg_rc = build_and_register();
  ex_barrier(); /* every rank's handlers are registered */
  {
    /* AMs before the segment: a Short round trip, Medium echoes */
    gex_Rank_t next = (ex_me + 1) % ex_n;
    ex_fill(oob, 777, ex_seed(ex_me, next, 0x9e, 0));
    ex_fill(oob2, 777, ex_seed(ex_me, ex_me, 0x9e, 0));
    CHECK_RC(gex_AM_RequestShort1(ex_tm, next, H_PING, 0, ex_me * 7 + 1), 0);
    CHECK_RC(gex_AM_RequestMedium1(ex_tm, next, H_PRE, oob, 777, GEX_EVENT_NOW, 0, 777), 0);
    CHECK_RC(gex_AM_RequestMedium1(ex_tm, ex_me, H_PRE, oob2, 777, GEX_EVENT_NOW, 0, 777), 0);
    EX_WAIT(pongs == 1 && pre_replies == 2, 30, "the AMs before attach (%ld pongs, %ld replies)", pongs, pre_replies);
    pre.am_pongs = (int)pongs;
    pre.am_pre_replies = (int)pre_replies;
    ex_barrier(); /* (every rank's requests answered) */
  }
  pre.max_local = gasnet_getMaxLocalSegmentSize();
  pre.max_global = gasnet_getMaxGlobalSegmentSize();
  segsize = CTRL_SIZE + (uintptr_t)ex_n * AREA_SIZE + SCRATCH_SIZE;
  segsize = (segsize + GASNET_PAGESIZE - 1) & ~(uintptr_t)(GASNET_PAGESIZE - 1);
  pre.segsize = segsize;
  if (segsize > pre.max_global) {
    if (ex_me == 0)
      printf("not ok startup: the test needs a segment of %zu bytes, gasnet_getMaxGlobalSegmentSize() is %zu\n",
             (size_t)segsize, (size_t)pre.max_global);
    gasnet_exit(1);
  }

  /* ---- the segment ---- */
  rc = gex_Segment_Attach(&ex_seg, ex_tm, segsize);
  if (rc != GASNET_OK) {
    printf("not ok startup: rank %u: gex_Segment_Attach returned %d (%s)\n", (unsigned)ex_me, rc, gasnet_ErrorName(rc));
    gasnet_exit(1);
  }
  pre.cdata_seg = gex_Segment_QueryCData(ex_seg);
  ex_exchange_segments();
  pre_fails = ex_fails;

  ex_poll_hook = poll_hook;
  code = ex_run(argc, argv, subtests, NSUBTESTS, reset, after, final_report);
  gasnet_exit(code);
  return code;
}
