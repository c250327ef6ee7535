/*
 * unit_firehose.c -- the registration cache (firehose/) with no network:
 * fake register/deregister callbacks keep their own table of what is
 * registered (so the cache's counters are checked against an independent
 * record), a fault layer makes the Nth register call fail, and after every
 * step fh_check (the cache's own invariants) and the cross-check with the
 * fake table run.  Cases: hits and misses, coalescing, limits and LRU
 * eviction, FH_EBUSY changing nothing, register failures, invalidation
 * (also from another thread, and the pending table overflowing), keep-idle
 * off, the split size, a seeded random workload and a sliding window.
 *
 *   unit_firehose [--seed N] [--quick] [--case SUBSTRING]
 *
 * One line per case, "PASS name ..." or "FAIL name: why"; exit 1 on any FAIL.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "firehose.h"
#include "unit_rand.h"

#define PAGE ((uintptr_t)4096)
#define MAXREG 4096

static uint64_t seed = 20261123;
static int quick;

/* ------------------------------------------------------------------ */
/* the fake registrar and its fault layer                              */
/* ------------------------------------------------------------------ */
typedef struct {
  struct {
    uintptr_t base;
    size_t len;
    uint64_t handle;
  } r[MAXREG];
  int n;
  uint64_t next_handle;
  long calls, fail_at; /* reg call number that fails (0: none) */
  char err[256];       /* the first error the fake itself saw */
} fake_t;

static int fake_reg(void *arg, uintptr_t base, size_t len, uint64_t *handle) {
  fake_t *f = arg;
  if (++f->calls == f->fail_at) return -1;
  if (f->n == MAXREG) {
    snprintf(f->err, sizeof f->err, "more than %d registrations", MAXREG);
    return -1;
  }
  if (base % PAGE || len % PAGE || !len)
    if (!f->err[0]) snprintf(f->err, sizeof f->err, "unaligned registration [%#jx,+%zu)", (uintmax_t)base, len);
  f->r[f->n].base = base;
  f->r[f->n].len = len;
  f->r[f->n].handle = *handle = ++f->next_handle;
  f->n++;
  return 0;
}

static void fake_dereg(void *arg, uintptr_t base, size_t len, uint64_t handle) {
  fake_t *f = arg;
  for (int i = 0; i < f->n; i++)
    if (f->r[i].handle == handle) {
      if ((f->r[i].base != base || f->r[i].len != len) && !f->err[0])
        snprintf(f->err, sizeof f->err, "handle %" PRIu64 " deregistered with another range", handle);
      f->r[i] = f->r[--f->n];
      return;
    }
  if (!f->err[0]) snprintf(f->err, sizeof f->err, "handle %" PRIu64 " deregistered but not registered", handle);
}

static fh_t *mk(fake_t *f, size_t regions, size_t pinned, size_t region) {
  fh_config_t c = {fake_reg, fake_dereg, f, PAGE, regions, pinned, region};
  const char *why;
  memset(f, 0, sizeof(*f));
  return fh_init(&c, &why);
}

/* ------------------------------------------------------------------ */
/* checks                                                              */
/* ------------------------------------------------------------------ */
static char why[512];
static int failed;

static int fail_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail_(const char *fmt, ...) {
  va_list ap;
  if (failed) return 0;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  failed = 1;
  return 0;
}
#define EXPECT(cond, ...) ((cond) ? 1 : fail_(__VA_ARGS__))

/* fh_check + the fake table against the cache's counters */
static int consistent(const fh_t *fh, const fake_t *f, const char *step) {
  char buf[256];
  fh_stats_t s;
  uint64_t bytes = 0;
  if (fh_check(fh, buf, sizeof buf)) return fail_("%s: fh_check: %s", step, buf);
  if (f->err[0]) return fail_("%s: fake registrar: %s", step, f->err);
  fh_stats(fh, &s);
  for (int i = 0; i < f->n; i++) bytes += f->r[i].len;
  return EXPECT(s.regions == (uint64_t)f->n && s.pinned == bytes,
                "%s: the cache counts %" PRIu64 " regions / %" PRIu64 " bytes, the registrar holds %d / %" PRIu64, step,
                s.regions, s.pinned, f->n, bytes);
}

