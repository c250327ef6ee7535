/*
 * ucx_mem.c -- memory registration (with optional pinning) and remote keys.
 */
#include "stp_ucx.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Pin the whole pages of [addr, +len); records the range or the refusal. */
static void pin(stp_ucx_region_t *r, void *addr, size_t len) {
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t a0 = (uintptr_t)addr & ~(page - 1);
  uintptr_t a1 = ((uintptr_t)addr + len + page - 1) & ~(page - 1);
  if (mlock((void *)a0, a1 - a0) == 0) {
    r->pin_addr = (void *)a0;
    r->pin_len = a1 - a0;
  } else {
    r->pin_errno = errno;
  }
}

static void unpin(stp_ucx_region_t *r) {
  if (r->pin_addr) munlock(r->pin_addr, r->pin_len);
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
    if (!all[i].rkey_len) continue;
    st = stp_ucx_rkey_unpack(u, u->ep[i], rkeys + (size_t)i * maxlen, &remote[i].rkey);
    if (st != UCS_OK) goto out;
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
