/*
 * portals_conduit.c -- the Portals conduit (portals_conduit.h): the network
 * of the stages built on ptl.  Opens the NI with the bootstrap, posts the
 * segment (RAR, RARSRC), owns SAFE_EQ, the operation records, the send
 * tokens, ReqSB and the TMPMDs or the firehose cache, and drains SAFE_EQ on
 * every library poll.
 */
#include "portals_conduit.h"

#include <stdlib.h>

#include "stageport.h"

stp_pc_t stp_pc;
static void fh_open(void);

/* ------------------------------------------------------------------ */
/* setup and teardown                                                  */
/* ------------------------------------------------------------------ */
static int pc_open(stp_net_args_t *a) {
  const char *m = getenv("STAGEPORT_PTL_MODE");
  uint64_t cap = stp_env_u64("STAGEPORT_PTL_SAFE_EQ", 8192);
  uint64_t nops = stp_env_u64("STAGEPORT_PTL_SLOTS", (uint64_t)STP_PBITS_MAX_INDEX + 1);
  ptl_interface_t iface = PTLX_IFACE_DEFAULT_MODE;
  ptl_md_t md;
  int maxif;

  if (a->oos != STP_OOS_TMPMD && a->oos != STP_OOS_FIREHOSE)
    stp_fatal("gasnet_attach: the Portals conduit has no out-of-segment policy %d", a->oos);
  if (m && !strcmp(m, "host")) iface = PTLX_IFACE_HOST;
  else if (m && !strcmp(m, "offload")) iface = PTLX_IFACE_OFFLOAD;
  else if (m && *m) stp_fatal("STAGEPORT_PTL_MODE=\"%s\": use host or offload", m);
  if (cap < 2) stp_fatal("STAGEPORT_PTL_SAFE_EQ=%" PRIu64 ": at least 2 events", cap);
  if (nops < 1 || nops > (uint64_t)STP_PBITS_MAX_INDEX + 1)
    stp_fatal("STAGEPORT_PTL_SLOTS=%" PRIu64 ": 1..%u", nops, STP_PBITS_MAX_INDEX + 1);

  stp_pc_check(PtlXBootstrap(a->boot), "PtlXBootstrap");
  stp_pc_check(PtlInit(&maxif), "PtlInit");
  stp_pc_check(PtlNIInit(iface, PTL_PID_ANY, NULL, NULL, &stp_pc.ni), "PtlNIInit");
  stp_pc.open = 1;
  a->threads = iface == PTLX_IFACE_OFFLOAD; /* the NIC's stand-in */
  stp_pc_check(PtlEQAlloc(stp_pc.ni, cap, PTL_EQ_HANDLER_NONE, &stp_pc.safe_eq), "allocating SAFE_EQ");
  stp_pc.tokens = (long)cap;

  /* ReqSB: bounce buffers, registered once */
  stp_pc.bounce_size = (size_t)stp_env_u64("STAGEPORT_PTL_BOUNCE_MAX", 4096);
  stp_pc.nbounce = (uint32_t)stp_env_u64("STAGEPORT_PTL_BOUNCE_BUFS", 256);
  if (stp_pc.bounce_size && stp_pc.nbounce) {
    stp_pc.bfree = malloc(stp_pc.nbounce * sizeof(*stp_pc.bfree));
    if (!stp_pc.bfree) stp_fatal("gasnet_attach: out of memory");
    stp_pc_check(PtlXMemAlloc(stp_pc.ni, (ptl_size_t)stp_pc.bounce_size * stp_pc.nbounce, (void **)&stp_pc.bounce),
                 "allocating bounce buffers");
    for (uint32_t i = 0; i < stp_pc.nbounce; i++) stp_pc.bfree[i] = stp_pc.nbounce - 1 - i;
    stp_pc.nbfree = stp_pc.nbounce;
    memset(&md, 0, sizeof(md));
    md.start = stp_pc.bounce;
    md.length = (ptl_size_t)stp_pc.bounce_size * stp_pc.nbounce;
    md.threshold = PTL_MD_THRESH_INF;
    md.options = PTL_MD_EVENT_START_DISABLE;
    md.eq_handle = stp_pc.safe_eq;
    stp_pc_check(PtlMDBind(stp_pc.ni, md, PTL_RETAIN, &stp_pc.reqsb), "binding ReqSB");
  } else {
    stp_pc.bounce_size = 0;
  }

  /* SYS: a notice from every peer fits (each sends one), with room to spare */
  stp_pc.nodes = a->boot->size;
  stp_pc.rank = a->boot->rank;
  {
    ptl_process_id_t any = {PTL_NID_ANY, PTL_PID_ANY};
    ptl_handle_me_t me;
    ptl_handle_md_t mdh;
    void *mem = NULL;
    stp_pc_check(PtlEQAlloc(stp_pc.ni, 2 * (ptl_size_t)stp_pc.nodes + 8, PTL_EQ_HANDLER_NONE, &stp_pc.sys_eq),
                 "allocating SYS_EQ");
    stp_pc_check(PtlXMemAlloc(stp_pc.ni, 16 * (ptl_size_t)stp_pc.nodes + 64, &mem), "allocating SYS");
    memset(&md, 0, sizeof(md));
    md.start = (char *)mem + 64;
    md.length = 16 * (ptl_size_t)stp_pc.nodes;
    md.threshold = PTL_MD_THRESH_INF;
    md.options = PTL_MD_OP_PUT | PTL_MD_EVENT_START_DISABLE;
    md.eq_handle = stp_pc.sys_eq;
    stp_pc_check(PtlPost(stp_pc.ni, STP_PC_AM_PTE, any, STP_PSEL_SYS, STP_PBITS_IGNORE, PTL_RETAIN, PTL_INS_AFTER, md,
                         PTL_RETAIN, &me, &mdh),
                 "posting SYS");
    md.start = mem; /* the source of our notices: no events */
    md.length = 8;
    md.options = 0;
    md.eq_handle = PTL_EQ_NONE;
    stp_pc_check(PtlMDBind(stp_pc.ni, md, PTL_RETAIN, &stp_pc.sys_src), "binding the SYS source");
  }

  stp_pc.xfer_max = SIZE_MAX;
  if (a->oos == STP_OOS_FIREHOSE) fh_open();

  /* op records: the operations in flight, named by their index in the match bits */
  stp_pc.nops = (uint32_t)nops;
  stp_pc.op = calloc(stp_pc.nops, sizeof(*stp_pc.op));
  if (!stp_pc.op) stp_fatal("gasnet_attach: out of memory");
  for (uint32_t i = 0; i < stp_pc.nops; i++) stp_pc.op[i].next = i + 1;
  stp_pc.free_op = 0;
  /* each op's scratch (stp_pc_op_scratch), registered once */
  stp_pc_check(PtlXMemAlloc(stp_pc.ni, (ptl_size_t)stp_pc.nops * STP_PC_SCRATCH, (void **)&stp_pc.scratch),
               "allocating the ops' scratch");
  memset(&md, 0, sizeof(md));
  md.start = stp_pc.scratch;
  md.length = (ptl_size_t)stp_pc.nops * STP_PC_SCRATCH;
  md.threshold = PTL_MD_THRESH_INF;
  md.options = PTL_MD_EVENT_START_DISABLE;
  md.eq_handle = stp_pc.safe_eq;
  stp_pc_check(PtlMDBind(stp_pc.ni, md, PTL_RETAIN, &stp_pc.scratch_md), "binding the ops' scratch");
  return GASNET_OK;
}

