/*
 * stp_copy.h -- copying a client's RMA data with the CPU, where another
 * process may be looking at the same memory.
 *
 * memcpy does not store a small block once: glibc's copy of 4 to 7 bytes
 * stores the first four and the last four (the same word when n == 4), and
 * other sizes likewise.  If the copying thread is descheduled between the
 * two stores, a peer may see the first one, act on it (take a lock handed
 * to it, say) and write the word itself -- and then the second store, of
 * the old value, undoes the peer's write.  GASNet-EX's testacc lost its
 * lock hand-off exactly so, on a 2-core VM.  So an
 * RMA of 1, 2, 4 or 8 bytes at naturally aligned addresses is one load and
 * one store here, as on a network that writes the word in one piece.
 *
 * Header only, in boot/ because every layer -- the GASNet one, the ucx/
 * module and the ptl library -- already includes that directory.
 */
#ifndef STP_COPY_H
#define STP_COPY_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* 1: n bytes copied as one load and one store (n is 1, 2, 4 or 8 and both
 * addresses are aligned to it); 0: nothing done. */
static inline int stp_copy_word(void *dst, const void *src, size_t n) {
  uintptr_t a = (uintptr_t)dst | (uintptr_t)src;
  switch (n) {
    case 1:
      __atomic_store_n((uint8_t *)dst, __atomic_load_n((const uint8_t *)src, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
      return 1;
    case 2:
      if (a & 1) return 0;
      __atomic_store_n((uint16_t *)dst, __atomic_load_n((const uint16_t *)src, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
      return 1;
    case 4:
      if (a & 3) return 0;
      __atomic_store_n((uint32_t *)dst, __atomic_load_n((const uint32_t *)src, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
      return 1;
    case 8:
      if (a & 7) return 0;
      __atomic_store_n((uint64_t *)dst, __atomic_load_n((const uint64_t *)src, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
      return 1;
    default:
      return 0;
  }
}

/* memcpy, except that a word (above) is stored once. */
static inline void stp_copy(void *dst, const void *src, size_t n) {
  if (!stp_copy_word(dst, src, n)) memcpy(dst, src, n);
}

#endif /* STP_COPY_H */
