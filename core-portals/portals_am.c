/*
 * portals_am.c -- the Portals Core: Active Messages natively over ptl (seed
 * 000 section 4, the `portals` stage), on the Portals conduit
 * (net-portals/portals_conduit.h), which it shares with the Extended API
 * (ext-portals/portals_ext.c) without either using the other.
 *
 * Seed 000 Table 1, the parts this file adds:
 *   ReqRB   STAGEPORT_AM_REQRB (>= 2) locally managed MDs on AM_PTE,
 *           selector 0x3: requests are appended (every message a multiple
 *           of 8 bytes, so padding is the only waste); an MD with less than
 *           one largest request left goes inactive, ptl posts its DRAINED
 *           once every append into it has ended, and it is re-armed in
 *           place -- emptied, and moved before CB (PtlXMERearm: the same
 *           entry, so no publication travels to the writers) -- once that
 *           event is taken: by then every request in it has run, or, for
 *           an unpacked Long still waiting for its payload, has been copied
 *           out.  (Seed 000 relinks it; the re-arming is ptl's extension,
 *           issue 32 item 7.)  Events to AM_EQ.
 *   CB      the catch-all after the ReqRBs (same selector, truncating, no
 *           room): a request that finds every ReqRB full means the credits
 *           promised more than there is; its PUT_END (on SAFE_EQ) is a fatal
 *           credit-accounting error.
 *   RARAM   the segment again, on RAR_PTE selector 0x1, events to AM_EQ:
 *           where unpacked RequestLong payloads land.
 *   ReqSB   here: one slot per request in flight, posted on AM_PTE selector
 *           0x4 (remotely managed): the request is built in the slot and
 *           Put from it, and the reply comes back into it (the slot's offset
 *           is in the upper 32 match bits).  (The Put/Get bounce buffers are
 *           the conduit's.)
 *   RplSB   reply buffers, bound: the source of reply headers.  A reply
 *           that is a header alone (a Short with at most two arguments, the
 *           implicit reply) has no body: it goes from RPL0, an empty MD
 *           without SEND events, and its buffer is free again at once.
 *   CREDIT  dynamic credits only: AM_PTE selector 0x6, zero-length Puts
 *           with its own EQ (reclaim, release; Table 1 gives this duty to
 *           SYS, the conduit's, whose EQ is sized for exit notices).
 *   AM_EQ   request arrivals only (ReqRB, RARAM, ReqRBs drained); everything
 *           else -- reply arrivals, send completions -- is on SAFE_EQ.
 *
 * Header (portals_bits.h): category, handler, nargs, payload padding and a
 * credit field in the match bits; the first two arguments in hdr_data; the
 * others, a Long's destination (and an unpacked Long's length), then the
 * payload in the body.  Requests and replies go without ACK.  A request's
 * SEND_END is ignored, as in seed 000 -- not even made: ReqSB has
 * PTLX_MD_EVENT_SEND_DISABLE (a failed send still reports), and the slot is
 * retired by its reply, which cannot arrive before the request has left it.
 * A reply's SEND_END retires its RplSB buffer.
 *
 * Longs: packed (payload in the body, copied into place at the target)
 * up to STAGEPORT_AM_PACKED_MAX; above it the payload is a Put of its own,
 * by one of two protocols (STAGEPORT_AM_LONG):
 *   tsr  target-side reassembly (seed 002): payload Put to RARAM and header
 *        to ReqRB back to back, both tagged with the Long id (the
 *        requester's ReqSB slot offset); whichever arrives first waits in
 *        the pending table for the other; the handler runs when both are in;
 *   pss  put-sync-send: the payload is Put to RAR with an ACK, and the
 *        header goes once the ACK is back.
 * RequestLong waits for its payload's local completion (SEND_END) like a
 * non-bulk put; RequestLongAsync does not.  Either way the request's ReqSB
 * slot is freed only once its reply has run and its payload's SEND_END
 * (pss: and ACK) is in -- a LongAsync's, or a bounced payload's (copied,
 * locally complete at once), may come after the reply -- and each such
 * event names its request (the slot's generation, kept in the payload's
 * conduit op, checked), so a late one can never mark the next request's
 * payload sent while its source is still being read.  A ReplyLong's
 * payload goes to the requester's RARSRC (SAFE_EQ) with the same tag, and
 * the requester runs the reply handler when both have arrived.
 *
 * Deadlock freedom: before a request handler runs, its reply's resources
 * (an RplSB buffer and two send tokens of the reply pool, apart from the
 * requests' tokens) are reserved, waiting on SAFE_EQ alone (local
 * completions); so a reply never waits for anything but its own local
 * completion, which it also awaits on SAFE_EQ alone, with reply handlers
 * arriving meanwhile deferred to the next poll.  A handler that sends no
 * reply gets an implicit one (handler 0), so the requester's slot and
 * credits always come back.
 *
 * Credits (credits/): a credit is 256 bytes of ReqRB and one AM_EQ event;
 * a request costs ceil(body / 256) (at least 1) plus 1 for an unpacked
 * Long's payload event; every reply returns what its request cost, in its
 * credit field.  ReqRB and AM_EQ are sized so that every credit promised has
 * its room (STAGEPORT_AM_OVERSPEND=F, a test knob, promises F times more).
 * STAGEPORT_CREDITS selects how the capacity is shared:
 *   static   each peer an equal share (STAGEPORT_AM_CREDITS): the capacity
 *            grows with the job;
 *   dynamic  (the default; seed 000 section 4.7) each peer a small grant
 *            (STAGEPORT_AM_CREDITS_INIT) and a bank (STAGEPORT_AM_CREDITS_BANK)
 *            lent to the peers that stall: a stalled request's header
 *            carries its want, the reply's upper match-bit word the loan; a
 *            requester whose whole grant cannot pay a message sends an ask
 *            (STP_AMB_ASK: a Short that runs no handler) and gets a need
 *            loan (all or nothing, STP_AMB_NEED_LOAN in the reply); when
 *            the bank cannot meet an ask, borrowers quiet for
 *            STAGEPORT_CREDITS_QUIET_US (and, if a need waits, the holders
 *            of need loans) get a reclaim and answer with a release of what
 *            of their loan is home (CREDIT messages).  The
 *            capacity is npeers x the grant + the bank, never more than
 *            static's, and no peer holds more than STAGEPORT_AM_CREDITS.
 */
#include "portals_conduit.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "amflow.h"
#include "stageport.h"

#define MAX_MEDIUM 8192u
#define MAX_LONG ((size_t)1 << 20)
#define HDR_MAX 72u                    /* 14 extra arguments (56) + destination + length */
#define MSG_MAX (HDR_MAX + MAX_MEDIUM) /* the largest body */
#define SLOT_SIZE 8320u                /* a ReqSB slot: MSG_MAX + 8 (body_off) rounded up to 64 */
#define RPL_SIZE SLOT_SIZE             /* an RplSB buffer: the same */
#define CREDIT_BYTES 256u
#define NONE UINT32_MAX
_Static_assert(SLOT_SIZE >= MSG_MAX + 8 && SLOT_SIZE % 64 == 0, "a ReqSB slot holds the largest message");

enum { RP_HDR = 1, RP_PAY = 2 };        /* a reply's SEND_ENDs still to come */

typedef struct amslot { /* a request in flight: its ReqSB slot */
  uint8_t waiting;       /* in flight: its reply has not run yet */
  uint8_t hdr_in;        /* the reply header is in (an unpacked ReplyLong may wait for its payload) */
  uint8_t rpay_in;       /* the ReplyLong payload is in */
  uint8_t pay_sent;      /* our Long payload is locally complete (SEND_END) */
  uint8_t pay_acked;     /* ... and acknowledged (put-sync-send) */
  uint8_t pay_due;       /* STP_PC_NEED_* of its events still to come: the slot is not free before */
  uint8_t lc_cat;        /* lc's category (stp_am_lc_cat) */
  stp_ev_t *lc;          /* our Long payload's local completion, counted there until its SEND_END (or NULL) */
  uint32_t gen;          /* which request holds the slot (slot_get counts), named by its payload's conduit op */
  uint32_t peer;
  uint32_t refund;       /* credits paid beyond its cost (a request written in place), home with its reply */
  size_t rpay_len;       /* the arrived ReplyLong payload: length and place */
  void *rpay_dst;
  uint64_t rbits, rhdr;  /* the reply header as it arrived (its body is in the slot) */
  size_t rlen;
  uint32_t next;
} amslot_t;

typedef struct rpl { /* an RplSB buffer: a reply in flight */
  uint8_t need;      /* RP_* */
  stp_pc_oos_t oos;  /* an out-of-segment ReplyLong payload's MD */
  uint32_t next;
} rpl_t;

typedef struct pend { /* an unpacked Long request with half of it in */
  uint32_t src, lid;
  uint8_t have_hdr, have_pay;
  uint8_t handler, nargs;
  uint32_t cost, want;
  void *dst, *paydst;
  size_t len, paylen;
  gex_AM_Arg_t args[16];
} pend_t;

typedef struct reqctx { /* what a request handler's token carries */
  uint32_t src, lid, cost, want, rpl;
} reqctx_t;

/* a decoded header */
typedef struct amhdr {
  unsigned cat, nargs, handler, credits;
  gex_AM_Arg_t args[16];
  void *dst;
  size_t len;
  char *payload;
} amhdr_t;

/* A negotiated-payload AM written in place at its target (PtlXPutReserve):
 * at most one request and one reply at a time (one client thread). */
typedef struct inplace {
  ptlx_inplace_t res;
  char *room;    /* where the reservation starts, mapped here */
  uint32_t paid; /* a request's: the credits paid for all of the room */
} inplace_t;
#define NP_INPLACE ((uintptr_t)1 << 62) /* in stp_np_t's hold: written in place (the rest: as without) */
/* A request's ReqSB slot, from its hold (its index + 1) */
static inline uint32_t hold_slot(uintptr_t hold) { return (uint32_t)(hold & ~NP_INPLACE) - 1; }