/* The segment: memory ptl registered already (MDs over it cost nothing),
 * posted as RAR and bound as RARSRC.  (The API layer's table, stp.seg,
 * is where everyone finds it from here on.) */
static int pc_segment(uintptr_t size, void **base) {
  ptl_process_id_t any = {PTL_NID_ANY, PTL_PID_ANY};
  ptl_handle_md_t rar_md;
  ptl_md_t md;
  *base = NULL;
  if (!size) return GASNET_OK;
  if (PtlXMemAlloc(stp_pc.ni, size, base) != PTL_OK) return GASNET_ERR_RESOURCE;
  memset(&md, 0, sizeof(md));
  md.start = *base;
  md.length = size;
  md.threshold = PTL_MD_THRESH_INF;
  md.options = PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE;
  md.eq_handle = PTL_EQ_NONE;
  stp_pc_check(PtlPost(stp_pc.ni, STP_PC_RAR_PTE, any, STP_PSEL_RAR, STP_PBITS_IGNORE, PTL_RETAIN, PTL_INS_AFTER, md,
                       PTL_RETAIN, &stp_pc.rar_me, &rar_md),
               "posting the RAR entry");
  /* RARSRC: the local side of transfers from/into the segment, and (Table
   * 1) the destination of ReplyLong payloads, so it is posted too */
  md.options = PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE | PTL_MD_EVENT_START_DISABLE;
  md.eq_handle = stp_pc.safe_eq;
  stp_pc_check(PtlPost(stp_pc.ni, STP_PC_RAR_PTE, any, STP_PSEL_RARSRC, STP_PBITS_IGNORE, PTL_RETAIN, PTL_INS_AFTER, md,
                       PTL_RETAIN, &stp_pc.rarsrc_me, &stp_pc.rarsrc),
               "posting RARSRC");
  return GASNET_OK;
}

