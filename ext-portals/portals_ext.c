/*
 * portals_ext.c -- the GASNet Extended API over ptl: stage 1 of seed 000
 * (the `hybrid` stage: the MPI Core keeps the Active Messages, Put/Get go
 * through Portals).
 *
 * Memory descriptors (seed 000 Table 1, the ones stage 1 needs):
 *   RAR     the segment, posted on RAR_PTE with selector 0x0: remotely
 *           managed, Put and Get, persistent, no events -- what every
 *           remote Put lands in and every remote Get reads (in offload
 *           mode ptl publishes it: initiators then use RMA directly);
 *   RARSRC  the same memory bound as a free-floating MD with events to
 *           SAFE_EQ: the local side of Puts from / Gets into the segment;
 *   ReqSB   bounce buffers for small out-of-segment local data (a copy is
 *           local completion at once), one bound MD over a pool;
 *   TMPMD   for larger out-of-segment local data: an MD bound over exactly
 *           the caller's range (pinning and registering it, as a real NIC
 *           must) and unlinked when the operation is done.
 *
 * Completion (seed 000 Table 2): SEND_END = local completion of a Put (what
 * a non-bulk put waits for), ACK = its remote completion, REPLY_END = a Get
 * done.  The match bits carry the operation's slot (portals_bits.h), so each
 * event finds its slot, and the slot its GASNet operation record, without a
 * search.  A slot holds its bounce buffer or TMPMD until every event it
 * expects has arrived.
 *
 * Send tokens (seed 000 section 3.4): SAFE_EQ has a fixed capacity; no
 * operation is issued without a token for each event it will generate, and
 * when tokens run out the initiator drains SAFE_EQ (retiring operations)
 * until enough are back.  SAFE_EQ can therefore never overflow; if ptl ever
 * reports PTL_EQ_DROPPED it is a fatal error, not a silent loss.
 *
 * memset has no Portals operation: it is one AM through the Core (ext-ref's).
 */
#include "stp_internal.h"

#include <stdlib.h>

#include "portals_bits.h"
#include "ptl.h"

#define RAR_PTE 1u
#define NEED_SEND 1u /* SEND_END still to come */
#define NEED_DONE 2u /* ACK / REPLY_END still to come (counted in the op until then) */
#define NO_BOUNCE 0xffffffffu

typedef struct pslot {
  stp_op_t *op;
  uint8_t need;
  uint8_t is_get;
  uint32_t bounce;       /* bounce buffer index, or NO_BOUNCE */
  ptl_handle_md_t tmpmd; /* or PTL_INVALID_HANDLE */
  void *copy_to;         /* get through a bounce buffer: the caller's buffer */
  size_t len;
  uint32_t next; /* free list */
} pslot_t;

static struct {
  ptl_handle_ni_t ni;
  ptl_handle_eq_t safe_eq;
  ptl_handle_md_t rarsrc, reqsb;
  ptl_handle_me_t rar_me;
  int ni_open, mode;
  char *seg;
  size_t seglen;
  /* slots */
  pslot_t *slot;
  uint32_t free_slot, nslots;
  /* send tokens */
  long tokens;
  /* bounce buffers */
  char *bounce;
  size_t bounce_size;
  uint32_t nbounce, *bfree, nbfree;
} x;

static void boot_allgather(void *ctx, const void *mine, void *all, unsigned long len) {
  (void)ctx;
  stp_boot_allgather(mine, all, (size_t)len);
}

static void boot_barrier(void *ctx) {
  (void)ctx;
  stp_boot_barrier();
}

static void check(int rc, const char *what) {
  if (STP_UNLIKELY(rc != PTL_OK)) stp_fatal("hybrid stage: %s: %s", what, PtlErrorStr(rc));
}