typedef struct reqrb {
  char *mem;
  ptl_handle_me_t me;
  ptl_handle_md_t md;
  int drained; /* its DRAINED taken, its re-arming due once it is the front */
} reqrb_t;

static struct {
  ptl_handle_eq_t am_eq;
  ptl_handle_eq_t credit_eq; /* dynamic credits' messages */
  ptl_handle_me_t credit_me;
  ptl_handle_md_t credit_md;
  uint64_t credit_events;
  ptl_handle_md_t reqsb, rplsb, rpl0, cb_md, raram;
  ptl_handle_me_t reqsb_me, cb_me, raram_me;
  char *reqsb_mem, *rplsb_mem, *cb_mem;
  /* requester */
  amslot_t *slot;
  uint32_t nslots, free_slot;
  uint32_t *deferred, ndeferred; /* replies that arrived while a handler ran */
  /* target */
  reqrb_t *rb;
  uint32_t nrb;
  uint32_t front;      /* the ReqRB first in the list: requests from the others wait (see am_eq_event) */
  ptl_event_t *held;   /* their arrivals, in order */
  uint32_t nheld, maxheld;
  size_t rb_size;
  rpl_t *rpl;
  uint32_t nrpl, free_rpl;
  long rtokens;                  /* the reply pool of send tokens */
  pend_t *pend;
  uint32_t npend, maxpend;
  uint64_t eq_events;
  credits_t cr;
  unsigned polls;     /* pam_poll calls: the credit messages and the reclaim sweep every so many */
  size_t packed_max;
  int pss;
  int inplace;    /* NP-AMs in place where the target is mapped: offload mode, one client thread */
  inplace_t ipreq, iprep;
  size_t recv_bytes;
} pa;

static inline size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

static inline int dynamic(void) { return pa.cr.cfg.mode == CREDITS_DYNAMIC; }

/* Bytes of a body before its payload. */
static inline size_t hdr_bytes(unsigned cat, unsigned nargs) {
  size_t n = nargs > 2 ? round8(4 * (size_t)(nargs - 2)) : 0;
  if (cat >= STP_AMB_LONG) n += 8;
  if (cat == STP_AMB_LONG_UNPACKED) n += 8;
  return n;
}

/* Where a body starts in its ReqSB slot or RplSB buffer (both 64-byte
 * aligned): 0 or 8 bytes in, so that its payload is 16-byte aligned (a
 * GASNet-allocated NP buffer is aligned for any type: pam_np_prepare).  A
 * slot's identity on the wire stays its start (lid). */
static inline size_t body_off(unsigned cat, unsigned nargs) { return hdr_bytes(cat, nargs) % 16; }

/* What a request with this body costs: 256 bytes of ReqRB each (the first
 * credit covers the first 256 bytes), plus an unpacked Long's payload event. */
static inline uint32_t cost_of(size_t body, int unpacked) {
  return credits_cost(&pa.cr, body > CREDIT_BYTES ? body - CREDIT_BYTES : 0) + (unpacked ? 1u : 0u);
}

static inline unsigned wire_cat(const stp_am_t *am) {
  if (am->cat == STP_AM_SHORT) return STP_AMB_SHORT;
  if (am->cat == STP_AM_MEDIUM) return STP_AMB_MEDIUM;
  return am->nbytes > pa.packed_max ? STP_AMB_LONG_UNPACKED : STP_AMB_LONG;
}

static inline int api_cat(unsigned wcat) {
  return wcat == STP_AMB_SHORT ? STP_AM_SHORT : wcat == STP_AMB_MEDIUM ? STP_AM_MEDIUM : STP_AM_LONG;
}

static inline char *slot_mem(uint32_t si) { return pa.reqsb_mem + (size_t)si * SLOT_SIZE; }
static inline char *rpl_mem(uint32_t ri) { return pa.rplsb_mem + (size_t)ri * RPL_SIZE; }

/* ------------------------------------------------------------------ */
/* the wire                                                            */
/* ------------------------------------------------------------------ */
/* The body of am after its header (*pad: 0 on entry): extra arguments,
 * destination (Long), length (unpacked Long), payload (packed), padding. */
static __attribute__((noinline)) size_t build_body(char *buf, const stp_am_t *am, unsigned cat, unsigned *pad) {
  size_t off = 0;
  unsigned n = am->nargs;
  if (n > 2) {
    memcpy(buf, am->args + 2, 4 * (size_t)(n - 2));
    off = round8(4 * (size_t)(n - 2));
  }
  if (cat >= STP_AMB_LONG) {
    uint64_t d = (uint64_t)(uintptr_t)am->dst;
    memcpy(buf + off, &d, 8);
    off += 8;
  }
  if (cat == STP_AMB_LONG_UNPACKED) {
    uint64_t l = am->nbytes;
    memcpy(buf + off, &l, 8);
    return off + 8;
  }
  if (am->nbytes) {
    if (am->src != buf + off) memcpy(buf + off, am->src, am->nbytes); /* (a native NP payload is in place) */
    off += am->nbytes;
    *pad = (unsigned)(round8(off) - off);
    if (*pad) memset(buf + off, 0, *pad);
  }
  return off + *pad;
}

/* Write am's body at buf (build_body).  Returns the body's length; *pad,
 * *hdr_data (the first two arguments) for the header.  A header alone (a
 * Short with at most two arguments) writes nothing. */
static inline __attribute__((always_inline)) size_t build(char *buf, const stp_am_t *am, unsigned cat, unsigned *pad,
                                                         uint64_t *hdr_data) {
  unsigned n = am->nargs;
  *hdr_data = (uint64_t)(n > 0 ? (uint32_t)am->args[0] : 0) | ((uint64_t)(n > 1 ? (uint32_t)am->args[1] : 0) << 32);
  *pad = 0;
  if (STP_LIKELY(n <= 2 && cat < STP_AMB_LONG)) {
    if (!am->nbytes) return 0;
    if (am->src == buf && !(am->nbytes & 7)) return am->nbytes; /* (a native NP payload, in place already) */
  }
  return build_body(buf, am, cat, pad);
}

/* A header with a body before its payload (more than two arguments, or a
 * Long): the rest of decode. */
static __attribute__((noinline)) const char *decode_body(char *body, size_t rlen, uint64_t bits, amhdr_t *h) {
  size_t hb = hdr_bytes(h->cat, h->nargs), off = 0;
  if (h->nargs > 16) return "more than 16 arguments";
  if (rlen < hb) return "shorter than its header";
  if (h->nargs > 2) {
    memcpy(h->args + 2, body, 4 * (size_t)(h->nargs - 2));
    off = round8(4 * (size_t)(h->nargs - 2));
  }
  if (h->cat >= STP_AMB_LONG) {
    uint64_t d;
    memcpy(&d, body + off, 8);
    h->dst = (void *)(uintptr_t)d;
    off += 8;
  }
  h->payload = body + hb;
  if (h->cat == STP_AMB_LONG_UNPACKED) {
    uint64_t l;
    memcpy(&l, body + off, 8);
    if (rlen != hb) return "an unpacked Long header with a body";
    if (l > MAX_LONG) return "a Long payload over the maximum";
    h->len = (size_t)l;
    return NULL;
  }
  if (stp_amb_pad(bits) > rlen - hb) return "more padding than body";
  h->len = rlen - hb - stp_amb_pad(bits);
  if (h->len > MAX_MEDIUM) return "a payload over the maximum";
  if (h->cat == STP_AMB_SHORT && h->len) return "a Short with a payload";
  return NULL;
}

/* Decode a header; NULL or what is wrong with it (every field bounded).
 * A Short or Medium with at most two arguments has nothing before its
 * payload: decoded here, inline (the round trip of seed 000's Fig. 4). */
static inline __attribute__((always_inline)) const char *decode(uint64_t bits, uint64_t hdr_data, char *body,
                                                                size_t rlen, amhdr_t *h) {
  h->cat = stp_amb_cat(bits);
  h->nargs = stp_amb_nargs(bits);
  h->handler = stp_amb_handler(bits);
  h->credits = stp_amb_credits(bits);
  h->dst = NULL;
  h->args[0] = (gex_AM_Arg_t)(uint32_t)hdr_data;
  h->args[1] = (gex_AM_Arg_t)(uint32_t)(hdr_data >> 32);
  if (STP_UNLIKELY(h->nargs > 2 || h->cat >= STP_AMB_LONG)) return decode_body(body, rlen, bits, h);
  if (stp_amb_pad(bits) > rlen) return "more padding than body";
  h->payload = body;
  h->len = rlen - stp_amb_pad(bits);
  if (h->len > MAX_MEDIUM) return "a payload over the maximum";
  if (h->cat == STP_AMB_SHORT && h->len) return "a Short with a payload";
  return NULL;
}

/* ------------------------------------------------------------------ */
/* replies (target side)                                               */
/* ------------------------------------------------------------------ */
static void rpl_free(uint32_t ri) {
  pa.rpl[ri].next = pa.free_rpl;
  pa.free_rpl = ri;
}

static void rpl_done(uint32_t ri, uint8_t what) {
  rpl_t *r;
  if (STP_UNLIKELY(ri >= pa.nrpl)) stp_fatal("Portals Core: a reply's SEND_END names RplSB buffer %u", (unsigned)ri);
  r = &pa.rpl[ri];
  pa.rtokens++;
  if (what & RP_PAY) stp_pc_oos_drop(&r->oos);
  r->need &= (uint8_t)~what;
  if (!r->need) rpl_free(ri);
}

/* One step of a wait that must not run request handlers: SAFE_EQ alone. */
static inline void safe_wait_step(unsigned *spins) {
  stp_pc_poll();
  if (STP_UNLIKELY(stp.wait_slow)) stp_wait_step_slow(spins);
}

/* The resources of a worst-case reply, before a request handler runs: an
 * RplSB buffer and two reply tokens.  Waits on SAFE_EQ alone: what comes
 * back there are local completions of earlier replies. */
