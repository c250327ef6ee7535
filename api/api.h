/*
 * api.h -- the API layer's own declarations: the stage table, argument
 * checks, and what its files share (lifecycle, barrier, AM memset).
 *
 * The API layer is the top of the library: it selects a stage, runs the
 * lifecycle, checks every client call and drives the backends through their
 * ops tables.  Nothing below includes this header.
 */
#ifndef STP_API_H
#define STP_API_H

#include "stp_internal.h"

/* ------------------------------------------------------------------ */
/* stages (stage.c)                                                    */
/* ------------------------------------------------------------------ */
/* A stage: what it is made of.  Every field is used: the parts by the
 * lifecycle, the policy by the network (and listings), `about` by listings. */
typedef struct stp_stage {
  const char *name;
  const stp_net_ops_t *net;   /* NULL: the Core's own transport carries everything */
  const stp_core_ops_t *core;
  const stp_ext_ops_t *ext;
  int oos;                    /* STP_OOS_*: out-of-segment local memory policy */
  const char *about;          /* one line for listings */
} stp_stage_t;

extern const stp_stage_t stp_stages[];
extern const int stp_nstages;
const stp_stage_t *stp_stage_find(const char *name);
/* "name: about (out-of-segment: policy)" for every built stage, one per line */
void stp_stage_list(char *buf, size_t len);
extern const stp_stage_t *stp_stage; /* the active one, from gasnet_init */

/* ------------------------------------------------------------------ */
/* shared between the API files                                        */
/* ------------------------------------------------------------------ */
/* api_init.c: a thread that holds the library lock runs the exit another
 * thread posted because it could not take the lock (GASNET_PAR) */
void stp_exit_posted(void);
void stp_barrier_progress(void);              /* barrier.c */
void stp_barrier_poll(void);                  /* barrier.c: stp.hook_barrier */
extern const stp_handler_reg_t stp_barrier_handlers[];
extern const int stp_barrier_nhandlers;
void stp_am_memset(stp_op_t *op, gasnet_node_t node, void *dst, int val, size_t n); /* api_ext.c */
extern const stp_handler_reg_t stp_memset_handlers[];
extern const int stp_memset_nhandlers;

/* ------------------------------------------------------------------ */
/* argument checks (api_misc.c reports the failures)                   */
/* ------------------------------------------------------------------ */
/* A node index is checked with checks on or off (one compare): every
 * backend indexes per-node tables with it (credits, endpoints, keys, the
 * segment table), so checks off removes reports, not memory safety -- as for
 * handler indices and payload sizes. */
void stp_check_node_fail(const char *fn, gasnet_node_t node) STP_NORETURN;
#define STP_CHECK_NODE(fn, node) \
  do { if (STP_UNLIKELY((node) >= stp.nodes)) stp_check_node_fail(fn, node); } while (0)

#if STP_CHECKS
void stp_check_attached_fail(const char *fn) STP_NORETURN;
void stp_check_remote_fail(const char *fn, gasnet_node_t node, const void *addr, size_t n) STP_NORETURN;
void stp_check_handler_ctx_fail(const char *fn) STP_NORETURN;

#define STP_CHECK_INITED(fn) \
  do { if (STP_UNLIKELY(!stp.inited)) stp_check_attached_fail(fn); } while (0)
#define STP_CHECK_ATTACHED(fn) \
  do { if (STP_UNLIKELY(!stp.attached)) stp_check_attached_fail(fn); } while (0)
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
/* a local buffer of n > 0 bytes is not NULL */
#define STP_CHECK_LOCAL(fn, what, p_, n_) \
  do { if (STP_UNLIKELY(!(p_) && (n_))) stp_fatal("%s: the %s is NULL (%zu bytes)", fn, what, (size_t)(n_)); } while (0)
#else /* the arguments are still "used": no warnings without checks */
#define STP_CHECK_INITED(fn) ((void)(fn))
#define STP_CHECK_ATTACHED(fn) ((void)(fn))
#define STP_CHECK_REMOTE(fn, node, addr, n) do { STP_CHECK_NODE(fn, node); (void)(addr), (void)(n); } while (0)
#define STP_CHECK_NOT_IN_HANDLER(fn) ((void)(fn))
#define STP_CHECK_LOCAL(fn, what, p, n) ((void)(fn), (void)(what), (void)(p), (void)(n))
#endif

/* Every data-movement entry point: attached, not in a handler, range ok. */
#define STP_CHECK_XFER(fn, node, addr, n) \
  do { STP_CHECK_ATTACHED(fn); STP_CHECK_NOT_IN_HANDLER(fn); STP_CHECK_REMOTE(fn, node, addr, n); } while (0)

#endif /* STP_API_H */