/* ------------------------------------------------------------------ */
/* setup                                                               */
/* ------------------------------------------------------------------ */
static int portals_segment_alloc(uintptr_t size, void **base) {
  ptlx_boot_t boot = {(int)stp.mynode, (int)stp.nodes, boot_allgather, boot_barrier, NULL};
  const char *m = getenv("STAGEPORT_PTL_MODE");
  int maxif;
  ptl_interface_t iface = PTLX_IFACE_OFFLOAD; /* the NIC does the Portals work, as on the SeaStar */
  if (m && !strcmp(m, "host")) iface = PTLX_IFACE_HOST;
  else if (m && *m && strcmp(m, "offload")) stp_fatal("STAGEPORT_PTL_MODE=\"%s\": use host or offload", m);
  check(PtlXBootstrap(&boot), "PtlXBootstrap");
  check(PtlInit(&maxif), "PtlInit");
  check(PtlNIInit(iface, PTL_PID_ANY, NULL, NULL, &x.ni), "PtlNIInit");
  x.ni_open = 1;
  x.mode = (int)iface;
  *base = NULL;
  if (!size) return GASNET_OK;
  if (PtlXMemAlloc(x.ni, size, base) != PTL_OK) return GASNET_ERR_RESOURCE;
  x.seg = *base;
  x.seglen = size;
  return GASNET_OK;
}

static int portals_attach(void) {
  ptl_process_id_t any = {PTL_NID_ANY, PTL_PID_ANY};
  ptl_md_t md;
  ptl_handle_md_t rar_md;
  uint64_t cap = stp_env_u64("STAGEPORT_PTL_SAFE_EQ", 8192);
  uint64_t nslots = stp_env_u64("STAGEPORT_PTL_SLOTS", (uint64_t)STP_PBITS_MAX_SLOT + 1);

  if (cap < 2) stp_fatal("STAGEPORT_PTL_SAFE_EQ=%" PRIu64 ": at least 2 events", cap);
  if (nslots < 1 || nslots > (uint64_t)STP_PBITS_MAX_SLOT + 1)
    stp_fatal("STAGEPORT_PTL_SLOTS=%" PRIu64 ": 1..%u", nslots, STP_PBITS_MAX_SLOT + 1);
  check(PtlEQAlloc(x.ni, cap, PTL_EQ_HANDLER_NONE, &x.safe_eq), "allocating SAFE_EQ");
  x.tokens = (long)cap;

  /* RAR: the segment as a target, and RARSRC: the same memory as a source */
  memset(&md, 0, sizeof(md));
  if (x.seglen) {
    md.start = x.seg;
    md.length = x.seglen;
    md.threshold = PTL_MD_THRESH_INF;
    md.options = PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE;
    md.eq_handle = PTL_EQ_NONE;
    check(PtlPost(x.ni, RAR_PTE, any, STP_PSEL_RAR, STP_PBITS_IGNORE, PTL_RETAIN, PTL_INS_AFTER, md, PTL_RETAIN,
                  &x.rar_me, &rar_md),
          "posting the RAR entry");
    md.options = PTL_MD_EVENT_START_DISABLE;
    md.eq_handle = x.safe_eq;
    check(PtlMDBind(x.ni, md, PTL_RETAIN, &x.rarsrc), "binding RARSRC");
  }

  /* ReqSB: bounce buffers, registered once */
  x.bounce_size = (size_t)stp_env_u64("STAGEPORT_PTL_BOUNCE_MAX", 4096);
  x.nbounce = (uint32_t)stp_env_u64("STAGEPORT_PTL_BOUNCE_BUFS", 256);
  if (x.bounce_size && x.nbounce) {
    x.bfree = malloc(x.nbounce * sizeof(*x.bfree));
    if (!x.bfree) stp_fatal("gasnet_attach: out of memory");
    check(PtlXMemAlloc(x.ni, (ptl_size_t)x.bounce_size * x.nbounce, (void **)&x.bounce), "allocating bounce buffers");
    for (uint32_t i = 0; i < x.nbounce; i++) x.bfree[i] = x.nbounce - 1 - i;
    x.nbfree = x.nbounce;
    md.start = x.bounce;
    md.length = (ptl_size_t)x.bounce_size * x.nbounce;
    md.threshold = PTL_MD_THRESH_INF;
    md.options = PTL_MD_EVENT_START_DISABLE;
    md.eq_handle = x.safe_eq;
    check(PtlMDBind(x.ni, md, PTL_RETAIN, &x.reqsb), "binding ReqSB");
  } else {
    x.bounce_size = 0;
  }

  /* slots: the operations in flight, named by their index in the match bits */
  x.nslots = (uint32_t)nslots;
  x.slot = calloc(x.nslots, sizeof(*x.slot));
  if (!x.slot) stp_fatal("gasnet_attach: out of memory");
  for (uint32_t i = 0; i < x.nslots; i++) x.slot[i].next = i + 1;
  x.free_slot = 0;
  return GASNET_OK;
}

