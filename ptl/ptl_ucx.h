/*
 * ptl_ucx.h -- ptl's transport over UCX: state, wire headers, and the calls
 * between ptl_ni.c, ptl_xport.c, ptl_pub.c and ptl_mem.c.
 *
 * Workers.  The main worker of the shared UCX module (stp_ucx) receives all
 * of ptl's traffic: every process's endpoints point at peers' main workers.
 * Host mode: the client thread drives the main worker for everything.
 * Offload mode: the progress thread drives the main worker (it receives,
 * matches, answers); the client thread sends on a worker of its own (tx),
 * so the shortcut and the sends never take a lock or wait for the progress
 * thread.
 */
#ifndef PTL_UCX_H
#define PTL_UCX_H

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <ucp/api/ucp.h>
#include <unistd.h>

#include "ptl_internal.h"
#include "ptl_wire.h"
#include "stp_ucx.h"

/* Active message ids (on the main worker). */
enum {
  PTL_AM_PUT = 1, /* ptl_wput_t + payload: target matches */
  PTL_AM_GET,     /* ptl_wget_t: target matches, answers with PTL_AM_REPLY */
  PTL_AM_ACK,     /* ptl_wack_t */
  PTL_AM_REPLY,   /* ptl_wreply_t + payload */
  PTL_AM_CTL,     /* ptl_wctl_t (+ packed rkey): publish / revoke, ordered */
  PTL_AM_CTL_ACK, /* ptl_wctl_t: a revocation is done */
  PTL_AM_WAKE,    /* no header: a one-sided writer filled an MD, or posted to an EQ whose owner may sleep */
  PTL_AM_ATOMIC,  /* ptl_watomic_t + data: target matches, applies, answers with PTL_AM_ACK or PTL_AM_REPLY */
  PTL_AM_COUNT
};
/* Or'ed into the id given to ptl_am_send: send with UCX's eager protocol
 * whatever the size, so the message arrives whole with its data.  Control
 * messages (their receiver takes no rendezvous), and a Put of up to
 * PTL_EAGER_EV_MAX bytes to an event entry this process cannot map (its
 * data lands at once, with no rendezvous round trip -- seed 002's
 * target-side reassembly over a network). */
#define PTL_AM_EAGER 0x80u
#define PTL_EAGER_EV_MAX 65536u

/* What an op is for. */
enum {
  OPK_OTHER,
  OPK_PUT,
  OPK_GET,
  OPK_RECV_PUT,
  OPK_RECV_REPLY,
  OPK_REPLY,
  OPK_CTL,   /* control message, payload in bounce */
  OPK_ATOMIC /* a matched atomic's send, its data in bounce: if it fails, the answer it expects says so */
};

/* A UCX request's context, pooled per side (no malloc per operation);
 * allocated, freed and looked up with ni->lock held. */
typedef struct ptl_xop {
  ptl_obj_t o;
  int side;
  int kind;
  ptl_ni_t *ni;
  ptl_handle_md_t mdh; /* the MD whose event/release completes the op */
  ptl_evinfo_t info;   /* event fields (initiator side) */
  ptl_req_t req;       /* target side */
  ptl_hit_t hit;
  int ack_early;    /* a Put's ACK came before its send completed */
  struct ptl_xop *deferred; /* in x->deferred: the rescuer saw its send end (with status st) */
  ucs_status_t st;
  ptl_evinfo_t ack; /* ... with these fields */
  void *bounce;     /* truncated rendezvous: received here, then copied; a control message's payload (freed by ptl_op_put) */
  union {
    ptl_wput_t put;
    ptl_wget_t get;
    ptl_wack_t ack;
    ptl_wreply_t reply;
    ptl_wctl_t ctl;
    ptl_watomic_t amo;
  } w; /* header storage until the send completes */
} ptl_xop_t;

