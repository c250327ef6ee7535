/*
 * portals_bits.h -- the match bits of the Portals conduit and its users
 * (net-portals, core-portals, ext-portals; seed 000 sections 3.1-3.2).
 *
 * Every Portals operation GASNet issues carries 64 match bits.  The target's
 * MEs ignore all but the low 4, which select the ME (RAR, RARAM, ...); the
 * rest travel back untouched in the initiator's events (SEND_END, ACK,
 * REPLY_END), so each event names its GASNet operation without a search:
 *
 *    63            32 31          16 15       8 7       4 3       0
 *   +----------------+--------------+----------+---------+---------+
 *   | upper word     | op index     | thread id| op type | ME sel. |
 *   +----------------+--------------+----------+---------+---------+
 *
 *   ME selector  which target ME (Table 1: RAR 0x0, RARAM 0x1, RARSRC 0x2,
 *                ReqRB/CB 0x3, ReqSB 0x4, SYS 0x5; and the AM credits'
 *                redistribution 0x6, Table 1's SYS duty given its own EQ)
 *   op type      non-bulk put, bulk put, get, AM payloads, remote atomic
 *   thread id    the initiating client thread (0 under GASNET_SEQ)
 *   op index     the operation's record at the initiator (seed 000's "eop
 *                addr"): a Portals conduit op (stp_pc_op_t); a ReplyLong
 *                payload's: its RplSB buffer
 *   upper word   the AM reply offset (stage 2), or the firehose region the
 *                operation holds (stage 3: checked at every event; else 0)
 *
 * Pure and header-only: unit-tested by tests/unit_portals_bits.c.
 */
#ifndef STP_PORTALS_BITS_H
#define STP_PORTALS_BITS_H

#include <stdint.h>

enum {
  STP_PSEL_RAR = 0x0,
  STP_PSEL_RARAM = 0x1,
  STP_PSEL_RARSRC = 0x2,
  STP_PSEL_REQRB = 0x3,
  STP_PSEL_REQSB = 0x4,
  STP_PSEL_SYS = 0x5,
  STP_PSEL_CREDIT = 0x6,
};

enum {
  STP_POP_PUT = 1,
  STP_POP_PUT_BULK = 2,
  STP_POP_GET = 3,
  STP_POP_AM_TSR = 4,  /* AM Long payload to RARAM, target-side reassembly (no ACK) */
  STP_POP_AM_PSS = 5,  /* AM Long payload to RAR, put-sync-send (ACK awaited) */
  STP_POP_AM_RPAY = 6, /* ReplyLong payload to the requester's RARSRC */
  STP_POP_ATOMIC = 7,  /* a remote atomic (gex_AD_*) to RAR: ext-portals/portals_ratomic.c */
};

#define STP_PBITS_SEL_MASK 0xfull          /* what target MEs match on */
#define STP_PBITS_IGNORE (~STP_PBITS_SEL_MASK) /* every target ME's ignore bits */
#define STP_PBITS_MAX_OP 0xfu
#define STP_PBITS_MAX_TID 0xffu
#define STP_PBITS_MAX_INDEX 0xffffu

static inline uint64_t stp_pbits(unsigned sel, unsigned op, unsigned tid, unsigned index, uint32_t upper) {
  return ((uint64_t)upper << 32) | ((uint64_t)(index & STP_PBITS_MAX_INDEX) << 16) |
         ((uint64_t)(tid & STP_PBITS_MAX_TID) << 8) | ((uint64_t)(op & STP_PBITS_MAX_OP) << 4) |
         (uint64_t)(sel & STP_PBITS_SEL_MASK);
}

