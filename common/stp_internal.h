/*
 * stp_internal.h -- the runtime every backend shares: job state, the
 * handler table, the one progress path and the one way to wait, errors and
 * environment knobs.  Events (completion) are event.h's; the seams are
 * core.h (AMs), rma.h (Put/Get) and net.h (a stage's shared network state).
 *
 * Layers, from the top (each calls only downward; upward paths are function
 * pointers set from above):
 *
 *   legacy/     GASNet-1 over the gex_* entry points
 *   api/        the gex_* entry points, the lifecycle, the stage table
 *   backends    Cores (core.h), RMA backends (rma.h), networks (net.h),
 *               ext-ref (the reference implementations)
 *   common/     this runtime: what the backends may call
 *   ptl/ ucx/   the Portals emulation and the UCX module (no GASNet inside)
 *   boot/ credits/ firehose/   bootstrap and MPI launcher; credit accounting;
 *               the registration cache
 *
 * The API layer fills stp.core/rma/net from the stage row and the progress
 * hooks (exit notices, collectives) it runs above the backends; stp_poll()
 * runs them, so a backend that waits makes the whole library progress
 * without calling up into it.
 */
#ifndef STP_INTERNAL_H
#define STP_INTERNAL_H

#include "config.h"

#include <stdarg.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gasnetex.h"
#include "stp_boot.h"
#include "event.h"
#include "core.h"
#include "rma.h"
#include "coll.h"
#include "net.h"

#define STP_LIKELY(x) __builtin_expect(!!(x), 1)
#define STP_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* A memory fence (remote atomics' GEX_FLAG_AD_ACQ and _REL).
 * ThreadSanitizer does not model fences (GCC refuses them under
 * -fsanitize=thread): there an atomic read-modify-write of one shared word,
 * with the same order, stands in. */
#if defined(__SANITIZE_THREAD__)
extern int stp_fence_word;
#define stp_fence(order) ((void)__atomic_fetch_add(&stp_fence_word, 0, (order)))
#else
#define stp_fence(order) __atomic_thread_fence(order)
#endif
#define STP_NORETURN __attribute__((noreturn))
#define STP_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define STP_MIN(a, b) ((a) < (b) ? (a) : (b))
#define STP_ALIGN_UP(x, a) (((x) + ((a)-1)) & ~((uintptr_t)(a)-1))

/* A client thread's implicit-handle operations (its NBI set, outside
 * access regions), its open access region, and what a negotiated-payload
 * AM of the reference implementation prepared on it. */
typedef struct stp_thread {
  stp_ev_t nbi;
  stp_ev_t *region;
  struct _stp_srcdesc *sd; /* the thread's source descriptor (ex_am.c), allocated on first use */
  void *core;              /* the Core's per-thread memory (its own layout), allocated by the Core on first use */
} stp_thread_t;

/* ------------------------------------------------------------------ */
/* global state                                                        */
/* ------------------------------------------------------------------ */
/* handler indices 1..127 reserved for the library, one list here */
enum {
  STP_H_REF_PUT = 8,     /* ext-ref: RMA */
  STP_H_REF_PUT_ACK,
  STP_H_REF_GET,
  STP_H_REF_GET_REPLY,
  STP_H_COLL_BARRIER = 16, /* ext-ref: collectives (16..39) */
  STP_H_COLL_XCHG,
  STP_H_COLL_REDUCE,
  STP_H_AD_REQ = 40, /* ext-ref: remote atomics (40..47) */
  STP_H_AD_REPLY,
  STP_H_VIS_PC = 48, /* api/ex_vis.c: VIS (48..55) */
  STP_H_VIS_PC_ACK,
  STP_H_VIS_PUT,
  STP_H_VIS_PUT_ACK,
  STP_H_VIS_GET,
  STP_H_VIS_GET_REPLY,
  STP_H_FIRST_CLIENT = GEX_AM_INDEX_BASE
};

/* A handler table entry: the function, and the registration its
 * invocations must match (argument checks on).  entry.gex_flags == 0: no
 * registration to check -- the library's own handlers, and the GASNet-1
 * table of gasnet_attach (legacy/), which states no category or count. */
typedef struct stp_handler {
  gex_AM_Fn_t fn;
  gex_AM_Entry_t entry;
} stp_handler_t;

struct stp_globals {
  /* job */
  gex_Rank_t mynode, nodes;
  int inited;   /* gex_Client_Init done: AMs work */
  int attached; /* gex_Segment_Attach done: every process's segment is known */
  int legacy;   /* the client is gasnet_init's (GASNet-1 rules: api.h) */
  int may_send; /* inited, and for a legacy client attached (api.h: STP_CHECK_MAY_SEND) */
  int local_procs, oversubscribed;
  gasnet_nodeinfo_t *nodeinfo;
  stp_boot_t boot;

  /* the stage's parts (api/stage.c) */
  const stp_net_ops_t *net;   /* NULL: the Core's own transport */
  const stp_core_ops_t *core;
  const stp_rma_ops_t *rma;   /* the row's, or the reference (never NULL) */
  int (*net_poll)(void);      /* net->poll, or NULL */

