/*
 * api.h -- the API layer's own declarations: the stage table, the objects
 * (client, endpoint, team, segment), argument checks, and what its files
 * share.
 *
 * The API layer is the library's top: the gex_* entry points (and the few
 * _stp_* ones gasnetex.h declares for the legacy layer), the lifecycle, the
 * stage table.  It checks every client call and drives the backends
 * through their ops tables.  Nothing below includes this header; legacy/
 * (GASNet-1) sits above it and sees only gasnetex.h.
 */
#ifndef STP_API_H
#define STP_API_H

#include "stp_internal.h"
#include "stp_copy.h"

/* ------------------------------------------------------------------ */
/* stages (stage.c)                                                    */
/* ------------------------------------------------------------------ */
/* A stage: what it is made of.  Every field is used: the parts by the
 * lifecycle, the policy by the network (and listings), `about` by listings. */
typedef struct stp_stage {
  const char *name;
  const stp_net_ops_t *net;   /* NULL: the Core's own transport carries everything */
  const stp_core_ops_t *core;
  const stp_rma_ops_t *rma;   /* NULL: the reference implementation (ext-ref) */
  int oos;                    /* STP_OOS_*: out-of-segment local memory policy */
  const char *about;          /* one line for listings */
} stp_stage_t;

extern const stp_stage_t stp_stages[];
extern const int stp_nstages;
const stp_stage_t *stp_stage_find(const char *name);
/* "name: about (out-of-segment: policy)" for every built stage, one per line */
void stp_stage_list(char *buf, size_t len);
extern const stp_stage_t *stp_stage; /* the active one, from init */

/* ------------------------------------------------------------------ */
/* the objects: one client, its primordial endpoint and segment, teams  */
/* ------------------------------------------------------------------ */
struct _stp_client {
  char name[64];
  gex_Flags_t flags;
  const void *cdata;
};
struct _stp_segment {
  void *addr;
  uintptr_t size;
  gex_Flags_t flags;
  const void *cdata;
};
struct _stp_ep {
  gex_Flags_t flags;
  gex_EP_Capabilities_t caps;
  struct _stp_segment *seg; /* bound segment, or NULL */
  const void *cdata;
} __attribute__((aligned(8))); /* (a TM-pair is its address with the low bit set) */
/* A team (gex_TM_t).  The primordial team is stp_tm0 (jobrank NULL: a
 * team rank is the job rank); teams made by gex_TM_Split/Create are
 * allocated, listed in stp_teams, and never freed: gex_TM_Destroy marks the
 * record dead (and frees its tables), so that a later use is reported, not
 * a touch of freed memory. */
enum { STP_TM_LIVE = 0x7ea1u, STP_TM_DEAD = 0xdeadu };
struct _stp_tm {
  gex_Rank_t rank, size;
  gex_Flags_t flags;
  const void *cdata;
  uint32_t state;          /* STP_TM_LIVE or STP_TM_DEAD */
  uint32_t made;           /* teams constructed over this one (Split, Create): a child's identity */
  gex_Rank_t *jobrank;     /* team rank -> job rank (NULL: the identity) */
  gex_Rank_t *rank_of;     /* job rank -> team rank or GEX_RANK_INVALID (NULL: the identity) */
  gex_Memvec_t scratch;    /* the client's scratch space (gex_addr NULL: none given) */
  stp_cteam_t coll;        /* the collectives' view: identity, rank, size, jobrank */
  struct _stp_tm *next;    /* stp_teams */
};
/* The primordial endpoint and team side by side, so that "the primordial
 * team or a TM-pair" -- the job-rank fast path of every RMA and AM entry
 * point -- is one subtraction and one compare (stp_tm_is_prim). */
extern struct stp_prim {
  struct _stp_ep ep0;
  struct _stp_tm tm0;
} stp_prim;
#define stp_ep0 (stp_prim.ep0)
#define stp_tm0 (stp_prim.tm0)
extern struct _stp_client stp_client;
extern struct _stp_segment stp_seg0;
extern struct _stp_tm *stp_teams; /* every team made (live or dead) */
#define STP_CLIENT ((gex_Client_t)&stp_client)
#define STP_EP0 ((gex_EP_t)&stp_ep0)
#define STP_TM0 ((gex_TM_t)&stp_tm0)

/* A TM-pair: the local endpoint's address with the low bit set; the remote
 * endpoint index in bits 1..3 (GASNET_MAXEPS is 1: always 0). */