static uint32_t reserve_reply(void) {
  unsigned spins = 0;
  uint32_t ri;
  while (STP_UNLIKELY(pa.free_rpl == NONE || pa.rtokens < 2)) safe_wait_step(&spins);
  ri = pa.free_rpl;
  pa.free_rpl = pa.rpl[ri].next;
  pa.rtokens -= 2;
  pa.rpl[ri].need = 0;
  stp_pc_oos_clear(&pa.rpl[ri].oos);
  return ri;
}

/* A reply, from its RplSB buffer -- or, a negotiated payload written in
 * place at the requester (pam_np_prepare), from there: then nothing to
 * wait for. */
static void send_reply(reqctx_t *c, const stp_am_t *am) {
  rpl_t *r = &pa.rpl[c->rpl];
  unsigned cat = wire_cat(am), pad;
  size_t boff = body_off(cat, am->nargs);
  int inplace = (am->np & NP_INPLACE) != 0;
  char *body = inplace ? (char *)am->src - hdr_bytes(cat, am->nargs) : rpl_mem(c->rpl) + boff;
  uint64_t hdr, bits;
  size_t len = build(body, am, cat, &pad, &hdr);
  unsigned credits = credits_piggyback(&pa.cr, c->src, c->cost);
  uint32_t loan = credits_lend(&pa.cr, c->src, c->want);
  if (loan && (c->want & CREDITS_WANT_NEED)) credits |= STP_AMB_NEED_LOAN;
  bits = stp_amb(STP_PSEL_REQSB, cat, am->nargs, am->handler, pad, credits, loan);
  r->need = RP_HDR;
  if (inplace) {
    stp_pc_check(PtlXPutCommit(&pa.iprep.res, (ptl_size_t)(body - pa.iprep.room), len, bits, hdr),
                 "PtlXPutCommit (AM reply)");
    pa.rtokens++; /* (no payload Put, and no SEND_END) */
    rpl_done(c->rpl, RP_HDR);
    return;
  }
  if (cat == STP_AMB_LONG_UNPACKED) {
    ptl_handle_md_t md = stp_pc.rarsrc;
    ptl_size_t off;
    r->need |= RP_PAY;
    if (stp_in_my_segment(am->src, am->nbytes)) {
      off = stp_pc_seg_off(stp.mynode, am->src);
    } else { /* a TMPMD or firehose region that never waits (no bounce buffer: their wait could run request
              * handlers) */
      md = stp_pc_oos_hold(am->src, am->nbytes, &off, &r->oos, 0);
    }
    stp_pc_check(PtlPutRegion(md, off, am->nbytes, PTL_NO_ACK_REQ, stp_pc_target(c->src), STP_PC_RAR_PTE, 0,
                              stp_pbits(STP_PSEL_RARSRC, STP_POP_AM_RPAY, 0, c->rpl, c->lid),
                              stp_pc_seg_off(c->src, am->dst), c->lid),
                 "PtlPutRegion (ReplyLong payload)");
  } else {
    pa.rtokens++; /* no payload Put: its token back */
  }
  stp_pc_check(PtlPutRegion(len ? pa.rplsb : pa.rpl0, len ? (ptl_size_t)c->rpl * RPL_SIZE + boff : 0, len, PTL_NO_ACK_REQ,
                            stp_pc_target(c->src), STP_PC_AM_PTE, 0, bits, c->lid, hdr),
               "PtlPutRegion (AM reply)");
  if (!len) rpl_done(c->rpl, RP_HDR); /* a header alone: no buffer to wait for, no SEND_END */
  if (cat == STP_AMB_LONG_UNPACKED) { /* the source is the caller's again only at local completion */
    unsigned spins = 0;
    while (r->need & RP_PAY) safe_wait_step(&spins); /* (reply handlers are deferred meanwhile) */
  }
}

static int pam_reply(stp_token_t *token, const stp_am_t *am) {
  send_reply(token->core, am);
  return GASNET_OK;
}

/* Run a request handler, its reply's resources reserved first; reply
 * implicitly if it did not.  want: the request's want field (an ask runs
 * no handler: its reply brings the loan). */
static void run_request(uint32_t src, uint32_t lid, uint32_t cost, uint32_t want, unsigned handler, unsigned cat,
                        const gex_AM_Arg_t *args, unsigned nargs, void *buf, size_t len) {
  static const gex_AM_Arg_t none[1];
  reqctx_t c = {src, lid, cost, want & ~(uint32_t)STP_AMB_ASK, reserve_reply()};
  stp_token_t tok = {(gex_Rank_t)src, 1, 0, &c, 0, 0};
  if (STP_LIKELY(!(want & STP_AMB_ASK)))
    stp_am_run(&tok, (gex_AM_Index_t)handler, api_cat(cat), args, (int)nargs, buf, len);
  if (!tok.replied) {
    stp_am_t implicit = {STP_AM_SHORT, 0, 0, 0, none, NULL, 0, NULL, 0, NULL, 0};
    send_reply(&c, &implicit);
  }
}

/* ------------------------------------------------------------------ */
/* request arrivals (AM_EQ)                                            */
/* ------------------------------------------------------------------ */
static pend_t *pend_find(uint32_t src, uint32_t lid) {
  for (uint32_t i = 0; i < pa.npend; i++)
    if (pa.pend[i].src == src && pa.pend[i].lid == lid) return &pa.pend[i];
  return NULL;
}

static pend_t *pend_new(uint32_t src, uint32_t lid) {
  pend_t *p;
  if (STP_UNLIKELY(pa.npend == pa.maxpend))
    stp_fatal("AM flow control: more unpacked Longs half-arrived than the credits allow (%u): credit accounting is "
              "broken", pa.maxpend);
  p = &pa.pend[pa.npend++];
  memset(p, 0, sizeof(*p));
  p->src = src;
  p->lid = lid;
  return p;
}

static void pend_free(pend_t *p) { *p = pa.pend[--pa.npend]; }

static void run_pending(pend_t *p) {
  pend_t q = *p;
  if (STP_UNLIKELY(q.paydst != q.dst || q.paylen != q.len))
    stp_fatal("AM Long from node %u: the header names %zu bytes at %p, the payload arrived as %zu bytes at %p",
              (unsigned)q.src, q.len, q.dst, q.paylen, q.paydst);
  pend_free(p);
  run_request(q.src, q.lid, q.cost, q.want, q.handler, STP_AMB_LONG_UNPACKED, q.args, q.nargs, q.dst, q.len);
}

static void request_arrived(const ptl_event_t *ev) {
  uint32_t src = ev->initiator.nid, lid = stp_pbits_upper(ev->match_bits), cost;
  char *body = (char *)ev->md.start + ev->offset;
  amhdr_t h;
  const char *bad;
  if (STP_UNLIKELY(src >= stp.nodes || ev->mlength != ev->rlength))
    stp_fatal("AM request from node %u: %zu of %zu bytes received", (unsigned)src, (size_t)ev->mlength,
              (size_t)ev->rlength);
  if (STP_UNLIKELY((bad = decode(ev->match_bits, ev->hdr_data, body, ev->rlength, &h)) != NULL))
    stp_fatal("AM request from node %u: a malformed header (%s)", (unsigned)src, bad);
  cost = cost_of(ev->rlength, h.cat == STP_AMB_LONG_UNPACKED);
  if (STP_UNLIKELY(credits_arrived(&pa.cr, src, cost) != CREDITS_OK))
    stp_fatal("AM flow control: node %u sent more requests than its credits allow: %s", (unsigned)src,
              credits_error(&pa.cr));
  if (h.cat >= STP_AMB_LONG && STP_UNLIKELY(!stp_in_my_segment(h.dst, h.len)))
    stp_bad_address("AM Long destination", (gex_Rank_t)src, h.dst, h.len);
  if (h.cat == STP_AMB_LONG_UNPACKED && !pa.pss) {
    pend_t *p = pend_find(src, lid);
    if (!p) p = pend_new(src, lid); /* the payload is still on its way: keep the header (the ReqRB may be reused) */
    p->have_hdr = 1;
    p->handler = (uint8_t)h.handler;
    p->nargs = (uint8_t)h.nargs;
    p->cost = cost;
    p->want = h.credits;
    p->dst = h.dst;
    p->len = h.len;
    memcpy(p->args, h.args, sizeof(h.args));
    if (p->have_pay) run_pending(p);
    return;
  }
  if (h.cat == STP_AMB_LONG && h.len) memcpy(h.dst, h.payload, h.len); /* packed: into place */
  if (h.cat >= STP_AMB_LONG) h.payload = h.dst; /* (put-sync-send: the payload is there already) */
  run_request(src, lid, cost, h.credits, h.handler, h.cat, h.args, h.nargs, h.cat == STP_AMB_SHORT ? NULL : h.payload,
              h.len);
}

static void payload_arrived(const ptl_event_t *ev) {
  uint32_t src = ev->initiator.nid, lid = (uint32_t)ev->hdr_data;
  pend_t *p = pend_find(src, lid);
  if (!p) p = pend_new(src, lid);
  p->have_pay = 1;
  p->paydst = stp_pc_seg_at(ev->offset);
  p->paylen = ev->mlength;
  if (p->have_hdr) run_pending(p);
}

/* Post ReqRB i at the end of the list (at attach). */
static void reqrb_post(uint32_t i) {
  ptl_process_id_t any = {PTL_NID_ANY, PTL_PID_ANY};
  ptl_md_t md;
  memset(&md, 0, sizeof(md));
  md.start = pa.rb[i].mem;
  md.length = pa.rb_size;
  md.threshold = PTL_MD_THRESH_INF;
  md.max_size = MSG_MAX;
  md.options = PTL_MD_OP_PUT | PTL_MD_MAX_SIZE | PTL_MD_EVENT_START_DISABLE | PTLX_MD_REARM;
  md.user_ptr = (void *)(uintptr_t)i;
  md.eq_handle = pa.am_eq;
  stp_pc_check(PtlPost(stp_pc.ni, STP_PC_AM_PTE, any, STP_PSEL_REQRB, STP_PBITS_IGNORE, PTL_RETAIN, PTL_INS_AFTER, md,
                       PTL_RETAIN, &pa.rb[i].me, &pa.rb[i].md),
               "posting a ReqRB");
}

