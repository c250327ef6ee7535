/*
 * ptl_obj.c -- object pools and handles, the NI object, status, names.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptl_internal.h"

ptl_ni_t *ptl_the_ni;

const ptl_ni_limits_t ptl_limits = {
    .max_mes = 1 << 20,
    .max_mds = 1 << 20,
    .max_eqs = 1 << 16,
    .max_ac_index = 0,
    .max_pt_index = PTLX_PT_INDEX_MAX,
    .max_md_iovecs = PTLX_MD_IOVECS_MAX,
    .max_me_list = 1 << 20,
    .max_getput_md = 0,
};

/* ---------------------------------------------------------------- fatal errors */
void (*ptl_die_hook)(void);

/* One line in one call (glibc writes an unbuffered stream's call at once;
 * piece by piece, a launcher that merges stdout and stderr could put
 * another line inside it -- ptl_fault's harness once saw that). */
void ptl_vsay(const char *what, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof(msg), fmt, ap);
  fprintf(stderr, "ptl (rank %d): %s%s\n", ptl_the_ni ? (int)ptl_the_ni->id.nid : -1, what, msg);
  fflush(stderr);
}

void ptl_die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ptl_vsay("fatal: ", fmt, ap);
  va_end(ap);
  if (ptl_die_hook) ptl_die_hook();
  abort();
}

const char *_Atomic ptl_fault_what;
_Atomic long ptl_fault_nth;

void *ptl_alloc_or_die(void *old, size_t n, const char *fmt, ...) {
  void *p = NULL;
  const char *w;
  char what[256];
  va_list ap;
  if (PTL_LIKELY(atomic_load_explicit(&ptl_fault_nth, memory_order_acquire) <= 0) ||
      !(w = atomic_load(&ptl_fault_what)) || strncmp(fmt, w, strlen(w)) || atomic_fetch_sub(&ptl_fault_nth, 1) != 1)
    p = realloc(old, n);
  if (PTL_LIKELY(p != NULL)) return p;
  va_start(ap, fmt);
  vsnprintf(what, sizeof(what), fmt, ap);
  va_end(ap);
  ptl_die("%s: out of memory (%zu bytes)", what, n);
}

/* ---------------------------------------------------------------- pools */
int ptl_pool_init(ptl_pool_t *p, unsigned kind, size_t objsize, uint32_t max) {
  memset(p, 0, sizeof(*p));
  p->kind = kind;
  p->objsize = (objsize + 15) & ~(size_t)15;
  p->max = max;
  p->chunk = calloc(PTL_MAX_CHUNKS, sizeof(*p->chunk));
  return p->chunk ? PTL_OK : PTL_NO_SPACE;
}

void ptl_pool_fini(ptl_pool_t *p) {
  if (!p->chunk) return;
  for (uint32_t c = 0; c < PTL_MAX_CHUNKS && p->chunk[c]; c++) free(p->chunk[c]);
  free(p->chunk);
  p->chunk = NULL;
}

void *ptl_pool_alloc(ptl_pool_t *p) {
  ptl_obj_t *o;
  uint32_t gen;
  if (p->live >= p->max) return NULL;
  if (p->free_head) {
    o = ptl_pool_at(p, p->free_head - 1);
    p->free_head = o->next_free;
  } else {
    uint32_t c = p->count >> PTL_CHUNK_BITS;
    if (c >= PTL_MAX_CHUNKS) return NULL;
    if (!p->chunk[c] && !(p->chunk[c] = calloc(PTL_CHUNK, p->objsize))) return NULL;
    if (c == 0) p->chunk0 = p->chunk[0];
    o = ptl_pool_at(p, p->count);
    o->slot = p->count++;
  }
  gen = o->gen + 1;
  memset((char *)o + sizeof(*o), 0, p->objsize - sizeof(*o));
  PTL_WR(o->gen, gen ? gen : 1);
  PTL_WR(o->live, 1);
  o->next_free = 0;
  p->live++;
  return o;
}

void ptl_pool_free(ptl_pool_t *p, void *obj) {
  ptl_obj_t *o = obj;
  PTL_WR(o->live, 0);
  o->next_free = p->free_head;
  p->free_head = o->slot + 1;
  p->live--;
}

