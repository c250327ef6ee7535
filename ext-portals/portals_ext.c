/*
 * portals_ext.c -- the GASNet Extended API over ptl: stage 1 of seed 000
 * (the `hybrid` stage: the MPI Core keeps the Active Messages, Put/Get go
 * through Portals).
 *
 * Everything it stands on -- NI, SAFE_EQ, RAR/RARSRC, ReqSB, TMPMDs, slots
 * and send tokens -- is the Portals conduit's (portals_conduit.h).  A put
 * or get takes a slot named in its match bits, picks its local MD (RARSRC,
 * a bounce buffer, a TMPMD or a firehose region, which the upper word of
 * the match bits names) and is issued to the target's RAR entry; its
 * ACK or REPLY_END comes back through the conduit to done() below, which
 * retires it in the GASNet operation record.  A non-bulk put also waits for
 * its SEND_END (local completion) unless its data was copied to a bounce
 * buffer.  memset has no Portals operation: the API layer's AM does it.
 */
#include "portals_conduit.h"

/* ACK / REPLY_END of one of ours: the operation's remote completion. */
static void done(stp_pc_slot_t *s) {
  stp_op_t *op = s->owner;
  if (s->op == STP_POP_GET) op->gets--;
  else op->puts--;
}

static int portals_attach(void) {
  stp_pc.done[STP_POP_PUT] = done;
  stp_pc.done[STP_POP_PUT_BULK] = done;
  stp_pc.done[STP_POP_GET] = done;
  return GASNET_OK;
}

static void put1(stp_op_t *op, gasnet_node_t node, void *dst, const void *src, size_t n, int bulk) {
  unsigned kind = bulk ? STP_POP_PUT_BULK : STP_POP_PUT;
  uint32_t si = stp_pc_slot_get(op, kind, node, STP_PC_NEED_SEND | STP_PC_NEED_DONE);
  stp_pc_slot_t *s = &stp_pc.slot[si];
  ptl_size_t off;
  ptl_handle_md_t md = stp_pc_local_md(s, (void *)src, n, &off);
  int copied = s->bounce != STP_PC_NO_BOUNCE;
  if (copied) memcpy(stp_pc.bounce + off, src, n);
  op->puts++;
  stp_pc_check(PtlPutRegion(md, off, n, PTL_ACK_REQ, stp_pc_target(node), STP_PC_RAR_PTE, 0,
                            stp_pbits(STP_PSEL_RAR, kind, 0, si, stp_pc_oos_name(&s->oos)), stp_pc_roff(node, dst),
                            0),
               "PtlPutRegion");
  if (!bulk && !copied) { /* non-bulk: the source must be reusable on return */
    unsigned spins = 0;
    while (stp_pc.slot[si].need & STP_PC_NEED_SEND) stp_wait_step(&spins);
  }
}

static void get1(stp_op_t *op, void *dst, gasnet_node_t node, const void *src, size_t n) {
  uint32_t si = stp_pc_slot_get(op, STP_POP_GET, node, STP_PC_NEED_DONE);
  stp_pc_slot_t *s = &stp_pc.slot[si];
  ptl_size_t off;
  ptl_handle_md_t md = stp_pc_local_md(s, dst, n, &off);
  if (s->bounce != STP_PC_NO_BOUNCE) {
    s->copy_to = dst;
    s->len = n;
  }
  op->gets++;
  stp_pc_check(PtlGetRegion(md, off, n, stp_pc_target(node), STP_PC_RAR_PTE, 0,
                            stp_pbits(STP_PSEL_RAR, STP_POP_GET, 0, si, stp_pc_oos_name(&s->oos)),
                            stp_pc_roff(node, src)),
               "PtlGetRegion");
}

/* A transfer longer than one local MD may cover (a firehose region) goes
 * in pieces, each its own slot. */
static void portals_put(stp_op_t *op, gasnet_node_t node, void *dst, const void *src, size_t n, int bulk) {
  size_t k = stp_pc.xfer_max;
  for (; STP_UNLIKELY(n > k); n -= k, dst = (char *)dst + k, src = (const char *)src + k) put1(op, node, dst, src, k, bulk);
  put1(op, node, dst, src, n, bulk);
}

static void portals_get(stp_op_t *op, void *dst, gasnet_node_t node, const void *src, size_t n) {
  size_t k = stp_pc.xfer_max;
  for (; STP_UNLIKELY(n > k); n -= k, dst = (char *)dst + k, src = (const char *)src + k) get1(op, dst, node, src, k);
  get1(op, dst, node, src, n);
}

const stp_ext_ops_t stp_ext_portals_ops = {
    .name = "ext-portals",
    .attach = portals_attach,
    .put = portals_put,
    .get = portals_get, /* (no memset: Portals has none; the API layer's AM) */
};