static fh_region_t *acq(fh_t *fh, const fake_t *f, uintptr_t p, size_t len, int want) {
  fh_region_t *r = NULL;
  int rc = fh_acquire(fh, (const void *)p, len, &r);
  if (!EXPECT(rc == want, "acquire [%#jx,+%zu): %d, expected %d (%s)", (uintmax_t)p, len, rc, want, fh_error(fh)))
    return NULL;
  if (rc == FH_OK)
    EXPECT(r && fh_region_base(r) <= p && p + len <= fh_region_base(r) + fh_region_len(r),
           "acquire [%#jx,+%zu) returned a region not covering it", (uintmax_t)p, len);
  consistent(fh, f, "acquire");
  return r;
}

static void rel(fh_t *fh, const fake_t *f, fh_region_t *r) {
  if (!r) return; /* its acquire failed: reported */
  fh_release(fh, r);
  consistent(fh, f, "release");
}

static fh_stats_t st(const fh_t *fh) {
  fh_stats_t s;
  fh_stats(fh, &s);
  return s;
}

/* addresses: a fake address space, never dereferenced */
#define A(pg) ((uintptr_t)0x10000000 + (uintptr_t)(pg)*PAGE)

/* ------------------------------------------------------------------ */
/* cases                                                               */
/* ------------------------------------------------------------------ */
static void c_hits(void) {
  fake_t f;
  fh_t *fh = mk(&f, 16, 64 * PAGE, 16 * PAGE);
  fh_region_t *r = acq(fh, &f, A(0) + 100, 3 * PAGE, FH_OK), *r2;
  rel(fh, &f, r);
  r = acq(fh, &f, A(0) + 100, 3 * PAGE, FH_OK);
  r2 = acq(fh, &f, A(1), PAGE, FH_OK); /* inside: a hit, a second reference */
  EXPECT(r == r2, "a range inside a region got another region");
  EXPECT(st(fh).hits == 2 && st(fh).misses == 1 && st(fh).regions == 1 && st(fh).in_use == 1,
         "hits %" PRIu64 " misses %" PRIu64 " regions %" PRIu64, st(fh).hits, st(fh).misses, st(fh).regions);
  EXPECT(fh_region_len(r) == 4 * PAGE, "[+100, +3 pages) should register 4 pages, got %zu bytes", fh_region_len(r));
  rel(fh, &f, r);
  rel(fh, &f, r2);
  EXPECT(st(fh).in_use == 0 && st(fh).regions == 1, "the idle region was not kept");
  fh_fini(fh);
  EXPECT(f.n == 0, "fh_fini left %d registrations", f.n);
}

