/*
 * ex_am.c -- the Active Message entry points: handler registration, the
 * payload queries, fixed-payload requests and replies, negotiated-payload
 * Prepare/Commit/Cancel, token queries, polling.
 *
 * Fixed-payload calls check their arguments and hand one stp_am_t to the
 * Core.  lc_opt: GEX_EVENT_NOW -- the Core returns at local completion
 * (what it does unless given an lc event); GEX_EVENT_GROUP -- counted in
 * the NBI set's GEX_EC_AM; a pointer -- a root event of its own, counted in
 * its STP_EC_LC.  The Cores report local completion at return today (every
 * lc event is complete when the call returns), so an AM's lc event is a
 * record only when a Core leaves it pending.
 *
 * Negotiated payload: Prepare hands out the client's buffer; or, with a
 * GASNet-allocated one, the Core's own send memory where the Core has some
 * for it (np_prepare, core.h: the native implementation, whose Commit
 * sends without a copy), else a buffer of the calling thread's (allocated
 * once, as large as the largest payload a Prepare may be asked for: the
 * reference implementation, every stage; STAGEPORT_NP=reference forces it)
 * -- Commit then sends a fixed-payload AM from it, the Core copying it into
 * its send memory at injection.
 */
#include "api.h"

#include <stdarg.h>
#include <stdlib.h>

int stp_np_reference;

/* ------------------------------------------------------------------ */
/* handler registration                                                */
/* ------------------------------------------------------------------ */
void stp_register_internal(const stp_handler_reg_t *regs, int n) {
  for (int i = 0; i < n; i++) {
    stp.handler[regs[i].index].fn = regs[i].fn;
    memset(&stp.handler[regs[i].index].entry, 0, sizeof(gex_AM_Entry_t)); /* (not checked) */
  }
}

static int reg_fail(const char *fn, const char *fmt, unsigned v, int rc) {
  fprintf(stderr, "stageport: node %u: %s: ", (unsigned)stp.mynode, fn);
  fprintf(stderr, fmt, v);
  fputc('\n', stderr);
  return rc;
}

/* Fixed indices first, then "don't care" ones from the top of the client
 * range down, in table order -- the same table gives the same assignment
 * on every process.  Nothing is registered unless everything can be. */
static int register_table(const char *fn, size_t n, gex_AM_Index_t (*index_of)(const void *, size_t),
                          const void *table, void (*put)(void *, size_t, unsigned), void *out) {
  int taken[256] = {0};
  unsigned free_top = 255;
  for (size_t i = 0; i < n; i++) {
    unsigned idx = index_of(table, i);
    if (!idx) continue;
    if (idx < STP_H_FIRST_CLIENT)
      return reg_fail(fn, "handler index %u is reserved (client indices are 128..255)", idx, GASNET_ERR_BAD_ARG);
    if (stp.handler[idx].fn || taken[idx]) return reg_fail(fn, "handler index %u registered twice", idx, GASNET_ERR_BAD_ARG);
    taken[idx] = 1;
  }
  for (size_t i = 0; i < n; i++) {
    if (index_of(table, i)) continue;
    while (free_top >= STP_H_FIRST_CLIENT && (stp.handler[free_top].fn || taken[free_top])) free_top--;
    if (free_top < STP_H_FIRST_CLIENT) return reg_fail(fn, "more than %u client handlers", 128, GASNET_ERR_RESOURCE);
    taken[free_top] = 2;
  }
  free_top = 255;
  for (size_t i = 0; i < n; i++) {
    unsigned idx = index_of(table, i);
    if (!idx) {
      while (taken[free_top] != 2) free_top--;
      idx = free_top--;
    }
    put(out, i, idx);
  }
  return GASNET_OK;
}

static gex_AM_Index_t ex_index(const void *t, size_t i) { return ((const gex_AM_Entry_t *)t)[i].gex_index; }
static void ex_put(void *t, size_t i, unsigned idx) {
  gex_AM_Entry_t *e = &((gex_AM_Entry_t *)t)[i];
  e->gex_index = (gex_AM_Index_t)idx;
  stp.handler[idx].fn = e->gex_fnptr;
  stp.handler[idx].entry = *e;
}
static gex_AM_Index_t legacy_index(const void *t, size_t i) { return ((const gasnet_handlerentry_t *)t)[i].index; }
static void legacy_put(void *t, size_t i, unsigned idx) {
  gasnet_handlerentry_t *e = &((gasnet_handlerentry_t *)t)[i];
  e->index = (gex_AM_Index_t)idx;
  stp.handler[idx].fn = e->fnptr;
  memset(&stp.handler[idx].entry, 0, sizeof(gex_AM_Entry_t)); /* GASNet-1: nothing stated to check */
  stp.handler[idx].entry.gex_index = (gex_AM_Index_t)idx;
  stp.handler[idx].entry.gex_fnptr = e->fnptr;
}

