/*
 * ptl_mem.c -- what an MD costs: pinning and UCX registration (done by the
 * ucx/ module), and the extension allocator whose memory costs nothing to
 * describe.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "ptl_ucx.h"

static ptl_xmem_t *xmem_find(ptl_x_t *x, const void *start, ptl_size_t len) {
  for (ptl_xmem_t *m = x->xmem; m; m = m->next) {
    uintptr_t a = (uintptr_t)m->reg.addr, s = (uintptr_t)start;
    if (s >= a && s - a <= m->reg.len && len <= m->reg.len - (s - a)) return m;
  }
  return NULL;
}

static void warn_pin_refused(int err) {
  static int warned;
  struct rlimit rl;
  if (warned++) return;
  getrlimit(RLIMIT_MEMLOCK, &rl);
  ptl_warn("cannot pin MD memory (mlock: %s; RLIMIT_MEMLOCK is %llu bytes): such MDs are registered with UCX "
           "but not pinned (said once; PTLX_SR_MD_PIN_FAIL counts them); raise the limit (ulimit -l) to measure "
           "real pinning costs",
           strerror(err), (unsigned long long)rl.rlim_cur);
}

int ptl_mem_register(ptl_ni_t *ni, void *start, ptl_size_t len, ptl_reg_t *reg) {
  ptl_x_t *x = ptl_x(ni);
  ptl_xmem_t *m = xmem_find(x, start, len);
  stp_ucx_region_t *r;

  memset(reg, 0, sizeof(*reg));
  if (m) { /* already registered: free */
    reg->memh = m->reg.memh;
    reg->region = &m->reg;
    return PTL_OK;
  }
  if (!(r = malloc(sizeof(*r)))) return PTL_NO_SPACE;
  ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_MD_REGISTER, 1);
  if (stp_ucx_region_map(&x->u, start, len, STP_UCX_PIN, r) != UCS_OK) { /* (reported) */
    free(r);
    return PTL_NO_SPACE;
  }
  if (!r->pin_addr) {
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_MD_PIN_FAIL, 1);
    warn_pin_refused(r->pin_errno);
  }
  reg->memh = r->memh;
  reg->region = r;
  reg->owned = 1;
  return PTL_OK;
}

void ptl_mem_deregister(ptl_ni_t *ni, ptl_reg_t *reg) {
  if (reg->owned && reg->region) {
    stp_ucx_region_unmap(&ptl_x(ni)->u, reg->region);
    free(reg->region);
  }
  memset(reg, 0, sizeof(*reg));
}

/* An EQ's shared part: UCX-allocated, so that peers on shared memory map it
 * (ptl_pub.c publishes its key with the event entries that post to it). */
void *ptl_mem_eq_alloc(ptl_ni_t *ni, size_t len, void **region) {
  stp_ucx_region_t *r = malloc(sizeof(*r));
  if (!r) return NULL;
  if (stp_ucx_region_map(&ptl_x(ni)->u, NULL, len, STP_UCX_ALLOCATE, r) != UCS_OK) {
    free(r);
    return NULL;
  }
  *region = r;
  return r->addr;
}

void ptl_mem_eq_free(ptl_ni_t *ni, void *region) {
  stp_ucx_region_unmap(&ptl_x(ni)->u, region);
  free(region);
}

int PtlXMemAlloc(ptl_handle_ni_t ni_handle, ptl_size_t length, void **addr) {
  ptl_ni_t *ni = ptl_ni_get(ni_handle);
  ptl_xmem_t *m;
  ptl_x_t *x;
  if (!ni) return PTL_NI_INVALID;
  if (!addr) return PTL_SEGV;
  if (!length) return PTL_MD_ILLEGAL;
  x = ptl_x(ni);
  if (!(m = calloc(1, sizeof(*m)))) return PTL_NO_SPACE;
  if (stp_ucx_region_map(&x->u, NULL, length, STP_UCX_ALLOCATE, &m->reg) != UCS_OK) {
    free(m);
    return PTL_NO_SPACE;
  }
  ptl_lock(ni);
  m->next = x->xmem;
  x->xmem = m;
  ptl_unlock(ni);
  *addr = m->reg.addr;
  return PTL_OK;
}

int PtlXMemFree(ptl_handle_ni_t ni_handle, void *addr) {
  ptl_ni_t *ni = ptl_ni_get(ni_handle);
  ptl_xmem_t **pm, *m = NULL;
  if (!ni) return PTL_NI_INVALID;
  ptl_lock(ni);
  for (pm = &ptl_x(ni)->xmem; *pm; pm = &(*pm)->next)
    if ((*pm)->reg.addr == addr) {
      m = *pm;
      *pm = m->next;
      break;
    }
  ptl_unlock(ni);
  if (!m) return PTL_SEGV;
  stp_ucx_region_unmap(&ptl_x(ni)->u, &m->reg);
  free(m);
  return PTL_OK;
}

void ptl_mem_fini(ptl_ni_t *ni) {
  ptl_x_t *x = ptl_x(ni);
  while (x->xmem) {
    ptl_xmem_t *m = x->xmem;
    x->xmem = m->next;
    stp_ucx_region_unmap(&x->u, &m->reg);
    free(m);
  }
}

/* ---------------------------------------------------------------- unmap notices */
static struct {
  void (*cb)(void *addr, ptl_size_t len, void *arg);
  void *arg;
} unmap_note;

static void unmap_fwd(void *addr, size_t len, void *arg) {
  (void)arg;
  unmap_note.cb(addr, (ptl_size_t)len, unmap_note.arg);
}

int PtlXUnmapNotify(void (*cb)(void *addr, ptl_size_t len, void *arg), void *arg) {
  if (!cb) {
    if (unmap_note.cb) stp_ucx_unmap_events_off(unmap_fwd, NULL);
    unmap_note.cb = NULL;
    return PTL_OK;
  }
  if (unmap_note.cb) return PTL_FAIL;
  unmap_note.cb = cb;
  unmap_note.arg = arg;
  if (stp_ucx_unmap_events(unmap_fwd, NULL) == UCS_OK) return PTL_OK;
  unmap_note.cb = NULL;
  return PTL_FAIL;
}
