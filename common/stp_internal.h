/*
 * stp_internal.h -- state and helpers shared by every part of the library.
 *
 * Layers: the API layer (common/api_*.c) calls a Core (core.h) for Active
 * Messages and an Extended backend (ext.h) for Put/Get; both sit on the
 * bootstrap (boot.h).  A stage (stage.c) pairs one Core with one Extended
 * backend.  There is one progress path, stp_poll(), and one way to wait,
 * stp_wait_step().
 */
#ifndef STP_INTERNAL_H
#define STP_INTERNAL_H

#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gasnet.h"
#include "core.h"
#include "ext.h"
#include "boot.h"

#define STP_LIKELY(x) __builtin_expect(!!(x), 1)
#define STP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define STP_NORETURN __attribute__((noreturn))
#define STP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define STP_MIN(a, b) ((a) < (b) ? (a) : (b))
#define STP_ALIGN_UP(x, a) (((x) + ((a)-1)) & ~((uintptr_t)(a)-1))

/* ------------------------------------------------------------------ */
/* operations (what a gasnet_handle_t points to)                       */
/* ------------------------------------------------------------------ */
enum { STP_OP_FREE = 0, STP_OP_BLOCKING, STP_OP_EXPLICIT, STP_OP_IMPLICIT, STP_OP_REGION };

struct stp_op {
  uint32_t puts;     /* outstanding put-type sub-operations (incl. memset) */
  uint32_t gets;     /* outstanding get sub-operations */
  uint8_t kind;      /* STP_OP_* ; FREE while in the pool */
  uint8_t put_sync;  /* backend needs its sync() hook before puts count as done */
  struct stp_op *next; /* pool free list */
  uint64_t ext[4];   /* backend-private */
};

stp_op_t *stp_op_alloc(int kind);
void stp_op_free(stp_op_t *op);

static inline void stp_op_init(stp_op_t *op, int kind) {
  memset(op, 0, sizeof(*op));
  op->kind = (uint8_t)kind;
}

/* Drive an op toward completion without polling; 1 when complete.
 * which: 1 = puts, 2 = gets, 3 = both. */
static inline int stp_op_test(stp_op_t *op, int which);
/* Wait (polling) until an op is complete. */
void stp_op_wait(stp_op_t *op, int which);

/* ------------------------------------------------------------------ */
/* stages                                                              */
/* ------------------------------------------------------------------ */
typedef struct stp_stage {
  const char *name;
  const stp_core_ops_t *core;
  const stp_ext_ops_t *ext;
  const char *oos;    /* out-of-segment local memory policy, for reports */
  const char *about;  /* one line for listings */
} stp_stage_t;

extern const stp_stage_t stp_stages[];
extern const int stp_nstages;
const stp_stage_t *stp_stage_find(const char *name);

/* ------------------------------------------------------------------ */
/* global state                                                        */
/* ------------------------------------------------------------------ */
/* handler indices 1..127 reserved for the library, one list here */
enum {
  STP_H_BARRIER = 1,
  STP_H_REF_PUT = 8,
  STP_H_REF_PUT_ACK,
  STP_H_REF_GET,
  STP_H_REF_GET_REPLY,
  STP_H_REF_MEMSET,
  STP_H_FIRST_CLIENT = 128
};

struct stp_barrier_state; /* barrier.c */

struct stp_globals {
  /* job */
  gasnet_node_t mynode, nodes;
  int inited, attached;
  int local_procs, oversubscribed;
  gasnet_nodeinfo_t *nodeinfo;

  /* stage */
  const stp_stage_t *stage;
  const stp_core_ops_t *core;
  const stp_ext_ops_t *ext;

  /* segments */
  gasnet_seginfo_t *seg;
  uintptr_t max_local_seg, max_global_seg;

  /* AM */
  stp_handlerfn_t handler[256];
  int in_handler;   /* >0 while a handler runs */
  int in_am_send;   /* >0 while the API layer is inside core->request */

  /* waiting */
  int waitmode;
  int yield_always;

  /* exit */
  int exiting;
  volatile int exit_pending;
  int exit_code;
  unsigned npolls;

  /* extended */
  stp_op_t iop;      /* implicit-handle operations outside access regions */
  stp_op_t *region;  /* open access region, or NULL */

  /* barrier */
  int barrier_active; /* a barrier phase is notified and not complete */
};
extern struct stp_globals stp;

/* ------------------------------------------------------------------ */
/* progress and waiting                                                */
/* ------------------------------------------------------------------ */
void stp_barrier_progress(void);
void stp_exit_now(int code) STP_NORETURN;

/* The one progress path: Core, Extended backend, exit notices, barrier. */
static inline int stp_poll(void) {
  int n = stp.core->poll();
  if (stp.ext->poll) n += stp.ext->poll();
  if (STP_UNLIKELY((++stp.npolls & 63u) == 0)) stp_boot_poll();
  if (STP_UNLIKELY(stp.exit_pending) && !stp.in_handler) stp_exit_now(stp.exit_code);
  if (stp.barrier_active && !stp.in_am_send && !stp.in_handler) stp_barrier_progress();
  return n;
}