int gex_EP_RegisterHandlers(gex_EP_t ep, gex_AM_Entry_t *table, size_t numentries) {
  STP_API_GUARD();
  const char *fn = "gex_EP_RegisterHandlers";
  STP_CHECK_INITED(fn);
  if (ep != STP_EP0) stp_fatal("%s: %p is not an endpoint", fn, (void *)ep);
  if (numentries && !table) return reg_fail(fn, "a NULL table of %u entries", (unsigned)numentries, GASNET_ERR_BAD_ARG);
  for (size_t i = 0; i < numentries; i++) {
    gex_Flags_t f = table[i].gex_flags, cat = f & (GEX_FLAG_AM_SHORT | GEX_FLAG_AM_MEDLONG), rr = f & GEX_FLAG_AM_REQREP;
    if (!table[i].gex_fnptr) return reg_fail(fn, "entry %u has a NULL function", (unsigned)i, GASNET_ERR_BAD_ARG);
    if ((cat != GEX_FLAG_AM_SHORT && cat != GEX_FLAG_AM_MEDIUM && cat != GEX_FLAG_AM_LONG && cat != GEX_FLAG_AM_MEDLONG) ||
        !rr || (f & ~(GEX_FLAG_AM_SHORT | GEX_FLAG_AM_MEDLONG | GEX_FLAG_AM_REQREP)))
      return reg_fail(fn,
                      "entry %u: gex_flags must be one of GEX_FLAG_AM_{SHORT,MEDIUM,LONG,MEDLONG} with one of "
                      "GEX_FLAG_AM_{REQUEST,REPLY,REQREP}",
                      (unsigned)i, GASNET_ERR_BAD_ARG);
    if (table[i].gex_nargs > gex_AM_MaxArgs())
      return reg_fail(fn, "an entry with more than 16 arguments (%u)", table[i].gex_nargs, GASNET_ERR_BAD_ARG);
  }
  return register_table(fn, numentries, ex_index, table, ex_put, table);
}

int _stp_EP_RegisterLegacy(gex_EP_t ep, gasnet_handlerentry_t *table, int numentries) {
  STP_API_GUARD();
  const char *fn = "gasnet_attach";
  STP_CHECK_INITED(fn);
  if (ep != STP_EP0) stp_fatal("%s: %p is not an endpoint", fn, (void *)ep);
  if (numentries < 0 || (numentries > 0 && !table))
    return stp_agree(fn, reg_fail(fn, "bad handler table (%d entries)", (unsigned)numentries, GASNET_ERR_BAD_ARG),
                     "its handler table");
  for (int i = 0; i < numentries; i++)
    if (!table[i].fnptr)
      return stp_agree(fn,
                       reg_fail(fn, table[i].index ? "handler %u has a NULL function" : "table entry %u has a NULL function",
                                table[i].index ? table[i].index : (unsigned)i, GASNET_ERR_BAD_ARG),
                       "its handler table");
  {
    int rc = register_table(fn, (size_t)numentries, legacy_index, table, legacy_put, table);
    int out = stp_agree(fn, rc, "its handler table"); /* (collective: gasnet_attach is) */
    if (out != GASNET_OK && rc == GASNET_OK) /* another node's table failed: as before the call */
      for (int i = 0; i < numentries; i++) memset(&stp.handler[table[i].index], 0, sizeof(stp_handler_t));
    return out;
  }
}

/* ------------------------------------------------------------------ */
/* payload limits                                                      */
/* ------------------------------------------------------------------ */
/* The most a Prepare with a GASNet-allocated buffer hands out for a Long
 * (the thread's buffer is allocated at that size once) */
#define NP_LONG_ALLOC_MAX ((size_t)1 << 20)

static size_t max_of(int cat, int is_req, gex_Flags_t flags) {
  size_t m = cat == STP_AM_MEDIUM ? stp.core->max_medium : is_req ? stp.core->max_long_request : stp.core->max_long_reply;
  if (cat == STP_AM_LONG && (flags & GEX_FLAG_AM_PREPARE_LEAST_ALLOC)) m = STP_MIN(m, NP_LONG_ALLOC_MAX);
  return m;
}

static size_t max_query(const char *fn, gex_TM_t tm, gex_Rank_t other, const gex_Event_t *lc_opt, gex_Flags_t flags,
                        unsigned numargs, int cat, int is_req) {
  STP_CHECK_INITED(fn);
  if (other != GEX_RANK_INVALID) STP_CHECK_NODE(fn, STP_TM_JOBRANK(fn, tm, other));
  STP_CHECK_TM(fn, tm);
  if (STP_UNLIKELY(numargs > gex_AM_MaxArgs())) stp_fatal("%s: numargs %u, more than gex_AM_MaxArgs() (16)", fn, numargs);
  (void)lc_opt; /* (the same whatever lc_opt and peer: no Core has per-peer limits) */
  return max_of(cat, is_req, flags);
}

