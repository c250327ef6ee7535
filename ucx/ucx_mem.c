/*
 * ucx_mem.c -- memory registration (with optional pinning) and remote keys.
 */
#include "stp_ucx.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucm/api/ucm.h>
#include <unistd.h>

/* ------------------------------------------------------------------ pinning */
/* mlock does not nest: unlocking a range unlocks every page in it, also the
 * pages another region still has pinned.  So every pinned page is counted
 * (a hash table of page -> pins, linear probing), and a page is unlocked
 * only when its last pin goes.  Regions may be mapped and unmapped from
 * two threads (ptl's client and progress threads): one lock. */
static struct {
  pthread_mutex_t lock;
  uintptr_t *page;   /* page number + 1 (0: empty) */
  uint32_t *count;
  size_t cap, used;  /* cap: a power of two */
} pins = {PTHREAD_MUTEX_INITIALIZER, NULL, NULL, 0, 0};

static size_t pin_slot(uintptr_t pg) { return (size_t)((pg * 0x9e3779b97f4a7c15ull) >> 17) & (pins.cap - 1); }

static int pin_grow(void) {
  size_t oldcap = pins.cap, cap = oldcap ? 2 * oldcap : 1024;
  uintptr_t *op = pins.page, *np = calloc(cap, sizeof(*np));
  uint32_t *oc = pins.count, *nc = calloc(cap, sizeof(*nc));
  if (!np || !nc) {
    free(np);
    free(nc);
    return -1;
  }
  pins.page = np;
  pins.count = nc;
  pins.cap = cap;
  for (size_t i = 0; i < oldcap; i++)
    if (op[i]) {
      size_t k = pin_slot(op[i] - 1);
      while (np[k]) k = (k + 1) & (cap - 1);
      np[k] = op[i];
      nc[k] = oc[i];
    }
  free(op);
  free(oc);
  return 0;
}

/* The slot of page pg, or of the empty place it would go. */
static size_t pin_find(uintptr_t pg) {
  size_t k = pin_slot(pg);
  while (pins.page[k] && pins.page[k] != pg + 1) k = (k + 1) & (pins.cap - 1);
  return k;
}

/* Remove slot k, moving later entries of its probe run back (no tombstones). */
static void pin_remove(size_t k) {
  size_t j = k;
  pins.page[k] = 0;
  pins.used--;
  for (;;) {
    j = (j + 1) & (pins.cap - 1);
    if (!pins.page[j]) return;
    size_t h = pin_slot(pins.page[j] - 1);
    /* move j to the hole k if j's home h is not cyclically in (k, j] */
    if ((k < j) ? (h <= k || h > j) : (h <= k && h > j)) {
      pins.page[k] = pins.page[j];
      pins.count[k] = pins.count[j];
      pins.page[j] = 0;
      k = j;
    }
  }
}

/* Count a pin on pages [p0, p1); 0, or -1 out of memory (nothing counted). */
static int pin_count(uintptr_t p0, uintptr_t p1) {
  while ((pins.used + (p1 - p0)) * 2 > pins.cap)
    if (pin_grow()) return -1;
  for (uintptr_t pg = p0; pg < p1; pg++) {
    size_t k = pin_find(pg);
    if (!pins.page[k]) {
      pins.page[k] = pg + 1;
      pins.count[k] = 0;
      pins.used++;
    }
    pins.count[k]++;
  }
  return 0;
}

/* Pin the whole pages of [addr, +len); records the range or the refusal. */
static void pin(stp_ucx_region_t *r, void *addr, size_t len) {
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t a0 = (uintptr_t)addr & ~(page - 1);
  uintptr_t a1 = ((uintptr_t)addr + len + page - 1) & ~(page - 1);
  pthread_mutex_lock(&pins.lock);
  if (mlock((void *)a0, a1 - a0) != 0) {
    r->pin_errno = errno;
  } else if (pin_count(a0 / page, a1 / page)) {
    r->pin_errno = ENOMEM; /* (locked, but not counted: undo) */
    for (uintptr_t pg = a0 / page; pg < a1 / page; pg++)
      if (!pins.cap || !pins.page[pin_find(pg)]) munlock((void *)(pg * page), page);
  } else {
    r->pin_addr = (void *)a0;
    r->pin_len = a1 - a0;
  }
  pthread_mutex_unlock(&pins.lock);
}

