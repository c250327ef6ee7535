/*
 * ref_ext.c -- the reference Extended API: Put/Get over the Core's AMs.
 *
 * put:    AM Long requests of at most max_long_request bytes each, straight
 *         into the target segment; each request handler replies PUT_ACK,
 *         which is the remote completion of that chunk.
 * get:    an AM Short request per chunk of at most max_medium bytes; the
 *         target replies with an AM Medium carrying the data, which the
 *         reply handler copies to the destination.
 * memset: the API layer's (one AM; ext.h).
 * The operation record's address travels in two handler arguments and comes
 * back in the reply, so completion finds its operation without a search.
 */
#include "stp_internal.h"

/* handlers ----------------------------------------------------------- */
static void put_handler(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t op_lo,
                        gasnet_handlerarg_t op_hi) {
  gasnet_handlerarg_t args[2] = {op_lo, op_hi};
  stp_am_t am = {STP_AM_SHORT, 0, STP_H_REF_PUT_ACK, 2, args, NULL, 0, NULL};
  (void)buf;
  (void)nbytes;
  stp_am_reply(token, &am);
}

static void put_ack_handler(gasnet_token_t token, gasnet_handlerarg_t op_lo, gasnet_handlerarg_t op_hi) {
  stp_op_t *op = STP_ARG_PTR(op_lo, op_hi);
  (void)token;
  op->puts--;
}

static void get_handler(gasnet_token_t token, gasnet_handlerarg_t src_lo, gasnet_handlerarg_t src_hi,
                        gasnet_handlerarg_t n, gasnet_handlerarg_t dst_lo, gasnet_handlerarg_t dst_hi,
                        gasnet_handlerarg_t op_lo, gasnet_handlerarg_t op_hi) {
  gasnet_handlerarg_t args[4] = {dst_lo, dst_hi, op_lo, op_hi};
  stp_am_t am = {STP_AM_MEDIUM, 0, STP_H_REF_GET_REPLY, 4, args, STP_ARG_PTR(src_lo, src_hi), (uint32_t)n, NULL};
  if (STP_UNLIKELY(!stp_in_my_segment(am.src, am.nbytes)))
    stp_bad_address("get", ((stp_token_t *)token)->src, am.src, am.nbytes);
  stp_am_reply(token, &am);
}

static void get_reply_handler(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t dst_lo,
                              gasnet_handlerarg_t dst_hi, gasnet_handlerarg_t op_lo, gasnet_handlerarg_t op_hi) {
  stp_op_t *op = STP_ARG_PTR(op_lo, op_hi);
  (void)token;
  memcpy(STP_ARG_PTR(dst_lo, dst_hi), buf, nbytes);
  op->gets--;
}

static const stp_handler_reg_t ref_handlers[] = {
    {STP_H_REF_PUT, (stp_handlerfn_t)put_handler},
    {STP_H_REF_PUT_ACK, (stp_handlerfn_t)put_ack_handler},
    {STP_H_REF_GET, (stp_handlerfn_t)get_handler},
    {STP_H_REF_GET_REPLY, (stp_handlerfn_t)get_reply_handler},
};

/* initiation --------------------------------------------------------- */
static void ref_put(stp_op_t *op, gasnet_node_t node, void *dst, const void *src, size_t n, int bulk) {
  size_t chunk = stp.core->max_long_request;
  gasnet_handlerarg_t args[2] = {STP_ARG_LO(op), STP_ARG_HI(op)};
  stp_am_t am = {STP_AM_LONG, (uint8_t)bulk, STP_H_REF_PUT, 2, args, src, 0, dst};
  while (n) {
    am.nbytes = STP_MIN(n, chunk);
    op->puts++;
    stp_am_request(node, &am);
    am.src = (const char *)am.src + am.nbytes;
    am.dst = (char *)am.dst + am.nbytes;
    n -= am.nbytes;
  }
}

static void ref_get(stp_op_t *op, void *dst, gasnet_node_t node, const void *src, size_t n) {
  size_t chunk = stp.core->max_medium;
  gasnet_handlerarg_t args[7];
  stp_am_t am = {STP_AM_SHORT, 0, STP_H_REF_GET, 7, args, NULL, 0, NULL};
  args[5] = STP_ARG_LO(op);
  args[6] = STP_ARG_HI(op);
  while (n) {
    size_t c = STP_MIN(n, chunk);
    args[0] = STP_ARG_LO(src);
    args[1] = STP_ARG_HI(src);
    args[2] = (gasnet_handlerarg_t)c;
    args[3] = STP_ARG_LO(dst);
    args[4] = STP_ARG_HI(dst);
    op->gets++;
    stp_am_request(node, &am);
    src = (const char *)src + c;
    dst = (char *)dst + c;
    n -= c;
  }
}

const stp_ext_ops_t stp_ext_ref_ops = {
    .name = "ext-ref",
    .handlers = ref_handlers,
    .nhandlers = (int)(sizeof(ref_handlers) / sizeof(ref_handlers[0])),
    .put = ref_put,
    .get = ref_get,
};