size_t gex_AM_MaxRequestLong(gex_TM_t tm, gex_Rank_t r, const gex_Event_t *lc, gex_Flags_t f, unsigned n) {
  return max_query("gex_AM_MaxRequestLong", tm, r, lc, f, n, STP_AM_LONG, 1);
}
size_t gex_AM_MaxReplyLong(gex_TM_t tm, gex_Rank_t r, const gex_Event_t *lc, gex_Flags_t f, unsigned n) {
  return max_query("gex_AM_MaxReplyLong", tm, r, lc, f, n, STP_AM_LONG, 0);
}
size_t gex_AM_MaxRequestMedium(gex_TM_t tm, gex_Rank_t r, const gex_Event_t *lc, gex_Flags_t f, unsigned n) {
  return max_query("gex_AM_MaxRequestMedium", tm, r, lc, f, n, STP_AM_MEDIUM, 1);
}
size_t gex_AM_MaxReplyMedium(gex_TM_t tm, gex_Rank_t r, const gex_Event_t *lc, gex_Flags_t f, unsigned n) {
  return max_query("gex_AM_MaxReplyMedium", tm, r, lc, f, n, STP_AM_MEDIUM, 0);
}
size_t gex_Token_MaxReplyLong(gex_Token_t token, const gex_Event_t *lc_opt, gex_Flags_t flags, unsigned numargs) {
  (void)token, (void)lc_opt;
  if (numargs > gex_AM_MaxArgs()) stp_fatal("gex_Token_MaxReplyLong: numargs %u, more than 16", numargs);
  return max_of(STP_AM_LONG, 0, flags);
}
size_t gex_Token_MaxReplyMedium(gex_Token_t token, const gex_Event_t *lc_opt, gex_Flags_t flags, unsigned numargs) {
  (void)token, (void)lc_opt;
  if (numargs > gex_AM_MaxArgs()) stp_fatal("gex_Token_MaxReplyMedium: numargs %u, more than 16", numargs);
  return max_of(STP_AM_MEDIUM, 0, flags);
}
/* The least Max over every peer, argument count, lc_opt and flag (the
 * LEAST_* queries aside): valid from init on, before a segment. */
size_t gex_AM_LUBRequestLong(void) {
  STP_CHECK_INITED("gex_AM_LUBRequestLong");
  return stp.core->max_long_request;
}
size_t gex_AM_LUBReplyLong(void) {
  STP_CHECK_INITED("gex_AM_LUBReplyLong");
  return stp.core->max_long_reply;
}
size_t gex_AM_LUBRequestMedium(void) {
  STP_CHECK_INITED("gex_AM_LUBRequestMedium");
  return stp.core->max_medium;
}
size_t gex_AM_LUBReplyMedium(void) {
  STP_CHECK_INITED("gex_AM_LUBReplyMedium");
  return stp.core->max_medium;
}

/* ------------------------------------------------------------------ */
/* tokens                                                              */
/* ------------------------------------------------------------------ */
gex_TI_t gex_Token_Info(gex_Token_t token, gex_Token_Info_t *info, gex_TI_t mask) {
  stp_token_t *t = (stp_token_t *)token;
  (void)mask;
  if (STP_UNLIKELY(!t || !info)) stp_fatal("gex_Token_Info: a NULL %s", t ? "info" : "token");
  info->gex_srcrank = t->src;
  info->gex_ep = STP_EP0;
  info->gex_entry = &stp.handler[t->handler].entry;
  info->gex_is_req = t->is_request;
  info->gex_is_long = t->cat == STP_AM_LONG;
  return GEX_TI_ALL;
}

/* ------------------------------------------------------------------ */
/* fixed-payload AMs                                                   */
/* ------------------------------------------------------------------ */
#define GET_ARGS(args, numargs, last, fn)                                                         \
  do {                                                                                            \
    va_list _ap;                                                                                  \
    if (STP_UNLIKELY((numargs) > 16))                                                             \
      stp_fatal("%s: %u handler arguments, more than gex_AM_MaxArgs() (16)", fn, (unsigned)(numargs)); \
    va_start(_ap, last);                                                                          \
    for (unsigned _i = 0; _i < (numargs); _i++) (args)[_i] = (gex_AM_Arg_t)va_arg(_ap, int);       \
    va_end(_ap);                                                                                  \
  } while (0)

/* Indices 1..127 are the library's: a client message naming one would run
 * a library handler on arguments it trusts.  Refused with checks on or off
 * (one compare): checks off removes reports, not memory safety. */
static inline void check_handler(const char *fn, gex_AM_Index_t handler) {
  if (STP_UNLIKELY(handler < STP_H_FIRST_CLIENT))
    stp_fatal("%s: handler index %u is not a client handler (indices 1..127 are reserved for the library, "
              "clients use 128..255)", fn, (unsigned)handler);
}

/* A payload over the maximum would overrun the Core's buffers: refused with
 * checks on or off (one compare). */
static inline void check_payload(const char *fn, size_t nbytes, size_t max, const char *maxname) {
  if (STP_UNLIKELY(nbytes > max)) stp_fatal("%s: payload of %zu bytes exceeds %s() = %zu", fn, nbytes, maxname, max);
}

#define AM_FLAGS (GEX_FLAG_IMMEDIATE)
static inline void check_am_flags(const char *fn, gex_Flags_t flags) {
  if (STP_UNLIKELY(flags & ~AM_FLAGS)) stp_fatal("%s: flags 0x%x: only GEX_FLAG_IMMEDIATE is valid here", fn, (unsigned)flags);
}

