/*
 * api_am.c -- the Active Message entry points: argument checks, packing the
 * message for the Core, and running handlers for the Core.
 */
#include "api.h"

#include <stdarg.h>

/* ------------------------------------------------------------------ */
/* requests and replies                                                */
/* ------------------------------------------------------------------ */
#define STP_GET_ARGS(args, numargs, last, fn)                                              \
  do {                                                                                     \
    va_list _ap;                                                                           \
    if (STP_UNLIKELY((unsigned)(numargs) > 16))                                            \
      stp_fatal("%s: %d handler arguments, more than gasnet_AMMaxArgs() (16)", fn, numargs); \
    va_start(_ap, last);                                                                   \
    for (int _i = 0; _i < (numargs); _i++) (args)[_i] = (gasnet_handlerarg_t)va_arg(_ap, int); \
    va_end(_ap);                                                                           \
  } while (0)

/* Indices 1..127 are the library's (spec 2.1.2): a client message naming one
 * would run a library handler on arguments it trusts.  Refused with checks
 * on or off (one compare): checks off removes reports, not memory safety. */
static inline void check_handler(const char *fn, gasnet_handler_t handler) {
  if (STP_UNLIKELY(handler < STP_H_FIRST_CLIENT))
    stp_fatal("%s: handler index %u is not a client handler (indices 1..127 are reserved for the library, "
              "clients use 128..255)", fn, (unsigned)handler);
}

static inline void check_request(const char *fn, gasnet_node_t dest, gasnet_handler_t handler) {
  STP_CHECK_ATTACHED(fn);
  STP_CHECK_NOT_IN_HANDLER(fn);
  STP_CHECK_NODE(fn, dest);
  check_handler(fn, handler);
  (void)dest;
}

/* A payload over the maximum would overrun the Core's buffers: refused with
 * checks on or off (one compare). */
static inline void check_payload(const char *fn, size_t nbytes, size_t max, const char *maxname) {
  if (STP_UNLIKELY(nbytes > max))
    stp_fatal("%s: payload of %zu bytes exceeds %s() = %zu", fn, nbytes, maxname, max);
}

int stp_AMRequestShortM(gasnet_node_t dest, gasnet_handler_t handler, int numargs, ...) {
  STP_API_GUARD();
  gasnet_handlerarg_t args[16];
  stp_am_t am = {STP_AM_SHORT, 0, handler, 0, args, NULL, 0, NULL};
  check_request("gasnet_AMRequestShort", dest, handler);
  STP_GET_ARGS(args, numargs, numargs, "gasnet_AMRequestShort");
  am.nargs = (uint8_t)numargs;
  return stp_am_request(dest, &am);
}

int stp_AMRequestMediumM(gasnet_node_t dest, gasnet_handler_t handler, const void *source_addr, size_t nbytes,
                         int numargs, ...) {
  STP_API_GUARD();
  gasnet_handlerarg_t args[16];
  stp_am_t am = {STP_AM_MEDIUM, 0, handler, 0, args, source_addr, nbytes, NULL};
  check_request("gasnet_AMRequestMedium", dest, handler);
  STP_CHECK_LOCAL("gasnet_AMRequestMedium", "source", source_addr, nbytes);
  check_payload("gasnet_AMRequestMedium", nbytes, stp.core->max_medium, "gasnet_AMMaxMedium");
  STP_GET_ARGS(args, numargs, numargs, "gasnet_AMRequestMedium");
  am.nargs = (uint8_t)numargs;
  return stp_am_request(dest, &am);
}

int stp_AMRequestLongM(gasnet_node_t dest, gasnet_handler_t handler, const void *source_addr, size_t nbytes,
                       void *dest_addr, int async, int numargs, ...) {
  STP_API_GUARD();
  gasnet_handlerarg_t args[16];
  const char *fn = async ? "gasnet_AMRequestLongAsync" : "gasnet_AMRequestLong";
  stp_am_t am = {STP_AM_LONG, (uint8_t)!!async, handler, 0, args, source_addr, nbytes, dest_addr};
  check_request(fn, dest, handler);
  STP_CHECK_LOCAL(fn, "source", source_addr, nbytes);
  check_payload(fn, nbytes, stp.core->max_long_request, "gasnet_AMMaxLongRequest");
  STP_CHECK_REMOTE(fn, dest, dest_addr, nbytes);
  STP_GET_ARGS(args, numargs, numargs, fn);
  am.nargs = (uint8_t)numargs;
  return stp_am_request(dest, &am);
}