/* AM headers (the native AM Core, seed 000 section 4.3) use the bits above
 * the selector differently: a request goes to ReqRB (selector 0x3), a reply
 * to the requester's ReqSB slot (0x4), and the target reads the header
 * from the match bits, hdr_data (the first two arguments) and the body:
 *
 *    63            32 31     22 21 19 18     11 10     6 5   4 3       0
 *   +----------------+---------+-----+---------+--------+-----+---------+
 *   | ReqSB slot off.| credits | pad | handler | nargs  | cat | ME sel. |
 *   +----------------+---------+-----+---------+--------+-----+---------+
 *
 *   cat      STP_AMB_SHORT, _MEDIUM, _LONG (packed: payload in the body),
 *            _LONG_UNPACKED (payload Put on its own: header + RARAM)
 *   pad      bytes of padding after the payload (bodies are 8-byte multiples)
 *   credits  a reply: what it returns (and STP_AMB_NEED_LOAN when its loan
 *            answers a need); a request: its want field (dynamic
 *            credits, credits.h: CREDITS_WANT_BITS bits, 0 in static mode)
 *            and STP_AMB_ASK, set on an ask (a request that runs no handler)
 *   upper    a request: the requester's ReqSB slot, where the reply goes, and
 *            the Long id that pairs an unpacked Long's header with its
 *            payload; a reply: the credits it lends (dynamic mode; the
 *            reply's place in the ReqSB is its remote offset)
 */
enum { STP_AMB_SHORT = 0, STP_AMB_MEDIUM = 1, STP_AMB_LONG = 2, STP_AMB_LONG_UNPACKED = 3 };
#define STP_AMB_MAX_NARGS 0x1fu
#define STP_AMB_MAX_CREDITS 0x3ffu
#define STP_AMB_ASK 0x200u       /* in a request's credits field */
#define STP_AMB_NEED_LOAN 0x200u /* in a reply's: its loan is a need loan (credits.h) */

static inline uint64_t stp_amb(unsigned sel, unsigned cat, unsigned nargs, unsigned handler, unsigned pad,
                               unsigned credits, uint32_t upper) {
  return ((uint64_t)upper << 32) | ((uint64_t)(credits & STP_AMB_MAX_CREDITS) << 22) | ((uint64_t)(pad & 7u) << 19) |
         ((uint64_t)(handler & 0xffu) << 11) | ((uint64_t)(nargs & STP_AMB_MAX_NARGS) << 6) |
         ((uint64_t)(cat & 3u) << 4) | (uint64_t)(sel & STP_PBITS_SEL_MASK);
}
static inline unsigned stp_amb_cat(uint64_t b) { return (unsigned)(b >> 4) & 3u; }
static inline unsigned stp_amb_nargs(uint64_t b) { return (unsigned)(b >> 6) & STP_AMB_MAX_NARGS; }
static inline unsigned stp_amb_handler(uint64_t b) { return (unsigned)(b >> 11) & 0xffu; }
static inline unsigned stp_amb_pad(uint64_t b) { return (unsigned)(b >> 19) & 7u; }
static inline unsigned stp_amb_credits(uint64_t b) { return (unsigned)(b >> 22) & STP_AMB_MAX_CREDITS; }

static inline unsigned stp_pbits_sel(uint64_t b) { return (unsigned)(b & STP_PBITS_SEL_MASK); }
static inline unsigned stp_pbits_op(uint64_t b) { return (unsigned)(b >> 4) & STP_PBITS_MAX_OP; }
static inline unsigned stp_pbits_tid(uint64_t b) { return (unsigned)(b >> 8) & STP_PBITS_MAX_TID; }
static inline unsigned stp_pbits_index(uint64_t b) { return (unsigned)(b >> 16) & STP_PBITS_MAX_INDEX; }
static inline uint32_t stp_pbits_upper(uint64_t b) { return (uint32_t)(b >> 32); }

/* The op index's former names, which tests/unit_portals_bits.c and
 * tests/fuzz/fuzz_portals_bits.c still use (remove with them). */
#define stp_pbits_slot stp_pbits_index
#define STP_PBITS_MAX_SLOT STP_PBITS_MAX_INDEX

#endif /* STP_PORTALS_BITS_H */