  /* the segment: every process's, as gex_Segment_Attach exchanged them
   * (NULL before; {NULL, 0} for a process without one) -- the one copy
   * every range check reads (stp_seg_contains) */
  gasnet_seginfo_t *seg;
  uintptr_t max_local_seg, max_global_seg;

  /* AM */
  stp_handler_t handler[256];
  int in_handler;   /* >0 while a handler runs */
  int in_am_send;   /* >0 while a request is inside core->request */

  /* waiting */
  int waitmode;
  int yield_always; /* every wait step gives up the CPU (BLOCK, or more processes than cores) */
  int yield_later;  /* after STP_SPINBLOCK_SPINS steps (SPINBLOCK, or the network's threads outnumber cores) */
  int wait_slow;    /* either: the one flag the wait step's fast path reads */
  int net_threads;  /* progress threads the network runs per process */

  /* progress above the backends, set by the API layer */
  void (*hook_exit)(void);    /* every 64 polls, and while exit_pending */
  void (*hook_coll)(void);    /* every poll while coll_active */
  unsigned npolls;
  volatile int exit_pending;  /* a peer's exit notice was taken */
  int exit_code;
  int coll_active;            /* a collective has work to do outside handlers (ext-ref) */

  /* extended: the first client thread's implicit-handle state (GASNET_SEQ:
   * the only one; GASNET_PAR: every other thread has its own, stp_thread()) */
  stp_thread_t thr0;
};
extern struct stp_globals stp;

/* ------------------------------------------------------------------ */
/* client threads (GASNET_PAR, GASNET_PARSYNC)                         */
/* ------------------------------------------------------------------ */
/* A threaded client (gasnet.h's gasnet_init with GASNET_PAR or PARSYNC) sets
 * stp_par before anything else runs.  Then every API entry holds the one
 * library lock (STP_API_GUARD, recursive per thread: a handler's reply
 * enters again), so everything below the API layer runs as under
 * GASNET_SEQ, one thread at a time; the API layer's own waits (blocking
 * put/get, syncs, barrier wait, GASNET_BLOCKUNTIL) hand the lock over
 * between polls (stp_par_yield), so a thread that waits never keeps
 * another from sending what the wait depends on.  Waits inside a backend
 * (credits, send resources) keep it: they only need this thread's polls.
 * Under GASNET_SEQ the cost is one predicted branch per entry. */
extern int stp_par;
void stp_par_lock(void);
void stp_par_unlock(void);
/* The lock, waiting at most ms milliseconds: 1 taken (release with
 * stp_par_unlock), 0 not.  For the exit path, which must not wait for ever
 * on a holder that may be waiting for something of the caller's. */
int stp_par_lock_within(unsigned ms);
int stp_par_held(void); /* this thread holds the lock */
void stp_par_yield(void); /* an API wait's step: let a waiting thread in */
stp_thread_t *stp_thread_slow(void);

static inline int stp_api_enter(void) {
  if (STP_UNLIKELY(stp_par)) stp_par_lock();
  return 0;
}
static inline void stp_api_leave(int *guard) {
  (void)guard;
  if (STP_UNLIKELY(stp_par)) stp_par_unlock();
}
#define STP_API_GUARD() \
  int _stp_api_guard __attribute__((cleanup(stp_api_leave), unused)) = stp_api_enter()

/* The calling thread's implicit-handle state. */
static inline stp_thread_t *stp_thread(void) { return STP_LIKELY(!stp_par) ? &stp.thr0 : stp_thread_slow(); }

/* ------------------------------------------------------------------ */
/* progress and waiting                                                */
/* ------------------------------------------------------------------ */
/* The one progress path: Core, network, then what runs above them. */
static inline int stp_poll(void) {
  int n = stp.core->poll();
  if (stp.net_poll) n += stp.net_poll();
  if (STP_UNLIKELY((++stp.npolls & 63u) == 0 || stp.exit_pending)) stp.hook_exit();
  if (stp.coll_active) stp.hook_coll();
  return n;
}

/* A wait that has spun STP_SPINBLOCK_SPINS steps yields at every step in
 * SPINBLOCK mode; when it yields only because a network's progress threads
 * outnumber the cores, at every STP_SHARE_PERIOD-th: often enough that
 * those threads run (no whole time slice lost), rarely enough that a node
 * waiting long (say, the passive side of a ping-pong) still answers at once
 * (64 cost the hybrid AM round trip ~15 %; offload over TCP is as fast with
 * 1024).  Inline: a spinning step makes no call. */
#define STP_SPINBLOCK_SPINS 1000u
#define STP_SHARE_PERIOD 1024u
static inline void stp_wait_step_slow(unsigned *spins) {
  if (stp.yield_always ||
      (++*spins > STP_SPINBLOCK_SPINS && (stp.waitmode == GASNET_WAIT_SPINBLOCK || *spins % STP_SHARE_PERIOD == 0)))
    sched_yield();
}
/* One iteration of every wait loop: poll, then give up the CPU when the
 * wait mode asks for it or processes outnumber cores. */
