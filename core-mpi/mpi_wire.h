/*
 * mpi_wire.h -- the MPI Core's message format, and the one decoder of bytes
 * that arrive from the wire.
 *
 * One MPI message per AM:
 *   8-byte header {kind, handler, nargs, credits, nbytes}
 *   [Long: 8-byte destination address]
 *   nargs x 4-byte arguments, padded to 16 bytes when a payload follows
 *   payload (nbytes)
 * A credit-only message is the header alone (kind CREDIT, nbytes 0).
 *
 * Every field is bounded before use, with argument checks on or off: the
 * kind, nargs <= 16, the length the header implies against the length MPI
 * received, and (by the caller, which knows the segment) a Long's
 * destination.  Pure and header-only: fuzzed by tests/fuzz_wire.c.
 */
#ifndef STP_MPI_WIRE_H
#define STP_MPI_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { STP_MW_SHORT = 0, STP_MW_MEDIUM = 1, STP_MW_LONG = 2, STP_MW_CREDIT = 3 };

#define STP_MW_MAX_ARGS 16
#define STP_MW_MAX_PAYLOAD 65536
#define STP_MW_HDR 8
#define STP_MW_MAX_MSG (STP_MW_HDR + 8 + STP_MW_MAX_ARGS * 4 + 8 + STP_MW_MAX_PAYLOAD)

typedef struct {
  uint8_t kind;
  uint8_t handler;
  uint8_t nargs;
  uint8_t credits;
  uint32_t nbytes;
} stp_mw_hdr_t;

/* Where the arguments end, and where a payload starts (16-byte aligned). */
static inline size_t stp_mw_args_end(int kind, int nargs) {
  return STP_MW_HDR + (kind == STP_MW_LONG ? 8 : 0) + 4 * (size_t)nargs;
}
static inline size_t stp_mw_payload_off(int kind, int nargs) {
  return (stp_mw_args_end(kind, nargs) + 15) & ~(size_t)15;
}
/* The length of a message: a Short carries no padding. */
static inline size_t stp_mw_len(int kind, int nargs, size_t nbytes) {
  return kind == STP_MW_SHORT ? stp_mw_args_end(kind, nargs) : stp_mw_payload_off(kind, nargs) + nbytes;
}

/* A message, decoded: pointers into the received bytes. */
typedef struct {
  stp_mw_hdr_t h;
  uint64_t dst;          /* Long: the destination address (unchecked here) */
  const void *args;      /* nargs x 4 bytes, maybe unaligned */
  const void *payload;   /* nbytes, 16-byte aligned in the message */
} stp_mw_msg_t;

/* Decode len received bytes.  NULL when they are a well-formed message
 * (every field within bounds, the length exactly what the header says),
 * else what is wrong. */
static inline const char *stp_mw_decode(const void *buf, size_t len, stp_mw_msg_t *m) {
  const char *p = (const char *)buf;
  m->dst = 0;
  m->args = m->payload = p;
  if (len < STP_MW_HDR) return "shorter than a header";
  memcpy(&m->h, p, sizeof(m->h));
  if (m->h.kind > STP_MW_CREDIT) return "unknown kind";
  if (m->h.nargs > STP_MW_MAX_ARGS) return "more than 16 arguments";
  if (m->h.nbytes > STP_MW_MAX_PAYLOAD) return "payload over the maximum";
  if (m->h.kind == STP_MW_CREDIT) return m->h.nargs || m->h.nbytes || len != STP_MW_HDR ? "malformed credit message" : NULL;
  if (m->h.kind == STP_MW_SHORT && m->h.nbytes) return "a Short with a payload";
  if (len != stp_mw_len(m->h.kind, m->h.nargs, m->h.nbytes)) return "length differs from what the header says";
  if (m->h.kind == STP_MW_LONG) memcpy(&m->dst, p + STP_MW_HDR, 8);
  m->args = p + STP_MW_HDR + (m->h.kind == STP_MW_LONG ? 8 : 0);
  m->payload = p + stp_mw_payload_off(m->h.kind, m->h.nargs);
  return NULL;
}

#endif /* STP_MPI_WIRE_H */
