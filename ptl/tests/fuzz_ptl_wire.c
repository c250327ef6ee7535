/*
 * fuzz_ptl_wire.c -- libFuzzer target: what a ptl target does with the
 * headers that arrive from the wire, on arbitrary bytes, with the pure
 * layer (no UCX): each 48..96-byte chunk of the input is a Put, Get or
 * atomic header (ptl_wire.h), taken only if well formed, then matched against a
 * list of entries (remotely and locally managed, truncating, thresholds,
 * source filters) and its data "placed" -- every byte of the matched range
 * written -- so AddressSanitizer sees any offset or length that escapes an
 * MD.  ACK and reply headers are checked the way their handlers check them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ptl_internal.h"
#include "ptl_wire.h"

#define NPROCS 4
#define BUF 4096

static ptl_ni_t *ni;
static unsigned char *mem[4];
static ptl_handle_eq_t eq;

static void setup(void) {
  ptl_process_id_t me = {0, 0}, any = {PTL_NID_ANY, PTL_PID_ANY}, one = {1, PTL_PID_ANY};
  ptl_handle_me_t meh;
  ptl_handle_md_t mdh;
  if (ptl_ni_create(PTLX_IFACE_HOST, me, NPROCS, NULL, &ni) != PTL_OK) abort();
  ptl_the_ni = ni;
  PtlEQAlloc(ni->handle, 64, PTL_EQ_HANDLER_NONE, &eq);
  for (int i = 0; i < 4; i++) mem[i] = malloc(BUF);
  /* pt 1: remotely managed (a segment); pt 2: locally managed with
   * max_size (request buffers), then truncating; pt 3: only from rank 1,
   * threshold 3 */
  ptl_md_t d = {mem[0], BUF, PTL_MD_THRESH_INF, 0, PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE, NULL, eq};
  PtlMEAttach(ni->handle, 1, any, 0, ~(ptl_match_bits_t)0xf, PTL_RETAIN, PTL_INS_AFTER, &meh);
  PtlMDAttach(meh, d, PTL_RETAIN, &mdh);
  d = (ptl_md_t){mem[1], BUF, PTL_MD_THRESH_INF, 512, PTL_MD_OP_PUT | PTL_MD_MAX_SIZE, NULL, eq};
  PtlMEAttach(ni->handle, 2, any, 3, 0, PTL_RETAIN, PTL_INS_AFTER, &meh);
  PtlMDAttach(meh, d, PTL_RETAIN, &mdh);
  d = (ptl_md_t){mem[2], BUF / 2, PTL_MD_THRESH_INF, 0, PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_TRUNCATE, NULL, eq};
  PtlMEAttach(ni->handle, 2, any, 0, ~(ptl_match_bits_t)0, PTL_RETAIN, PTL_INS_AFTER, &meh);
  PtlMDAttach(meh, d, PTL_RETAIN, &mdh);
  d = (ptl_md_t){mem[3], BUF, 3, 0, PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE, NULL, PTL_EQ_NONE};
  PtlMEAttach(ni->handle, 3, one, 7, 0, PTL_UNLINK, PTL_INS_AFTER, &meh);
  PtlMDAttach(meh, d, PTL_UNLINK, &mdh);
}

static void drain(void) {
  ptl_event_t ev;
  while (PtlEQGet(eq, &ev) != PTL_EQ_EMPTY) continue;
}

/* A target's handling of one Put or Get header: match, place, end. */
static void deliver(int op, uint32_t src, uint32_t pt, uint64_t bits, uint64_t rlength, uint64_t roffset) {
  ptl_req_t r = {op, {src, 0}, pt, bits, rlength, roffset, 0};
  ptl_hit_t hit;
  ptl_lock(ni);
  if (ptl_match(ni, &r, &hit, PTL_SIDE_RX)) {
    unsigned char *p = (unsigned char *)hit.md->d.start + hit.offset;
    if (op != PTL_OP_GET) memset(p, 0xa5, hit.mlength); /* the data lands (an atomic writes its range) */
    else {
      volatile unsigned char s = 0;
      for (ptl_size_t i = 0; i < hit.mlength; i++) s ^= p[i]; /* the reply reads */
      (void)s;
    }
    ptl_match_end(ni, &r, &hit, PTL_NI_OK, PTL_SIDE_RX);
  }
  ptl_unlock(ni);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!ni) setup();
  while (size > 1) {
    unsigned kind = data[0] % 5;
    size_t hlen = data[1] % 97;
    const uint8_t *h = data + 2;
    if (size - 2 < hlen) hlen = size - 2;
    if (kind == 0) {
      ptl_wput_t w;
      /* (the payload's length comes from the transport: any, up to 3 buffers) */
      if (PTL_WIRE_TAKE(w, h, hlen, NPROCS)) deliver(PTL_OP_PUT, w.src, w.pt, w.bits, w.hdr % (3 * BUF), w.roffset);
    } else if (kind == 1) {
      ptl_wget_t w;
      if (PTL_WIRE_TAKE(w, h, hlen, NPROCS)) deliver(PTL_OP_GET, w.src, w.pt, w.bits, w.rlength, w.roffset);
    } else if (kind == 2) { /* an ACK's handler: taken only whole, from a process of the job, a known failure */
      ptl_wack_t w;
      if (PTL_WIRE_TAKE(w, h, hlen, NPROCS) && ptl_wire_fail_ok(w.fail) && (w.src >= NPROCS || w.fail > PTLX_NI_DROPPED))
        abort();
    } else if (kind == 4) { /* an atomic: checked as am_atomic checks it, matched as a Put or (fetching) a Get */
      ptl_watomic_t w;
      uint64_t len = hlen ? h[hlen - 1] % 80u : 0; /* (the payload's length comes from the transport) */
      if (PTL_WIRE_TAKE(w, h, hlen, NPROCS) &&
          ptl_atomic_check(w.aop >= PTL_SWAP, (ptl_op_t)w.aop, (ptl_datatype_t)w.dtype, len) == PTL_OK &&
          !(w.aop > PTL_SWAP && w.reply_md == PTL_HANDLE_NONE))
        deliver(w.reply_md != PTL_HANDLE_NONE ? PTL_OP_FETCH : PTL_OP_ATOMIC, w.src, w.pt, w.bits, len, w.roffset);
    } else {
      ptl_wreply_t w;
      if (PTL_WIRE_TAKE(w, h, hlen, NPROCS) && ptl_wire_fail_ok(w.fail) && (w.src >= NPROCS || w.fail > PTLX_NI_DROPPED))
        abort();
    }
    data += 2 + hlen;
    size -= 2 + hlen;
  }
  drain();
  return 0;
}