/* One published entry of one peer, as an initiator keeps it. */
enum { PUB_FREE = 0, PUB_PENDING, PUB_VALID, PUB_REVOKED, PUB_CLEARING /* its slot claimed by one thread */ };
enum { PTL_USE_YES = 1, PTL_USE_NO = 2 }; /* ptl_peer_t.use */
typedef struct ptl_pubent {
  _Atomic int state; /* written by the progress thread, except PENDING->VALID and cleanup */
  uint64_t id;
  uint32_t pt, options;
  uint64_t bits, mask, base, length;
  void *rkey_buf; /* packed (progress thread) */
  size_t rkey_len;
  ucp_rkey_h rkey; /* unpacked (client thread) */
  /* an event entry (ptl.h section 5), written one-sidedly through memory
   * mapped here; lbase NULL: not mappable from here, never used */
  int xev;
  unsigned ev_mask;  /* the events its MD posts */
  uint64_t max_size; /* its MD's (length and options: above) */
  uint64_t md_handle, ring, ring_mask;
  uint32_t xslot1;
  size_t rkey2_len; /* the EQ part's key: the tail of rkey_buf */
  ucp_rkey_h rkey2;
  struct ptl_rkc *rkc1, *rkc2; /* rkey and rkey2 are these of the peer's rkc[] (not destroyed with the entry) */
  char *lbase;            /* the MD's memory, mapped (any entry; NULL: UCX cannot map it from here) */
  ptl_eq_shared_t *lsh;   /* its EQ's shared part, mapped */
  uint64_t lhead;         /* a copy of lsh->head (client thread; ptl_eq_reserve) */
  /* its place in the owner's publication order; the request buffer it
   * follows (0: none), and whether that one is known to be full -- only
   * then may this one take messages (ptl.h section 5) */
  uint64_t order, after;
  _Atomic int open;
  /* (client thread) its order when last chosen: a PTLX_MD_REARM buffer's
   * changes with each re-arming, and is read from its reservation state */
  uint64_t cur;
} ptl_pubent_t;
#define PTL_PUB_SLOTS 16
#define PTL_XMD_WATCH 64

/* A shortcut Put that returned locally complete while its flush (its
 * remote completion) was still in flight: its ACK comes when the flush
 * ends, and until then the revocations this process acknowledges wait
 * (ptl_put.c, "late flushes"). */
typedef struct {
  void *req;           /* the flush's UCX request */
  ptl_handle_md_t mdh; /* the MD (held: pending) that gets the ACK; PTL_HANDLE_NONE: no ACK, nothing held */
  ptl_evinfo_t ack;
  int done;            /* the rescuer saw the flush end, with status st */
  ucs_status_t st;
} ptl_late_t;
#define PTL_LATE_MAX 64

/* A deferred control message (arrived ahead of its turn). */
typedef struct ptl_ctlq {
  struct ptl_ctlq *next;
  ptl_wctl_t w;
  char rkey[];
} ptl_ctlq_t;

/* A peer's remote key, unpacked once and kept (client thread): event
 * entries over the same memory are published again and again (a request
 * buffer after each time it fills), and each unpack would map it anew.
 * refs: the entries using it (dropped by whichever thread clears one);
 * a full cache gives up the least recently used key no entry uses. */
typedef struct ptl_rkc {
  void *packed;
  size_t len;
  ucp_rkey_h rkey;
  _Atomic int refs;
  uint64_t used; /* when it was last handed out (the peer's rkc_clock) */
} ptl_rkc_t;
#define PTL_RKEY_CACHE 16

