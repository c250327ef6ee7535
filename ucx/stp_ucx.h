/*
 * stp_ucx.h -- the one UCX module: every UCX user in stageport (ext-ucx, the
 * ptl Portals emulation) gets its context, workers, endpoints, memory
 * registration (and pinning), remote keys, request waits and error reports
 * here; users call UCX directly only to move data.
 *
 * It knows nothing of GASNet or Portals: the caller supplies the bootstrap
 * (stp_boot.h) and a name used in messages.
 *
 * Errors: every function that can fail returns a ucs_status_t and has
 * already printed one line naming the user, what was being done, the UCX
 * status and the UCX_TLS setting, e.g.
 *   stageport: ucx (ext-ucx, rank 0): creating the endpoint to rank 1:
 *   Destination is unreachable [UCX_TLS=rc]
 * and the caller decides what the failure means for it.
 */
#ifndef STP_UCX_H
#define STP_UCX_H

#include <stddef.h>
#include <stdint.h>
#include <ucp/api/ucp.h>

#include "stp_boot.h"

typedef struct stp_ucx {
  ucp_context_h context;
  ucp_worker_h worker;
  ucp_ep_h *ep; /* per rank, self included */
  int rank, size;
  stp_boot_t boot;
  const char *user; /* named in every message */
  char *addrs;      /* every rank's main-worker address, addr_len bytes apart */
  size_t addr_len;  /* (kept for stp_ucx_worker_open) */
} stp_ucx_t;

/* An extra worker on an open context, with its own endpoint to every rank's
 * main worker (u->worker).  For a user that drives UCX from two threads: the
 * main worker on one, this one on the other (open the context with
 * thread_multi so the two workers may share it). */
typedef struct stp_ucx_worker {
  ucp_worker_h worker;
  ucp_ep_h *ep; /* per rank, to that rank's main worker */
} stp_ucx_worker_t;

/* Memory registered with UCX. */
typedef struct stp_ucx_region {
  void *addr;
  size_t len;
  ucp_mem_h memh;
  void *rkey; /* packed remote key (STP_UCX_RKEY, or stp_ucx_region_rkey), or NULL */
  size_t rkey_len;
  void *pin_addr; /* the pages pinned (STP_UCX_PIN), or NULL */
  size_t pin_len;
  int pin_errno;  /* STP_UCX_PIN refused: why (mlock's errno), else 0 */
} stp_ucx_region_t;

/* stp_ucx_region_map flags */
enum {
  STP_UCX_ALLOCATE = 1, /* UCX allocates len bytes (addr ignored) */
  STP_UCX_PIN = 2,      /* pin the pages first (mlock), as a NIC must; refusal is not an error */
  STP_UCX_RKEY = 4,     /* pack the remote key now */
};

/* A peer's region as seen from here. */
typedef struct stp_ucx_remote {
  uint64_t addr;
  uint64_t len;
  ucp_rkey_h rkey;
  char *map; /* the region mapped here (ucp_rkey_ptr: shared memory), or NULL */
} stp_ucx_remote_t;

/* Open: context with the given UCP_FEATURE_* bits, one worker (thread_multi:
 * UCS_THREAD_MODE_MULTI for users with a progress thread), endpoints to every
 * rank.  config: UCX settings this user needs (name, value, ..., NULL; names
 * without UCX_), over the environment's; NULL: none.  Collective. */
ucs_status_t stp_ucx_open(stp_ucx_t *u, const stp_boot_t *boot, uint64_t features, int thread_multi,
                          const char *user, const char *const *config);
/* Close endpoints (flushing what is in flight; a peer that does not answer
 * within a second is not waited for), worker and context.  Not collective.
 * Close extra workers first. */
void stp_ucx_close(stp_ucx_t *u);
/* Close the main worker's endpoints only: the callbacks of operations still
 * in flight run now, while their users' state is alive (close extra workers
 * first, then this, then tear the user's state down, then stp_ucx_close). */
void stp_ucx_close_endpoints(stp_ucx_t *u);
/* Complete every operation in flight on the main worker (callbacks run);
 * a peer that does not answer within a second is not waited for.  Before
 * peers' keys are released: UCX wants a key's operations flushed before it
 * goes, and the key gone before its endpoint. */
void stp_ucx_flush(stp_ucx_t *u);

/* Create an extra worker (thread_multi: UCS_THREAD_MODE_MULTI) with
 * endpoints to every rank's main worker.  Not collective: it uses the
 * addresses gathered by stp_ucx_open.  Features are the context's. */
ucs_status_t stp_ucx_worker_open(stp_ucx_t *u, stp_ucx_worker_t *w, int thread_multi);
void stp_ucx_worker_close(stp_ucx_t *u, stp_ucx_worker_t *w);

static inline unsigned stp_ucx_progress(stp_ucx_t *u) { return ucp_worker_progress(u->worker); }

/* Register [addr, addr+len), or with STP_UCX_ALLOCATE let UCX allocate
 * len bytes (shared-memory transports can then reach it with plain loads
 * and stores: the fast path for a segment).  Unmap undoes all of it
 * (deregisters, unpins, frees the key). */
ucs_status_t stp_ucx_region_map(stp_ucx_t *u, void *addr, size_t len, unsigned flags, stp_ucx_region_t *r);
void stp_ucx_region_unmap(stp_ucx_t *u, stp_ucx_region_t *r);
/* The region's packed remote key, packed on first use and kept. */
ucs_status_t stp_ucx_region_rkey(stp_ucx_t *u, stp_ucx_region_t *r);

/* Memory events (UCM, UCX's memory hooks): cb(addr, len, arg) whenever a
 * range leaves the address space -- munmap, the old range of an mremap, a
 * shrinking brk, hence also a free() that gives memory back -- from
 * whichever thread unmaps, before the range is gone.  cb must not call
 * into UCX or map/unmap memory.  UCS_OK, or the status that says why
 * not (hooks turned off: UCX_MEM_MMAP_HOOK_MODE=none, ...); then nothing
 * is reported and the caller must not cache registrations.  Off again
 * with stp_ucx_unmap_events_off (same cb and arg). */
ucs_status_t stp_ucx_unmap_events(void (*cb)(void *addr, size_t len, void *arg), void *arg);
void stp_ucx_unmap_events_off(void (*cb)(void *addr, size_t len, void *arg), void *arg);

/* A peer's packed key, unpacked for an endpoint (of any worker of u). */
ucs_status_t stp_ucx_rkey_unpack(stp_ucx_t *u, ucp_ep_h ep, const void *packed, ucp_rkey_h *rkey);

/* Collective: every rank's region (addr, len, rkey, map) into remote[size]. */
ucs_status_t stp_ucx_exchange(stp_ucx_t *u, const stp_ucx_region_t *mine, stp_ucx_remote_t *remote);
void stp_ucx_remote_release(stp_ucx_t *u, stp_ucx_remote_t *remote);

/* The one wait: progress worker until the request a *_nbx call returned is
 * complete, free it, and return its final status (NULL: UCS_OK; an error
 * pointer: its status).  Reports nothing: the caller knows what failed. */
ucs_status_t stp_ucx_wait(ucp_worker_h worker, ucs_status_ptr_t req);
/* The same, calling also(arg) on every round too: a user whose peers need
 * its other progress meanwhile (a worker that serves their operations). */
ucs_status_t stp_ucx_wait_also(ucp_worker_h worker, ucs_status_ptr_t req, void (*also)(void *), void *arg);

/* The one translation of a UCX failure into a message. */
void stp_ucx_report(const stp_ucx_t *u, ucs_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* STP_UCX_H */