static void pc_close(void) {
  if (!stp_pc.open) return;
  if (stp_pc.fh) { /* every operation is done: its regions are idle */
    if (stp_pc.fh_unmap_events) PtlXUnmapNotify(NULL, NULL);
    fh_fini(stp_pc.fh);
    stp_pc.fh = NULL;
  }
  if (getenv("PTL_VERBOSE") && !strcmp(getenv("PTL_VERBOSE"), "1")) { /* ptl's knob: with its own fini counts */
    ptl_sr_value_t nic = 0, cpu = 0;
    PtlNIStatus(stp_pc.ni, PTLX_SR_ATOMIC_NIC, &nic);
    PtlNIStatus(stp_pc.ni, PTLX_SR_ATOMIC_CPU, &cpu);
    fprintf(stderr, "Portals conduit: rank %d: ptl atomics: %llu sent by the NIC, %llu performed by this CPU\n",
            stp_pc.rank, (unsigned long long)nic, (unsigned long long)cpu);
  }
  PtlNIFini(stp_pc.ni); /* collective: every node is exiting */
  PtlFini();
  stp_pc.open = 0;
  free(stp_pc.op);
  free(stp_pc.bfree);
}

/* ------------------------------------------------------------------ */
/* events                                                              */
/* ------------------------------------------------------------------ */
static void op_release(uint32_t oi) {
  stp_pc_op_t *o = &stp_pc.op[oi];
  if (o->bounce != STP_PC_NO_BOUNCE) stp_pc.bfree[stp_pc.nbfree++] = o->bounce;
  stp_pc_oos_drop(&o->oos);
  o->next = stp_pc.free_op;
  stp_pc.free_op = oi;
}

/* An op event must be one its op still expects (need: its STP_PC_NEED_*
 * bit): a duplicate, or one for an op whose index was already given back
 * and taken again, would end the wrong operation early -- its data not
 * there. */
static inline void op_expect(const stp_pc_op_t *o, uint32_t oi, const ptl_event_t *ev, unsigned need) {
  unsigned type = stp_pbits_op(ev->match_bits);
  if (STP_UNLIKELY(type != o->type || !(o->need & need)))
    stp_fatal("Portals conduit: a %s event for op %u (type %u) that %s", PtlEventKindStr(ev->type), (unsigned)oi, type,
              !o->need            ? "is not in use"
              : type != o->type ? "now holds an operation of another type"
                                : "already had that event");
}