static void c_coalesce(void) {
  fake_t f;
  fh_t *fh = mk(&f, 16, 64 * PAGE, 8 * PAGE);
  fh_region_t *a = acq(fh, &f, A(0), PAGE, FH_OK), *b, *c;
  rel(fh, &f, a);
  b = acq(fh, &f, A(1), PAGE, FH_OK); /* adjacent: the union [0, 2) replaces [0, 1) */
  EXPECT(fh_region_base(b) == A(0) && fh_region_len(b) == 2 * PAGE, "adjacent pages were not coalesced");
  EXPECT(st(fh).coalesces == 1 && st(fh).regions == 1, "coalesces %" PRIu64 ", regions %" PRIu64, st(fh).coalesces,
         st(fh).regions);
  c = acq(fh, &f, A(2), 2 * PAGE, FH_OK); /* adjacent to an in-use region: union, the old one retired but held */
  EXPECT(fh_region_len(c) == 4 * PAGE && st(fh).regions == 2, "in-use neighbour: len %zu, regions %" PRIu64,
         fh_region_len(c), st(fh).regions);
  rel(fh, &f, b); /* its last reference: deregistered now */
  EXPECT(st(fh).regions == 1, "a retired region stayed registered after its release");
  rel(fh, &f, c);
  /* a span whose union would exceed max_region: the span alone; the region it overlaps stays (and is still hit) */
  a = acq(fh, &f, A(2), 7 * PAGE, FH_OK);
  EXPECT(fh_region_base(a) == A(2) && fh_region_len(a) == 7 * PAGE && st(fh).regions == 2,
         "over max_region: base %#jx len %zu regions %" PRIu64, (uintmax_t)fh_region_base(a), fh_region_len(a),
         st(fh).regions);
  b = acq(fh, &f, A(0), 3 * PAGE, FH_OK);
  EXPECT(b && b != a && st(fh).misses == 4, "the overlapped region was not kept (misses %" PRIu64 ")", st(fh).misses);
  rel(fh, &f, b);
  /* a span containing an idle region: that one is retired, not kept */
  c = acq(fh, &f, A(20), PAGE, FH_OK);
  rel(fh, &f, c);
  b = acq(fh, &f, A(19), 3 * PAGE, FH_OK);
  EXPECT(b && fh_region_base(b) == A(19) && st(fh).regions == 3, "containing span: regions %" PRIu64, st(fh).regions);
  rel(fh, &f, b);
  /* a neighbour longer than the span is not registered again: the span alone beside it */
  c = acq(fh, &f, A(9), PAGE, FH_OK);
  EXPECT(c && fh_region_base(c) == A(9) && fh_region_len(c) == PAGE && st(fh).regions == 4,
         "a long neighbour was merged (len %zu, regions %" PRIu64 ")", c ? fh_region_len(c) : 0, st(fh).regions);
  rel(fh, &f, c);
  rel(fh, &f, a);
  fh_fini(fh);
  EXPECT(f.n == 0, "fh_fini left %d registrations", f.n);
}

static void c_limits(void) {
  fake_t f;
  fh_t *fh = mk(&f, 3, 6 * PAGE, 2 * PAGE);
  fh_region_t *r[4];
  for (int i = 0; i < 3; i++) r[i] = acq(fh, &f, A(10 * i), PAGE, FH_OK);
  rel(fh, &f, r[1]); /* released in the order 1, 0, 2: the LRU */
  rel(fh, &f, r[0]);
  rel(fh, &f, r[2]);
  r[3] = acq(fh, &f, A(100), PAGE, FH_OK); /* max_regions 3: evicts the least recently released, 1 */
  EXPECT(st(fh).evictions == 1, "evictions %" PRIu64, st(fh).evictions);
  r[0] = acq(fh, &f, A(0), PAGE, FH_OK);
  r[2] = acq(fh, &f, A(20), PAGE, FH_OK);
  EXPECT(st(fh).hits == 2, "0 and 2 should still be cached (the LRU evicted the wrong one): hits %" PRIu64,
         st(fh).hits);
  /* everything in use: a miss is refused, nothing changes */
  {
    fh_stats_t before = st(fh);
    int n = f.n;
    fh_region_t *x = acq(fh, &f, A(200), PAGE, FH_EBUSY);
    EXPECT(!x && f.n == n && st(fh).regions == before.regions && st(fh).misses == before.misses &&
               st(fh).pinned == before.pinned,
           "FH_EBUSY changed the cache");
  }
  rel(fh, &f, r[0]);
  rel(fh, &f, r[2]);
  rel(fh, &f, r[3]);
  /* pinned bytes: three 2-page regions fill the 6 pages, a fourth evicts */
  for (int i = 0; i < 4; i++) {
    fh_region_t *x = acq(fh, &f, A(1000 + 10 * i), PAGE + 1, FH_OK);
    EXPECT(st(fh).pinned <= 6 * PAGE, "pinned %" PRIu64 " over the limit", st(fh).pinned);
    rel(fh, &f, x);
  }
  EXPECT(st(fh).pinned_peak <= 6 * PAGE, "pinned peak %" PRIu64 " over the limit", st(fh).pinned_peak);
  EXPECT(acq(fh, &f, A(5000), PAGE + 2, FH_EINVAL) == NULL, "longer than fh_max_len accepted");
  fh_fini(fh);
  EXPECT(f.n == 0, "fh_fini left %d registrations", f.n);
}