/* ReqRB order.  The buffers are used in list order, each until it is full,
 * and a full one is re-armed at the end of the list once its DRAINED is
 * taken -- after every request in it has run.  A request found in a
 * buffer behind the front means the front is full but its DRAINED is not
 * in yet (the progress thread posts it once the last append into it has
 * ended, and one-sided appends go on into the next buffer meanwhile).
 * Such requests wait, unrun, until the buffers before theirs are
 * re-armed: their credits come back only when they run, so no more than
 * the credits' worth can be appended behind a full buffer, and a buffer
 * is always re-armed before the one after it can fill -- the room that
 * the credits promise. */
static void rb_advance(void) {
  while (pa.rb[pa.front].drained) {
    uint32_t i = pa.front, k = 0;
    pa.rb[i].drained = 0;
    stp_pc_check(PtlXMERearm(pa.rb[i].me, pa.cb_me, PTL_INS_BEFORE), "re-arming a ReqRB");
    pa.front = (i + 1) % pa.nrb;
    for (uint32_t h = 0; h < pa.nheld; h++) { /* the new front's held requests run, in order */
      ptl_event_t ev = pa.held[h];
      if ((uintptr_t)ev.md.user_ptr == pa.front) request_arrived(&ev);
      else pa.held[k++] = ev;
    }
    pa.nheld = k;
  }
}

static void am_eq_event(const ptl_event_t *ev) {
  uintptr_t i = (uintptr_t)ev->md.user_ptr;
  if (STP_UNLIKELY(ev->ni_fail_type != PTL_NI_OK))
    stp_fatal("Portals Core: a %s event from node %u failed in the network", PtlEventKindStr(ev->type),
              (unsigned)ev->initiator.nid);
  if (ev->type == PTLX_EVENT_DRAINED) { /* a full ReqRB: every request in it is in */
    if (STP_UNLIKELY(i >= pa.nrb || pa.rb[i].drained)) stp_fatal("Portals Core: DRAINED of an unknown ReqRB");
    pa.rb[i].drained = 1;
    rb_advance();
    return;
  }
  if (STP_UNLIKELY(ev->type != PTL_EVENT_PUT_END))
    stp_fatal("Portals Core: unexpected %s event in AM_EQ", PtlEventKindStr(ev->type));
  if (stp_pbits_sel(ev->match_bits) == STP_PSEL_RARAM) {
    payload_arrived(ev);
  } else if (STP_LIKELY(i == pa.front)) {
    request_arrived(ev);
  } else {
    if (STP_UNLIKELY(i >= pa.nrb || pa.nheld == pa.maxheld))
      stp_fatal("Portals Core: a request in ReqRB %u behind the front %u, with %u held already: credit accounting "
                "is broken", (unsigned)i, (unsigned)pa.front, (unsigned)pa.nheld);
    pa.held[pa.nheld++] = *ev;
  }
}

/* ------------------------------------------------------------------ */
/* requester side: SAFE_EQ events of our AMs                           */
/* ------------------------------------------------------------------ */
static void slot_put(uint32_t si) {
  pa.slot[si].next = pa.free_slot;
  pa.free_slot = si;
}

/* The request's reply has run: its slot is free -- unless the SEND_END (or
 * ACK) of its Long payload is still to come, which then frees it (the
 * request itself posts no SEND_END: these are all it can wait for).  A
 * LongAsync, or a bounced payload, waits for neither before its reply. */
static void slot_free(uint32_t si) {
  amslot_t *s = &pa.slot[si];
  s->waiting = 0;
  if (STP_LIKELY(!s->pay_due)) slot_put(si);
}

/* Run the handler of a complete reply (its header h, and an unpacked
 * Long's payload), then retire the request. */
static void run_reply_hdr(uint32_t si, const amhdr_t *h) {
  amslot_t *s = &pa.slot[si];
  stp_token_t tok = {(gex_Rank_t)s->peer, 0, 0, NULL, 0, 0};
  void *buf = NULL;
  if (h->cat == STP_AMB_LONG_UNPACKED) {
    if (STP_UNLIKELY(s->rpay_dst != h->dst || s->rpay_len != h->len))
      stp_fatal("AM ReplyLong from node %u: the header names %zu bytes at %p, the payload arrived as %zu bytes at %p",
                (unsigned)s->peer, h->len, h->dst, s->rpay_len, s->rpay_dst);
    buf = h->dst;
  } else {
    stp_pc_tokens_give(1); /* the token kept for a ReplyLong payload */
    if (h->cat == STP_AMB_LONG) {
      if (h->len) memcpy(h->dst, h->payload, h->len);
      buf = h->dst;
    } else if (h->cat == STP_AMB_MEDIUM) {
      buf = h->payload;
    }
  }
  if (h->handler) /* 0: the implicit reply of a handler that sent none */
    stp_am_run(&tok, (gex_AM_Index_t)h->handler, api_cat(h->cat), h->args, (int)h->nargs, buf, h->len);
  slot_free(si);
}

/* The same, its header decoded again from what reply_arrived kept. */
static void run_reply(uint32_t si) {
  amslot_t *s = &pa.slot[si];
  amhdr_t h;
  decode(s->rbits, s->rhdr, slot_mem(si), s->rlen, &h); /* checked when it arrived */
  run_reply_hdr(si, &h);
}

/* A reply is complete: run it now, or after the request handler that is
 * running (a ReplyLong stalled for local completion polls SAFE_EQ). */
static void reply_ready(uint32_t si) {
  if (STP_UNLIKELY(stp.in_handler)) pa.deferred[pa.ndeferred++] = si;
  else run_reply(si);
}

/* The slot a reply names, checked: it must be a request of ours to that
 * node, still waiting for its reply. */
static uint32_t reply_slot(uint64_t off, uint32_t from, const char *what) {
  uint32_t si = (uint32_t)(off / SLOT_SIZE);
  if (STP_UNLIKELY(off % SLOT_SIZE || si >= pa.nslots || !pa.slot[si].waiting || pa.slot[si].peer != from))
    stp_fatal("AM %s from node %u names ReqSB offset %llu, which is no request of ours to it", what, (unsigned)from,
              (unsigned long long)off);
  return si;
}

/* Dynamic credits' messages (zero-length Puts to the CREDIT entry, the
 * count in hdr_data, the op in the match bits' op field). */
enum { CR_RECLAIM = 1, CR_RELEASE = 2 };

static void credit_send(gex_Rank_t t, unsigned op, uint32_t n) {
  stp_pc_check(PtlPutRegion(stp_pc.sys_src, 0, 0, PTL_NO_ACK_REQ, stp_pc_target(t), STP_PC_AM_PTE, 0,
                            stp_pbits(STP_PSEL_CREDIT, op, 0, 0, 0), 0, (ptl_hdr_data_t)n),
               "PtlPutRegion (AM credits)");
}

/* n credits of our grant at node t go back to it, the answer to its
 * reclaim -- to ourselves at once. */
static void banked(gex_Rank_t from, uint32_t n) { /* ... and as they arrive */
  if (STP_UNLIKELY(credits_released(&pa.cr, from, n) != CREDITS_OK))
    stp_fatal("AM flow control: node %u released credits it did not hold: %s", (unsigned)from, credits_error(&pa.cr));
}

static void give_back(gex_Rank_t t, uint32_t n) {
  if (t != stp.mynode) credit_send(t, CR_RELEASE, n);
  else banked(t, n);
}

static void reply_arrived(const ptl_event_t *ev) {
  uint32_t from = ev->initiator.nid, si = reply_slot(ev->offset, from, "reply");
  amslot_t *s = &pa.slot[si];
  amhdr_t h;
  const char *bad = decode(ev->match_bits, ev->hdr_data, slot_mem(si), ev->mlength, &h);
  if (STP_UNLIKELY(bad || s->hdr_in || ev->mlength != ev->rlength))
    stp_fatal("AM reply from node %u: a malformed header (%s)", (unsigned)from, bad ? bad : "twice, or truncated");
  unsigned returned = (h.credits & ~STP_AMB_NEED_LOAN) + s->refund;
  s->refund = 0;
  if (returned && STP_UNLIKELY(credits_returned(&pa.cr, from, returned) != CREDITS_OK))
    stp_fatal("AM flow control: node %u returned credits it was not owing: %s", (unsigned)from, credits_error(&pa.cr));
  if (stp_pbits_upper(ev->match_bits) &&
      STP_UNLIKELY((h.credits & STP_AMB_NEED_LOAN ? credits_granted_need : credits_granted)(
                       &pa.cr, from, stp_pbits_upper(ev->match_bits)) != CREDITS_OK))
    stp_fatal("AM flow control: node %u lent credits it could not: %s", (unsigned)from, credits_error(&pa.cr));
  if (h.cat >= STP_AMB_LONG && STP_UNLIKELY(!stp_in_my_segment(h.dst, h.len)))
    stp_bad_address("AM ReplyLong destination", (gex_Rank_t)from, h.dst, h.len);
  s->hdr_in = 1;
  if (STP_LIKELY(h.cat != STP_AMB_LONG_UNPACKED && !stp.in_handler)) { /* complete, and may run now */
    run_reply_hdr(si, &h);
    return;
  }
  s->rbits = ev->match_bits;
  s->rhdr = ev->hdr_data;
  s->rlen = ev->mlength;
  if (h.cat != STP_AMB_LONG_UNPACKED || s->rpay_in) reply_ready(si);
}

static void reply_payload_arrived(const ptl_event_t *ev) {
  uint32_t from = ev->initiator.nid, si = reply_slot((uint32_t)ev->hdr_data, from, "ReplyLong payload");
  amslot_t *s = &pa.slot[si];
  if (STP_UNLIKELY(s->rpay_in)) stp_fatal("AM ReplyLong payload from node %u arrived twice", (unsigned)from);
  s->rpay_in = 1;
  s->rpay_dst = stp_pc_seg_at(ev->offset);
  s->rpay_len = ev->mlength;
  if (s->hdr_in) reply_ready(si);
}

/* The conduit hands over every SAFE_EQ event of selector RARSRC and up,
 * and every arrival. */
