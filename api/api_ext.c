/*
 * api_ext.c -- the Extended API entry points.
 *
 * Every variant is a thin wrapper over one path per operation (put, get,
 * memset): the variants differ only in which operation record they count
 * into (a stack record for blocking calls, a pooled one for explicit
 * handles, the implicit set or the open access region for _nbi) and in
 * whether they wait.  Loopback and zero-length transfers never reach the
 * backend.
 */
#include "api.h"

#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* the three paths                                                     */
/* ------------------------------------------------------------------ */
static inline void put_path(stp_op_t *op, gasnet_node_t node, void *dest, const void *src, size_t n, int bulk) {
  if (node == stp.mynode) memcpy(dest, src, n);
  else stp.ext->put(op, node, dest, src, n, bulk);
}

static inline void get_path(stp_op_t *op, void *dest, gasnet_node_t node, const void *src, size_t n) {
  if (node == stp.mynode) memcpy(dest, src, n);
  else stp.ext->get(op, dest, node, src, n);
}

static inline void memset_path(stp_op_t *op, gasnet_node_t node, void *dest, int val, size_t n) {
  if (node == stp.mynode) memset(dest, val, n);
  else if (stp.ext->memset) stp.ext->memset(op, node, dest, val, n);
  else stp_am_memset(op, node, dest, val, n);
}

/* ------------------------------------------------------------------ */
/* memset as one AM, for backends without a remote memset              */
/* ------------------------------------------------------------------ */
/* The request carries the range, the value and the operation record; the
 * target sets the bytes and replies, which is the remote completion. */
static void memset_handler(gasnet_token_t token, gasnet_handlerarg_t dst_lo, gasnet_handlerarg_t dst_hi,
                           gasnet_handlerarg_t val, gasnet_handlerarg_t n_lo, gasnet_handlerarg_t n_hi,
                           gasnet_handlerarg_t op_lo, gasnet_handlerarg_t op_hi) {
  gasnet_handlerarg_t args[2] = {op_lo, op_hi};
  stp_am_t am = {STP_AM_SHORT, 0, STP_H_MEMSET_ACK, 2, args, NULL, 0, NULL};
  void *dst = STP_ARG_PTR(dst_lo, dst_hi);
  size_t n = (size_t)STP_ARG_U64(n_lo, n_hi);
  if (STP_UNLIKELY(!stp_in_my_segment(dst, n))) stp_bad_address("memset", ((stp_token_t *)token)->src, dst, n);
  memset(dst, val, n);
  stp_am_reply(token, &am);
}

static void memset_ack_handler(gasnet_token_t token, gasnet_handlerarg_t op_lo, gasnet_handlerarg_t op_hi) {
  stp_op_t *op = STP_ARG_PTR(op_lo, op_hi);
  (void)token;
  op->puts--;
}

const stp_handler_reg_t stp_memset_handlers[] = {
    {STP_H_MEMSET, (stp_handlerfn_t)memset_handler},
    {STP_H_MEMSET_ACK, (stp_handlerfn_t)memset_ack_handler},
};
const int stp_memset_nhandlers = (int)(sizeof(stp_memset_handlers) / sizeof(stp_memset_handlers[0]));

void stp_am_memset(stp_op_t *op, gasnet_node_t node, void *dst, int val, size_t n) {
  gasnet_handlerarg_t args[7] = {STP_ARG_LO(dst), STP_ARG_HI(dst), val, STP_ARG_LO(n), STP_ARG_HI(n),
                                 STP_ARG_LO(op), STP_ARG_HI(op)};
  stp_am_t am = {STP_AM_SHORT, 0, STP_H_MEMSET, 7, args, NULL, 0, NULL};
  op->puts++;
  stp_am_request(node, &am);
}

static inline stp_op_t *nbi_op(void) {
  stp_thread_t *t = stp_thread();
  return t->region ? t->region : &t->iop;
}

/* An explicit operation that finished during initiation needs no handle. */
static inline gasnet_handle_t nb_handle(stp_op_t *op) {
  if (!op->puts && !op->gets && !op->put_sync) {
    stp_op_free(op);
    return GASNET_INVALID_HANDLE;
  }
  return (gasnet_handle_t)stp_op_handle(op);
}