/* ---------------------------------------------------------------- the NI object */
int ptl_ni_create(ptl_interface_t mode, ptl_process_id_t id, int size, const ptl_hooks_t *hooks, ptl_ni_t **out) {
  ptl_ni_t *ni = calloc(1, sizeof(*ni));
  static uint32_t ni_gen;
  if (!ni) return PTL_NO_SPACE;
  if (ptl_pool_init(&ni->eqs, PTL_KIND_EQ, sizeof(ptl_eqo_t), (uint32_t)ptl_limits.max_eqs) != PTL_OK ||
      ptl_pool_init(&ni->mds, PTL_KIND_MD, sizeof(ptl_mdo_t), (uint32_t)ptl_limits.max_mds) != PTL_OK ||
      ptl_pool_init(&ni->mes, PTL_KIND_ME, sizeof(ptl_meo_t), (uint32_t)ptl_limits.max_mes) != PTL_OK) {
    ptl_pool_fini(&ni->eqs);
    ptl_pool_fini(&ni->mds);
    ptl_pool_fini(&ni->mes);
    free(ni);
    return PTL_NO_SPACE;
  }
  /* recursive: UCX's loopback transport runs a handler inside the send that
   * a handler makes (an ACK or reply to oneself) */
  pthread_mutexattr_t ma;
  pthread_mutexattr_init(&ma);
  pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&ni->lock, &ma);
  pthread_mutexattr_destroy(&ma);
  ni->handle = ptl_handle_make(PTL_KIND_NI, ++ni_gen, 0);
  ni->mode = mode;
  ni->refs = 1;
  ni->id = id;
  ni->size = size;
  ni->hooks = hooks;
  *out = ni;
  return PTL_OK;
}

void ptl_ni_destroy(ptl_ni_t *ni) {
  ptl_lock(ni);
  for (int pt = 0; pt <= PTLX_PT_INDEX_MAX; pt++)
    while (ni->pt[pt].head) ptl_me_unlink_now(ni, ni->pt[pt].head);
  for (uint32_t s = 0; s < ni->mds.count; s++) {
    ptl_mdo_t *md = ptl_pool_at(&ni->mds, s);
    if (md->o.live) ptl_md_unlink_now(ni, md);
  }
  ptl_eq_free_all(ni);
  ptl_unlock(ni);
  ptl_pool_fini(&ni->eqs);
  ptl_pool_fini(&ni->mds);
  ptl_pool_fini(&ni->mes);
  pthread_mutex_destroy(&ni->lock);
  for (ptl_pieces_t *p; (p = ni->pieces_spare);) {
    ni->pieces_spare = p->next;
    free(p);
  }
  free(ni);
}

/* ---------------------------------------------------------------- queries */
int PtlNIStatus(ptl_handle_ni_t ni_handle, ptl_sr_index_t idx, ptl_sr_value_t *status) {
  ptl_ni_t *ni = ptl_ni_get(ni_handle);
  if (!ni) return PTL_NI_INVALID;
  if (!status) return PTL_SEGV;
  if (idx >= PTLX_SR_MAX) return PTL_SR_INDEX_INVALID;
  *status = PTL_RD(ni->sr[PTL_SIDE_APP][idx]) + PTL_RD(ni->sr[PTL_SIDE_RX][idx]);
  /* shortcut operations count only as such (one statistic less on the hot
   * path): a shortcut Put or NIC atomic is a send, a shortcut Get a send
   * and a receive */
  if (idx == PTL_SR_SEND_COUNT || idx == PTL_SR_RECV_COUNT)
    *status += PTL_RD(ni->sr[PTL_SIDE_APP][PTLX_SR_SHORTCUT_GET]);
  if (idx == PTL_SR_SEND_COUNT)
    *status += PTL_RD(ni->sr[PTL_SIDE_APP][PTLX_SR_SHORTCUT_PUT]) + PTL_RD(ni->sr[PTL_SIDE_APP][PTLX_SR_ATOMIC_NIC]);
  return PTL_OK;
}

int PtlNIHandle(ptl_handle_any_t handle, ptl_handle_ni_t *ni_handle) {
  ptl_ni_t *ni = ptl_ni_of(handle);
  int ok = 0;
  if (!ni_handle) return PTL_SEGV;
  if (!ni) return PTL_HANDLE_INVALID;
  ptl_lock(ni);
  switch (ptl_handle_kind(handle)) {
  case PTL_KIND_NI:
    ok = handle == ni->handle;
    break;
  case PTL_KIND_EQ:
    ok = ptl_pool_get(&ni->eqs, handle) != NULL;
    break;
  case PTL_KIND_MD:
    ok = ptl_pool_get(&ni->mds, handle) != NULL;
    break;
  case PTL_KIND_ME:
    ok = ptl_pool_get(&ni->mes, handle) != NULL;
    break;
  }
  ptl_unlock(ni);
  if (!ok) return PTL_HANDLE_INVALID;
  *ni_handle = ni->handle;
  return PTL_OK;
}