static void pam_event(const ptl_event_t *ev) {
  unsigned sel = stp_pbits_sel(ev->match_bits);
  if (STP_UNLIKELY(ev->ni_fail_type != PTL_NI_OK))
    stp_fatal("Portals Core: an AM %s to/from node %u failed (%s)", PtlEventKindStr(ev->type),
              (unsigned)ev->initiator.nid, ev->ni_fail_type == PTLX_NI_DROPPED ? "dropped by the target" : "network");
  if (ev->type == PTL_EVENT_SEND_END) {
    if (sel == STP_PSEL_REQSB) {
      rpl_done((uint32_t)(ev->offset / RPL_SIZE), RP_HDR);
    } else if (sel == STP_PSEL_RARSRC) {
      rpl_done(stp_pbits_index(ev->match_bits), RP_PAY);
    } else {
      stp_fatal("Portals Core: a SEND_END with selector %u in SAFE_EQ", sel);
    }
    return;
  }
  if (STP_UNLIKELY(ev->type != PTL_EVENT_PUT_END))
    stp_fatal("Portals Core: unexpected %s event in SAFE_EQ", PtlEventKindStr(ev->type));
  if (sel == STP_PSEL_REQRB)
    stp_fatal("AM flow control: a %zu-byte request from node %u found every ReqRB full and fell to the catch-all "
              "(CB): the credits promised more ReqRB space (%u x %zu bytes) or AM_EQ events than there is -- credit "
              "accounting is broken%s",
              (size_t)ev->rlength, (unsigned)ev->initiator.nid, pa.nrb, pa.rb_size,
              getenv("STAGEPORT_AM_OVERSPEND") ? " (STAGEPORT_AM_OVERSPEND is set)" : "");
  if (sel == STP_PSEL_REQSB) {
    stp_pc_tokens_give(2); /* kept by the request for this arrival, and for a failed send's SEND_END */
    reply_arrived(ev);
  } else if (sel == STP_PSEL_RARSRC) {
    stp_pc_tokens_give(1); /* kept by the request for this arrival */
    reply_payload_arrived(ev);
  } else {
    stp_fatal("Portals Core: a PUT_END with selector %u in SAFE_EQ", sel);
  }
}

/* The conduit op callbacks: our Long payload's SEND_END / ACK (what: its
 * STP_PC_NEED_* bit).  The event names its request -- the slot's
 * generation, recorded in the conduit op (its tag) when the Put was
 * issued -- and that request must still hold the AM slot and expect it:
 * slot_free keeps a slot whose payload events are due, so a late one can
 * never mark the next request's payload sent. */
static amslot_t *payload_event(const stp_pc_op_t *po, uint8_t what) {
  amslot_t *s = po->owner;
  uint32_t si = (uint32_t)(s - pa.slot);
  if (STP_UNLIKELY(po->tag != s->gen || !(s->pay_due & what)))
    stp_fatal("Portals Core: the %s of an AM Long payload to node %u names request %u of ReqSB slot %u, %s",
              what == STP_PC_NEED_SEND ? "SEND_END" : "ACK", (unsigned)po->peer, (unsigned)po->tag, (unsigned)si,
              po->tag != s->gen ? "which holds a later request now: a late payload event met a reused slot"
                                : "which expects no such event (twice?)");
  s->pay_due &= (uint8_t)~what;
  if (!s->pay_due && !s->waiting) slot_put(si); /* its reply ran first */
  return s;
}
static void payload_sent(stp_pc_op_t *po) {
  amslot_t *s = payload_event(po, STP_PC_NEED_SEND);
  s->pay_sent = 1;
  if (s->lc) {
    stp_ev_finish(s->lc, s->lc_cat);
    s->lc = NULL;
  }
}
static void payload_acked(stp_pc_op_t *po) { payload_event(po, STP_PC_NEED_DONE)->pay_acked = 1; }

/* ------------------------------------------------------------------ */
/* Long payloads, and late events (a test knob)                        */
/* ------------------------------------------------------------------ */
typedef struct payput { /* an unpacked Long's payload Put */
  ptl_handle_md_t md;
  ptl_size_t off, len, roff;
  ptl_ack_req_t ack;
  gex_Rank_t dest;
  ptl_match_bits_t bits;
  ptl_hdr_data_t lid;
} payput_t;

static void payload_put(const payput_t *p) {
  stp_pc_check(PtlPutRegion(p->md, p->off, p->len, p->ack, stp_pc_target(p->dest), STP_PC_RAR_PTE, 0, p->bits,
                            p->roff, p->lid),
               "PtlPutRegion (AM Long payload)");
}

/* STAGEPORT_AM_LATE_SEND_END=1 (tests: conformance am_long_reuse): Long
 * payload events come as late as a NIC may deliver them.  The SEND_END of
 * a payload that its request does not wait for (bounced -- copied, so
 * locally complete at once -- or a LongAsync's) is kept back, and so is
 * the payload Put of the next unpacked Long sent after it; the kept
 * SEND_ENDs are handed in at the next poll, the Put issued at the poll
 * after.  A late SEND_END thus arrives while the request that took its AM
 * slot next still has its payload to send: it must not mark that one
 * sent. */
#define LATE_MAX 4 /* SEND_ENDs kept back at once (each keeps a send token, a bounce buffer, an AM slot) */
static struct {
  int on;
  uint8_t *unwaited;        /* per conduit op: a payload SEND_END that no request waits for */
  ptl_event_t ev[LATE_MAX]; /* kept back */
  unsigned nev;
  int put_due;              /* put: held */
  payput_t put;
  unsigned long kept, held; /* how many: SEND_ENDs kept back, Puts held (reported at exit) */
} late;

static int late_hold(const ptl_event_t *ev) {
  uint32_t oi = stp_pbits_index(ev->match_bits);
  if (ev->type != PTL_EVENT_SEND_END || oi >= stp_pc.nops || !late.unwaited[oi]) return 0;
  late.unwaited[oi] = 0;
  if (late.nev == LATE_MAX) return 0;
  late.ev[late.nev++] = *ev;
  late.kept++;
  return 1;
}

/* The payload Put p of conduit op oi (unwaited: its SEND_END is nobody's
 * to wait for), issued now or held. */
static void late_payload(uint32_t oi, const payput_t *p, int unwaited) {
  late.unwaited[oi] = (uint8_t)unwaited;
  if (late.put_due) { /* one held at a time */
    payload_put(&late.put);
    late.put_due = 0;
  }
  if (!late.nev) {
    payload_put(p);
    return;
  }
  late.put = *p;
  late.put_due = 1;
  late.held++;
}

/* pam_poll's: the kept SEND_ENDs once a Put is held, the Put a poll later. */
static void late_poll(void) {
  ptl_event_t ev[LATE_MAX];
  unsigned n = late.nev;
  if (!late.put_due) return;
  if (n) {
    memcpy(ev, late.ev, n * sizeof(*ev));
    late.nev = 0;
    for (unsigned i = 0; i < n; i++) stp_pc_op_event(&ev[i]);
    return;
  }
  late.put_due = 0;
  payload_put(&late.put);
}

/* ------------------------------------------------------------------ */
/* requests                                                            */
/* ------------------------------------------------------------------ */
/* A ReqSB slot free, and three SAFE_EQ events: the reply, a ReplyLong payload, and this header's SEND_END should
 * its send fail (a successful one posts none: the reply gives that token back) -- and `extra` more. */
static inline int slot_ready(long extra) { return pa.free_slot != NONE && stp_pc_tokens_have(3 + extra); }

static __attribute__((noinline)) void slot_wait(void) {
  unsigned spins = 0;
  while (!slot_ready(0)) stp_wait_step(&spins);
}

/* (inline, its wait apart: a caller that finds a slot free calls nothing) */
static inline __attribute__((always_inline)) uint32_t slot_get(gex_Rank_t dest) {
  uint32_t si;
  amslot_t *s;
  if (STP_UNLIKELY(!slot_ready(0))) slot_wait();
  stp_pc_tokens_take(3);
  si = pa.free_slot;
  s = &pa.slot[si];
  pa.free_slot = s->next;
  s->waiting = 1;
  s->hdr_in = s->rpay_in = s->pay_sent = s->pay_acked = s->pay_due = 0;
  s->lc = NULL;
  s->refund = 0;
  s->gen++;
  s->peer = dest;
  return si;
}

/* An unpacked Long's payload, by the selected protocol. */
static void send_payload(gex_Rank_t dest, const stp_am_t *am, amslot_t *as, uint32_t lid) {
  unsigned type = pa.pss ? STP_POP_AM_PSS : STP_POP_AM_TSR, spins = 0;
  uint8_t need = pa.pss ? STP_PC_NEED_SEND | STP_PC_NEED_DONE : STP_PC_NEED_SEND;
  uint32_t oi = stp_pc_op_take(as, as->gen, type, dest, need, 1); /* its events name this request */
  stp_pc_op_t *po = stp_pc_op(oi);
  payput_t p;
  as->pay_due = need;
  p.md = stp_pc_local_md(po, (void *)am->src, am->nbytes, &p.off, STP_PC_SRC);
  if (stp_pc_op_bounced(po)) { /* copied: locally complete now */
    as->pay_sent = 1;
  } else if (am->lc) { /* counted until its SEND_END, not waited for */
    as->lc = am->lc;
    as->lc_cat = (uint8_t)stp_am_lc_cat(am->lc);
    stp_ev_start(as->lc, as->lc_cat);
  }
  p.len = am->nbytes;
  p.roff = stp_pc_seg_off(dest, am->dst);
  p.ack = pa.pss ? PTL_ACK_REQ : PTL_NO_ACK_REQ;
  p.dest = dest;
  p.bits = stp_pbits(pa.pss ? STP_PSEL_RAR : STP_PSEL_RARAM, type, 0, oi, stp_pc_oos_name(&po->oos));
  p.lid = lid;
  if (STP_UNLIKELY(late.on)) late_payload(oi, &p, stp_pc_op_bounced(po) || am->async);
  else payload_put(&p);
  if (pa.pss) { /* put-sync-send: the header goes once the payload is in place */
    while (!as->pay_acked) stp_wait_step(&spins);
  }
}