static inline void stp_wait_step(unsigned *spins) {
  stp_poll();
  if (STP_UNLIKELY(stp.wait_slow)) stp_wait_step_slow(spins);
}
/* The same, in the API layer's waits: between polls, a threaded client's
 * other threads may enter. */
static inline void stp_api_wait_step(unsigned *spins) {
  stp_wait_step(spins);
  if (STP_UNLIKELY(stp_par)) stp_par_yield();
}

/* Send an AM request through the Core (internal users; no argument
 * checks): 0, or 1 for an IMMEDIATE refusal. */
static inline int stp_am_request(gex_Rank_t dest, const stp_am_t *am) {
  int rc;
  stp.in_am_send++;
  rc = stp.core->request(dest, am);
  stp.in_am_send--;
  return rc;
}

/* Reply from an internal handler (no checks: the library replies once). */
static inline int stp_am_reply(gex_Token_t token, const stp_am_t *am) {
  stp_token_t *t = (stp_token_t *)token;
  t->replied = 1;
  return stp.core->reply(t, am);
}

/* Where node's segment lets a range of n bytes start: at a with
 * a - base <= lim (ok 0: nowhere -- n larger than the segment, or no
 * segments yet; n == 0: everywhere).  Read once, it checks many ranges of
 * one length with one compare each (VIS's pieces); stp_seg_contains is
 * the same test for one range. */
typedef struct stp_seg_room {
  uintptr_t base, lim;
  int ok;
} stp_seg_room_t;
static inline stp_seg_room_t stp_seg_room(gex_Rank_t node, size_t n) {
  stp_seg_room_t r = {0, UINTPTR_MAX, 1};
  if (!n) return r;
  if (STP_UNLIKELY(!stp.seg) || n > stp.seg[node].size) return (stp_seg_room_t){0, 0, 0};
  r.base = (uintptr_t)stp.seg[node].addr;
  r.lim = stp.seg[node].size - n;
  return r;
}
static inline int stp_seg_room_has(const stp_seg_room_t *r, const void *addr) {
  return r->ok && (uintptr_t)addr - r->base <= r->lim; /* (below base: wraps past lim) */
}
/* [addr, addr+n) inside node's segment (n == 0 always is; no segment
 * contains anything else).  The one range check: the API's arguments,
 * every address a target is sent (with argument checks on or off), and
 * every address a backend computes from a peer's segment. */
static inline int stp_seg_contains(gex_Rank_t node, const void *addr, size_t n) {
  stp_seg_room_t r = stp_seg_room(node, n);
  return stp_seg_room_has(&r, addr);
}
static inline int stp_in_my_segment(const void *addr, size_t n) { return stp_seg_contains(stp.mynode, addr, n); }
void stp_bad_address(const char *what, gex_Rank_t from, const void *addr, size_t n) STP_NORETURN;

/* pointers in pairs of 32-bit handler arguments */
#define STP_ARG_LO(p) ((gex_AM_Arg_t)(uint32_t)((uint64_t)(uintptr_t)(p)))
#define STP_ARG_HI(p) ((gex_AM_Arg_t)(uint32_t)((uint64_t)(uintptr_t)(p) >> 32))
#define STP_ARG_PTR(lo, hi) ((void *)(uintptr_t)(((uint64_t)(uint32_t)(hi) << 32) | (uint32_t)(lo)))
#define STP_ARG_U64(lo, hi) ((((uint64_t)(uint32_t)(hi)) << 32) | (uint32_t)(lo))

/* ------------------------------------------------------------------ */
/* errors and knobs                                                    */
/* ------------------------------------------------------------------ */
/* Print "stageport: node N: fatal error: ..." and end the whole job (exit 1). */
void stp_fatal(const char *fmt, ...) STP_NORETURN STP_PRINTF(1, 2);
void stp_vfatal(const char *fmt, va_list ap) STP_NORETURN STP_PRINTF(1, 0);
void stp_warn(const char *fmt, ...) STP_PRINTF(1, 2);
/* End the whole job now with this code (through the bootstrap once there is one). */
void stp_abort(int code) STP_NORETURN;
/* Parse an environment knob: unsigned with optional K/M/G suffix. */
uint64_t stp_env_u64(const char *name, uint64_t dflt);

/* A setting every node must share (a knob that shapes what peers write
 * into each other's memory, or their flow control), as this node resolved
 * it.  labels: NULL, or the names of an enumerated knob's values. */
typedef struct stp_setting {
  const char *name;
  uint64_t value;
  const char *const *labels;
} stp_setting_t;
/* Collective (attach): one allgather of every node's values; if any
 * setting differs, every node ends the job with an error naming the
 * variable and two nodes' values -- before anything sized by it is
 * exchanged, so no node writes past another's memory or waits in a
 * collective the others skipped. */
void stp_settings_agree(const char *who, const stp_setting_t *set, int n);

#endif /* STP_INTERNAL_H */