/* The checks of a request; its destination's job rank (dest: a rank of
 * tm; the token's srcrank at the receiver is this process's job rank). */
static inline gex_Rank_t check_request(const char *fn, gex_TM_t tm, gex_Rank_t dest, gex_AM_Index_t handler,
                                       gex_Flags_t flags) {
  STP_CHECK_MAY_SEND(fn);
  dest = STP_TM_JOBRANK(fn, tm, dest);
  STP_CHECK_TM(fn, tm);
  STP_CHECK_NODE(fn, dest);
  check_handler(fn, handler);
  check_am_flags(fn, flags);
  return dest;
}

static inline stp_token_t *check_reply(const char *fn, gex_Token_t token, gex_AM_Index_t handler, gex_Flags_t flags) {
  stp_token_t *t = (stp_token_t *)token;
  check_handler(fn, handler);
  check_am_flags(fn, flags);
#if STP_CHECKS
  if (STP_UNLIKELY(!t || !stp.in_handler)) stp_fatal("%s: called outside a request handler", fn);
  if (STP_UNLIKELY(!t->is_request)) stp_fatal("%s: called from a reply handler (reply handlers may not send)", fn);
  if (STP_UNLIKELY(t->replied)) stp_fatal("%s: a request handler may reply only once", fn);
#else
  (void)fn;
#endif
  return t;
}

/* The lc event of an AM with a payload (lc_opt checked): NULL for NOW (the
 * Core returns at local completion); GROUP (requests only): the NBI set,
 * counted in STP_EC_AM; a pointer: a root of its own.  STAGEPORT_LC=
 * reference: always NULL (an event handed back is complete already). */
static inline stp_ev_t *am_lc_begin(const char *fn, gex_Event_t *lc_opt, int is_req) {
  if (lc_opt == GEX_EVENT_NOW) return NULL;
  if (lc_opt == GEX_EVENT_GROUP) {
    if (STP_UNLIKELY(!is_req)) stp_fatal("%s: GEX_EVENT_GROUP is not valid for a reply", fn);
    return stp_lc_reference ? NULL : stp_nbi_ev(); /* (a Core counts it in GEX_EC_AM: stp_am_lc_cat) */
  }
  if (STP_UNLIKELY(lc_opt == GEX_EVENT_DEFER || !lc_opt))
    stp_fatal("%s: lc_opt %p: use GEX_EVENT_NOW, GEX_EVENT_GROUP (requests) or a gex_Event_t *", fn, (void *)lc_opt);
  return stp_lc_reference ? NULL : stp_ev_alloc(STP_EV_ROOT);
}

static inline void am_lc_end(gex_Event_t *lc_opt, stp_ev_t *lc, int refused) {
  if (lc_opt == GEX_EVENT_NOW || lc_opt == GEX_EVENT_GROUP) return;
  if (refused) { /* (nothing was counted in it) */
    if (lc) stp_ev_free(lc);
    return;
  }
  *lc_opt = lc ? stp_ev_root_handle(lc) : GEX_EVENT_INVALID;
}

/* Send an AM with a payload (requests through stp_am_request: the
 * library's own sends count in in_am_send) with the lc bookkeeping.  0, or
 * 1 refused (IMMEDIATE).  (Shorts, which have no lc, call stp_am_request
 * and stp_am_reply themselves.) */
static inline __attribute__((always_inline)) int am_send(stp_am_t *am, gex_Rank_t dest, stp_token_t *reply_to,
                                                         gex_Event_t *lc_opt, const char *fn) {
  stp_ev_t *lc = am_lc_begin(fn, lc_opt, reply_to == NULL);
  int rc;
  am->lc = lc;
  rc = reply_to ? stp_am_reply((gex_Token_t)reply_to, am) : stp_am_request(dest, am);
  am_lc_end(lc_opt, lc, rc);
  return rc;
}

int _stp_AMRequestShort(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler, gex_Flags_t flags, unsigned numargs,
                        ...) {
  STP_API_GUARD();
  gex_AM_Arg_t args[16];
  stp_am_t am = {STP_AM_SHORT, 0, handler, 0, args, NULL, 0, NULL, flags, NULL, 0};
  rank = check_request("gex_AM_RequestShort", tm, rank, handler, flags);
  GET_ARGS(args, numargs, numargs, "gex_AM_RequestShort");
  am.nargs = (uint8_t)numargs;
  return stp_am_request(rank, &am); /* (a Short has no lc: am_send's bookkeeping is all payload's) */
}