static void portals_detach(void) {
  if (!x.ni_open) return;
  PtlNIFini(x.ni); /* collective: every node is exiting */
  PtlFini();
  x.ni_open = 0;
  free(x.slot);
  free(x.bfree);
}

/* ------------------------------------------------------------------ */
/* events                                                              */
/* ------------------------------------------------------------------ */
static void slot_release(uint32_t si) {
  pslot_t *s = &x.slot[si];
  if (s->bounce != NO_BOUNCE) x.bfree[x.nbfree++] = s->bounce;
  if (s->tmpmd != PTL_INVALID_HANDLE) check(PtlMDUnlink(s->tmpmd), "unlinking a TMPMD");
  s->next = x.free_slot;
  x.free_slot = si;
}

static void handle_event(const ptl_event_t *ev) {
  uint32_t si = stp_pbits_slot(ev->match_bits);
  pslot_t *s = &x.slot[si];
  x.tokens++;
  if (STP_UNLIKELY(ev->ni_fail_type != PTL_NI_OK))
    stp_fatal("hybrid stage: %s event for a %s reports a network failure", PtlEventKindStr(ev->type),
              s->is_get ? "get" : "put");
  switch (ev->type) {
    case PTL_EVENT_SEND_END:
      s->need &= (uint8_t)~NEED_SEND;
      break;
    case PTL_EVENT_ACK:
    case PTL_EVENT_REPLY_END:
      if (s->copy_to) memcpy(s->copy_to, x.bounce + (size_t)s->bounce * x.bounce_size, s->len);
      s->need &= (uint8_t)~NEED_DONE;
      if (s->is_get) s->op->gets--;
      else s->op->puts--;
      break;
    default:
      stp_fatal("hybrid stage: unexpected %s event in SAFE_EQ", PtlEventKindStr(ev->type));
  }
  if (!s->need) slot_release(si);
}

static int portals_poll(void) {
  ptl_event_t ev;
  int n = 0, rc;
  while ((rc = PtlEQGet(x.safe_eq, &ev)) != PTL_EQ_EMPTY) {
    if (STP_UNLIKELY(rc != PTL_OK))
      stp_fatal("hybrid stage: PtlEQGet(SAFE_EQ): %s%s", PtlErrorStr(rc),
                rc == PTL_EQ_DROPPED ? " (events were lost: send-token accounting is broken)" : "");
    handle_event(&ev);
    n++;
  }
  return n;
}

/* ------------------------------------------------------------------ */
/* initiation                                                          */
/* ------------------------------------------------------------------ */
/* A slot, and tokens for the events its operation will generate; drains
 * SAFE_EQ (retiring operations) while either is short. */
static uint32_t slot_get(stp_op_t *op, unsigned events, int is_get) {
  unsigned spins = 0;
  uint32_t si;
  pslot_t *s;
  while (STP_UNLIKELY(x.tokens < (long)events || x.free_slot >= x.nslots)) stp_wait_step(&spins);
  x.tokens -= events;
  si = x.free_slot;
  s = &x.slot[si];
  x.free_slot = s->next;
  s->op = op;
  s->need = (uint8_t)(is_get ? NEED_DONE : NEED_SEND | NEED_DONE);
  s->is_get = (uint8_t)is_get;
  s->bounce = NO_BOUNCE;
  s->tmpmd = PTL_INVALID_HANDLE;
  s->copy_to = NULL;
  return si;
}