static void c_max_len(void) {
  fake_t f;
  fh_t *fh = mk(&f, 4, 64 * PAGE, 8 * PAGE);
  size_t m = fh_max_len(fh);
  fh_region_t *r;
  EXPECT(m == 7 * PAGE + 1, "fh_max_len %zu, expected %zu", m, (size_t)(7 * PAGE + 1));
  r = acq(fh, &f, A(1) - 1, m, FH_OK); /* worst alignment: from the last byte of a page */
  if (r) EXPECT(fh_region_len(r) == 8 * PAGE, "worst-aligned maximum took %zu bytes", fh_region_len(r));
  if (r) rel(fh, &f, r);
  acq(fh, &f, A(100) - 1, m + 1, FH_EINVAL);
  acq(fh, &f, A(100), 0, FH_EINVAL);
  fh_fini(fh);
}

static void c_reg_fails(void) {
  for (long n = 1; n <= 12 && !failed; n++) {
    fake_t f;
    fh_t *fh = mk(&f, 4, 16 * PAGE, 4 * PAGE);
    uint64_t s = seed + (uint64_t)n;
    fh_region_t *held[8] = {0};
    int saw = 0;
    f.fail_at = n;
    for (int step = 0; step < 60 && !failed; step++) {
      int k = (int)(rnd(&s) % 8);
      if (held[k]) {
        rel(fh, &f, held[k]);
        held[k] = NULL;
      } else {
        fh_stats_t b = st(fh);
        int rc = fh_acquire(fh, (const void *)(A(rnd(&s) % 12) + rnd(&s) % PAGE), 1 + rnd(&s) % (2 * PAGE), &held[k]);
        if (rc == FH_EREG) {
          saw = 1;
          EXPECT(!held[k] && st(fh).misses == b.misses && st(fh).in_use == b.in_use, "FH_EREG changed the cache");
        } else {
          EXPECT(rc == FH_OK || rc == FH_EBUSY, "acquire: %d (%s)", rc, fh_error(fh));
        }
        consistent(fh, &f, "acquire under faults");
      }
    }
    for (int k = 0; k < 8; k++)
      if (held[k]) rel(fh, &f, held[k]);
    fh_fini(fh);
    EXPECT(f.n == 0, "fault at call %ld: fh_fini left %d registrations", n, f.n);
    EXPECT(saw || f.calls < n, "fault at call %ld: the failing register call was not reported", n);
  }
}

static void c_invalidate(void) {
  fake_t f;
  fh_t *fh = mk(&f, 16, 64 * PAGE, 8 * PAGE);
  fh_region_t *r = acq(fh, &f, A(0), 2 * PAGE, FH_OK), *r2;
  rel(fh, &f, r);
  fh_invalidate(fh, (const void *)(A(1) + 5), 10);
  r2 = acq(fh, &f, A(0), 2 * PAGE, FH_OK);
  EXPECT(st(fh).invalidations == 1 && st(fh).misses == 2,
         "an invalidated region was reused (invalidations %" PRIu64 ", misses %" PRIu64 ")", st(fh).invalidations,
         st(fh).misses);
  /* in use: stays registered until released, never handed out again */
  fh_invalidate(fh, (const void *)A(0), PAGE);
  fh_flush(fh);
  EXPECT(st(fh).regions == 1 && st(fh).in_use == 1, "an in-use invalidated region was deregistered");
  r = acq(fh, &f, A(0), PAGE, FH_OK);
  EXPECT(r != r2, "an invalidated in-use region was handed out again");
  rel(fh, &f, r2);
  rel(fh, &f, r);
  EXPECT(st(fh).regions == 1, "regions %" PRIu64 " after releasing the invalidated one", st(fh).regions);
  /* overflow of the pending table: everything goes */
  for (int i = 0; i < 200; i++) fh_invalidate(fh, (const void *)A(1000 + i), PAGE);
  fh_flush(fh);
  EXPECT(st(fh).regions == 0, "pending-table overflow did not invalidate everything (%" PRIu64 " regions left)",
         st(fh).regions);
  consistent(fh, &f, "overflow");
  fh_fini(fh);
}