typedef struct ptl_peer {
  int offload;                     /* its NI is in offload mode */
  ptl_rkc_t rkc[PTL_RKEY_CACHE];   /* event entries' keys */
  uint64_t rkc_clock;
  ptl_pubent_t pub[PTL_PUB_SLOTS]; /* its published entries */
  _Atomic int npub;                /* high-water mark of pub[] in use */
  int hot;                         /* pub[] entry used last (client thread) */
  uint64_t ctl_out;                /* last control seq sent to it (client thread) */
  uint64_t ctl_in;                 /* last control seq from it processed (rx side) */
  ptl_ctlq_t *early;               /* control messages from it that came early */
  ptl_ctlq_t *unfiled;             /* its publications that found no slot, in order (rx side) */
  /* owner side (client thread): a lagging peer's control records wait in
   * pend (ptl_pub.c, "lagging peers"); use (rx side), what was learnt
   * since the owner last looked, ORed: PTL_USE_YES it used one of our
   * entries (its acknowledgement says so, or we matched a Put of its into
   * a published request buffer), PTL_USE_NO an acknowledgement said it had
   * not; 0 nothing new */
  int lagging;
  struct ptl_ctlbatch *pend;
  _Atomic int use;
} ptl_peer_t;

/* Extension memory (PtlXMemAlloc). */
typedef struct ptl_xmem {
  struct ptl_xmem *next;
  stp_ucx_region_t reg;
} ptl_xmem_t;

#define PTL_LAG_ROUNDS 8 /* lagging peers' records leave every so many list changes at least (ptl_pub.c) */
typedef struct ptl_x {
  stp_ucx_t u;         /* context, main worker, endpoints */
  stp_ucx_worker_t tx; /* offload: the client thread's worker */
  ucp_worker_h txw;    /* client thread's worker: tx.worker or u.worker */
  ucp_ep_h *txep;
  ptl_peer_t *peer;
  int publish; /* offload and PTL_PUBLISH != 0 */
  /* client thread */
  _Atomic int busy;        /* inside a shortcut operation */
  int asym;                /* membarrier() orders busy against revocations (else a fence) */
  int tx_inflight;         /* sends and late flushes on txw not yet complete */
  /* shortcut Puts whose flush is in flight (late[0..nlate)), and how many
   * of them the progress thread may still have to wait for */
  ptl_late_t late[PTL_LATE_MAX];
  int nlate;
  _Atomic int unflushed;
  /* txw belongs to the client thread while it uses it (in_tx, set by
   * ptl_tx_enter; or busy, in a shortcut operation); while it does not,
   * the progress thread may take it to finish those flushes (rescuing 1:
   * it wants it, 2: it has it) -- ptl_put.c, "late flushes" */
  _Atomic int in_tx, rescuing;
  int tx_depth;
  char *sc_tmp; /* a shortcut's copy of an IOVEC MD's bytes across pieces (grown, kept) */
  size_t sc_tmp_cap;
  ptl_xop_t *deferred;   /* app-side sends the rescuer saw end: the client finishes them (lock held) */
  uint64_t owed_since;  /* progress thread: when the acknowledgements owed started to wait for flushes */
  _Atomic int revoke_acks; /* revocation acknowledgements still awaited */
  ptl_pool_t ops[2];       /* ptl_xop_t per side */
  ptl_xmem_t *xmem;
  /* owner of event entries (lock held): locally managed MDs with one-sided
   * appends, watched by the progress thread; published MEs freed on the
   * rx side, to revoke */
  ptl_mdo_t *xmds[PTL_XMD_WATCH];
  _Atomic int nxmd;
  uint64_t pub_order; /* the last publication's place in the order (lock held) */
  struct ptl_gone *gone;
  struct ptl_gone *lazy; /* lazily revoked: their reservation states wait for their acknowledgements */
  unsigned ctl_rounds;    /* list changes that sent control records (lagging peers get theirs every lag_rounds-th) */
  unsigned lag_rounds;    /* their period: PTL_LAG_ROUNDS or the offload peers, the larger (ptl_pub.c) */
  int efd_main, efd_tx, wake_fd;
  /* progress thread */
  _Atomic int main_token; /* held by whoever is progressing the main worker */
  _Atomic int acks_pending; /* acks_owed is not empty */
  struct ptl_ctlq *acks_owed; /* revocations to acknowledge once the client is not busy (rx side) */
  int unfenced;               /* acks_owed has revocations marked since the last barrier (main_token held) */
  pthread_t nic;
  int nic_running;
  _Atomic int nic_stop;
  int closing; /* PtlNIFini is tearing down: what fails now fails because everyone is leaving */
  /* publications and keys (ptl_pub.c), rarely touched: kept out of the
   * lines the hot paths use */
  _Atomic int unfiled;      /* peers with publications not filed yet (ptl_pub_refile) */
  _Atomic uint64_t starved; /* bit pt: a publication there found no reservation state (re-walked when one is back) */
  /* keys of entries whose slots the rx side took back (ptl_pub.c): the
   * client thread destroys them (dead_lock held; ndead also read without) */
  ucp_rkey_h *dead;
  int dead_cap;
  _Atomic int ndead;
  atomic_flag dead_lock;
} ptl_x_t;

