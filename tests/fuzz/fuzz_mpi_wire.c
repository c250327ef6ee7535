/*
 * fuzz_mpi_wire.c -- libFuzzer target: the MPI Core's decoder of received
 * messages (core-mpi/mpi_wire.h) on arbitrary bytes.  A message it accepts
 * must lie wholly inside what was received: arguments, payload, the length
 * the header claims; everything it points at is read here, so AddressSanitizer
 * sees any byte outside.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  stp_mw_msg_t m;
  uint8_t *copy = malloc(size ? size : 1); /* exactly `size` bytes: ASan bounds them */
  volatile uint32_t sink = 0;
  memcpy(copy, data, size);
  if (stp_mw_decode(copy, size, &m) == NULL && m.h.kind != STP_MW_CREDIT) {
    const uint8_t *a = m.args, *p = m.payload, *end = copy + size;
    assert(m.h.nargs <= STP_MW_MAX_ARGS && m.h.nbytes <= STP_MW_MAX_PAYLOAD);
    assert(a >= copy && a + 4 * (size_t)m.h.nargs <= end);
    assert(m.h.kind == STP_MW_SHORT || (p >= copy && p + m.h.nbytes <= end));
    for (size_t i = 0; i < 4 * (size_t)m.h.nargs; i++) sink += a[i];
    if (m.h.kind != STP_MW_SHORT)
      for (size_t i = 0; i < m.h.nbytes; i++) sink += p[i];
  }
  (void)sink;
  free(copy);
  return 0;
}