int _stp_AMRequestMedium(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler, const void *source_addr,
                         size_t nbytes, gex_Event_t *lc_opt, gex_Flags_t flags, unsigned numargs, ...) {
  STP_API_GUARD();
  gex_AM_Arg_t args[16];
  stp_am_t am = {STP_AM_MEDIUM, 0, handler, 0, args, source_addr, nbytes, NULL, flags, NULL, 0};
  rank = check_request("gex_AM_RequestMedium", tm, rank, handler, flags);
  STP_CHECK_LOCAL("gex_AM_RequestMedium", "source", source_addr, nbytes);
  check_payload("gex_AM_RequestMedium", nbytes, stp.core->max_medium, "gex_AM_MaxRequestMedium");
  GET_ARGS(args, numargs, numargs, "gex_AM_RequestMedium");
  am.nargs = (uint8_t)numargs;
  return am_send(&am, rank, NULL, lc_opt, "gex_AM_RequestMedium");
}

int _stp_AMRequestLong(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler, const void *source_addr,
                       size_t nbytes, void *dest_addr, gex_Event_t *lc_opt, gex_Flags_t flags, unsigned numargs, ...) {
  STP_API_GUARD();
  gex_AM_Arg_t args[16];
  const char *fn = "gex_AM_RequestLong";
  stp_am_t am = {STP_AM_LONG, 0, handler, 0, args, source_addr, nbytes, dest_addr, flags, NULL, 0};
  rank = check_request(fn, tm, rank, handler, flags);
  STP_CHECK_LOCAL(fn, "source", source_addr, nbytes);
  check_payload(fn, nbytes, stp.core->max_long_request, "gex_AM_MaxRequestLong");
  STP_CHECK_REMOTE(fn, rank, dest_addr, nbytes);
  GET_ARGS(args, numargs, numargs, fn);
  am.nargs = (uint8_t)numargs;
  return am_send(&am, rank, NULL, lc_opt, fn);
}

/* GASNet-1's LongAsync (the legacy layer): the Core may return before the
 * payload is read (the source is the caller's again once the reply runs). */
int _stp_AMRequestLongAsync(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler, const void *source_addr,
                            size_t nbytes, void *dest_addr, unsigned numargs, ...) {
  STP_API_GUARD();
  gex_AM_Arg_t args[16];
  const char *fn = "gasnet_AMRequestLongAsync";
  stp_am_t am = {STP_AM_LONG, 1, handler, 0, args, source_addr, nbytes, dest_addr, 0, NULL, 0};
  rank = check_request(fn, tm, rank, handler, 0);
  STP_CHECK_LOCAL(fn, "source", source_addr, nbytes);
  check_payload(fn, nbytes, stp.core->max_long_request, "gasnet_AMMaxLongRequest");
  STP_CHECK_REMOTE(fn, rank, dest_addr, nbytes);
  GET_ARGS(args, numargs, numargs, fn);
  am.nargs = (uint8_t)numargs;
  return am_send(&am, rank, NULL, GEX_EVENT_NOW, fn);
}

int _stp_AMReplyShort(gex_Token_t token, gex_AM_Index_t handler, gex_Flags_t flags, unsigned numargs, ...) {
  STP_API_GUARD();
  gex_AM_Arg_t args[16];
  stp_am_t am = {STP_AM_SHORT, 0, handler, 0, args, NULL, 0, NULL, flags, NULL, 0};
  stp_token_t *t = check_reply("gex_AM_ReplyShort", token, handler, flags);
  GET_ARGS(args, numargs, numargs, "gex_AM_ReplyShort");
  am.nargs = (uint8_t)numargs;
  return stp_am_reply((gex_Token_t)t, &am);
}

int _stp_AMReplyMedium(gex_Token_t token, gex_AM_Index_t handler, const void *source_addr, size_t nbytes,
                       gex_Event_t *lc_opt, gex_Flags_t flags, unsigned numargs, ...) {
  STP_API_GUARD();
  gex_AM_Arg_t args[16];
  stp_am_t am = {STP_AM_MEDIUM, 0, handler, 0, args, source_addr, nbytes, NULL, flags, NULL, 0};
  stp_token_t *t = check_reply("gex_AM_ReplyMedium", token, handler, flags);
  STP_CHECK_LOCAL("gex_AM_ReplyMedium", "source", source_addr, nbytes);
  check_payload("gex_AM_ReplyMedium", nbytes, stp.core->max_medium, "gex_AM_MaxReplyMedium");
  GET_ARGS(args, numargs, numargs, "gex_AM_ReplyMedium");
  am.nargs = (uint8_t)numargs;
  return am_send(&am, t->src, t, lc_opt, "gex_AM_ReplyMedium");
}

int _stp_AMReplyLong(gex_Token_t token, gex_AM_Index_t handler, const void *source_addr, size_t nbytes,
                     void *dest_addr, gex_Event_t *lc_opt, gex_Flags_t flags, unsigned numargs, ...) {
  STP_API_GUARD();
  gex_AM_Arg_t args[16];
  const char *fn = "gex_AM_ReplyLong";
  stp_am_t am = {STP_AM_LONG, 0, handler, 0, args, source_addr, nbytes, dest_addr, flags, NULL, 0};
  stp_token_t *t = check_reply(fn, token, handler, flags);
  STP_CHECK_LOCAL(fn, "source", source_addr, nbytes);
  check_payload(fn, nbytes, stp.core->max_long_reply, "gex_AM_MaxReplyLong");
  STP_CHECK_REMOTE(fn, t->src, dest_addr, nbytes);
  GET_ARGS(args, numargs, numargs, fn);
  am.nargs = (uint8_t)numargs;
  return am_send(&am, t->src, t, lc_opt, fn);
}