static inline ptl_x_t *ptl_x(ptl_ni_t *ni) { return (ptl_x_t *)ni->x; }

/* Offload mode: progress the main worker if no one else is (the progress
 * thread, or a client thread that is waiting anyway and so lends a hand).
 * The token also hands the rx side's single-writer state (the progress
 * thread's EQ rings, rx statistics) from one thread to the other. */
static inline int ptl_main_take(ptl_x_t *x) {
  return !atomic_load_explicit(&x->main_token, memory_order_relaxed) &&
         !atomic_exchange_explicit(&x->main_token, 1, memory_order_acquire);
}
static inline void ptl_main_give(ptl_x_t *x) { atomic_store_explicit(&x->main_token, 0, memory_order_release); }
static inline unsigned ptl_main_progress(ptl_x_t *x) {
  unsigned n;
  if (!ptl_main_take(x)) return 0;
  n = ucp_worker_progress(x->u.worker);
  ptl_main_give(x);
  return n;
}

/* ptl_xport.c */
enum { SEND_DONE, SEND_LATER, SEND_FAIL };
extern const ptl_hooks_t ptl_hooks_host, ptl_hooks_offload;
ptl_xop_t *ptl_op_get(ptl_ni_t *ni, int side); /* lock held */
void ptl_op_put(ptl_xop_t *op);                /* lock held */
int ptl_xport_handlers(ptl_ni_t *ni);
/* Send an AM from `side` (rx: the main worker; app: the client thread's).
 * With op, the header lives in op->w until completion, and cb (NULL: just
 * free op) runs then; without op (app side only), completion is waited
 * for here.  SEND_DONE (op not used by UCX any more), SEND_LATER (cb will
 * run) or SEND_FAIL (reported). */
int ptl_am_send(ptl_ni_t *ni, int side, int peer, unsigned id, const void *hdr, size_t hlen, const void *data,
                size_t len, void *memh, ptl_xop_t *op, ucp_send_nbx_callback_t cb);

/* ptl_put.c */
void ptl_send_cb(void *req, ucs_status_t st, void *user_data); /* an app-side send completed */
/* Client thread: progress txw, then finish what ended (late flushes' ACKs,
 * sends the rescuer saw end); the count ucp_worker_progress gave. */
unsigned ptl_tx_progress(ptl_ni_t *ni);
int ptl_tx_rescue(ptl_ni_t *ni); /* progress thread: 1 if no flush is owed any more */
void ptl_tx_wait_rescue(ptl_x_t *x);

/* The client thread raises one of its flags (busy, in_tx) for the
 * progress thread, which stores its own mark and then calls
 * ptl_fence_client before it reads the flag (Dekker).  A plain store where
 * membarrier() stands in for the client's fence, else a seq_cst one. */
static inline void ptl_client_raise(const ptl_x_t *x, _Atomic int *flag) {
  if (PTL_LIKELY(x->asym)) {
    atomic_store_explicit(flag, 1, memory_order_relaxed);
    atomic_signal_fence(memory_order_seq_cst);
  } else {
    atomic_store(flag, 1);
  }
}
static inline void ptl_fence_client(const ptl_x_t *x) {
  if (x->asym) syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}