/* blocking ----------------------------------------------------------- */
static inline void put_blocking(const char *fn, gasnet_node_t node, void *dest, const void *src, size_t n, int bulk) {
  STP_API_GUARD();
  stp_op_t op;
  STP_CHECK_XFER(fn, node, dest, n);
  STP_CHECK_LOCAL(fn, "source", src, n);
  if (!n) return;
  stp_op_init(&op, STP_OP_BLOCKING);
  put_path(&op, node, dest, src, n, bulk);
  stp_op_wait(&op, 1);
}

static inline void get_blocking(const char *fn, void *dest, gasnet_node_t node, const void *src, size_t n) {
  STP_API_GUARD();
  stp_op_t op;
  STP_CHECK_XFER(fn, node, src, n);
  STP_CHECK_LOCAL(fn, "destination", dest, n);
  if (!n) return;
  stp_op_init(&op, STP_OP_BLOCKING);
  get_path(&op, dest, node, src, n);
  stp_op_wait(&op, 2);
}

void gasnet_put(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  put_blocking("gasnet_put", node, dest, src, nbytes, 0);
}

void gasnet_put_bulk(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  put_blocking("gasnet_put_bulk", node, dest, src, nbytes, 1);
}

void gasnet_get(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  get_blocking("gasnet_get", dest, node, src, nbytes);
}

void gasnet_get_bulk(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  get_blocking("gasnet_get_bulk", dest, node, src, nbytes);
}

void gasnet_memset(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  STP_API_GUARD();
  stp_op_t op;
  STP_CHECK_XFER("gasnet_memset", node, dest, nbytes);
  if (!nbytes) return;
  stp_op_init(&op, STP_OP_BLOCKING);
  memset_path(&op, node, dest, val, nbytes);
  stp_op_wait(&op, 1);
}

/* explicit handle ---------------------------------------------------- */
static inline gasnet_handle_t put_nb(const char *fn, gasnet_node_t node, void *dest, const void *src, size_t n,
                                     int bulk) {
  STP_API_GUARD();
  stp_op_t *op;
  STP_CHECK_XFER(fn, node, dest, n);
  STP_CHECK_LOCAL(fn, "source", src, n);
  if (!n) return GASNET_INVALID_HANDLE;
  op = stp_op_alloc(STP_OP_EXPLICIT);
  put_path(op, node, dest, src, n, bulk);
  return nb_handle(op);
}

static inline gasnet_handle_t get_nb(const char *fn, void *dest, gasnet_node_t node, const void *src, size_t n) {
  STP_API_GUARD();
  stp_op_t *op;
  STP_CHECK_XFER(fn, node, src, n);
  STP_CHECK_LOCAL(fn, "destination", dest, n);
  if (!n) return GASNET_INVALID_HANDLE;
  op = stp_op_alloc(STP_OP_EXPLICIT);
  get_path(op, dest, node, src, n);
  return nb_handle(op);
}

gasnet_handle_t gasnet_put_nb(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  return put_nb("gasnet_put_nb", node, dest, src, nbytes, 0);
}

gasnet_handle_t gasnet_put_nb_bulk(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  return put_nb("gasnet_put_nb_bulk", node, dest, src, nbytes, 1);
}

gasnet_handle_t gasnet_get_nb(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  return get_nb("gasnet_get_nb", dest, node, src, nbytes);
}

gasnet_handle_t gasnet_get_nb_bulk(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  return get_nb("gasnet_get_nb_bulk", dest, node, src, nbytes);
}

gasnet_handle_t gasnet_memset_nb(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  STP_API_GUARD();
  stp_op_t *op;
  STP_CHECK_XFER("gasnet_memset_nb", node, dest, nbytes);
  if (!nbytes) return GASNET_INVALID_HANDLE;
  op = stp_op_alloc(STP_OP_EXPLICIT);
  memset_path(op, node, dest, val, nbytes);
  return nb_handle(op);
}

/* implicit handle ---------------------------------------------------- */
void gasnet_put_nbi(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  STP_API_GUARD();
  STP_CHECK_XFER("gasnet_put_nbi", node, dest, nbytes);
  STP_CHECK_LOCAL("gasnet_put_nbi", "source", src, nbytes);
  if (nbytes) put_path(nbi_op(), node, dest, src, nbytes, 0);
}