static inline int stp_tm_is_pair(gex_TM_t tm) { return ((uintptr_t)tm & 1u) != 0; }
/* The primordial team or the primordial endpoint's TM-pair (or, checks
 * off, another address inside stp_prim): ranks are job ranks. */
static inline int stp_tm_is_prim(gex_TM_t tm) { return (uintptr_t)tm - (uintptr_t)&stp_prim < sizeof(stp_prim); }

/* A team rank's job rank (ex_team.c): every point-to-point entry point
 * takes its rank through this.  The primordial team and TM-pairs cost one
 * well-predicted branch; another team is checked (checks on: live, of
 * ours; always: the rank below its size) and its table read. */
gex_Rank_t stp_tm_jobrank_slow(const char *fn, gex_TM_t tm, gex_Rank_t rank);
#define STP_TM_JOBRANK(fn, tm, rank) (STP_LIKELY(stp_tm_is_prim(tm)) ? (rank) : stp_tm_jobrank_slow(fn, tm, rank))
/* The team a collective names: a live team (never a TM-pair), or a fatal
 * error naming fn. */
struct _stp_tm *stp_tm_team(const char *fn, gex_TM_t tm);

/* ------------------------------------------------------------------ */
/* shared between the API files                                        */
/* ------------------------------------------------------------------ */
/* ex_init.c: a thread that holds the library lock runs the exit another
 * thread posted because it could not take the lock (GASNET_PAR) */
void stp_exit_posted(void);
/* ex_init.c: agree on the outcome of a collective step -- every node's rc
 * (an allgather, also a barrier); the first failing node's error, or
 * GASNET_OK (the others say whose error they return) */
int stp_agree(const char *fn, int rc, const char *step);
/* ex_am.c: register the library's own handlers (reserved indices) */
void stp_register_internal(const stp_handler_reg_t *regs, int n);
/* ex_rma.c: the lc event an lc_opt asks for -- a stack record for
 * GEX_EVENT_NOW (*now, waited on by stp_lc_end), the NBI set's for
 * GEX_EVENT_GROUP, the root's own for a pointer, NULL for DEFER -- and its
 * end (NOW: the wait; a pointer: the leaf's handle written back). */
stp_ev_t *stp_lc_begin(const char *fn, gex_Event_t *lc_opt, stp_ev_t *root, stp_ev_t *now, int allow_defer,
                       int allow_group);
void stp_lc_end(gex_Event_t *lc_opt, stp_ev_t *root, stp_ev_t *lc);
/* ex_event.c: the NBI set initiation counts into (the open access
 * region's, or the thread's) */
static inline stp_ev_t *stp_nbi_ev(void) {
  stp_thread_t *t = stp_thread();
  return t->region ? t->region : &t->nbi;
}
/* An NB event from its record: GEX_EVENT_INVALID (record freed) when it
 * completed during initiation. */
gex_Event_t stp_ev_root_handle(stp_ev_t *e);

/* The two RMA paths every put and get takes (ex_rma.c, ex_vis.c):
 * loopback is a copy (stp_copy.h: one store for a word another process may
 * be watching), else the stage's RMA backend (rma.h); non-zero: refused
 * (IMMEDIATE). */
static inline int stp_put_path(stp_ev_t *rc, stp_ev_t *lc, gex_Rank_t node, void *dst, const void *src, size_t n,
                               gex_Flags_t flags) {
  if (node == stp.mynode) {
    stp_copy(dst, src, n);
    return 0;
  }
  return stp.rma->put(rc, lc, node, dst, src, n, flags);
}
static inline int stp_get_path(stp_ev_t *rc, void *dst, gex_Rank_t node, const void *src, size_t n, gex_Flags_t flags) {
  if (node == stp.mynode) {
    stp_copy(dst, src, n);
    return 0;
  }
  return stp.rma->get(rc, dst, node, src, n, flags);
}

/* ex_vis.c: read STAGEPORT_VIS_OPT, register VIS's handlers (at init) */
void stp_vis_init(void);

/* ex_ratomic.c: STAGEPORT_AD_IMPL=reference (1) or native (0), read once;
 * a bad value is a fatal error.  Every node must agree (gex_Client_Init
 * checks): a domain's implementation is chosen by each member alone. */
int stp_ad_force_reference(void);

/* STAGEPORT_LC=reference: local completion is never reported apart from
 * remote completion (seed 003's reference, for comparison) */
extern int stp_lc_reference;
/* STAGEPORT_NP=reference: a GASNet-allocated Prepare always gets the API
 * layer's buffer, never the Core's send memory (ex_am.c) */