static inline void op_event(const ptl_event_t *ev) {
  uint32_t oi = stp_pbits_index(ev->match_bits);
  stp_pc_op_t *o = &stp_pc.op[oi];
  stp_pc_tokens_give(1);
  if (STP_UNLIKELY(ev->ni_fail_type != PTL_NI_OK)) {
    const char *what = o->type == STP_POP_GET      ? "get from"
                       : o->type == STP_POP_ATOMIC ? "remote atomic on"
                       : o->type >= STP_POP_AM_TSR ? "AM Long payload to"
                                                   : "put to";
    if (ev->ni_fail_type == PTLX_NI_DROPPED)
      stp_fatal("Portals conduit: a %zu-byte %s node %u was dropped by the target: it matched no entry (a remote "
                "range outside node %u's segment?) or the target had no resources for it",
                (size_t)ev->rlength, what, (unsigned)o->peer, (unsigned)o->peer);
    stp_fatal("Portals conduit: a %zu-byte %s node %u failed in the network (%s event)", (size_t)ev->rlength, what,
              (unsigned)o->peer, PtlEventKindStr(ev->type));
  }
  if (STP_UNLIKELY(stp_pbits_upper(ev->match_bits) != stp_pc_oos_name(&o->oos)))
    stp_fatal("Portals conduit: a %s event names firehose region %08x, its op %u holds region %08x",
              PtlEventKindStr(ev->type), (unsigned)stp_pbits_upper(ev->match_bits), (unsigned)oi,
              (unsigned)stp_pc_oos_name(&o->oos));
  switch (ev->type) {
    case PTL_EVENT_SEND_END:
      op_expect(o, oi, ev, STP_PC_NEED_SEND);
      o->need &= (uint8_t)~STP_PC_NEED_SEND;
      if (stp_pc.sent[o->type]) stp_pc.sent[o->type](o);
      break;
    case PTL_EVENT_ACK:
    case PTL_EVENT_REPLY_END:
      op_expect(o, oi, ev, STP_PC_NEED_DONE);
      if (o->copy_to)
        memcpy(o->copy_to,
               o->bounce != STP_PC_NO_BOUNCE ? stp_pc.bounce + (size_t)o->bounce * stp_pc.bounce_size
                                             : stp_pc.scratch + (size_t)oi * STP_PC_SCRATCH + 8,
               o->len);
      o->need &= (uint8_t)~STP_PC_NEED_DONE;
      stp_pc.done[o->type](o);
      break;
    default:
      stp_fatal("Portals conduit: unexpected %s event in SAFE_EQ", PtlEventKindStr(ev->type));
  }
  if (!o->need) op_release(oi);
}

void stp_pc_op_event(const ptl_event_t *ev) { op_event(ev); }

static void handle_event(const ptl_event_t *ev) {
  if (ev->type == PTL_EVENT_PUT_END || stp_pbits_sel(ev->match_bits) >= STP_PSEL_RARSRC) {
    /* arrivals, and the native AM Core's own sends: its accounting */
    if (STP_UNLIKELY(!stp_pc.am_event))
      stp_fatal("Portals conduit: unexpected %s event in SAFE_EQ (match bits %016llx)", PtlEventKindStr(ev->type),
                (unsigned long long)ev->match_bits);
    stp_pc.am_event(ev);
    return;
  }
  if (STP_UNLIKELY(stp_pc.hold != NULL) && stp_pc.hold(ev)) return; /* a test knob keeps it back */
  op_event(ev);
}

int stp_pc_drain(ptl_handle_eq_t eq, int max, void (*handle)(const ptl_event_t *ev), const char *name,
                 const char *lost) {
  ptl_event_t ev;
  int n = 0, rc;
  while (n < max && (rc = PtlEQGet(eq, &ev)) != PTL_EQ_EMPTY) {
    if (STP_UNLIKELY(rc != PTL_OK))
      stp_fatal("Portals conduit: PtlEQGet(%s): %s%s", name, PtlErrorStr(rc), rc == PTL_EQ_DROPPED ? lost : "");
    handle(&ev);
    n++;
  }
  return n;
}

int stp_pc_poll(void) {
  return stp_pc_drain(stp_pc.safe_eq, INT32_MAX, handle_event, "SAFE_EQ",
                      " (events were lost: send-token accounting is broken)");
}

