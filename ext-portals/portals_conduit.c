/*
 * portals_conduit.c -- the Portals conduit (portals_conduit.h): the network
 * of the stages built on ptl.  Opens the NI with the bootstrap, posts the
 * segment (RAR, RARSRC), owns SAFE_EQ, the slots, the send tokens, ReqSB and
 * the TMPMDs, and drains SAFE_EQ on every library poll.
 */
#include "portals_conduit.h"

#include <stdlib.h>

stp_pc_t stp_pc;

/* ------------------------------------------------------------------ */
/* setup and teardown                                                  */
/* ------------------------------------------------------------------ */
static int pc_open(stp_net_args_t *a) {
  const char *m = getenv("STAGEPORT_PTL_MODE");
  uint64_t cap = stp_env_u64("STAGEPORT_PTL_SAFE_EQ", 8192);
  uint64_t nslots = stp_env_u64("STAGEPORT_PTL_SLOTS", (uint64_t)STP_PBITS_MAX_SLOT + 1);
  ptl_interface_t iface = PTLX_IFACE_DEFAULT_MODE;
  ptl_md_t md;
  int maxif;

  if (a->oos != STP_OOS_TMPMD) stp_fatal("gasnet_attach: the Portals conduit has no out-of-segment policy %d", a->oos);
  if (m && !strcmp(m, "host")) iface = PTLX_IFACE_HOST;
  else if (m && !strcmp(m, "offload")) iface = PTLX_IFACE_OFFLOAD;
  else if (m && *m) stp_fatal("STAGEPORT_PTL_MODE=\"%s\": use host or offload", m);
  if (cap < 2) stp_fatal("STAGEPORT_PTL_SAFE_EQ=%" PRIu64 ": at least 2 events", cap);
  if (nslots < 1 || nslots > (uint64_t)STP_PBITS_MAX_SLOT + 1)
    stp_fatal("STAGEPORT_PTL_SLOTS=%" PRIu64 ": 1..%u", nslots, STP_PBITS_MAX_SLOT + 1);

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

  /* slots: the operations in flight, named by their index in the match bits */
  stp_pc.nslots = (uint32_t)nslots;
  stp_pc.slot = calloc(stp_pc.nslots, sizeof(*stp_pc.slot));
  if (!stp_pc.slot) stp_fatal("gasnet_attach: out of memory");
  for (uint32_t i = 0; i < stp_pc.nslots; i++) stp_pc.slot[i].next = i + 1;
  stp_pc.free_slot = 0;
  return GASNET_OK;
}

/* The segment: memory ptl registered already (MDs over it cost nothing),
 * posted as RAR and bound as RARSRC. */
static int pc_segment(uintptr_t size, void **base) {
  ptl_process_id_t any = {PTL_NID_ANY, PTL_PID_ANY};
  ptl_handle_md_t rar_md;
  ptl_md_t md;
  *base = NULL;
  if (!size) return GASNET_OK;
  if (PtlXMemAlloc(stp_pc.ni, size, base) != PTL_OK) return GASNET_ERR_RESOURCE;
  stp_pc.seg = *base;
  stp_pc.seglen = size;
  memset(&md, 0, sizeof(md));
  md.start = stp_pc.seg;
  md.length = stp_pc.seglen;
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
  PtlNIFini(stp_pc.ni); /* collective: every node is exiting */
  PtlFini();
  stp_pc.open = 0;
  free(stp_pc.slot);
  free(stp_pc.bfree);
}

/* ------------------------------------------------------------------ */
/* events                                                              */
/* ------------------------------------------------------------------ */
static void slot_release(uint32_t si) {
  stp_pc_slot_t *s = &stp_pc.slot[si];
  if (s->bounce != STP_PC_NO_BOUNCE) stp_pc.bfree[stp_pc.nbfree++] = s->bounce;
  if (s->tmpmd != PTL_INVALID_HANDLE) stp_pc_check(PtlMDUnlink(s->tmpmd), "unlinking a TMPMD");
  s->next = stp_pc.free_slot;
  stp_pc.free_slot = si;
}