/* Dynamic credits: a message costs more than the whole grant at dest, all
 * of it home: ask dest for a loan (a Short that runs no handler, costing 1;
 * its reply brings the loan). */
static void send_ask(gex_Rank_t dest, int immediate) {
  uint32_t si, want;
  if (immediate && !slot_ready(0)) return; /* (an IMMEDIATE request's: never wait) */
  want = credits_want(&pa.cr, dest);
  if (credits_charge_ask(&pa.cr, dest) != CREDITS_OK) stp_fatal("AM flow control: an ask found no credit");
  si = slot_get(dest);
  stp_pc_check(PtlPutRegion(pa.reqsb, si * SLOT_SIZE, 0, PTL_NO_ACK_REQ, stp_pc_target(dest), STP_PC_AM_PTE, 0,
                            stp_amb(STP_PSEL_REQRB, STP_AMB_SHORT, 0, 0, 0, want | STP_AMB_ASK, si * SLOT_SIZE), 0, 0),
               "PtlPutRegion (AM credit ask)");
}

/* The request in slot si's room (pam_np_prepare) sent: len bytes of body
 * at `at` in the room, the PUT_END posted at the target.  Its credits were
 * paid for the whole room; what the target charges for the body, it gives
 * back with the reply, and the rest comes home with it too (the room it
 * took in the ReqRB is freed no earlier). */
static void room_commit(uint32_t si, ptl_size_t at, size_t len, uint64_t bits, uint64_t hdr, const char *what) {
  pa.slot[si].refund = pa.ipreq.paid - cost_of(len, 0);
  stp_pc_check(PtlXPutCommit(&pa.ipreq.res, at, len, bits, hdr), what);
}

/* The Commit of a request written in place: its header words before the
 * payload, then room_commit. */
static int request_inplace(gex_Rank_t dest, const stp_am_t *am, unsigned cat) {
  char *body = (char *)am->src - hdr_bytes(cat, am->nargs);
  unsigned pad;
  uint64_t hdr;
  size_t len = build(body, am, cat, &pad, &hdr);
  uint32_t si = hold_slot(am->np);
  room_commit(si, (ptl_size_t)(body - pa.ipreq.room), len,
              stp_amb(STP_PSEL_REQRB, cat, am->nargs, am->handler, pad, credits_want(&pa.cr, dest), si * SLOT_SIZE),
              hdr, "PtlXPutCommit (AM request)");
  return GASNET_OK;
}

static int pam_request(gex_Rank_t dest, const stp_am_t *am) {
  if (am->np & NP_INPLACE) /* (paid for at the Prepare, its size checked there) */
    return request_inplace(dest, am, am->cat == STP_AM_MEDIUM ? STP_AMB_MEDIUM : STP_AMB_LONG);
  unsigned cat = wire_cat(am), pad;
  int unpacked = cat == STP_AMB_LONG_UNPACKED;
  size_t body = hdr_bytes(cat, am->nargs) + (unpacked ? 0 : round8(am->nbytes)), len;
  uint32_t cost = cost_of(body, unpacked), si, lid;
  size_t boff;
  uint64_t hdr;
  amslot_t *as;
  if (STP_UNLIKELY(am->nbytes > (am->cat == STP_AM_LONG ? MAX_LONG : (size_t)MAX_MEDIUM) || am->nargs > 16))
    stp_fatal("AM request to node %u: %zu bytes and %u arguments, over the maximum", (unsigned)dest, am->nbytes,
              (unsigned)am->nargs);
  /* IMMEDIATE: refused, nothing taken, when a ReqSB slot, the send tokens
   * (and for an unpacked Long its payload's conduit op) or the credits
   * are short (a native NP Commit holds its slot already: pam_np_prepare) */
  if (STP_UNLIKELY(am->flags & GEX_FLAG_IMMEDIATE) && !am->np &&
      (!slot_ready(unpacked ? 2 : 0) || (unpacked && !stp_pc_op_available())))
    return 1;
  if (STP_UNLIKELY(stp_am_pay(&pa.cr, dest, cost, am->flags, send_ask))) return 1;
  si = am->np ? hold_slot(am->np) : slot_get(dest);
  as = &pa.slot[si];
  lid = si * SLOT_SIZE;
  boff = body_off(cat, am->nargs);
  len = build(slot_mem(si) + boff, am, cat, &pad, &hdr);
  if (unpacked) send_payload(dest, am, as, lid);
  stp_pc_check(PtlPutRegion(pa.reqsb, lid + boff, len, PTL_NO_ACK_REQ, stp_pc_target(dest), STP_PC_AM_PTE, 0,
                            stp_amb(STP_PSEL_REQRB, cat, am->nargs, am->handler, pad, credits_want(&pa.cr, dest), lid),
                            0, hdr),
               "PtlPutRegion (AM request)");
  if (unpacked && !am->async && !am->lc) { /* like a non-bulk put: the source is the caller's again */
    unsigned spins = 0;
    while (!as->pay_sent) stp_wait_step(&spins);
  }
  return GASNET_OK;
}

/* ------------------------------------------------------------------ */
/* negotiated payload, native: the payload is built in place           */
/* ------------------------------------------------------------------ */
/* A request's payload goes where build() would copy it: in its ReqSB slot,
 * taken now (its credits are paid at the Commit, when the size is known);
 * a reply's in the RplSB buffer its request handler holds.  A Medium, or a
 * Long that travels packed (at most STAGEPORT_AM_PACKED_MAX); a larger
 * Long's payload is Put from where it is, so it gains nothing here.
 *
 * Better still, where the target's memory is mapped here (offload mode,
 * pa.inplace), the payload is written where the target will read it:
 * PtlXPutReserve holds room for the body in the target's ReqRB (a
 * request) or the requester's ReqSB slot (a reply), and the Commit writes
 * the header words before it and posts the PUT_END -- no copy, no send
 * event.  A request's room is paid for now, for all of it (the Commit
 * cannot wait: the room is held; the refund comes with the reply), 8 bytes
 * more than its body so that its payload can start 16-byte aligned
 * wherever the room does.  A reply's body must start its slot at the
 * requester (reply_slot), where the payload is 16-byte aligned only if
 * the header words before it come to a multiple of 16 bytes (body_off 0):
 * others go through the RplSB buffer.  No room
 * (a peer not mapped, a full ReqRB with none open after it): the slot or
 * buffer, as above. */
static int pam_np_prepare(stp_np_t *np) {
  unsigned cat = np->cat == STP_AM_MEDIUM ? STP_AMB_MEDIUM : STP_AMB_LONG;
  size_t hb = hdr_bytes(cat, np->nargs);
  void *room;
  uint32_t si;
  if (np->cat == STP_AM_LONG && np->most > pa.packed_max) return 0;
  np->size = np->most;
  if (np->is_req) {
    size_t span = 8 + hb + round8(np->most);
    uint32_t paid = 0;
    if ((np->flags & GEX_FLAG_IMMEDIATE) && !slot_ready(0)) return 1;
    if (pa.inplace) {
      paid = cost_of(span, 0);
      if (stp_am_pay(&pa.cr, np->dest, paid, np->flags, send_ask)) return 1;
    }
    si = slot_get(np->dest);
    np->hold = si + 1;
    if (paid && PtlXPutReserve(stp_pc_target(np->dest), STP_PC_AM_PTE, stp_amb(STP_PSEL_REQRB, 0, 0, 0, 0, 0, 0), 0,
                               span, &room, &pa.ipreq.res) == PTL_OK) {
      char *pay = (char *)(((uintptr_t)room + hb + 15) & ~(uintptr_t)15);
      pa.ipreq.room = room;
      pa.ipreq.paid = paid;
      np->addr = pay;
      np->hold |= NP_INPLACE;
      return 0;
    }
    if (paid && STP_UNLIKELY(credits_returned(&pa.cr, np->dest, paid) != CREDITS_OK)) /* (nothing went out) */
      stp_fatal("AM flow control: %s", credits_error(&pa.cr));
    np->addr = slot_mem(si) + body_off(cat, np->nargs) + hb;
  } else {
    const reqctx_t *c = np->token->core;
    size_t boff = body_off(cat, np->nargs);
    np->hold = 1;
    if (pa.inplace && !boff && /* (the body starts the slot: reply_slot) */
        PtlXPutReserve(stp_pc_target(c->src), STP_PC_AM_PTE, stp_amb(STP_PSEL_REQSB, 0, 0, 0, 0, 0, 0), c->lid,
                       hb + round8(np->most), &room, &pa.iprep.res) == PTL_OK) {
      pa.iprep.room = room;
      np->addr = (char *)room + hb;
      np->hold |= NP_INPLACE;
      return 0;
    }
    np->addr = rpl_mem(c->rpl) + boff + hb;
  }
  return 0;
}

/* A Cancel.  A request's room written in place cannot just be left empty:
 * its credits cover ReqRB memory that only running a request gives back.
 * So it carries a request that runs nothing (a header alone, marked as a
 * credit ask: its reply, as for any request, frees the slot and brings
 * the credits home). */
static void pam_np_cancel(const stp_np_t *np) {
  if (np->is_req && (np->hold & NP_INPLACE)) {
    uint32_t si = hold_slot(np->hold);
    room_commit(si, 0, 0,
                stp_amb(STP_PSEL_REQRB, STP_AMB_SHORT, 0, 0, 0, credits_want(&pa.cr, np->dest) | STP_AMB_ASK,
                        si * SLOT_SIZE),
                0, "PtlXPutCommit (a cancelled AM request)");
  } else if (np->is_req) { /* the slot back, and the tokens slot_get took */
    uint32_t si = hold_slot(np->hold);
    pa.slot[si].waiting = 0;
    stp_pc_tokens_give(3);
    slot_put(si);
  } else if (np->hold & NP_INPLACE) {
    PtlXPutCancel(&pa.iprep.res);
  }
}

