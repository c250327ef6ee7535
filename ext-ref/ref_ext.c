/*
 * ref_ext.c -- the reference RMA: Put/Get over the Core's AMs (a stage
 * row's NULL RMA table; the `mpi` stage's, GASNet's own reference).
 *
 * put:    AM Long requests of at most max_long_request bytes each, straight
 *         into the target segment; each request handler replies PUT_ACK,
 *         which is the remote completion of that chunk.  The Core returns
 *         from a Long request at its local completion, so a put's lc is
 *         complete when put() returns; with no lc asked for (DEFER) the
 *         chunks go as LongAsync, which may return before.
 * get:    an AM Short request per chunk of at most max_medium bytes; the
 *         target replies with an AM Medium carrying the data, which the
 *         reply handler copies to the destination.
 * The event record's address travels in two handler arguments and comes
 * back in the reply, so completion finds its event without a search.
 * IMMEDIATE: the first chunk's request is sent IMMEDIATE; its refusal
 * refuses the whole call (nothing sent); later chunks may wait.
 */
#include "stp_internal.h"

/* handlers ----------------------------------------------------------- */
static void put_handler(gex_Token_t token, void *buf, size_t nbytes, gex_AM_Arg_t ev_lo, gex_AM_Arg_t ev_hi) {
  gex_AM_Arg_t args[2] = {ev_lo, ev_hi};
  stp_am_t am = {STP_AM_SHORT, 0, STP_H_REF_PUT_ACK, 2, args, NULL, 0, NULL, 0, NULL, 0};
  (void)buf;
  (void)nbytes;
  stp_am_reply(token, &am);
}

static void put_ack_handler(gex_Token_t token, gex_AM_Arg_t ev_lo, gex_AM_Arg_t ev_hi) {
  (void)token;
  stp_ev_finish(STP_ARG_PTR(ev_lo, ev_hi), STP_EC_PUT);
}

static void get_handler(gex_Token_t token, gex_AM_Arg_t src_lo, gex_AM_Arg_t src_hi, gex_AM_Arg_t n,
                        gex_AM_Arg_t dst_lo, gex_AM_Arg_t dst_hi, gex_AM_Arg_t ev_lo, gex_AM_Arg_t ev_hi) {
  gex_AM_Arg_t args[4] = {dst_lo, dst_hi, ev_lo, ev_hi};
  stp_am_t am = {STP_AM_MEDIUM, 0, STP_H_REF_GET_REPLY, 4, args, STP_ARG_PTR(src_lo, src_hi), (uint32_t)n, NULL, 0,
                 NULL, 0};
  if (STP_UNLIKELY(!stp_in_my_segment(am.src, am.nbytes)))
    stp_bad_address("get", ((stp_token_t *)token)->src, am.src, am.nbytes);
  stp_am_reply(token, &am);
}

static void get_reply_handler(gex_Token_t token, void *buf, size_t nbytes, gex_AM_Arg_t dst_lo, gex_AM_Arg_t dst_hi,
                              gex_AM_Arg_t ev_lo, gex_AM_Arg_t ev_hi) {
  (void)token;
  memcpy(STP_ARG_PTR(dst_lo, dst_hi), buf, nbytes);
  stp_ev_finish(STP_ARG_PTR(ev_lo, ev_hi), STP_EC_GET);
}

static const stp_handler_reg_t ref_handlers[] = {
    {STP_H_REF_PUT, (gex_AM_Fn_t)put_handler},
    {STP_H_REF_PUT_ACK, (gex_AM_Fn_t)put_ack_handler},
    {STP_H_REF_GET, (gex_AM_Fn_t)get_handler},
    {STP_H_REF_GET_REPLY, (gex_AM_Fn_t)get_reply_handler},
};

/* initiation --------------------------------------------------------- */
static int ref_put(stp_ev_t *rc, stp_ev_t *lc, gex_Rank_t node, void *dst, const void *src, size_t n,
                   gex_Flags_t flags) {
  size_t chunk = stp.core->max_long_request;
  gex_AM_Arg_t args[2] = {STP_ARG_LO(rc), STP_ARG_HI(rc)};
  stp_am_t am = {STP_AM_LONG, (uint8_t)(lc == NULL), STP_H_REF_PUT, 2, args, src, 0, dst,
                 flags & GEX_FLAG_IMMEDIATE, NULL, 0};
  while (n) {
    am.nbytes = STP_MIN(n, chunk);
    stp_ev_start(rc, STP_EC_PUT);
    if (STP_UNLIKELY(stp_am_request(node, &am))) { /* (only the first: am.flags is cleared below) */
      stp_ev_finish(rc, STP_EC_PUT);
      return 1;
    }
    am.flags = 0;
    am.src = (const char *)am.src + am.nbytes;
    am.dst = (char *)am.dst + am.nbytes;
    n -= am.nbytes;
  }
  return 0;
}

static int ref_get(stp_ev_t *rc, void *dst, gex_Rank_t node, const void *src, size_t n, gex_Flags_t flags) {
  size_t chunk = stp.core->max_medium;
  gex_AM_Arg_t args[7];
  stp_am_t am = {STP_AM_SHORT, 0, STP_H_REF_GET, 7, args, NULL, 0, NULL, flags & GEX_FLAG_IMMEDIATE, NULL, 0};
  args[5] = STP_ARG_LO(rc);
  args[6] = STP_ARG_HI(rc);
  while (n) {
    size_t c = STP_MIN(n, chunk);
    args[0] = STP_ARG_LO(src);
    args[1] = STP_ARG_HI(src);
    args[2] = (gex_AM_Arg_t)c;
    args[3] = STP_ARG_LO(dst);
    args[4] = STP_ARG_HI(dst);
    stp_ev_start(rc, STP_EC_GET);
    if (STP_UNLIKELY(stp_am_request(node, &am))) {
      stp_ev_finish(rc, STP_EC_GET);
      return 1;
    }
    am.flags = 0;
    src = (const char *)src + c;
    dst = (char *)dst + c;
    n -= c;
  }
  return 0;
}

const stp_rma_ops_t stp_rma_ref_ops = {
    .name = "ext-ref",
    .handlers = ref_handlers,
    .nhandlers = (int)(sizeof(ref_handlers) / sizeof(ref_handlers[0])),
    .put = ref_put,
    .get = ref_get,
    .vis_ampipe_max = 4096, /* an AM round trip per piece against one per fragment: 6-35x at 8 and 64 B on mpi */
};
