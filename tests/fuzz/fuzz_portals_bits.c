/*
 * fuzz_portals_bits.c -- libFuzzer target: net-portals' match-bit codec
 * (portals_bits.h).  Any 64 bits decode into fields within their ranges,
 * and encoding the decoded fields gives the bits back.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "portals_bits.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  for (size_t off = 0; off + 8 <= size; off += 8) {
    uint64_t b;
    memcpy(&b, data + off, 8);
    unsigned sel = stp_pbits_sel(b), op = stp_pbits_op(b), tid = stp_pbits_tid(b), slot = stp_pbits_slot(b);
    uint32_t up = stp_pbits_upper(b);
    assert(sel <= STP_PBITS_SEL_MASK && op <= STP_PBITS_MAX_OP && tid <= STP_PBITS_MAX_TID && slot <= STP_PBITS_MAX_SLOT);
    assert(stp_pbits(sel, op, tid, slot, up) == b);
  }
  return 0;
}