/* ------------------------------------------------------------------ */
/* poll                                                                */
/* ------------------------------------------------------------------ */
static uint64_t mono_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void credit_event(const ptl_event_t *ev) {
  gex_Rank_t from = (gex_Rank_t)ev->initiator.nid;
  unsigned op = stp_pbits_op(ev->match_bits);
  if (STP_UNLIKELY(ev->type != PTL_EVENT_PUT_END || ev->ni_fail_type != PTL_NI_OK || from >= stp.nodes))
    stp_fatal("Portals Core: a %s event in CREDIT_EQ from node %u", PtlEventKindStr(ev->type), (unsigned)from);
  if (op == CR_RECLAIM) give_back(from, credits_release(&pa.cr, from));
  else if (op == CR_RELEASE) banked(from, (uint32_t)ev->hdr_data);
  else stp_fatal("Portals Core: a credit message of op %u from node %u", op, (unsigned)from);
}

/* Dynamic credits, every 64 polls: the reclaims and releases that arrived,
 * the clock that stamps arrivals, and the reclaims an unmet ask made due. */
static int credit_poll(void) {
  uint32_t p;
  int n = stp_pc_drain(pa.credit_eq, INT32_MAX, credit_event, "CREDIT_EQ",
                       " (credit messages were lost: its size is broken)");
  uint64_t now = mono_ns();
  credits_tick(&pa.cr, now);
  while ((p = credits_reclaim_next(&pa.cr, now)) != UINT32_MAX) {
    if (p == stp.mynode) give_back((gex_Rank_t)p, credits_release(&pa.cr, p));
    else credit_send((gex_Rank_t)p, CR_RECLAIM, 0);
  }
  return n;
}

static int pam_poll(void) {
  int n = 0;
  if (dynamic() && !(++pa.polls & 63)) n += credit_poll();
  if (STP_UNLIKELY(late.on)) late_poll();
  while (STP_UNLIKELY(pa.ndeferred)) {
    uint32_t si = pa.deferred[0];
    memmove(pa.deferred, pa.deferred + 1, --pa.ndeferred * sizeof(*pa.deferred));
    run_reply(si);
    n++;
  }
  return n + stp_pc_drain(pa.am_eq, 64, am_eq_event, "AM_EQ",
                          " (request events were lost: credit accounting is broken)");
}

/* ------------------------------------------------------------------ */
/* setup and teardown                                                  */
/* ------------------------------------------------------------------ */
static void *xalloc(size_t n) {
  void *p = NULL;
  if (n && PtlXMemAlloc(stp_pc.ni, n, &p) != PTL_OK) stp_fatal("gasnet_attach: cannot allocate %zu bytes for AMs", n);
  return p;
}

static int pam_attach(void) {
  ptl_process_id_t any = {PTL_NID_ANY, PTL_PID_ANY};
  const char *proto = getenv("STAGEPORT_AM_LONG");
  uint64_t share = stp_env_u64("STAGEPORT_AM_CREDITS", 64);
  uint64_t over = stp_env_u64("STAGEPORT_AM_OVERSPEND", 1);
  uint64_t nrb = stp_env_u64("STAGEPORT_AM_REQRB", 2);
  uint64_t nslots = stp_env_u64("STAGEPORT_AM_SLOTS", 128);
  uint64_t nrpl = stp_env_u64("STAGEPORT_AM_RPLSB", 16);
  uint64_t packed = stp_env_u64("STAGEPORT_AM_PACKED_MAX", 2048);
  const char *credmode = getenv("STAGEPORT_CREDITS");
  uint32_t nodes = stp.nodes, maxcost;
  uint64_t capacity;
  credits_cfg_t cfg = {0};
  ptl_md_t md;

  if (!proto || !*proto || !strcmp(proto, "tsr")) pa.pss = 0;
  else if (!strcmp(proto, "pss")) pa.pss = 1;
  else stp_fatal("STAGEPORT_AM_LONG=\"%s\": use tsr (target-side reassembly) or pss (put-sync-send)", proto);
  if (nrb < 2 || nrb > 64) stp_fatal("STAGEPORT_AM_REQRB=%" PRIu64 ": 2..64 request buffers", nrb);
  if (nslots < 1 || nslots > 65536) stp_fatal("STAGEPORT_AM_SLOTS=%" PRIu64 ": 1..65536", nslots);
  if (nrpl < 1 || nrpl > 4096) stp_fatal("STAGEPORT_AM_RPLSB=%" PRIu64 ": 1..4096", nrpl);
  if (packed > MAX_MEDIUM) stp_fatal("STAGEPORT_AM_PACKED_MAX=%" PRIu64 ": at most %u", packed, MAX_MEDIUM);
  if (over < 1 || over > 64) stp_fatal("STAGEPORT_AM_OVERSPEND=%" PRIu64 ": 1..64", over);
  pa.packed_max = (size_t)packed;
  pa.nslots = (uint32_t)nslots;
  pa.nrpl = (uint32_t)nrpl;
  pa.nrb = (uint32_t)nrb;

  /* credits: the largest request must fit one peer's share; static: equal
   * shares; dynamic: an initial grant each and a bank, never more than static */
  if (!credmode || !*credmode || !strcmp(credmode, "dynamic")) cfg.mode = CREDITS_DYNAMIC;
  else if (!strcmp(credmode, "static")) cfg.mode = CREDITS_STATIC;
  else stp_fatal("STAGEPORT_CREDITS=\"%s\": use static or dynamic", credmode);
  cfg.npeers = nodes;
  cfg.unit_bytes = CREDIT_BYTES;
  pa.cr.cfg.unit_bytes = CREDIT_BYTES; /* cost_of() before credits_init */
  maxcost = cost_of(MSG_MAX, 0);
  if (share < maxcost || share * over > STP_AMB_MAX_CREDITS)
    stp_fatal("STAGEPORT_AM_CREDITS=%" PRIu64 ": %u..%u credits per peer (the largest request costs %u; a reply's "
              "field returns at most %u)",
              share, maxcost, STP_AMB_MAX_CREDITS / (unsigned)over, maxcost, STP_AMB_MAX_CREDITS);
  capacity = share * nodes; /* what this node can really receive */
  if (cfg.mode == CREDITS_DYNAMIC) { /* (capacity stays within static's: share >= maxcost >= the reserve) */
    uint64_t bank = stp_env_u64("STAGEPORT_AM_CREDITS_BANK", 2 * share);
    uint64_t grant0 = stp_env_u64("STAGEPORT_AM_CREDITS_INIT", 4);
    uint32_t reserve;
    if (grant0 < 1 || grant0 > share)
      stp_fatal("STAGEPORT_AM_CREDITS_INIT=%" PRIu64 ": 1..%" PRIu64 " (STAGEPORT_AM_CREDITS) credits per peer", grant0,
                share);
    reserve = grant0 < maxcost ? maxcost - (uint32_t)grant0 : 0;
    if (bank < reserve || bank > (uint64_t)1 << 24)
      stp_fatal("STAGEPORT_AM_CREDITS_BANK=%" PRIu64 ": %u..%u credits (one largest request must always be lendable)",
                bank, reserve, 1u << 24);
    if (grant0 * nodes + bank < capacity) capacity = grant0 * nodes + bank;
    cfg.grant = (uint32_t)(grant0 * over); /* the overspend knob promises more than ReqRB and AM_EQ hold */
    cfg.capacity = (uint32_t)(capacity * over);
    cfg.quiet = stp_env_u64("STAGEPORT_CREDITS_QUIET_US", 2000) * 1000u; /* ns: credit_poll's clock */
  } else {
    cfg.grant = (uint32_t)(share * over);
    cfg.batch = 1; /* (unused: every request gets a reply that returns its cost) */
  }
  cfg.max_grant = (uint32_t)(share * over);
  cfg.max_cost = maxcost;
  {
    /* what a peer's requests assume of this node's accounting and Long protocol */
    static const char *const mode_labels[] = {"static", "dynamic", NULL}, *const long_labels[] = {"tsr", "pss", NULL};
    const stp_setting_t set[] = {{"STAGEPORT_CREDITS", cfg.mode == CREDITS_DYNAMIC, mode_labels},
                                 {"STAGEPORT_AM_CREDITS", share, NULL},
                                 {"STAGEPORT_AM_CREDITS_INIT", cfg.mode == CREDITS_DYNAMIC ? cfg.grant / over : 0, NULL},
                                 {"STAGEPORT_AM_OVERSPEND", over, NULL},
                                 {"STAGEPORT_AM_LONG", (uint64_t)pa.pss, long_labels}};
    stp_settings_agree("gasnet_attach (the Portals Core)", set, (int)(sizeof(set) / sizeof(set[0])));
  }
  if (credits_init(&pa.cr, &cfg) != CREDITS_OK) stp_fatal("gasnet_attach: AM flow control: %s", credits_error(&pa.cr));
  if (dynamic()) credits_tick(&pa.cr, mono_ns());

  /* AM_EQ: one event per credit, plus the ReqRBs' DRAINEDs */
  pa.eq_events = capacity + nrb + 8;
  pa.maxheld = (uint32_t)(pa.eq_events * over); /* (requests behind a full ReqRB: at most the credits' worth) */
  if (!(pa.held = malloc(pa.maxheld * sizeof(*pa.held)))) stp_fatal("gasnet_attach: out of memory");
  pa.nheld = 0;
  pa.front = 0;
  stp_pc_check(PtlEQAlloc(stp_pc.ni, pa.eq_events, PTL_EQ_HANDLER_NONE, &pa.am_eq), "allocating AM_EQ");

  /* CREDIT (dynamic): reclaims and releases.  In flight to us at once: a
   * reclaim and a release per peer (one reclaim per pair at a time) */
  pa.credit_events = 0;
  if (dynamic()) {
    pa.credit_events = 2 * (uint64_t)nodes + 8;
    stp_pc_check(PtlEQAlloc(stp_pc.ni, pa.credit_events, PTL_EQ_HANDLER_NONE, &pa.credit_eq), "allocating CREDIT_EQ");
    memset(&md, 0, sizeof(md));
    md.start = xalloc(8);
    md.length = 8;
    md.threshold = PTL_MD_THRESH_INF;
    md.options = PTL_MD_OP_PUT | PTL_MD_EVENT_START_DISABLE;
    md.eq_handle = pa.credit_eq;
    stp_pc_check(PtlPost(stp_pc.ni, STP_PC_AM_PTE, any, STP_PSEL_CREDIT, STP_PBITS_IGNORE, PTL_RETAIN, PTL_INS_AFTER,
                         md, PTL_RETAIN, &pa.credit_me, &pa.credit_md),
                 "posting CREDIT");
  }

  /* ReqRB: every credit's 256 bytes in each buffer, plus one largest request */
  pa.rb_size = round8((size_t)capacity * CREDIT_BYTES + MSG_MAX);
  pa.rb = calloc(pa.nrb, sizeof(*pa.rb));
  if (!pa.rb) stp_fatal("gasnet_attach: out of memory");
  for (uint32_t i = 0; i < pa.nrb; i++) {
    pa.rb[i].mem = xalloc(pa.rb_size);
    reqrb_post(i);
  }
  /* CB: takes what misses every ReqRB, keeps nothing, tells SAFE_EQ */
  pa.cb_mem = xalloc(64);
  memset(&md, 0, sizeof(md));
  md.start = pa.cb_mem;
  md.length = 8;
  md.threshold = PTL_MD_THRESH_INF;
  md.options = PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_TRUNCATE | PTL_MD_EVENT_START_DISABLE;
  md.eq_handle = stp_pc.safe_eq;
  stp_pc_check(PtlPost(stp_pc.ni, STP_PC_AM_PTE, any, STP_PSEL_REQRB, STP_PBITS_IGNORE, PTL_RETAIN, PTL_INS_AFTER, md,
                       PTL_RETAIN, &pa.cb_me, &pa.cb_md),
               "posting CB");

  /* ReqSB: request slots that receive their replies */
  pa.reqsb_mem = xalloc((size_t)pa.nslots * SLOT_SIZE);
  memset(&md, 0, sizeof(md));
  md.start = pa.reqsb_mem;
  md.length = (ptl_size_t)pa.nslots * SLOT_SIZE;
  md.threshold = PTL_MD_THRESH_INF;
  md.options = PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE | PTLX_MD_EVENT_SEND_DISABLE;
  md.eq_handle = stp_pc.safe_eq;
  stp_pc_check(PtlPost(stp_pc.ni, STP_PC_AM_PTE, any, STP_PSEL_REQSB, STP_PBITS_IGNORE, PTL_RETAIN, PTL_INS_AFTER, md,
                       PTL_RETAIN, &pa.reqsb_me, &pa.reqsb),
               "posting ReqSB");
  pa.slot = calloc(pa.nslots, sizeof(*pa.slot));
  pa.deferred = malloc(pa.nslots * sizeof(*pa.deferred));
  if (!pa.slot || !pa.deferred) stp_fatal("gasnet_attach: out of memory");
  for (uint32_t i = 0; i < pa.nslots; i++) pa.slot[i].next = i + 1 < pa.nslots ? i + 1 : NONE;
  pa.free_slot = 0;

  /* RplSB: reply buffers, and their own send tokens (carved from SAFE_EQ's) */
  pa.rplsb_mem = xalloc((size_t)pa.nrpl * RPL_SIZE);
  memset(&md, 0, sizeof(md));
  md.start = pa.rplsb_mem;
  md.length = (ptl_size_t)pa.nrpl * RPL_SIZE;
  md.threshold = PTL_MD_THRESH_INF;
  md.options = PTL_MD_EVENT_START_DISABLE;
  md.eq_handle = stp_pc.safe_eq;
  stp_pc_check(PtlMDBind(stp_pc.ni, md, PTL_RETAIN, &pa.rplsb), "binding RplSB");
  md.length = 0; /* RPL0: header-only replies */
  md.options = PTL_MD_EVENT_START_DISABLE | PTLX_MD_EVENT_SEND_DISABLE;
  stp_pc_check(PtlMDBind(stp_pc.ni, md, PTL_RETAIN, &pa.rpl0), "binding RPL0");
  pa.rpl = calloc(pa.nrpl, sizeof(*pa.rpl));
  if (!pa.rpl) stp_fatal("gasnet_attach: out of memory");
  for (uint32_t i = 0; i < pa.nrpl; i++) pa.rpl[i].next = i + 1 < pa.nrpl ? i + 1 : NONE;
  pa.free_rpl = 0;
  pa.rtokens = 2 * (long)pa.nrpl;
  if (!stp_pc_tokens_have(pa.rtokens + 8))
    stp_fatal("gasnet_attach: SAFE_EQ (STAGEPORT_PTL_SAFE_EQ=%ld events) is too small for %u reply buffers and "
              "requests; at least %ld",
              stp_pc.tokens, pa.nrpl, pa.rtokens + 8);
  stp_pc_tokens_take(pa.rtokens);

  /* unpacked Longs half-arrived: each holds two credits at least */
  pa.maxpend = (uint32_t)(capacity * over / 2 + 1);
  pa.pend = calloc(pa.maxpend, sizeof(*pa.pend));
  if (!pa.pend) stp_fatal("gasnet_attach: out of memory");

  stp_pc_on_am_event(pam_event);
  stp_pc_on_op(STP_POP_AM_TSR, NULL, payload_sent);
  stp_pc_on_op(STP_POP_AM_PSS, payload_acked, payload_sent);
  late.on = stp_env_u64("STAGEPORT_AM_LATE_SEND_END", 0) != 0;
  if (late.on) {
    if (!(late.unwaited = calloc(stp_pc.nops, 1))) stp_fatal("gasnet_attach: out of memory");
    stp_pc_on_hold(late_hold);
  }
  {
    ptl_interface_t mode = PTLX_IFACE_HOST;
    PtlXNIMode(stp_pc.ni, &mode);
    pa.inplace = mode == PTLX_IFACE_OFFLOAD && !stp_par;
    /* AM_EQ's ring (twice in offload mode: the progress thread's ring), the ReqRBs, the pending table, the
     * held requests' table (and dynamic credits' CREDIT_EQ) */
    pa.recv_bytes = (size_t)pa.nrb * pa.rb_size + (size_t)pa.maxpend * sizeof(pend_t) +
                    (size_t)pa.maxheld * sizeof(ptl_event_t) +
                    (mode == PTLX_IFACE_OFFLOAD ? 2 : 1) * sizeof(ptl_event_t) *
                        (size_t)(pa.eq_events + pa.credit_events);
  }
  return GASNET_OK;
}

