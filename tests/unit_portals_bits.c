/*
 * unit_portals_bits.c -- round trip of every field of net-portals' match bits
 * at its limits, and independence of the fields (no MPI, no network).
 */
#include <stdio.h>
#include <stdlib.h>

#include "portals_bits.h"

static int failures;

#define CHECK(cond, ...)                        \
  do {                                          \
    if (!(cond)) {                              \
      failures++;                               \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                      \
      printf("\n");                             \
    }                                           \
  } while (0)

static void round_trip(unsigned sel, unsigned op, unsigned tid, unsigned slot, uint32_t upper) {
  uint64_t b = stp_pbits(sel, op, tid, slot, upper);
  CHECK(stp_pbits_sel(b) == sel, "sel %u -> %u (bits %016llx)", sel, stp_pbits_sel(b), (unsigned long long)b);
  CHECK(stp_pbits_op(b) == op, "op %u -> %u", op, stp_pbits_op(b));
  CHECK(stp_pbits_tid(b) == tid, "tid %u -> %u", tid, stp_pbits_tid(b));
  CHECK(stp_pbits_slot(b) == slot, "slot %u -> %u", slot, stp_pbits_slot(b));
  CHECK(stp_pbits_upper(b) == upper, "upper %lx -> %lx", (unsigned long)upper, (unsigned long)stp_pbits_upper(b));
  /* a target ME with ignore bits STP_PBITS_IGNORE matches on the selector alone */
  CHECK(((b ^ (uint64_t)sel) & ~STP_PBITS_IGNORE) == 0, "selector match for %016llx", (unsigned long long)b);
}

/* AM headers: every field round trips and the selector still matches */
static void am_round_trip(unsigned sel, unsigned cat, unsigned nargs, unsigned handler, unsigned pad, unsigned cr,
                          uint32_t upper) {
  uint64_t b = stp_amb(sel, cat, nargs, handler, pad, cr, upper);
  CHECK(stp_pbits_sel(b) == sel && stp_amb_cat(b) == cat && stp_amb_nargs(b) == nargs &&
            stp_amb_handler(b) == handler && stp_amb_pad(b) == pad && stp_amb_credits(b) == cr &&
            stp_pbits_upper(b) == upper,
        "AM header sel %u cat %u nargs %u handler %u pad %u credits %u upper %lx -> %016llx", sel, cat, nargs, handler,
        pad, cr, (unsigned long)upper, (unsigned long long)b);
  CHECK(((b ^ (uint64_t)sel) & ~STP_PBITS_IGNORE) == 0, "AM selector match for %016llx", (unsigned long long)b);
}

int main(void) {
  static const unsigned sels[] = {STP_PSEL_RAR, STP_PSEL_RARAM, STP_PSEL_RARSRC, STP_PSEL_REQRB, STP_PSEL_REQSB,
                                  STP_PSEL_SYS, 0xf};
  static const unsigned ops[] = {0, STP_POP_PUT, STP_POP_PUT_BULK, STP_POP_GET, STP_PBITS_MAX_OP};
  static const unsigned tids[] = {0, 1, 0x7f, 0x80, STP_PBITS_MAX_TID};
  static const unsigned slots[] = {0, 1, 0x7fff, 0x8000, 0xfffe, STP_PBITS_MAX_SLOT};
  static const uint32_t uppers[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu};
  unsigned n = 0;
  for (size_t a = 0; a < sizeof(sels) / sizeof(*sels); a++)
    for (size_t b = 0; b < sizeof(ops) / sizeof(*ops); b++)
      for (size_t c = 0; c < sizeof(tids) / sizeof(*tids); c++)
        for (size_t d = 0; d < sizeof(slots) / sizeof(*slots); d++)
          for (size_t e = 0; e < sizeof(uppers) / sizeof(*uppers); e++, n++)
            round_trip(sels[a], ops[b], tids[c], slots[d], uppers[e]);
  /* every slot value, the field that names operations */
  for (unsigned s = 0; s <= STP_PBITS_MAX_SLOT; s++, n++) round_trip(STP_PSEL_RAR, STP_POP_GET, 3, s, 0xdeadbeefu);
  /* fields do not bleed into each other: all-ones in one field only */
  CHECK(stp_pbits(0xf, 0, 0, 0, 0) == 0xfull, "selector field");
  CHECK(stp_pbits(0, 0xf, 0, 0, 0) == 0xf0ull, "op field");
  CHECK(stp_pbits(0, 0, 0xff, 0, 0) == 0xff00ull, "thread field");
  CHECK(stp_pbits(0, 0, 0, 0xffff, 0) == 0xffff0000ull, "slot field");
  CHECK(stp_pbits(0, 0, 0, 0, 0xffffffffu) == 0xffffffff00000000ull, "upper field");
  /* out-of-range inputs are masked to their field, never spill */
  CHECK(stp_pbits(0x1f, 0, 0, 0, 0) == 0xfull, "selector overflow masked");
  CHECK(stp_pbits(0, 0, 0, 0x1ffff, 0) == 0xffff0000ull, "slot overflow masked");
  for (unsigned cat = 0; cat < 4; cat++)
    for (unsigned nargs = 0; nargs <= 16; nargs++)
      for (unsigned h = 0; h < 256; h += 51)
        for (unsigned pad = 0; pad < 8; pad += 7)
          for (unsigned cr = 0; cr <= STP_AMB_MAX_CREDITS; cr += 341, n++)
            am_round_trip(cat & 1 ? STP_PSEL_REQRB : STP_PSEL_REQSB, cat, nargs, h, pad, cr, 0x80000000u + cr);
  CHECK(stp_amb(0, 0, 0, 0, 0, STP_AMB_MAX_CREDITS + 1, 0) == 0, "credits overflow masked");
  CHECK(stp_amb(0, 0, 0, 0xff, 0, 0, 0) == 0x7f800ull, "handler field");
  printf("%s: %u round trips, %d failures\n", failures ? "FAIL unit_portals_bits" : "ok unit_portals_bits", n,
         failures);
  return failures ? 1 : 0;
}