/* One iteration of every wait loop: poll, then give up the CPU when the
 * wait mode asks for it or processes outnumber cores. */
void stp_wait_step_slow(unsigned *spins);
static inline void stp_wait_step(unsigned *spins) {
  stp_poll();
  if (STP_UNLIKELY(stp.yield_always || stp.waitmode == GASNET_WAIT_SPINBLOCK)) stp_wait_step_slow(spins);
}

static inline int stp_op_test(stp_op_t *op, int which) {
  int busy = ((which & 1) ? op->puts : 0) | ((which & 2) ? op->gets : 0);
  if (busy) return 0;
  if ((which & 1) && op->put_sync) {
    stp.ext->sync(op);
    return !op->puts && !op->put_sync;
  }
  return 1;
}

/* Send an AM through the Core (internal users; no argument checks). */
static inline int stp_am_request(gasnet_node_t dest, const stp_am_t *am) {
  int rc;
  stp.in_am_send++;
  rc = stp.core->request(dest, am);
  stp.in_am_send--;
  return rc;
}

/* pointers in pairs of 32-bit handler arguments */
#define STP_ARG_LO(p) ((gasnet_handlerarg_t)(uint32_t)((uint64_t)(uintptr_t)(p)))
#define STP_ARG_HI(p) ((gasnet_handlerarg_t)(uint32_t)((uint64_t)(uintptr_t)(p) >> 32))
#define STP_ARG_PTR(lo, hi) ((void *)(uintptr_t)(((uint64_t)(uint32_t)(hi) << 32) | (uint32_t)(lo)))
#define STP_ARG_U64(lo, hi) ((((uint64_t)(uint32_t)(hi)) << 32) | (uint32_t)(lo))

/* ------------------------------------------------------------------ */
/* errors and argument checks                                          */
/* ------------------------------------------------------------------ */
/* Print "stageport: node N: fatal error: ..." and end the whole job (exit 1). */
void stp_fatal(const char *fmt, ...) STP_NORETURN STP_PRINTF(1, 2);
void stp_warn(const char *fmt, ...) STP_PRINTF(1, 2);
/* Parse an environment knob: unsigned with optional K/M/G suffix. */
uint64_t stp_env_u64(const char *name, uint64_t dflt);

#if STP_CHECKS
void stp_check_attached_fail(const char *fn) STP_NORETURN;
void stp_check_node_fail(const char *fn, gasnet_node_t node) STP_NORETURN;
void stp_check_remote_fail(const char *fn, gasnet_node_t node, const void *addr, size_t n) STP_NORETURN;
void stp_check_handler_ctx_fail(const char *fn) STP_NORETURN;

#define STP_CHECK_INITED(fn) \
  do { if (STP_UNLIKELY(!stp.inited)) stp_check_attached_fail(fn); } while (0)
#define STP_CHECK_ATTACHED(fn) \
  do { if (STP_UNLIKELY(!stp.attached)) stp_check_attached_fail(fn); } while (0)
#define STP_CHECK_NODE(fn, node) \
  do { if (STP_UNLIKELY((node) >= stp.nodes)) stp_check_node_fail(fn, node); } while (0)
/* [addr, addr+n) inside node's segment (n == 0 always passes) */
#define STP_CHECK_REMOTE(fn, node_, addr_, n_)                                         \
  do {                                                                                 \
    STP_CHECK_NODE(fn, node_);                                                         \
    if ((n_) != 0) {                                                                   \
      const gasnet_seginfo_t *_s = &stp.seg[node_];                                    \
      uintptr_t _a = (uintptr_t)(addr_), _b = (uintptr_t)_s->addr;                     \
      if (STP_UNLIKELY(_a < _b || (n_) > _s->size || _a - _b > _s->size - (n_)))       \
        stp_check_remote_fail(fn, node_, addr_, n_);                                   \
    }                                                                                  \
  } while (0)
#define STP_CHECK_NOT_IN_HANDLER(fn) \
  do { if (STP_UNLIKELY(stp.in_handler)) stp_check_handler_ctx_fail(fn); } while (0)
#else
#define STP_CHECK_INITED(fn) ((void)0)
#define STP_CHECK_ATTACHED(fn) ((void)0)
#define STP_CHECK_NODE(fn, node) ((void)0)
#define STP_CHECK_REMOTE(fn, node, addr, n) ((void)0)
#define STP_CHECK_NOT_IN_HANDLER(fn) ((void)0)
#endif

/* Every data-movement entry point: attached, not in a handler, range ok. */
#define STP_CHECK_XFER(fn, node, addr, n) \
  do { STP_CHECK_ATTACHED(fn); STP_CHECK_NOT_IN_HANDLER(fn); STP_CHECK_REMOTE(fn, node, addr, n); } while (0)

#endif /* STP_INTERNAL_H */