/* Unpin a region's pages: unlock the runs of pages no other region pins. */
static void unpin(stp_ucx_region_t *r) {
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), p0, p1, run = 0;
  int in_run = 0;
  if (!r->pin_addr) return;
  p0 = (uintptr_t)r->pin_addr / page;
  p1 = p0 + r->pin_len / page;
  pthread_mutex_lock(&pins.lock);
  for (uintptr_t pg = p0; pg <= p1; pg++) {
    int last = 0;
    if (pg < p1) {
      size_t k = pin_find(pg);
      if (pins.page[k] && --pins.count[k] == 0) {
        pin_remove(k);
        last = 1;
      }
    }
    if (last && !in_run) run = pg, in_run = 1;
    if (!last && in_run) {
      munlock((void *)(run * page), (pg - run) * page);
      in_run = 0;
    }
  }
  pthread_mutex_unlock(&pins.lock);
  r->pin_addr = NULL;
}

ucs_status_t stp_ucx_region_map(stp_ucx_t *u, void *addr, size_t len, unsigned flags, stp_ucx_region_t *r) {
  ucp_mem_map_params_t mp;
  ucp_mem_attr_t attr;
  ucs_status_t st;
  int alloc = !!(flags & STP_UCX_ALLOCATE);

  memset(r, 0, sizeof(*r));
  if (!alloc && (flags & STP_UCX_PIN)) pin(r, addr, len);
  memset(&mp, 0, sizeof(mp));
  mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH | UCP_MEM_MAP_PARAM_FIELD_FLAGS;
  mp.address = alloc ? NULL : addr;
  mp.length = len;
  mp.flags = alloc ? UCP_MEM_MAP_ALLOCATE : 0;
  st = ucp_mem_map(u->context, &mp, &r->memh);
  if (st != UCS_OK) {
    stp_ucx_report(u, st, "%s %zu bytes at %p", alloc ? "allocating" : "registering", len, addr);
    unpin(r);
    r->memh = NULL;
    return st;
  }
  memset(&attr, 0, sizeof(attr));
  attr.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS | UCP_MEM_ATTR_FIELD_LENGTH;
  st = ucp_mem_query(r->memh, &attr);
  if (st != UCS_OK) {
    stp_ucx_report(u, st, "querying registered memory");
    stp_ucx_region_unmap(u, r);
    return st;
  }
  r->addr = attr.address;
  r->len = len;
  if ((flags & STP_UCX_RKEY) && (st = stp_ucx_region_rkey(u, r)) != UCS_OK) {
    stp_ucx_region_unmap(u, r);
    return st;
  }
  return UCS_OK;
}

ucs_status_t stp_ucx_region_rkey(stp_ucx_t *u, stp_ucx_region_t *r) {
  ucs_status_t st;
  if (r->rkey) return UCS_OK;
  st = ucp_rkey_pack(u->context, r->memh, &r->rkey, &r->rkey_len);
  if (st != UCS_OK) {
    stp_ucx_report(u, st, "packing the remote key of %zu bytes at %p", r->len, r->addr);
    r->rkey = NULL;
    r->rkey_len = 0;
  }
  return st;
}

void stp_ucx_region_unmap(stp_ucx_t *u, stp_ucx_region_t *r) {
  if (r->rkey) ucp_rkey_buffer_release(r->rkey);
  if (r->memh) ucp_mem_unmap(u->context, r->memh);
  unpin(r);
  memset(r, 0, sizeof(*r));
}

ucs_status_t stp_ucx_rkey_unpack(stp_ucx_t *u, ucp_ep_h ep, const void *packed, ucp_rkey_h *rkey) {
  ucs_status_t st = ucp_ep_rkey_unpack(ep, packed, rkey);
  if (st != UCS_OK) {
    stp_ucx_report(u, st, "unpacking a remote key");
    *rkey = NULL;
  }
  return st;
}