void gasnet_put_nbi_bulk(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  STP_API_GUARD();
  STP_CHECK_XFER("gasnet_put_nbi_bulk", node, dest, nbytes);
  STP_CHECK_LOCAL("gasnet_put_nbi_bulk", "source", src, nbytes);
  if (nbytes) put_path(nbi_op(), node, dest, src, nbytes, 1);
}

void gasnet_get_nbi(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  STP_API_GUARD();
  STP_CHECK_XFER("gasnet_get_nbi", node, src, nbytes);
  STP_CHECK_LOCAL("gasnet_get_nbi", "destination", dest, nbytes);
  if (nbytes) get_path(nbi_op(), dest, node, src, nbytes);
}

void gasnet_get_nbi_bulk(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  STP_API_GUARD();
  STP_CHECK_XFER("gasnet_get_nbi_bulk", node, src, nbytes);
  STP_CHECK_LOCAL("gasnet_get_nbi_bulk", "destination", dest, nbytes);
  if (nbytes) get_path(nbi_op(), dest, node, src, nbytes);
}

void gasnet_memset_nbi(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  STP_API_GUARD();
  STP_CHECK_XFER("gasnet_memset_nbi", node, dest, nbytes);
  if (nbytes) memset_path(nbi_op(), node, dest, val, nbytes);
}

/* ------------------------------------------------------------------ */
/* explicit-handle synchronization                                     */
/* ------------------------------------------------------------------ */
/* The operation a handle names.  A handle that names no operation in
 * flight (synchronized already, so its record may serve another operation
 * now; or never a handle) is a fatal error with checks on, and is taken as
 * complete without them (never a touch of another operation). */
static inline stp_op_t *handle_op(const char *fn, gasnet_handle_t h) {
  stp_op_t *op = stp_op_lookup(h);
#if STP_CHECKS
  STP_CHECK_ATTACHED(fn);
  STP_CHECK_NOT_IN_HANDLER(fn);
  if (STP_UNLIKELY(!op || (op->kind != STP_OP_EXPLICIT && op->kind != STP_OP_REGION)))
    stp_fatal("%s: handle %p is not an operation in flight (synchronized already, or not a handle)", fn, (void *)h);
#else
  (void)fn;
  if (op && op->kind != STP_OP_EXPLICIT && op->kind != STP_OP_REGION) op = NULL;
#endif
  return op;
}

/* Test one handle of a list; on completion free it and invalidate the slot. */
static inline int sync_slot(const char *fn, gasnet_handle_t *slot) {
  stp_op_t *op;
  if (!*slot) return 1;
  op = handle_op(fn, *slot);
  if (op && !stp_op_test(op, 3)) return 0;
  if (op) stp_op_free(op);
  *slot = GASNET_INVALID_HANDLE;
  return 1;
}

/* Test a list: returns how many valid handles completed; *left = valid ones still pending. */
static size_t sync_list(const char *fn, gasnet_handle_t *h, size_t n, size_t *left) {
  size_t done = 0;
  *left = 0;
  for (size_t i = 0; i < n; i++) {
    if (!h[i]) continue;
    if (sync_slot(fn, &h[i])) done++;
    else (*left)++;
  }
  return done;
}

void gasnet_wait_syncnb(gasnet_handle_t handle) {
  STP_API_GUARD();
  unsigned spins = 0;
  stp_op_t *op;
  if (!handle) return;
  if (!(op = handle_op("gasnet_wait_syncnb", handle))) return;
  while (!stp_op_test(op, 3)) stp_api_wait_step(&spins);
  stp_op_free(op);
}

static int try_syncnb(const char *fn, gasnet_handle_t handle, int poll) {
  STP_API_GUARD();
  stp_op_t *op;
  if (!handle) return GASNET_OK;
  if (!(op = handle_op(fn, handle))) return GASNET_OK;
  if (poll) stp_poll();
  if (!stp_op_test(op, 3)) return GASNET_ERR_NOT_READY;
  stp_op_free(op);
  return GASNET_OK;
}

int gasnet_try_syncnb(gasnet_handle_t handle) { return try_syncnb("gasnet_try_syncnb", handle, 1); }

int gasnet_try_syncnb_nopoll(gasnet_handle_t handle) { return try_syncnb("gasnet_try_syncnb_nopoll", handle, 0); }