/* ------------------------------------------------------------------ */
/* out-of-segment local memory                                         */
/* ------------------------------------------------------------------ */
/* An MD for one operation's local side, events to SAFE_EQ: [p, p+n), or
 * with PTL_MD_IOVEC n pieces at p. */
static ptl_handle_md_t tmpmd_bind_as(const void *p, size_t n, unsigned options) {
  ptl_md_t md;
  ptl_handle_md_t h;
  memset(&md, 0, sizeof(md));
  md.start = (void *)p;
  md.length = n;
  md.threshold = PTL_MD_THRESH_INF;
  md.options = PTL_MD_EVENT_START_DISABLE | options;
  md.eq_handle = stp_pc.safe_eq;
  stp_pc_check(PtlMDBind(stp_pc.ni, md, PTL_RETAIN, &h), "binding a TMPMD");
  return h;
}
static ptl_handle_md_t tmpmd_bind(const void *p, size_t n) { return tmpmd_bind_as(p, n, 0); }

ptl_handle_md_t stp_pc_iov_hold(const ptl_md_iovec_t *v, size_t n, stp_pc_oos_t *o) {
  return o->tmpmd = tmpmd_bind_as(v, n, PTL_MD_IOVEC);
}

/* firehose's callbacks: a region is an MD like a TMPMD, kept */
static int fh_reg(void *arg, uintptr_t base, size_t len, uint64_t *handle) {
  (void)arg;
  *handle = tmpmd_bind((const void *)base, len);
  return 0;
}

static void fh_dereg(void *arg, uintptr_t base, size_t len, uint64_t handle) {
  (void)arg, (void)base, (void)len;
  stp_pc_check(PtlMDUnlink(handle), "unlinking a firehose region");
}

static void fh_unmapped(void *addr, ptl_size_t len, void *arg) { fh_invalidate(arg, addr, (size_t)len); }

static void fh_open(void) {
  fh_config_t c = {fh_reg, fh_dereg, NULL, GASNET_PAGESIZE, 0, 0, 0};
  const char *why = NULL;
  c.max_region = (size_t)stp_env_u64("STAGEPORT_FH_REGION_MAX", (uint64_t)8 << 20);
  c.max_pinned = (size_t)stp_env_u64("STAGEPORT_FH_PINNED_MAX", (uint64_t)256 << 20);
  c.max_regions = (size_t)stp_env_u64("STAGEPORT_FH_REGIONS", 1024);
  /* an AM Long payload (1 MiB) is one operation: it must fit one region at
   * any alignment */
  if (c.max_region < ((size_t)1 << 20) + c.page || c.max_region % c.page)
    stp_fatal("STAGEPORT_FH_REGION_MAX=%zu: a multiple of %zu, at least 1 MiB + %zu (the largest AM Long payload at "
              "any page alignment)", c.max_region, c.page, c.page);
  if (c.max_pinned < c.max_region)
    stp_fatal("STAGEPORT_FH_PINNED_MAX=%zu: at least STAGEPORT_FH_REGION_MAX (%zu)", c.max_pinned, c.max_region);
  if (c.max_regions < 1) stp_fatal("STAGEPORT_FH_REGIONS=0: at least 1");
  if (!(stp_pc.fh = fh_init(&c, &why))) stp_fatal("firehose: %s", why ? why : "out of memory");
  stp_pc.xfer_max = fh_max_len(stp_pc.fh);
  /* without unmap notices a kept region could outlive its memory: then
   * nothing is kept once its operation is done */
  stp_pc.fh_unmap_events = PtlXUnmapNotify(fh_unmapped, stp_pc.fh) == PTL_OK;
  fh_keep_idle(stp_pc.fh, stp_pc.fh_unmap_events);
  stp_pc.fh_fallbacks = 0;
}

static int pc_firehose_stats(stageport_firehose_stats_t *o) {
  fh_stats_t s;
  if (!stp_pc.fh) return -1;
  fh_stats(stp_pc.fh, &s);
  memset(o, 0, sizeof(*o));
  o->hits = s.hits;
  o->misses = s.misses;
  o->coalesces = s.coalesces;
  o->evictions = s.evictions;
  o->invalidations = s.invalidations;
  o->fallbacks = stp_pc.fh_fallbacks;
  o->regions = s.regions;
  o->pinned = s.pinned;
  o->pinned_peak = s.pinned_peak;
  o->max_regions = s.max_regions;
  o->max_pinned = s.max_pinned;
  o->max_region = s.max_region;
  o->unmap_events = stp_pc.fh_unmap_events;
  return 0;
}