static void handle_event(const ptl_event_t *ev) {
  uint32_t si = stp_pbits_slot(ev->match_bits);
  stp_pc_slot_t *s = &stp_pc.slot[si];
  if (ev->type == PTL_EVENT_PUT_END || stp_pbits_sel(ev->match_bits) >= STP_PSEL_RARSRC) {
    /* arrivals, and the native AM Core's own sends: its accounting */
    if (STP_UNLIKELY(!stp_pc.am_event))
      stp_fatal("Portals conduit: unexpected %s event in SAFE_EQ (match bits %016llx)", PtlEventKindStr(ev->type),
                (unsigned long long)ev->match_bits);
    stp_pc.am_event(ev);
    return;
  }
  stp_pc.tokens++;
  if (STP_UNLIKELY(ev->ni_fail_type != PTL_NI_OK)) {
    const char *what = s->op == STP_POP_GET ? "get from" : s->op >= STP_POP_AM_TSR ? "AM Long payload to" : "put to";
    if (ev->ni_fail_type == PTLX_NI_DROPPED)
      stp_fatal("Portals conduit: a %zu-byte %s node %u was dropped by the target: it matched no entry (a remote "
                "range outside node %u's segment?) or the target had no resources for it",
                (size_t)ev->rlength, what, (unsigned)s->peer, (unsigned)s->peer);
    stp_fatal("Portals conduit: a %zu-byte %s node %u failed in the network (%s event)", (size_t)ev->rlength, what,
              (unsigned)s->peer, PtlEventKindStr(ev->type));
  }
  switch (ev->type) {
    case PTL_EVENT_SEND_END:
      s->need &= (uint8_t)~STP_PC_NEED_SEND;
      if (stp_pc.sent[s->op]) stp_pc.sent[s->op](s);
      break;
    case PTL_EVENT_ACK:
    case PTL_EVENT_REPLY_END:
      if (s->copy_to) memcpy(s->copy_to, stp_pc.bounce + (size_t)s->bounce * stp_pc.bounce_size, s->len);
      s->need &= (uint8_t)~STP_PC_NEED_DONE;
      stp_pc.done[s->op](s);
      break;
    default:
      stp_fatal("Portals conduit: unexpected %s event in SAFE_EQ", PtlEventKindStr(ev->type));
  }
  if (!s->need) slot_release(si);
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
ptl_handle_md_t stp_pc_tmpmd_bind(const void *p, size_t n) {
  ptl_md_t md;
  ptl_handle_md_t h;
  memset(&md, 0, sizeof(md));
  md.start = (void *)p;
  md.length = n;
  md.threshold = PTL_MD_THRESH_INF;
  md.options = PTL_MD_EVENT_START_DISABLE;
  md.eq_handle = stp_pc.safe_eq;
  stp_pc_check(PtlMDBind(stp_pc.ni, md, PTL_RETAIN, &h), "binding a TMPMD");
  return h;
}

ptl_handle_md_t stp_pc_local_md_slow(stp_pc_slot_t *s, void *p, size_t n, ptl_size_t *off) {
  if (n <= stp_pc.bounce_size) {
    unsigned spins = 0;
    while (STP_UNLIKELY(!stp_pc.nbfree)) stp_wait_step(&spins);
    s->bounce = stp_pc.bfree[--stp_pc.nbfree];
    *off = (ptl_size_t)s->bounce * stp_pc.bounce_size;
    return stp_pc.reqsb;
  }
  s->tmpmd = stp_pc_tmpmd_bind(p, n);
  *off = 0;
  return s->tmpmd;
}

/* ------------------------------------------------------------------ */
/* exit notices over SYS                                               */
/* ------------------------------------------------------------------ */
static void pc_exit_notify(int code) {
  for (int p = 0; p < stp_pc.nodes; p++)
    if (p != stp_pc.rank)
      stp_pc_check(PtlPutRegion(stp_pc.sys_src, 0, 4, PTL_NO_ACK_REQ, stp_pc_target((gasnet_node_t)p), STP_PC_AM_PTE,
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
};