/* The client thread takes txw (from the rescuer, if it has it) where it
 * uses it outside a shortcut operation, and gives it back after; nested
 * calls count.  A plain store and a look, Dekker-style against the
 * rescuer's store, barrier and look (membarrier() where there is one, as
 * for busy; a shortcut operation's busy is such a claim too). */
static inline void ptl_tx_enter(ptl_x_t *x) {
  if (x->tx_depth++) return;
  ptl_client_raise(x, &x->in_tx);
  if (PTL_UNLIKELY(atomic_load(&x->rescuing))) ptl_tx_wait_rescue(x);
}
static inline void ptl_tx_leave(ptl_x_t *x) {
  if (--x->tx_depth) return;
  atomic_store_explicit(&x->in_tx, 0, memory_order_release);
}
void ptl_xport_ni_gone(int gone); /* PtlNIFini: the NI is destroyed (1), a new one opened (0) */
void ptl_ack_arrived(ptl_ni_t *ni, const ptl_wack_t *w);       /* rx side */

/* ptl_pub.c */
void ptl_pub_list_changed(ptl_ni_t *ni, ptl_pt_index_t pt, ptl_meo_t *gone);
void ptl_pub_entry_clear(ptl_x_t *x, ptl_pubent_t *e); /* client thread: an entry's slot back to free */
/* Either thread: the entries of peer that follow the request buffer of
 * publication order `order` may take messages (it is full). */
void ptl_pub_open_after(ptl_peer_t *peer, uint64_t order);
ucs_status_t ptl_pub_ctl_cb(void *arg, const void *header, size_t hlen, void *data, size_t len,
                            const ucp_am_recv_param_t *param);
ucs_status_t ptl_pub_ctl_ack_cb(void *arg, const void *header, size_t hlen, void *data, size_t len,
                                const ucp_am_recv_param_t *param);
void ptl_pub_fini(ptl_ni_t *ni);
void ptl_pub_md_gone(ptl_ni_t *ni, ptl_mdo_t *md); /* hook md_gone */
void ptl_pub_me_rearmed(ptl_ni_t *ni, ptl_meo_t *me); /* hook me_rearmed */
void ptl_pub_poll(ptl_ni_t *ni);                /* progress thread: one-sided appends that filled an MD */
void ptl_pub_acks(ptl_ni_t *ni, int client);    /* revocations acknowledged once the client is not busy */
void ptl_pub_refile(ptl_ni_t *ni);               /* publications that found no slot, filed if they can be now */
/* What the rx side owes and may settle between operations: from the
 * progress thread's rounds (client 0) and the client lending a hand (1). */
static inline void ptl_pub_settle(ptl_ni_t *ni, int client) {
  ptl_x_t *x = ptl_x(ni);
  if (PTL_UNLIKELY(atomic_load_explicit(&x->acks_pending, memory_order_relaxed))) ptl_pub_acks(ni, client);
  if (PTL_UNLIKELY(atomic_load_explicit(&x->unfiled, memory_order_relaxed))) ptl_pub_refile(ni);
}
ucs_status_t ptl_pub_wake_cb(void *arg, const void *header, size_t hlen, void *data, size_t len,
                             const ucp_am_recv_param_t *param);

/* ptl_mem.c */
int ptl_mem_register(ptl_ni_t *ni, void *start, ptl_size_t len, ptl_reg_t *reg);
void ptl_mem_deregister(ptl_ni_t *ni, ptl_reg_t *reg);
void ptl_mem_fini(ptl_ni_t *ni);
void *ptl_mem_eq_alloc(ptl_ni_t *ni, size_t len, void **region);
void ptl_mem_eq_free(ptl_ni_t *ni, void *region);

/* ptl_ni.c */
void ptl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* PTL_UCX_H */