extern int stp_np_reference;

/* ------------------------------------------------------------------ */
/* argument checks (api_misc.c reports the failures)                   */
/* ------------------------------------------------------------------ */
/* A rank is checked with checks on or off (one compare): every backend
 * indexes per-node tables with it (credits, endpoints, keys, the segment
 * table), so checks off removes reports, not memory safety -- as for
 * handler indices and payload sizes. */
void stp_check_node_fail(const char *fn, gex_Rank_t node) STP_NORETURN;
#define STP_CHECK_NODE(fn, node) \
  do { if (STP_UNLIKELY((node) >= stp.nodes)) stp_check_node_fail(fn, node); } while (0)
/* A team argument: the primordial team, a TM-pair of the primordial
 * endpoint or a live team (with checks off: taken as such). */
void stp_check_tm_fail(const char *fn, gex_TM_t tm) STP_NORETURN;
/* The primordial team, its TM-pair or a live team of ours, else a fatal
 * error naming fn (a destroyed team: saying so); STP_CHECK_TM's slow path. */
void stp_check_tm(const char *fn, gex_TM_t tm);

#if STP_CHECKS
void stp_check_inited_fail(const char *fn) STP_NORETURN;
void stp_check_remote_fail(const char *fn, gex_Rank_t node, const void *addr, size_t n) STP_NORETURN;
void stp_check_handler_ctx_fail(const char *fn) STP_NORETURN;

#define STP_CHECK_INITED(fn) \
  do { if (STP_UNLIKELY(!stp.inited)) stp_check_inited_fail(fn); } while (0)
#define STP_CHECK_TM(fn, tm)                                                                         \
  do {                                                                                               \
    if (STP_UNLIKELY((tm) != STP_TM0 && (uintptr_t)(tm) != ((uintptr_t)STP_EP0 | 1u))) stp_check_tm(fn, tm); \
  } while (0)
/* [addr, addr+n) inside node's bound segment (n == 0 always passes) */
#define STP_CHECK_REMOTE(fn, node_, addr_, n_)                                         \
  do {                                                                                 \
    STP_CHECK_NODE(fn, node_);                                                         \
    if (STP_UNLIKELY(!stp_seg_contains(node_, addr_, n_))) stp_check_remote_fail(fn, node_, addr_, n_); \
  } while (0)
#define STP_CHECK_NOT_IN_HANDLER(fn) \
  do { if (STP_UNLIKELY(stp.in_handler)) stp_check_handler_ctx_fail(fn); } while (0)
/* An entry point that sends (AM requests, transfers): initialised -- and
 * for gasnet_init's client (legacy/) attached: GASNet-1 wants gasnet_attach
 * before AMs and transfers, where EX allows AMs from gex_Client_Init on --
 * and not in a handler.  One flag (stp.may_send) and the handler count. */
void stp_check_may_send_fail(const char *fn) STP_NORETURN;
#define STP_CHECK_MAY_SEND(fn) \
  do { if (STP_UNLIKELY(!stp.may_send || stp.in_handler)) stp_check_may_send_fail(fn); } while (0)
/* a local buffer of n > 0 bytes is not NULL */
#define STP_CHECK_LOCAL(fn, what, p_, n_) \
  do { if (STP_UNLIKELY(!(p_) && (n_))) stp_fatal("%s: the %s is NULL (%zu bytes)", fn, what, (size_t)(n_)); } while (0)
#else /* the arguments are still "used": no warnings without checks */
#define STP_CHECK_INITED(fn) ((void)(fn))
#define STP_CHECK_TM(fn, tm) ((void)(fn), (void)(tm))
#define STP_CHECK_REMOTE(fn, node, addr, n) do { STP_CHECK_NODE(fn, node); (void)(addr), (void)(n); } while (0)
#define STP_CHECK_NOT_IN_HANDLER(fn) ((void)(fn))
#define STP_CHECK_MAY_SEND(fn) ((void)(fn))
#define STP_CHECK_LOCAL(fn, what, p, n) ((void)(fn), (void)(what), (void)(p), (void)(n))
#endif

/* Every data-movement entry point: initialised, not in a handler, a team
 * of ours, the remote range in the peer's bound segment. */
#define STP_CHECK_XFER(fn, tm, node, addr, n) \
  do {                                                                          \
    STP_CHECK_MAY_SEND(fn);                                                     \
    STP_CHECK_TM(fn, tm);                                                       \
    STP_CHECK_REMOTE(fn, node, addr, n);                                        \
  } while (0)

#endif /* STP_API_H */