int PtlGetId(ptl_handle_ni_t ni_handle, ptl_process_id_t *id) {
  ptl_ni_t *ni = ptl_ni_get(ni_handle);
  if (!ni) return PTL_NI_INVALID;
  if (!id) return PTL_SEGV;
  *id = ni->id;
  return PTL_OK;
}

int PtlXNIMode(ptl_handle_ni_t ni_handle, ptl_interface_t *mode) {
  ptl_ni_t *ni = ptl_ni_get(ni_handle);
  if (!ni) return PTL_NI_INVALID;
  if (!mode) return PTL_SEGV;
  *mode = ni->mode;
  return PTL_OK;
}

/* ---------------------------------------------------------------- names */
const char *PtlErrorStr(int code) {
  static const char *const names[PTL_MAX_ERRNO] = {
      [PTL_OK] = "PTL_OK",
      [PTL_AC_INDEX_INVALID] = "PTL_AC_INDEX_INVALID",
      [PTL_EQ_DROPPED] = "PTL_EQ_DROPPED",
      [PTL_EQ_EMPTY] = "PTL_EQ_EMPTY",
      [PTL_EQ_INVALID] = "PTL_EQ_INVALID",
      [PTL_FAIL] = "PTL_FAIL",
      [PTL_HANDLE_INVALID] = "PTL_HANDLE_INVALID",
      [PTL_IFACE_INVALID] = "PTL_IFACE_INVALID",
      [PTL_MD_ILLEGAL] = "PTL_MD_ILLEGAL",
      [PTL_MD_INVALID] = "PTL_MD_INVALID",
      [PTL_MD_IN_USE] = "PTL_MD_IN_USE",
      [PTL_MD_NO_UPDATE] = "PTL_MD_NO_UPDATE",
      [PTL_ME_INVALID] = "PTL_ME_INVALID",
      [PTL_ME_IN_USE] = "PTL_ME_IN_USE",
      [PTL_ME_LIST_TOO_LONG] = "PTL_ME_LIST_TOO_LONG",
      [PTL_NI_INVALID] = "PTL_NI_INVALID",
      [PTL_NO_INIT] = "PTL_NO_INIT",
      [PTL_NO_SPACE] = "PTL_NO_SPACE",
      [PTL_PID_INVALID] = "PTL_PID_INVALID",
      [PTL_PROCESS_INVALID] = "PTL_PROCESS_INVALID",
      [PTL_PT_FULL] = "PTL_PT_FULL",
      [PTL_PT_INDEX_INVALID] = "PTL_PT_INDEX_INVALID",
      [PTL_SEGV] = "PTL_SEGV",
      [PTL_SR_INDEX_INVALID] = "PTL_SR_INDEX_INVALID",
      [PTL_UNKNOWN_ERROR] = "PTL_UNKNOWN_ERROR",
      [PTLX_ARG_INVALID] = "PTLX_ARG_INVALID",
  };
  return (code >= 0 && code < PTL_MAX_ERRNO) ? names[code] : "(not a ptl status)";
}

const char *PtlEventKindStr(ptl_event_kind_t kind) {
  static const char *const names[] = {
      "PTL_EVENT_GET_START",    "PTL_EVENT_GET_END",    "PTL_EVENT_PUT_START",   "PTL_EVENT_PUT_END",
      "PTL_EVENT_GETPUT_START", "PTL_EVENT_GETPUT_END", "PTL_EVENT_REPLY_START", "PTL_EVENT_REPLY_END",
      "PTL_EVENT_SEND_START",   "PTL_EVENT_SEND_END",   "PTL_EVENT_ACK",         "PTL_EVENT_UNLINK",
      "PTL_EVENT_ATOMIC_START", "PTL_EVENT_ATOMIC_END", "PTL_EVENT_FETCH_ATOMIC_START", "PTL_EVENT_FETCH_ATOMIC_END",
      "PTLX_EVENT_DRAINED",
  };
  return (unsigned)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "(not a ptl event)";
}