/* At gex_Segment_Attach: RARAM, the segment, for unpacked RequestLong
 * payloads, events to AM_EQ. */
static int pam_segment(void) {
  ptl_process_id_t any = {PTL_NID_ANY, PTL_PID_ANY};
  const gasnet_seginfo_t *mine = &stp.seg[stp.mynode];
  ptl_md_t md;
  if (!mine->addr) return GASNET_OK;
  memset(&md, 0, sizeof(md));
  md.start = mine->addr;
  md.length = mine->size;
  md.threshold = PTL_MD_THRESH_INF;
  md.options = PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE;
  md.eq_handle = pa.am_eq;
  stp_pc_check(PtlPost(stp_pc.ni, STP_PC_RAR_PTE, any, STP_PSEL_RARAM, STP_PBITS_IGNORE, PTL_RETAIN, PTL_INS_AFTER,
                       md, PTL_RETAIN, &pa.raram_me, &pa.raram),
               "posting RARAM");
  return GASNET_OK;
}

static void pam_detach(void) {
  /* every peer agreed to exit; the NI (closed by the network) takes the entries and MDs */
  stp_pc_on_am_event(NULL);
  if (late.on) {
    fprintf(stderr, "stageport: node %u: STAGEPORT_AM_LATE_SEND_END: %lu SEND_ENDs kept back, %lu payload Puts held\n",
            (unsigned)stp.mynode, late.kept, late.held);
    stp_pc_on_hold(NULL);
    free(late.unwaited);
  }
  free(pa.slot);
  free(pa.deferred);
  free(pa.rb);
  free(pa.held);
  free(pa.rpl);
  free(pa.pend);
  credits_fini(&pa.cr);
}

static size_t pam_recv_bytes(void) { return pa.recv_bytes; }

static int pam_credits(stageport_am_credits_t *s) {
  const credits_t *c = &pa.cr;
  memset(s, 0, sizeof(*s));
  s->dynamic = dynamic();
  s->capacity = dynamic() ? c->cfg.capacity : c->peer[0].lent * c->cfg.npeers;
  s->initial = dynamic() ? c->cfg.grant : c->peer[0].lent;
  s->max_grant = dynamic() ? c->cfg.max_grant : c->peer[0].lent;
  s->bank = c->bank;
  s->bank_low = c->stats.bank_low;
  s->max_lent = dynamic() ? c->stats.max_lent : c->peer[0].lent;
  s->reserve = c->reserve;
  for (uint32_t i = 0; i < c->cfg.npeers; i++)
    if (i != stp.mynode) s->lent_out += c->peer[i].lent - s->initial;
  s->quiet_us = (unsigned)(c->cfg.quiet / 1000u);
  s->stalls = c->stats.stalls;
  s->borrowed = c->stats.granted;
  s->asks = c->stats.asks;
  s->short_asks = c->stats.short_asks;
  s->lent = c->stats.lent;
  s->reclaims = c->stats.reclaims;
  s->released = c->stats.released;
  return 0;
}

const stp_core_ops_t stp_core_portals_ops = {
    .name = "core-portals",
    .attach = pam_attach,
    .segment = pam_segment,
    .detach = pam_detach,
    .max_medium = MAX_MEDIUM,
    .max_long_request = MAX_LONG,
    .max_long_reply = MAX_LONG,
    .request = pam_request,
    .reply = pam_reply,
    .poll = pam_poll,
    .np_prepare = pam_np_prepare,
    .np_cancel = pam_np_cancel,
    .recv_bytes = pam_recv_bytes,
    .credits = pam_credits,
};