/* ------------------------------------------------------------------ */
/* negotiated-payload AMs (the Core's memory, or the reference buffer) */
/* ------------------------------------------------------------------ */
struct _stp_srcdesc {
  struct _stp_srcdesc_head h; /* addr, size, live: gasnetex.h's inline queries read them */
  stp_np_t np;     /* what was prepared: is_req, cat, nargs, dest (a request's), token (a reply's), most (the
                    * size asked for, at most the category's maximum), flags; with native NP, the Core's
                    * answer (addr, size, hold: its reservation of its own send memory; 0 none) */
  void *dest_addr; /* a Long's, as given to Prepare (NULL: any at Commit) */
  gex_Event_t *lc_opt;
  void *buf;       /* the thread's buffer, allocated once */
  size_t buf_size;
};

/* Two per thread: [0] for requests, [1] for replies.  A request's Commit may
 * poll for flow control and run a handler that prepares its reply while the
 * request's buffer is still being sent from, so the two never share one. */
static inline struct _stp_srcdesc *thread_sd(int is_req) {
  stp_thread_t *t = stp_thread();
  if (STP_UNLIKELY(!t->sd) && !(t->sd = calloc(2, sizeof(*t->sd)))) stp_fatal("gex_AM_Prepare*: out of memory");
  return &t->sd[is_req ? 0 : 1];
}

/* (inline: each entry point below gets its own copy, its is_req and cat
 * constants, and no thirteen-argument call) */
static inline __attribute__((always_inline)) gex_AM_SrcDesc_t prepare(const char *fn, int is_req, int cat, gex_TM_t tm,
                                                                     gex_Rank_t rank, gex_Token_t token,
                                                                     const void *client_buf, size_t least, size_t most,
                                                                     void *dest_addr, gex_Event_t *lc_opt,
                                                                     gex_Flags_t flags, unsigned numargs) {
  struct _stp_srcdesc *sd = thread_sd(is_req);
  gex_Flags_t sendflags = flags & ~(GEX_FLAG_AM_PREPARE_LEAST_CLIENT | GEX_FLAG_AM_PREPARE_LEAST_ALLOC);
  size_t max = max_of(cat, is_req, client_buf ? 0 : GEX_FLAG_AM_PREPARE_LEAST_ALLOC);
  if (is_req) rank = check_request(fn, tm, rank, GEX_AM_INDEX_BASE, sendflags);
  else (void)check_reply(fn, token, GEX_AM_INDEX_BASE, sendflags);
  if (STP_UNLIKELY(sd->h._live)) stp_fatal("%s: this thread has a Prepare not yet committed or cancelled", fn);
  if (STP_UNLIKELY(numargs > gex_AM_MaxArgs())) stp_fatal("%s: numargs %u, more than 16", fn, numargs);
  if (STP_UNLIKELY(least > most || least > max))
    stp_fatal("%s: least_payload %zu (most_payload %zu): more than the most (%zu) or than most_payload", fn, least,
              most, max);
  if (!client_buf && STP_UNLIKELY(lc_opt)) stp_fatal("%s: lc_opt must be NULL with a GASNet-allocated buffer", fn);
  sd->np.is_req = (uint8_t)is_req;
  sd->np.cat = (uint8_t)cat;
  sd->np.nargs = (uint8_t)numargs;
  sd->np.dest = rank;
  sd->np.token = (stp_token_t *)token;
  sd->np.least = least;
  sd->np.most = sd->h._size = STP_MIN(most, max);
  sd->np.flags = sendflags;
  sd->np.hold = 0;
  sd->dest_addr = dest_addr;
  sd->lc_opt = client_buf ? lc_opt : GEX_EVENT_NOW; /* (a client buffer's: checked at Commit, as a fixed payload's) */
  if (client_buf) {
    sd->h._addr = (void *)client_buf;
  } else if (stp.core->np_prepare && !stp_np_reference) { /* the Core's own send memory, if it has some for this */
    sd->np.addr = NULL;
    if (stp.core->np_prepare(&sd->np)) return GEX_AM_SRCDESC_NO_OP; /* (IMMEDIATE: refused, nothing taken) */
    if (sd->np.addr) {
      sd->h._addr = sd->np.addr;
      sd->h._size = sd->np.size;
    }
  }
  if (!client_buf && !sd->np.hold) { /* the reference: the thread's buffer */
    size_t want = cat == STP_AM_MEDIUM ? stp.core->max_medium : max; /* (the largest it will ever be asked for) */
    if (sd->buf_size < want) {
      void *b = NULL;
      if (posix_memalign(&b, 64, want ? want : 1)) stp_fatal("%s: out of memory for a %zu-byte buffer", fn, want);
      free(sd->buf);
      sd->buf = b;
      sd->buf_size = want;
    }
    sd->h._addr = sd->buf;
  }
  sd->h._live = 1;
  return (gex_AM_SrcDesc_t)sd;
}

