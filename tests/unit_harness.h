/*
 * unit_harness.h -- what the credits/ unit tests (unit_credits,
 * unit_credits_dyn) and unit_vis_stride share: the seed and --quick, the
 * random draw, the clock, allocation that fails the run, one verdict per
 * case (EXPECT), and main's loop over the direct cases and the simulations.
 *
 * Each test defines UNIT_PROG (its name, for its lines) before including
 * this, and calls unit_main from main.
 */
#ifndef STP_UNIT_HARNESS_H
#define STP_UNIT_HARNESS_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit_rand.h"

static uint64_t seed = 20260101;
static int quick;

static uint32_t below(uint64_t *s, uint32_t n) { return (uint32_t)(((rnd(s) >> 32) * n) >> 32); }

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n, size);
  if (!p) {
    printf("FAIL " UNIT_PROG ": out of memory (%zu x %zu bytes)\n", n, size);
    exit(1);
  }
  return p;
}
static inline void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    printf("FAIL " UNIT_PROG ": out of memory (%zu bytes)\n", n);
    exit(1);
  }
  return q;
}

/* A case's verdict: the first failed expectation, or detail for its PASS line. */
static char why[2048], detail[2048];
static int failed;

static void failf(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failf(int line, const char *fmt, ...) {
  va_list ap;
  int n;
  if (failed++) return;
  n = snprintf(why, sizeof(why), "line %d: ", line);
  va_start(ap, fmt);
  vsnprintf(why + n, sizeof(why) - (size_t)n, fmt, ap);
  va_end(ap);
}

#define EXPECT(cond, ...)                      \
  do {                                         \
    if (!(cond)) failf(__LINE__, __VA_ARGS__); \
  } while (0)

typedef struct unit_case {
  const char *name;
  void (*run)(void);
} unit_case_t;

/* Parse --seed/--quick/--case, run each direct case, then each of the nsims
 * simulations (sim_name(i), sim_run(i)); one PASS/FAIL line per case and
 * the total.  Returns main's exit code. */
static int unit_main(int argc, char **argv, const unit_case_t *units, size_t nunits, size_t nsims,
                     const char *(*sim_name)(size_t), void (*sim_run)(size_t)) {
  const char *only = NULL;
  int nfail = 0, n = 0;
  double t0 = now_ms();
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--quick")) quick = 1;
    else if (!strcmp(argv[i], "--case") && i + 1 < argc) only = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--seed N] [--quick] [--case SUBSTRING]\n", argv[0]);
      return 2;
    }
  }
  printf(UNIT_PROG ": seed %" PRIu64 "%s\n", seed, quick ? " (quick)" : "");
  for (size_t i = 0; i < nunits + nsims; i++) {
    const char *name = i < nunits ? units[i].name : sim_name(i - nunits);
    double t = now_ms();
    if (only && !strstr(name, only)) continue;
    failed = 0;
    why[0] = detail[0] = 0;
    if (i < nunits) units[i].run();
    else sim_run(i - nunits);
    if (failed) printf("FAIL %s: %s (%.0f ms)\n", name, why, now_ms() - t);
    else printf("PASS %s %s (%.0f ms)\n", name, detail, now_ms() - t);
    fflush(stdout);
    nfail += failed != 0;
    n++;
  }
  printf("%s " UNIT_PROG ": %d cases, %d failed, seed %" PRIu64 " (%.1f s)\n", nfail ? "FAIL" : "ok", n, nfail, seed,
         (now_ms() - t0) / 1e3);
  fflush(stdout); /* before a sanitizer's exit-time report */
  return nfail ? 1 : 0;
}

#endif /* STP_UNIT_HARNESS_H */
