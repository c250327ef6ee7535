/*
 * stp_ucx.h -- the one UCX module: every UCX user in stageport (ext-ucx, the
 * ptl Portals emulation) gets its context, worker, endpoints, memory
 * registration, rkey exchange, waiting and error reporting here.
 *
 * It knows nothing of GASNet or Portals: the caller supplies its rank, the
 * job size and an allgather (the bootstrap), and a name used in messages.
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

typedef struct stp_ucx_boot {
  int rank, size;
  /* gather len bytes from every rank into all[size * len], rank order */
  void (*allgather)(void *ctx, const void *mine, void *all, size_t len);
  void *ctx;
} stp_ucx_boot_t;

typedef struct stp_ucx {
  ucp_context_h context;
  ucp_worker_h worker;
  ucp_ep_h *ep; /* per rank, self included */
  int rank, size;
  stp_ucx_boot_t boot;
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

/* Memory registered with UCX, with its packed remote key. */
typedef struct stp_ucx_region {
  void *addr;
  size_t len;
  ucp_mem_h memh;
  void *rkey;
  size_t rkey_len;
  int allocated; /* UCX allocated the memory (shared-memory capable) */
} stp_ucx_region_t;

/* A peer's region as seen from here. */
typedef struct stp_ucx_remote {
  uint64_t addr;
  uint64_t len;
  ucp_rkey_h rkey;
} stp_ucx_remote_t;

/* Open: context with the given UCP_FEATURE_* bits, one worker (thread_multi:
 * UCS_THREAD_MODE_MULTI for users with a progress thread), endpoints to every
 * rank.  Collective. */
ucs_status_t stp_ucx_open(stp_ucx_t *u, const stp_ucx_boot_t *boot, uint64_t features, int thread_multi,
                          const char *user);
/* Close endpoints (without waiting for peers that may be gone), worker and
 * context.  Not collective.  Close extra workers first. */
void stp_ucx_close(stp_ucx_t *u);

/* Create an extra worker (thread_multi: UCS_THREAD_MODE_MULTI) with
 * endpoints to every rank's main worker.  Not collective: it uses the
 * addresses gathered by stp_ucx_open.  Features are the context's. */
ucs_status_t stp_ucx_worker_open(stp_ucx_t *u, stp_ucx_worker_t *w, int thread_multi);
void stp_ucx_worker_close(stp_ucx_t *u, stp_ucx_worker_t *w);

static inline unsigned stp_ucx_progress(stp_ucx_t *u) { return ucp_worker_progress(u->worker); }

/* Register [addr, addr+len), or, with addr == NULL, let UCX allocate len
 * bytes (shared-memory transports can then reach it with plain loads and
 * stores: the fast path for a segment).  Packs the remote key. */
ucs_status_t stp_ucx_region_map(stp_ucx_t *u, void *addr, size_t len, stp_ucx_region_t *r);
void stp_ucx_region_unmap(stp_ucx_t *u, stp_ucx_region_t *r);

/* Collective: every rank's region (addr, len, rkey) into remote[size]. */
ucs_status_t stp_ucx_exchange(stp_ucx_t *u, const stp_ucx_region_t *mine, stp_ucx_remote_t *remote);
void stp_ucx_remote_release(stp_ucx_t *u, stp_ucx_remote_t *remote);

/* Progress until a request from a *_nbx call completes; frees it.  NULL
 * (completed at once) returns UCS_OK; errors are reported naming `what`. */
ucs_status_t stp_ucx_wait(stp_ucx_t *u, ucs_status_ptr_t req, const char *what);

/* The one translation of a UCX failure into a message. */
void stp_ucx_report(const stp_ucx_t *u, ucs_status_t st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* STP_UCX_H */