gex_AM_SrcDesc_t gex_AM_PrepareRequestMedium(gex_TM_t tm, gex_Rank_t rank, const void *client_buf, size_t least,
                                             size_t most, gex_Event_t *lc_opt, gex_Flags_t flags, unsigned numargs) {
  STP_API_GUARD();
  return prepare("gex_AM_PrepareRequestMedium", 1, STP_AM_MEDIUM, tm, rank, NULL, client_buf, least, most, NULL, lc_opt,
                 flags, numargs);
}
gex_AM_SrcDesc_t gex_AM_PrepareReplyMedium(gex_Token_t token, const void *client_buf, size_t least, size_t most,
                                           gex_Event_t *lc_opt, gex_Flags_t flags, unsigned numargs) {
  STP_API_GUARD();
  return prepare("gex_AM_PrepareReplyMedium", 0, STP_AM_MEDIUM, NULL, 0, token, client_buf, least, most, NULL, lc_opt,
                 flags, numargs);
}
gex_AM_SrcDesc_t gex_AM_PrepareRequestLong(gex_TM_t tm, gex_Rank_t rank, const void *client_buf, size_t least,
                                           size_t most, void *dest_addr, gex_Event_t *lc_opt, gex_Flags_t flags,
                                           unsigned numargs) {
  STP_API_GUARD();
  return prepare("gex_AM_PrepareRequestLong", 1, STP_AM_LONG, tm, rank, NULL, client_buf, least, most, dest_addr, lc_opt,
                 flags, numargs);
}
gex_AM_SrcDesc_t gex_AM_PrepareReplyLong(gex_Token_t token, const void *client_buf, size_t least, size_t most,
                                         void *dest_addr, gex_Event_t *lc_opt, gex_Flags_t flags, unsigned numargs) {
  STP_API_GUARD();
  return prepare("gex_AM_PrepareReplyLong", 0, STP_AM_LONG, NULL, 0, token, client_buf, least, most, dest_addr, lc_opt,
                 flags, numargs);
}

static void __attribute__((noinline, cold)) check_sd_fail(const char *fn, gex_AM_SrcDesc_t h) STP_NORETURN;
static void check_sd_fail(const char *fn, gex_AM_SrcDesc_t h) {
  struct _stp_srcdesc *sd = (struct _stp_srcdesc *)h, *mine = stp_thread()->sd;
  if (!sd || !mine || (sd != &mine[0] && sd != &mine[1]) || !sd->h._live)
    stp_fatal("%s: %p is not this thread's prepared source descriptor", fn, (void *)h);
  stp_fatal("%s: the descriptor was prepared for an AM %s %s", fn, sd->np.cat == STP_AM_LONG ? "Long" : "Medium",
            sd->np.is_req ? "request" : "reply");
}

/* A Commit's or Cancel's descriptor: this thread's, live, of this kind (a
 * request's is [0], a reply's [1]: thread_sd), else a fatal error. */
static inline struct _stp_srcdesc *check_sd(const char *fn, gex_AM_SrcDesc_t h, int is_req, int cat) {
  struct _stp_srcdesc *sd = (struct _stp_srcdesc *)h, *mine = stp_thread()->sd;
  if (STP_UNLIKELY(!mine || sd != &mine[is_req ? 0 : 1] || !sd->h._live || sd->np.cat != cat)) check_sd_fail(fn, h);
  return sd;
}

/* (the functions behind gasnetex.h's inline queries: reached with a
 * descriptor that is not prepared, or called by name) */
void *(gex_AM_SrcDescAddr)(gex_AM_SrcDesc_t h) {
  struct _stp_srcdesc *sd = (struct _stp_srcdesc *)h;
  if (STP_UNLIKELY(!sd || !sd->h._live)) stp_fatal("gex_AM_SrcDescAddr: %p is not a prepared descriptor", (void *)h);
  return sd->h._addr;
}

size_t (gex_AM_SrcDescSize)(gex_AM_SrcDesc_t h) {
  struct _stp_srcdesc *sd = (struct _stp_srcdesc *)h;
  if (STP_UNLIKELY(!sd || !sd->h._live)) stp_fatal("gex_AM_SrcDescSize: %p is not a prepared descriptor", (void *)h);
  return sd->h._size;
}

/* The commit: a fixed-payload AM from the prepared buffer.  A refusal
 * (commit_flags IMMEDIATE) leaves the descriptor prepared. */