static inline int in_segment(const void *p, size_t n) {
  uintptr_t a = (uintptr_t)p, b = (uintptr_t)x.seg;
  return a >= b && n <= x.seglen && a - b <= x.seglen - n;
}

static uint32_t bounce_get(void) {
  unsigned spins = 0;
  while (STP_UNLIKELY(!x.nbfree)) stp_wait_step(&spins);
  return x.bfree[--x.nbfree];
}

/* The local MD and offset for [p, p+n): RARSRC inside the segment, else a
 * bounce buffer (small) or a TMPMD bound over exactly the range. */
static ptl_handle_md_t local_md(pslot_t *s, void *p, size_t n, ptl_size_t *off) {
  ptl_md_t md;
  if (in_segment(p, n)) {
    *off = (ptl_size_t)((char *)p - x.seg);
    return x.rarsrc;
  }
  if (n <= x.bounce_size) {
    s->bounce = bounce_get();
    *off = (ptl_size_t)s->bounce * x.bounce_size;
    return x.reqsb;
  }
  memset(&md, 0, sizeof(md));
  md.start = p;
  md.length = n;
  md.threshold = PTL_MD_THRESH_INF;
  md.options = PTL_MD_EVENT_START_DISABLE;
  md.eq_handle = x.safe_eq;
  check(PtlMDBind(x.ni, md, PTL_RETAIN, &s->tmpmd), "binding a TMPMD");
  *off = 0;
  return s->tmpmd;
}

static inline ptl_process_id_t target(gasnet_node_t node) {
  ptl_process_id_t id = {(ptl_nid_t)node, 0};
  return id;
}

static void portals_put(stp_op_t *op, gasnet_node_t node, void *dst, const void *src, size_t n, int bulk) {
  uint32_t si = slot_get(op, 2, 0);
  pslot_t *s = &x.slot[si];
  ptl_size_t off;
  ptl_handle_md_t md = local_md(s, (void *)src, n, &off);
  int copied = s->bounce != NO_BOUNCE;
  if (copied) memcpy(x.bounce + off, src, n);
  op->puts++;
  check(PtlPutRegion(md, off, n, PTL_ACK_REQ, target(node), RAR_PTE, 0,
                     stp_pbits(STP_PSEL_RAR, bulk ? STP_POP_PUT_BULK : STP_POP_PUT, 0, si, 0),
                     (ptl_size_t)((char *)dst - (char *)stp.seg[node].addr), 0),
        "PtlPutRegion");
  if (!bulk && !copied) { /* non-bulk: the source must be reusable on return */
    unsigned spins = 0;
    while (x.slot[si].need & NEED_SEND) stp_wait_step(&spins);
  }
}

static void portals_get(stp_op_t *op, void *dst, gasnet_node_t node, const void *src, size_t n) {
  uint32_t si = slot_get(op, 1, 1);
  pslot_t *s = &x.slot[si];
  ptl_size_t off;
  ptl_handle_md_t md = local_md(s, dst, n, &off);
  if (s->bounce != NO_BOUNCE) {
    s->copy_to = dst;
    s->len = n;
  }
  op->gets++;
  check(PtlGetRegion(md, off, n, target(node), RAR_PTE, 0, stp_pbits(STP_PSEL_RAR, STP_POP_GET, 0, si, 0),
                     (ptl_size_t)((const char *)src - (char *)stp.seg[node].addr)),
        "PtlGetRegion");
}

const stp_ext_ops_t stp_ext_portals_ops = {
    .name = "portals",
    .segment_alloc = portals_segment_alloc,
    .attach = portals_attach,
    .detach = portals_detach,
    .put = portals_put,
    .get = portals_get,
    .memset = stp_ext_ref_memset, /* no Portals memset: one AM through the Core */
    .poll = portals_poll,
};