void gasnet_wait_syncnb_all(gasnet_handle_t *handles, size_t numhandles) {
  STP_API_GUARD();
  unsigned spins = 0;
  size_t left;
  sync_list("gasnet_wait_syncnb_all", handles, numhandles, &left);
  while (left) {
    stp_api_wait_step(&spins);
    sync_list("gasnet_wait_syncnb_all", handles, numhandles, &left);
  }
}

static int try_syncnb_all(const char *fn, gasnet_handle_t *handles, size_t numhandles, int poll) {
  STP_API_GUARD();
  size_t left;
  if (poll) stp_poll();
  sync_list(fn, handles, numhandles, &left);
  return left ? GASNET_ERR_NOT_READY : GASNET_OK;
}

int gasnet_try_syncnb_all(gasnet_handle_t *handles, size_t numhandles) {
  return try_syncnb_all("gasnet_try_syncnb_all", handles, numhandles, 1);
}

int gasnet_try_syncnb_all_nopoll(gasnet_handle_t *handles, size_t numhandles) {
  return try_syncnb_all("gasnet_try_syncnb_all_nopoll", handles, numhandles, 0);
}

void gasnet_wait_syncnb_some(gasnet_handle_t *handles, size_t numhandles) {
  STP_API_GUARD();
  unsigned spins = 0;
  size_t left;
  size_t done = sync_list("gasnet_wait_syncnb_some", handles, numhandles, &left);
  while (!done && left) {
    stp_api_wait_step(&spins);
    done = sync_list("gasnet_wait_syncnb_some", handles, numhandles, &left);
  }
}

static int try_syncnb_some(const char *fn, gasnet_handle_t *handles, size_t numhandles, int poll) {
  STP_API_GUARD();
  size_t left, done;
  if (poll) stp_poll();
  done = sync_list(fn, handles, numhandles, &left);
  return (done || !left) ? GASNET_OK : GASNET_ERR_NOT_READY;
}

int gasnet_try_syncnb_some(gasnet_handle_t *handles, size_t numhandles) {
  return try_syncnb_some("gasnet_try_syncnb_some", handles, numhandles, 1);
}

int gasnet_try_syncnb_some_nopoll(gasnet_handle_t *handles, size_t numhandles) {
  return try_syncnb_some("gasnet_try_syncnb_some_nopoll", handles, numhandles, 0);
}

/* ------------------------------------------------------------------ */
/* implicit-handle synchronization and access regions                  */
/* ------------------------------------------------------------------ */
static inline void check_nbi_sync(const char *fn) {
  STP_CHECK_ATTACHED(fn);
  STP_CHECK_NOT_IN_HANDLER(fn);
#if STP_CHECKS
  if (STP_UNLIKELY(stp_thread()->region)) stp_fatal("%s: implicit-handle sync inside an access region", fn);
#endif
  (void)fn;
}

static void wait_syncnbi(const char *fn, int which) {
  STP_API_GUARD();
  check_nbi_sync(fn);
  stp_op_wait(&stp_thread()->iop, which);
}

static int try_syncnbi(const char *fn, int which) {
  STP_API_GUARD();
  check_nbi_sync(fn);
  stp_poll();
  return stp_op_test(&stp_thread()->iop, which) ? GASNET_OK : GASNET_ERR_NOT_READY;
}

void gasnet_wait_syncnbi_puts(void) { wait_syncnbi("gasnet_wait_syncnbi_puts", 1); }
void gasnet_wait_syncnbi_gets(void) { wait_syncnbi("gasnet_wait_syncnbi_gets", 2); }
void gasnet_wait_syncnbi_all(void) { wait_syncnbi("gasnet_wait_syncnbi_all", 3); }
int gasnet_try_syncnbi_puts(void) { return try_syncnbi("gasnet_try_syncnbi_puts", 1); }
int gasnet_try_syncnbi_gets(void) { return try_syncnbi("gasnet_try_syncnbi_gets", 2); }
int gasnet_try_syncnbi_all(void) { return try_syncnbi("gasnet_try_syncnbi_all", 3); }

void gasnet_begin_nbi_accessregion(void) {
  STP_API_GUARD();
  STP_CHECK_ATTACHED("gasnet_begin_nbi_accessregion");
#if STP_CHECKS
  if (stp_thread()->region)
    stp_fatal("gasnet_begin_nbi_accessregion: an access region is already open (they do not nest)");
#endif
  stp_thread()->region = stp_op_alloc(STP_OP_REGION);
}

