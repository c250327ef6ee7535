/*
 * ref_ext.c -- the reference Extended API: Put/Get over the Core's AMs.
 *
 * put:    AM Long requests of at most max_long_request bytes each, straight
 *         into the target segment; each request handler replies PUT_ACK,
 *         which is the remote completion of that chunk.
 * get:    an AM Short request per chunk of at most max_medium bytes; the
 *         target replies with an AM Medium carrying the data, which the
 *         reply handler copies to the destination.
 * memset: one AM Short request; the target memsets and replies PUT_ACK.
 * The operation record's address travels in two handler arguments and comes
 * back in the reply, so completion finds its operation without a search.
 */
#include "stp_internal.h"

static void ack_reply(gasnet_token_t token, stp_op_t *op) {
  gasnet_handlerarg_t args[2] = {STP_ARG_LO(op), STP_ARG_HI(op)};
  stp_am_t am = {STP_AM_SHORT, 0, STP_H_REF_PUT_ACK, 2, args, NULL, 0, NULL};
  ((stp_token_t *)token)->replied = 1;
  stp.core->reply((stp_token_t *)token, &am);
}

/* handlers ----------------------------------------------------------- */
static void put_handler(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t op_lo,
                        gasnet_handlerarg_t op_hi) {
  (void)buf;
  (void)nbytes;
  ack_reply(token, STP_ARG_PTR(op_lo, op_hi));
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
  ((stp_token_t *)token)->replied = 1;
  stp.core->reply((stp_token_t *)token, &am);
}

static void get_reply_handler(gasnet_token_t token, void *buf, size_t nbytes, gasnet_handlerarg_t dst_lo,
                              gasnet_handlerarg_t dst_hi, gasnet_handlerarg_t op_lo, gasnet_handlerarg_t op_hi) {
  stp_op_t *op = STP_ARG_PTR(op_lo, op_hi);
  (void)token;
  memcpy(STP_ARG_PTR(dst_lo, dst_hi), buf, nbytes);
  op->gets--;
}

static void memset_handler(gasnet_token_t token, gasnet_handlerarg_t dst_lo, gasnet_handlerarg_t dst_hi,
                           gasnet_handlerarg_t val, gasnet_handlerarg_t n_lo, gasnet_handlerarg_t n_hi,
                           gasnet_handlerarg_t op_lo, gasnet_handlerarg_t op_hi) {
  memset(STP_ARG_PTR(dst_lo, dst_hi), val, (size_t)STP_ARG_U64(n_lo, n_hi));
  ack_reply(token, STP_ARG_PTR(op_lo, op_hi));
}

static const stp_handler_reg_t ref_handlers[] = {
    {STP_H_REF_PUT, (stp_handlerfn_t)put_handler},
    {STP_H_REF_PUT_ACK, (stp_handlerfn_t)put_ack_handler},
    {STP_H_REF_GET, (stp_handlerfn_t)get_handler},
    {STP_H_REF_GET_REPLY, (stp_handlerfn_t)get_reply_handler},
    {STP_H_REF_MEMSET, (stp_handlerfn_t)memset_handler},
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

void stp_ext_ref_memset(stp_op_t *op, gasnet_node_t node, void *dst, int val, size_t n) {
  gasnet_handlerarg_t args[7] = {STP_ARG_LO(dst), STP_ARG_HI(dst), val, STP_ARG_LO(n), STP_ARG_HI(n),
                                 STP_ARG_LO(op), STP_ARG_HI(op)};
  stp_am_t am = {STP_AM_SHORT, 0, STP_H_REF_MEMSET, 7, args, NULL, 0, NULL};
  op->puts++;
  stp_am_request(node, &am);
}

const stp_ext_ops_t stp_ext_ref_ops = {
    .name = "ref",
    .handlers = ref_handlers,
    .nhandlers = (int)(sizeof(ref_handlers) / sizeof(ref_handlers[0])),
    .put = ref_put,
    .get = ref_get,
    .memset = stp_ext_ref_memset,
};