static struct {
  fh_t *fh;
  atomic_int stop;
} inv;

static void *invalidator(void *arg) {
  uint64_t s = seed ^ 0x1234;
  (void)arg;
  while (!atomic_load(&inv.stop)) fh_invalidate(inv.fh, (const void *)A(rnd(&s) % 64), PAGE);
  return NULL;
}

static void c_invalidate_thread(void) {
  fake_t f;
  pthread_t th;
  uint64_t s = seed;
  long steps = quick ? 20000 : 200000;
  inv.fh = mk(&f, 32, 128 * PAGE, 8 * PAGE);
  atomic_store(&inv.stop, 0);
  if (pthread_create(&th, NULL, invalidator, NULL)) {
    fail_("pthread_create");
    return;
  }
  for (long i = 0; i < steps && !failed; i++) {
    fh_region_t *r;
    if (fh_acquire(inv.fh, (const void *)A(rnd(&s) % 64), 1 + rnd(&s) % (3 * PAGE), &r) == FH_OK) fh_release(inv.fh, r);
    if (i % 1000 == 0) consistent(inv.fh, &f, "with a concurrent invalidator");
  }
  atomic_store(&inv.stop, 1);
  pthread_join(th, NULL);
  fh_flush(inv.fh);
  consistent(inv.fh, &f, "after the invalidator");
  EXPECT(st(inv.fh).invalidations > 0, "the concurrent invalidations invalidated nothing");
  fh_fini(inv.fh);
  EXPECT(f.n == 0, "fh_fini left %d registrations", f.n);
}

static void c_keep_idle_off(void) {
  fake_t f;
  fh_t *fh = mk(&f, 16, 64 * PAGE, 8 * PAGE);
  fh_region_t *r = acq(fh, &f, A(0), PAGE, FH_OK);
  rel(fh, &f, r);
  fh_keep_idle(fh, 0); /* drops the idle one */
  EXPECT(st(fh).regions == 0, "fh_keep_idle(0) kept an idle region");
  r = acq(fh, &f, A(0), PAGE, FH_OK);
  rel(fh, &f, r);
  EXPECT(st(fh).regions == 0 && st(fh).misses == 2, "keep-idle off: a region outlived its transfer");
  fh_fini(fh);
}

/* the random workload: every invariant after every step */
static void c_random(void) {
  fake_t f;
  uint64_t s = seed;
  long steps = quick ? 3000 : 30000;
  fh_region_t *held[32] = {0};
  fh_t *fh = mk(&f, 24, 96 * PAGE, 16 * PAGE);
  for (long i = 0; i < steps && !failed; i++) {
    int k = (int)(rnd(&s) % 32), what = (int)(rnd(&s) % 10);
    if (what < 6) {
      if (held[k]) {
        rel(fh, &f, held[k]);
        held[k] = NULL;
      } else {
        uintptr_t p = A(rnd(&s) % 200) + rnd(&s) % PAGE;
        size_t len = 1 + rnd(&s) % fh_max_len(fh);
        int rc = fh_acquire(fh, (const void *)p, len, &held[k]);
        EXPECT(rc == FH_OK || rc == FH_EBUSY, "acquire: %d (%s)", rc, fh_error(fh));
        if (rc == FH_OK)
          EXPECT(fh_region_base(held[k]) <= p && p + len <= fh_region_base(held[k]) + fh_region_len(held[k]),
                 "a region not covering its range");
      }
    } else if (what < 8) {
      fh_invalidate(fh, (const void *)(A(rnd(&s) % 200) + rnd(&s) % PAGE), 1 + rnd(&s) % (8 * PAGE));
    } else {
      fh_flush(fh);
    }
    consistent(fh, &f, "random step");
  }
  for (int k = 0; k < 32; k++)
    if (held[k]) rel(fh, &f, held[k]);
  fh_fini(fh);
  EXPECT(f.n == 0, "fh_fini left %d registrations", f.n);
}