static inline stp_token_t *check_reply(const char *fn, gasnet_token_t token, gasnet_handler_t handler) {
  stp_token_t *t = (stp_token_t *)token;
  check_handler(fn, handler);
#if STP_CHECKS
  if (STP_UNLIKELY(!t || !stp.in_handler)) stp_fatal("%s: called outside a request handler", fn);
  if (STP_UNLIKELY(!t->is_request)) stp_fatal("%s: called from a reply handler (reply handlers may not send)", fn);
  if (STP_UNLIKELY(t->replied)) stp_fatal("%s: a request handler may reply only once", fn);
#else
  (void)fn;
#endif
  t->replied = 1;
  return t;
}

int stp_AMReplyShortM(gasnet_token_t token, gasnet_handler_t handler, int numargs, ...) {
  STP_API_GUARD();
  gasnet_handlerarg_t args[16];
  stp_am_t am = {STP_AM_SHORT, 0, handler, 0, args, NULL, 0, NULL};
  stp_token_t *t = check_reply("gasnet_AMReplyShort", token, handler);
  STP_GET_ARGS(args, numargs, numargs, "gasnet_AMReplyShort");
  am.nargs = (uint8_t)numargs;
  return stp.core->reply(t, &am);
}

int stp_AMReplyMediumM(gasnet_token_t token, gasnet_handler_t handler, const void *source_addr, size_t nbytes,
                       int numargs, ...) {
  STP_API_GUARD();
  gasnet_handlerarg_t args[16];
  stp_am_t am = {STP_AM_MEDIUM, 0, handler, 0, args, source_addr, nbytes, NULL};
  stp_token_t *t = check_reply("gasnet_AMReplyMedium", token, handler);
  STP_CHECK_LOCAL("gasnet_AMReplyMedium", "source", source_addr, nbytes);
  check_payload("gasnet_AMReplyMedium", nbytes, stp.core->max_medium, "gasnet_AMMaxMedium");
  STP_GET_ARGS(args, numargs, numargs, "gasnet_AMReplyMedium");
  am.nargs = (uint8_t)numargs;
  return stp.core->reply(t, &am);
}

int stp_AMReplyLongM(gasnet_token_t token, gasnet_handler_t handler, const void *source_addr, size_t nbytes,
                     void *dest_addr, int numargs, ...) {
  STP_API_GUARD();
  gasnet_handlerarg_t args[16];
  stp_am_t am = {STP_AM_LONG, 0, handler, 0, args, source_addr, nbytes, dest_addr};
  stp_token_t *t = check_reply("gasnet_AMReplyLong", token, handler);
  STP_CHECK_LOCAL("gasnet_AMReplyLong", "source", source_addr, nbytes);
  check_payload("gasnet_AMReplyLong", nbytes, stp.core->max_long_reply, "gasnet_AMMaxLongReply");
  STP_CHECK_REMOTE("gasnet_AMReplyLong", t->src, dest_addr, nbytes);
  STP_GET_ARGS(args, numargs, numargs, "gasnet_AMReplyLong");
  am.nargs = (uint8_t)numargs;
  return stp.core->reply(t, &am);
}

/* ------------------------------------------------------------------ */
/* queries and polling                                                 */
/* ------------------------------------------------------------------ */
size_t gasnet_AMMaxMedium(void) {
  STP_CHECK_INITED("gasnet_AMMaxMedium");
  return stp.core->max_medium;
}

size_t gasnet_AMMaxLongRequest(void) {
  STP_CHECK_INITED("gasnet_AMMaxLongRequest");
  return stp.core->max_long_request;
}

size_t gasnet_AMMaxLongReply(void) {
  STP_CHECK_INITED("gasnet_AMMaxLongReply");
  return stp.core->max_long_reply;
}

int gasnet_AMPoll(void) {
  STP_API_GUARD();
  STP_CHECK_ATTACHED("gasnet_AMPoll");
  STP_CHECK_NOT_IN_HANDLER("gasnet_AMPoll");
  stp_poll();
  return GASNET_OK;
}

int gasnet_AMGetMsgSource(gasnet_token_t token, gasnet_node_t *srcindex) {
  stp_token_t *t = (stp_token_t *)token;
  if (!t || !srcindex) return GASNET_ERR_BAD_ARG;
  *srcindex = t->src;
  return GASNET_OK;
}
