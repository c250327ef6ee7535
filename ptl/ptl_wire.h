/*
 * ptl_wire.h -- ptl's message headers, and the one check of a header that
 * arrives from the wire.
 *
 * Every header is a fixed-size struct; a handler copies it out (it may be
 * unaligned) only when the length is exactly right, and bounds the fields
 * it will use as indices before anything else: the sending process (an
 * index into per-peer tables) and the failure code; portal indices are
 * bounded by the matching engine, MD and operation handles by their
 * pools, offsets and lengths against the MD they land in.  Pure and
 * header-only (no UCX): fuzzed by ptl/tests/fuzz_ptl_wire.c.
 */
#ifndef PTL_WIRE_H
#define PTL_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ptl.h"

typedef struct {
  uint64_t bits, roffset, hdr;
  uint64_t ack_md; /* initiator MD for the ACK, or PTL_HANDLE_NONE */
  uint64_t op;     /* initiator's op (echoed in the ACK: SEND_END goes first) */
  uint32_t pt, src;
} ptl_wput_t;

typedef struct {
  uint64_t bits, roffset, rlength;
  uint64_t reply_md, loffset;
  uint32_t pt, src;
} ptl_wget_t;

typedef struct {
  uint64_t md, op, bits, rlength, mlength, offset, hdr;
  uint32_t pt, src;
  uint32_t fail, pad; /* PTL_NI_OK, or why the Put failed at the target (PTLX_NI_DROPPED) */
} ptl_wack_t;

typedef struct {
  uint64_t md, bits, rlength, loffset;
  uint32_t pt, src; /* payload = the data (mlength bytes) */
  uint32_t fail, pad; /* PTL_NI_OK, or why the Get failed at the target (no payload then) */
} ptl_wreply_t;

/* An atomic (ptl.h section 6), matched: the initiator's data is the
 * payload (always eager: at most PTLX_MAX_ATOMIC_SIZE).  Non-fetching: an
 * ACK to ack_md if asked (as a Put's); fetching: a reply to reply_md at
 * loffset carrying the old values (as a Get's). */
typedef struct {
  uint64_t bits, roffset, hdr;
  uint64_t ack_md;   /* PTL_HANDLE_NONE: no ACK */
  uint64_t op;       /* initiator's op (echoed in the ACK) */
  uint64_t reply_md; /* fetching: the get MD, else PTL_HANDLE_NONE */
  uint64_t loffset;  /* fetching: get offset */
  uint64_t operand;  /* the swaps' operand (its first 4 or 8 bytes) */
  uint32_t pt, src;
  uint32_t aop, dtype; /* ptl_op_t, ptl_datatype_t: checked by the target (ptl_atomic_check) */
} ptl_watomic_t;

enum { PTL_CTL_PUBLISH = 1, PTL_CTL_REVOKE = 2 };
typedef struct {
  uint64_t seq; /* per (sender, receiver) stream, from 1 */
  uint64_t id;  /* the ME handle published / revoked */
  uint32_t kind, src;
  /* PUBLISH only */
  uint64_t bits, mask, base, length;
  ptl_process_id_t match_id;
  uint32_t pt, options;
  uint32_t rkey_len; /* rkey bytes follow as the payload */
  /* PUBLISH of an event entry (PTL_CTL_EVENTS): what a writer needs of its
   * MD (the events it posts; the consumer adds the MD's description), its
   * EQ's shared part, and that part's key after the MD's */
  uint32_t flags;
  uint32_t xslot1;   /* locally managed: its reservation state (index + 1) */
  uint32_t rkey2_len; /* the last rkey2_len bytes of the payload */
  uint64_t max_size, md_handle;
  uint32_t ev_mask, pad2;
  uint64_t ring, ring_mask; /* the EQ's ptl_eq_shared_t, and its capacity - 1 */
  /* the entry's place in its owner's publication order (PUBLISH and
   * REVOKE), and (PUBLISH) that of the request buffer it follows: 0 none,
   * else the initiator may use it only once that one is full (ptl.h
   * section 5) */
  uint64_t order, after;
} ptl_wctl_t;
/* flags: PTL_CTL_EVENTS (PUBLISH of an event entry); PTL_CTL_LAZY (REVOKE
 * of a locally managed event entry that can take nothing any more: its
 * owner does not wait for the acknowledgement, it only keeps the entry's
 * reservation state until then); PTL_CTL_MORE (another record follows this
 * one's keys in the same message: its ptl_wctl_t, then its keys);
 * PTL_CTL_USED (in an acknowledgement: the revoked entry had been used) */
enum { PTL_CTL_EVENTS = 1, PTL_CTL_LAZY = 2, PTL_CTL_MORE = 4, PTL_CTL_USED = 8 };

/* Copy a header of kind want_len out of [header, +hlen) into w and bound
 * its sender: 1 if well formed (src < nprocs), else 0.  src_off is the
 * offset of the uint32_t src field in the struct. */
static inline int ptl_wire_take(void *w, size_t want_len, size_t src_off, const void *header, size_t hlen,
                                int nprocs) {
  uint32_t src;
  if (hlen != want_len) return 0;
  memcpy(w, header, want_len);
  memcpy(&src, (const char *)w + src_off, sizeof(src));
  return src < (uint32_t)nprocs;
}
#define PTL_WIRE_TAKE(w, header, hlen, nprocs) \
  ptl_wire_take(&(w), sizeof(w), offsetof(__typeof__(w), src), header, hlen, nprocs)

/* A failure code that may travel in an ACK or a reply. */
static inline int ptl_wire_fail_ok(uint32_t fail) {
  return fail == PTL_NI_OK || fail == PTL_NI_FAIL || fail == PTLX_NI_DROPPED;
}

#endif /* PTL_WIRE_H */