ucs_status_t stp_ucx_exchange(stp_ucx_t *u, const stp_ucx_region_t *mine, stp_ucx_remote_t *remote) {
  struct desc {
    uint64_t addr, len, rkey_len;
  } d = {(uint64_t)(uintptr_t)mine->addr, mine->len, mine->rkey_len}, *all;
  size_t maxlen = 0;
  char *rkeys = NULL, *pad = NULL;
  void *p;
  ucs_status_t st = UCS_OK;

  all = malloc((size_t)u->size * sizeof(*all));
  if (!all) {
    stp_ucx_report(u, UCS_ERR_NO_MEMORY, "exchanging remote keys");
    return UCS_ERR_NO_MEMORY;
  }
  u->boot.allgather(u->boot.ctx, &d, all, sizeof(d));
  for (int i = 0; i < u->size; i++)
    if (all[i].rkey_len > maxlen) maxlen = all[i].rkey_len;
  pad = calloc(1, maxlen ? maxlen : 1);
  rkeys = malloc((maxlen ? maxlen : 1) * (size_t)u->size);
  if (!pad || !rkeys) {
    st = UCS_ERR_NO_MEMORY;
    stp_ucx_report(u, st, "exchanging remote keys");
    goto out;
  }
  if (mine->rkey_len) memcpy(pad, mine->rkey, mine->rkey_len);
  u->boot.allgather(u->boot.ctx, pad, rkeys, maxlen);
  for (int i = 0; i < u->size; i++) {
    remote[i].addr = all[i].addr;
    remote[i].len = all[i].len;
    remote[i].rkey = NULL;
    remote[i].map = NULL;
    if (!all[i].rkey_len) continue;
    st = stp_ucx_rkey_unpack(u, u->ep[i], rkeys + (size_t)i * maxlen, &remote[i].rkey);
    if (st != UCS_OK) goto out;
    if (ucp_rkey_ptr(remote[i].rkey, remote[i].addr, &p) == UCS_OK) remote[i].map = p;
  }
out:
  free(all);
  free(pad);
  free(rkeys);
  return st;
}

void stp_ucx_remote_release(stp_ucx_t *u, stp_ucx_remote_t *remote) {
  (void)u;
  if (!remote) return;
  for (int i = 0; i < u->size; i++)
    if (remote[i].rkey) {
      ucp_rkey_destroy(remote[i].rkey);
      remote[i].rkey = NULL;
    }
}

/* ------------------------------------------------------------------ memory events */
/* One subscriber (the registration cache of the process). */
static struct {
  void (*cb)(void *addr, size_t len, void *arg);
  void *arg;
} unmap_sub;

static void unmap_event(ucm_event_type_t type, ucm_event_t *ev, void *arg) {
  (void)arg;
  if (type == UCM_EVENT_VM_UNMAPPED && unmap_sub.cb)
    unmap_sub.cb(ev->vm_unmapped.address, ev->vm_unmapped.size, unmap_sub.arg);
}

ucs_status_t stp_ucx_unmap_events(void (*cb)(void *addr, size_t len, void *arg), void *arg) {
  ucs_status_t st;
  if (unmap_sub.cb) return UCS_ERR_BUSY;
  unmap_sub.cb = cb;
  unmap_sub.arg = arg;
  st = ucm_set_event_handler(UCM_EVENT_VM_UNMAPPED, 1000, unmap_event, NULL);
  if (st != UCS_OK) unmap_sub.cb = NULL;
  return st;
}

void stp_ucx_unmap_events_off(void (*cb)(void *addr, size_t len, void *arg), void *arg) {
  if (unmap_sub.cb != cb || unmap_sub.arg != arg) return;
  ucm_unset_event_handler(UCM_EVENT_VM_UNMAPPED, unmap_event, NULL);
  unmap_sub.cb = NULL;
}