static inline __attribute__((always_inline)) int commit(const char *fn, struct _stp_srcdesc *sd, gex_AM_Index_t handler,
                                                        size_t nbytes, void *dest_addr, gex_Flags_t commit_flags,
                                                        unsigned numargs, const gex_AM_Arg_t *args) {
  stp_am_t am = {sd->np.cat, 0, handler, (uint8_t)numargs, args, sd->h._addr, nbytes, dest_addr,
                 (sd->np.flags & ~GEX_FLAG_IMMEDIATE) | (commit_flags & GEX_FLAG_IMMEDIATE), NULL, sd->np.hold};
  int rc;
  check_handler(fn, handler);
  if (STP_UNLIKELY(commit_flags & ~GEX_FLAG_IMMEDIATE))
    stp_fatal("%s: commit_flags 0x%x: only GEX_FLAG_IMMEDIATE is valid", fn, (unsigned)commit_flags);
  if (STP_UNLIKELY(numargs != sd->np.nargs))
    stp_fatal("%s: %u arguments, the Prepare said %u", fn, numargs, (unsigned)sd->np.nargs);
  if (STP_UNLIKELY(nbytes > sd->h._size))
    stp_fatal("%s: nbytes %zu, more than gex_AM_SrcDescSize() (%zu)", fn, nbytes, sd->h._size);
  if (sd->np.cat == STP_AM_LONG) {
    if (STP_UNLIKELY(sd->dest_addr && dest_addr != sd->dest_addr))
      stp_fatal("%s: dest_addr %p, the Prepare said %p", fn, dest_addr, sd->dest_addr);
    STP_CHECK_REMOTE(fn, sd->np.is_req ? sd->np.dest : sd->np.token->src, dest_addr, nbytes);
  }
  sd->h._live = 0;
  if (sd->np.is_req) rc = am_send(&am, sd->np.dest, NULL, sd->lc_opt, fn);
  else rc = am_send(&am, sd->np.token->src, sd->np.token, sd->lc_opt, fn);
  if (rc) {
    if (!sd->np.is_req) sd->np.token->replied = 0;
    sd->h._live = 1;
  }
  return rc;
}

int _stp_AMCommitMedium(gex_AM_SrcDesc_t h, gex_AM_Index_t handler, size_t nbytes, gex_Flags_t commit_flags, int is_req,
                        unsigned numargs, ...) {
  STP_API_GUARD();
  const char *fn = is_req ? "gex_AM_CommitRequestMedium" : "gex_AM_CommitReplyMedium";
  struct _stp_srcdesc *sd = check_sd(fn, h, is_req, STP_AM_MEDIUM);
  gex_AM_Arg_t args[16];
  GET_ARGS(args, numargs, numargs, fn);
  return commit(fn, sd, handler, nbytes, NULL, commit_flags, numargs, args);
}

int _stp_AMCommitLong(gex_AM_SrcDesc_t h, gex_AM_Index_t handler, size_t nbytes, void *dest_addr,
                      gex_Flags_t commit_flags, int is_req, unsigned numargs, ...) {
  STP_API_GUARD();
  const char *fn = is_req ? "gex_AM_CommitRequestLong" : "gex_AM_CommitReplyLong";
  struct _stp_srcdesc *sd = check_sd(fn, h, is_req, STP_AM_LONG);
  gex_AM_Arg_t args[16];
  GET_ARGS(args, numargs, numargs, fn);
  return commit(fn, sd, handler, nbytes, dest_addr, commit_flags, numargs, args);
}

static int cancel(const char *fn, gex_AM_SrcDesc_t h, int is_req, int cat, gex_Flags_t flags) {
  STP_API_GUARD(); /* (a Core's np_cancel gives back shared resources) */
  struct _stp_srcdesc *sd = check_sd(fn, h, is_req, cat);
  if (STP_UNLIKELY(flags)) stp_fatal("%s: flags 0x%x (reserved: 0)", fn, (unsigned)flags);
  if (sd->np.hold) {
    stp.core->np_cancel(&sd->np);
    sd->np.hold = 0;
  }
  sd->h._live = 0;
  return GASNET_OK;
}
int gex_AM_CancelRequestMedium(gex_AM_SrcDesc_t sd, gex_Flags_t f) {
  return cancel("gex_AM_CancelRequestMedium", sd, 1, STP_AM_MEDIUM, f);
}
int gex_AM_CancelReplyMedium(gex_AM_SrcDesc_t sd, gex_Flags_t f) {
  return cancel("gex_AM_CancelReplyMedium", sd, 0, STP_AM_MEDIUM, f);
}
int gex_AM_CancelRequestLong(gex_AM_SrcDesc_t sd, gex_Flags_t f) {
  return cancel("gex_AM_CancelRequestLong", sd, 1, STP_AM_LONG, f);
}
int gex_AM_CancelReplyLong(gex_AM_SrcDesc_t sd, gex_Flags_t f) {
  return cancel("gex_AM_CancelReplyLong", sd, 0, STP_AM_LONG, f);
}

/* ------------------------------------------------------------------ */
/* polling                                                             */
/* ------------------------------------------------------------------ */
int gasnet_AMPoll(void) {
  STP_API_GUARD();
  STP_CHECK_INITED("gasnet_AMPoll");
  STP_CHECK_NOT_IN_HANDLER("gasnet_AMPoll");
  stp_poll();
  return GASNET_OK;
}

void _stp_blockuntil_step(unsigned *spins) {
  STP_API_GUARD();
  STP_CHECK_INITED("GASNET_BLOCKUNTIL");
  STP_CHECK_NOT_IN_HANDLER("GASNET_BLOCKUNTIL");
  stp_api_wait_step(spins);
}