ptl_handle_md_t stp_pc_oos_hold(const void *p, size_t n, ptl_size_t *off, stp_pc_oos_t *o, int may_wait) {
  if (stp_pc.fh) {
    unsigned spins = 0;
    int rc;
    while ((rc = fh_acquire(stp_pc.fh, p, n, &o->fhr)) == FH_EBUSY && may_wait) stp_wait_step(&spins);
    if (rc == FH_OK) {
      *off = (ptl_size_t)((uintptr_t)p - fh_region_base(o->fhr));
      return fh_region_handle(o->fhr);
    }
    if (rc != FH_EBUSY) stp_fatal("firehose: registering %zu bytes at %p: %s", n, p, fh_error(stp_pc.fh));
    stp_pc.fh_fallbacks++;
  }
  *off = 0;
  return o->tmpmd = tmpmd_bind(p, n);
}

void stp_pc_oos_drop(stp_pc_oos_t *o) {
  if (o->fhr) fh_release(stp_pc.fh, o->fhr);
  if (o->tmpmd != PTL_INVALID_HANDLE) stp_pc_check(PtlMDUnlink(o->tmpmd), "unlinking a TMPMD");
  stp_pc_oos_clear(o);
}

ptl_handle_md_t stp_pc_local_md_slow(stp_pc_op_t *o, void *p, size_t n, ptl_size_t *off, int side) {
  if (n <= stp_pc.bounce_size) {
    unsigned spins = 0;
    while (STP_UNLIKELY(!stp_pc.nbfree)) stp_wait_step(&spins);
    o->bounce = stp_pc.bfree[--stp_pc.nbfree];
    *off = (ptl_size_t)o->bounce * stp_pc.bounce_size;
    if (side == STP_PC_DST) { /* copied to p at the Get's REPLY_END (op_event) */
      o->copy_to = p;
      o->len = n;
    } else { /* copied: locally complete now */
      memcpy(stp_pc.bounce + *off, p, n);
    }
    return stp_pc.reqsb;
  }
  return stp_pc_oos_hold(p, n, off, &o->oos, 1);
}

/* ------------------------------------------------------------------ */
/* exit notices over SYS                                               */
/* ------------------------------------------------------------------ */
static void pc_exit_notify(int code) {
  for (int p = 0; p < stp_pc.nodes; p++)
    if (p != stp_pc.rank)
      stp_pc_check(PtlPutRegion(stp_pc.sys_src, 0, 4, PTL_NO_ACK_REQ, stp_pc_target((gex_Rank_t)p), STP_PC_AM_PTE,
                                0, stp_pbits(STP_PSEL_SYS, 0, 0, 0, 0), 0, (ptl_hdr_data_t)(uint32_t)code),
                   "PtlPutRegion (exit notice)");
}

static int pc_exit_take(int *code) {
  ptl_event_t ev;
  int rc = PtlEQGet(stp_pc.sys_eq, &ev);
  if (rc == PTL_EQ_EMPTY) return 0;
  if (STP_UNLIKELY(rc != PTL_OK || ev.type != PTL_EVENT_PUT_END || ev.ni_fail_type != PTL_NI_OK))
    stp_fatal("Portals conduit: SYS: %s (%s event)", PtlErrorStr(rc), PtlEventKindStr(ev.type));
  *code = (int)(uint32_t)ev.hdr_data;
  return 1;
}

const stp_net_ops_t stp_net_portals_ops = {
    .name = "portals",
    .open = pc_open,
    .segment = pc_segment,
    .close = pc_close,
    .poll = stp_pc_poll,
    .exit_notify = pc_exit_notify,
    .exit_take = pc_exit_take,
    .firehose_stats = pc_firehose_stats,
};
