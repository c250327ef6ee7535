/*
 * unit_rand.h -- the pure-module unit tests' one random source: splitmix64,
 * seeded from --seed, so that a failing run is repeated exactly.
 */
#ifndef STP_UNIT_RAND_H
#define STP_UNIT_RAND_H
#include <stdint.h>

static inline uint64_t rnd(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

#endif /* STP_UNIT_RAND_H */