/* a window of 16 unaligned pieces of 4 pages moving through 2000 pages, a
 * cache of 128 pages: the new window must be all hits within 100 calls */
static double slide_hits;
static long slide_worst;
static void c_slide(void) {
  fake_t f;
  fh_t *fh = mk(&f, 64, 128 * PAGE, 32 * PAGE);
  long calls = 0, worst = 0;
  uint64_t h0 = 0;
  for (long pos = 0; pos + 64 <= 2000 && !failed; pos += 32) {
    long found = 0;
    for (long c = 0; c < 256; c++, calls++) {
      uint64_t m = st(fh).misses;
      /* unaligned pieces share their boundary pages, as a malloc'd buffer's do */
      fh_region_t *r = acq(fh, &f, A(pos + (c % 16) * 4) + 100, 4 * PAGE, FH_OK);
      if (!r) break;
      rel(fh, &f, r);
      if (st(fh).misses != m) found = c + 1;
      EXPECT(st(fh).pinned <= 128 * PAGE, "pinned over the limit");
    }
    if (found > worst) worst = found;
  }
  h0 = st(fh).hits;
  slide_hits = 100.0 * (double)h0 / (double)calls;
  slide_worst = worst;
  EXPECT(worst <= 100, "a new window took %ld calls to be found", worst);
  EXPECT(st(fh).pinned_peak <= 128 * PAGE, "pinned peak %" PRIu64 " over the limit", st(fh).pinned_peak);
  fh_fini(fh);
}

static void c_init(void) {
  fake_t f;
  fh_config_t c = {fake_reg, fake_dereg, &f, 3000, 4, 64 * PAGE, 8 * PAGE};
  const char *w = NULL;
  EXPECT(!fh_init(&c, &w) && w, "page 3000 accepted");
  c.page = PAGE, c.max_region = 3 * PAGE + 1;
  EXPECT(!fh_init(&c, &w) && w, "max_region not a page multiple accepted");
  c.max_region = 8 * PAGE, c.max_pinned = 4 * PAGE;
  EXPECT(!fh_init(&c, &w) && w, "max_pinned < max_region accepted");
  c.max_pinned = 64 * PAGE, c.max_regions = 0;
  EXPECT(!fh_init(&c, &w) && w, "max_regions 0 accepted");
  c.max_regions = 4, c.reg = NULL;
  EXPECT(!fh_init(&c, &w) && w, "no reg callback accepted");
}

static const struct {
  const char *name;
  void (*fn)(void);
} cases[] = {
    {"init_validation", c_init},
    {"hits", c_hits},
    {"coalesce", c_coalesce},
    {"limits_lru_busy", c_limits},
    {"max_len", c_max_len},
    {"reg_fails", c_reg_fails},
    {"invalidate", c_invalidate},
    {"invalidate_thread", c_invalidate_thread},
    {"keep_idle_off", c_keep_idle_off},
    {"random", c_random},
    {"sliding_window", c_slide},
};

int main(int argc, char **argv) {
  const char *only = NULL;
  int n = 0, nfail = 0;
  struct timespec t0, t1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "--case") && i + 1 < argc)
      only = argv[++i];
    else {
      fprintf(stderr, "usage: unit_firehose [--seed N] [--quick] [--case SUBSTRING]\n");
      return 2;
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    if (only && !strstr(cases[i].name, only)) continue;
    failed = 0;
    why[0] = '\0';
    cases[i].fn();
    n++;
    if (failed) {
      nfail++;
      printf("FAIL %s: %s\n", cases[i].name, why);
    } else if (cases[i].fn == c_slide) {
      printf("PASS %s (hit rate %.1f%%, each new window found within %ld calls)\n", cases[i].name, slide_hits,
             slide_worst);
    } else {
      printf("PASS %s\n", cases[i].name);
    }
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%s unit_firehose: %d cases, %d failed, seed %" PRIu64 " (%.1f s)\n", nfail ? "FAIL" : "ok", n, nfail, seed,
         (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
  return nfail ? 1 : 0;
}