gasnet_handle_t gasnet_end_nbi_accessregion(void) {
  STP_API_GUARD();
  stp_thread_t *t = stp_thread();
  stp_op_t *op = t->region;
  STP_CHECK_ATTACHED("gasnet_end_nbi_accessregion");
  if (!op) stp_fatal("gasnet_end_nbi_accessregion: no access region is open");
  t->region = NULL;
  return nb_handle(op);
}

/* ------------------------------------------------------------------ */
/* register-memory operations                                          */
/* ------------------------------------------------------------------ */
static inline void check_val_size(const char *fn, size_t n) {
  if (STP_UNLIKELY(n == 0 || n > SIZEOF_GASNET_REGISTER_VALUE_T))
    stp_fatal("%s: nbytes = %zu, must be 1..%d", fn, n, SIZEOF_GASNET_REGISTER_VALUE_T);
}

/* The n low-order bytes of v, in the byte order of an n-byte integer. */
static inline void val_store(void *buf, gasnet_register_value_t v, size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  memcpy(buf, (char *)&v + (sizeof(v) - n), n);
#else
  memcpy(buf, &v, n);
#endif
}

static inline gasnet_register_value_t val_load(const void *buf, size_t n) {
  gasnet_register_value_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  memcpy((char *)&v + (sizeof(v) - n), buf, n);
#else
  memcpy(&v, buf, n);
#endif
  return v;
}

void gasnet_put_val(gasnet_node_t node, void *dest, gasnet_register_value_t value, size_t nbytes) {
  uint64_t buf;
  check_val_size("gasnet_put_val", nbytes);
  val_store(&buf, value, nbytes);
  put_blocking("gasnet_put_val", node, dest, &buf, nbytes, 0);
}

gasnet_handle_t gasnet_put_nb_val(gasnet_node_t node, void *dest, gasnet_register_value_t value, size_t nbytes) {
  uint64_t buf;
  check_val_size("gasnet_put_nb_val", nbytes);
  val_store(&buf, value, nbytes);
  return put_nb("gasnet_put_nb_val", node, dest, &buf, nbytes, 0); /* non-bulk: buf is free on return */
}

void gasnet_put_nbi_val(gasnet_node_t node, void *dest, gasnet_register_value_t value, size_t nbytes) {
  STP_API_GUARD();
  uint64_t buf;
  check_val_size("gasnet_put_nbi_val", nbytes);
  val_store(&buf, value, nbytes);
  STP_CHECK_XFER("gasnet_put_nbi_val", node, dest, nbytes);
  put_path(nbi_op(), node, dest, &buf, nbytes, 0);
}

gasnet_register_value_t gasnet_get_val(gasnet_node_t node, const void *src, size_t nbytes) {
  uint64_t buf;
  check_val_size("gasnet_get_val", nbytes);
  get_blocking("gasnet_get_val", &buf, node, src, nbytes);
  return val_load(&buf, nbytes);
}

/* A value get owns its landing buffer (in its pooled record) until it is
 * synchronized; its handle names the record and the use, like any other. */
gasnet_valget_handle_t gasnet_get_nb_val(gasnet_node_t node, const void *src, size_t nbytes) {
  STP_API_GUARD();
  stp_op_t *op;
  check_val_size("gasnet_get_nb_val", nbytes);
  STP_CHECK_XFER("gasnet_get_nb_val", node, src, nbytes);
  op = stp_op_alloc(STP_OP_VALGET);
  op->val_n = (uint8_t)nbytes;
  get_path(op, &op->val, node, src, nbytes);
  return (gasnet_valget_handle_t)stp_op_handle(op);
}

gasnet_register_value_t gasnet_wait_syncnb_valget(gasnet_valget_handle_t handle) {
  STP_API_GUARD();
  gasnet_register_value_t val;
  stp_op_t *op = stp_op_lookup(handle);
  STP_CHECK_ATTACHED("gasnet_wait_syncnb_valget");
  STP_CHECK_NOT_IN_HANDLER("gasnet_wait_syncnb_valget");
  if (STP_UNLIKELY(!op || op->kind != STP_OP_VALGET))
    stp_fatal("gasnet_wait_syncnb_valget: handle %p is not a value get in flight (synchronized already?)",
              (void *)handle);
  stp_op_wait(op, 2);
  val = val_load(&op->val, op->val_n);
  stp_op_free(op);
  return val;
}
