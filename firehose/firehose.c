/*
 * firehose.c -- the registration cache of firehose.h.
 *
 * Lookup: the valid regions (page aligned, none containing another, so
 * bases are unique) in an array sorted by base; a hit is a binary search
 * (O(log n)) then a short walk down over the regions that could reach the
 * address (overlapping ones: at most a few), or the last hit's region; no
 * allocation.  Misses, invalidations and coalescing memmove the array:
 * O(n) pointer moves for n <= max_regions, cheap next to a reg() call.
 * Each region is on at most one list: the LRU (idle and valid, least
 * recently released at the head) or the retired list (redundant or
 * invalid, still registered because in use).
 *
 * Invalidations are recorded by any thread in a small pending table under
 * a spinlock of its own (an atomic_flag: no thread library, and held only
 * for a few stores); `pending` lets the hit path skip the lock when the
 * table is empty.
 */
#include "firehose.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FH_PENDING_MAX 64 /* ranges recorded between two calls; past that, everything is invalidated */

enum { ST_VALID, ST_REDUNDANT, ST_INVALID };

struct fh_region {
  uintptr_t base;
  size_t len;
  uint64_t handle;
  int64_t ref;
  uint64_t stamp; /* release tick: the LRU is sorted by it */
  int state;
  fh_region_t *prev, *next; /* the LRU or the retired list */
};

typedef struct {
  fh_region_t *head, *tail;
  size_t n;
} fh_list_t;

struct fh {
  fh_config_t cfg;
  size_t max_len;
  fh_region_t **lk; /* the lookup: valid regions sorted by base */
  size_t nlk, caplk;
  fh_region_t *last; /* the last hit (or new region), in the lookup; NULL */
  fh_list_t lru, retired;
  size_t idle_bytes; /* the LRU's bytes */
  uint64_t tick;
  fh_stats_t st;
  int keep_idle; /* fh_keep_idle */
  char err[128];

  atomic_flag lock;   /* guards the three below */
  atomic_int pending; /* nonzero: npend > 0 or overflow */
  size_t npend;
  int overflow;
  struct {
    uintptr_t lo, hi;
  } pend[FH_PENDING_MAX];
};

static void list_push(fh_list_t *l, fh_region_t *r) {
  r->next = NULL;
  r->prev = l->tail;
  if (l->tail)
    l->tail->next = r;
  else
    l->head = r;
  l->tail = r;
  l->n++;
}

static void list_remove(fh_list_t *l, fh_region_t *r) {
  if (r->prev)
    r->prev->next = r->next;
  else
    l->head = r->next;
  if (r->next)
    r->next->prev = r->prev;
  else
    l->tail = r->prev;
  r->prev = r->next = NULL;
  l->n--;
}

static int fail(fh_t *fh, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(fh_t *fh, int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(fh->err, sizeof(fh->err), fmt, ap);
  va_end(ap);
  return rc;
}

/* The index of the first lookup entry with base >= a (nlk if none).  Bases
 * are unique (no valid region contains another), so this is also where a
 * region is found. */
static size_t lk_lower(const fh_t *fh, uintptr_t a) {
  size_t lo = 0, hi = fh->nlk;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (fh->lk[mid]->base < a)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The first index of a region that could reach address a (base > a -
 * max_region): regions before it end at or below a. */
static size_t lk_reach(const fh_t *fh, uintptr_t a) {
  return lk_lower(fh, a >= fh->cfg.max_region ? a - fh->cfg.max_region + 1 : 0);
}

/* A valid region containing [a, b), or NULL. */
static fh_region_t *lk_find(const fh_t *fh, uintptr_t a, uintptr_t b) {
  for (size_t k = lk_lower(fh, a + 1); k-- > 0;) {
    fh_region_t *r = fh->lk[k];
    if (r->base + fh->cfg.max_region <= a) break; /* too far below to reach a */
    if (r->base + r->len >= b) return r;
  }
  return NULL;
}

static void lk_remove(fh_t *fh, size_t i, size_t n) {
  for (size_t k = i; k < i + n; k++)
    if (fh->lk[k] == fh->last) fh->last = NULL;
  memmove(fh->lk + i, fh->lk + i + n, (fh->nlk - i - n) * sizeof(*fh->lk));
  fh->nlk -= n;
}

static void dereg(fh_t *fh, fh_region_t *r) {
  fh->cfg.dereg(fh->cfg.arg, r->base, r->len, r->handle);
  fh->st.regions--;
  fh->st.pinned -= r->len;
  free(r);
}

/* r has left the lookup (state set): deregister it if idle, else retire it until its last release. */
static void drop(fh_t *fh, fh_region_t *r) {
  if (r->ref) {
    list_push(&fh->retired, r);
    return;
  }
  list_remove(&fh->lru, r);
  fh->idle_bytes -= r->len;
  dereg(fh, r);
}

/* Take lookup entries [i, i+n) out as `state` and drop them. */
static void lk_retire(fh_t *fh, size_t i, size_t n, int state) {
  fh_region_t *tmp[16];
  while (n) { /* in batches: drop() calls out, and the array must be consistent by then */
    size_t m = n < 16 ? n : 16;
    memcpy(tmp, fh->lk + i, m * sizeof(*tmp));
    lk_remove(fh, i, m);
    for (size_t k = 0; k < m; k++) {
      tmp[k]->state = state;
      drop(fh, tmp[k]);
    }
    n -= m;
  }
}

static void apply_pending(fh_t *fh) {
  struct {
    uintptr_t lo, hi;
  } pend[FH_PENDING_MAX];
  size_t n;
  int all;
  while (atomic_flag_test_and_set_explicit(&fh->lock, memory_order_acquire)) {
  }
  n = fh->npend;
  all = fh->overflow;
  memcpy(pend, fh->pend, n * sizeof(*pend));
  fh->npend = 0;
  fh->overflow = 0;
  atomic_store_explicit(&fh->pending, 0, memory_order_relaxed);
  atomic_flag_clear_explicit(&fh->lock, memory_order_release);

  if (all) {
    fh->st.invalidations += fh->nlk;
    lk_retire(fh, 0, fh->nlk, ST_INVALID);
    return;
  }
  for (size_t k = 0; k < n; k++)
    for (size_t i = lk_reach(fh, pend[k].lo); i < fh->nlk && fh->lk[i]->base < pend[k].hi;) {
      fh_region_t *r = fh->lk[i];
      if (r->base + r->len <= pend[k].lo) {
        i++;
        continue;
      }
      fh->st.invalidations++;
      lk_retire(fh, i, 1, ST_INVALID);
    }
}

static inline void apply_pending_if_any(fh_t *fh) {
  if (atomic_load_explicit(&fh->pending, memory_order_acquire)) apply_pending(fh);
}

fh_t *fh_init(const fh_config_t *cfg, const char **why) {
  const char *dummy;
  fh_t *fh;
  size_t page;
  if (!why) why = &dummy;
  if (!cfg) return *why = "fh_init: no configuration", NULL;
  page = cfg->page ? cfg->page : 4096;
  if (!cfg->reg || !cfg->dereg) return *why = "fh_init: reg and dereg callbacks are required", NULL;
  if (page & (page - 1)) return *why = "fh_init: page is not a power of two", NULL;
  if (cfg->max_region < page || cfg->max_region % page)
    return *why = "fh_init: max_region is not a positive multiple of the page", NULL;
  if (cfg->max_pinned < cfg->max_region) return *why = "fh_init: max_pinned < max_region", NULL;
  if (!cfg->max_regions) return *why = "fh_init: max_regions is 0", NULL;
  fh = calloc(1, sizeof(*fh));
  if (!fh) return *why = "fh_init: out of memory", NULL;
  fh->cfg = *cfg;
  fh->cfg.page = page;
  fh->max_len = cfg->max_region - page + 1;
  fh->keep_idle = 1;
  atomic_flag_clear(&fh->lock);
  atomic_init(&fh->pending, 0);
  *why = NULL;
  return fh;
}

void fh_fini(fh_t *fh) {
  fh_region_t *r, *next;
  if (!fh) return;
  for (size_t i = 0; i < fh->nlk; i++) {
    r = fh->lk[i];
    fh->cfg.dereg(fh->cfg.arg, r->base, r->len, r->handle);
    free(r);
  }
  for (r = fh->retired.head; r; r = next) {
    next = r->next;
    fh->cfg.dereg(fh->cfg.arg, r->base, r->len, r->handle);
    free(r);
  }
  free(fh->lk);
  free(fh);
}

/* The plan of a miss for the page span [lo, hi): the new region [*plo,
 * *phi) is the span grown to the union of every region that overlaps or
 * touches it, one region at a time while the union fits max_region
 * (iterated: a region taken in may bring its own neighbours); a region
 * that would make it too long, or that is longer than the span itself,
 * is left out, overlapping or not.  The new
 * region then replaces the lookup entries [*pi, *pj): every region it
 * contains.  Those are contiguous in base order, and the new region
 * contains no other and is contained in none (that would have been a
 * hit), so no valid region ever contains another. */
static void plan(const fh_t *fh, uintptr_t lo, uintptr_t hi, uintptr_t *plo, uintptr_t *phi, size_t *pi, size_t *pj) {
  size_t maxr = fh->cfg.max_region, i, j;
  uintptr_t ulo = lo, uhi = hi;
  for (int grew = 1; grew;) {
    grew = 0;
    for (size_t k = lk_reach(fh, ulo > 0 ? ulo - 1 : 0); k < fh->nlk && fh->lk[k]->base <= uhi; k++) {
      const fh_region_t *r = fh->lk[k];
      uintptr_t nlo = r->base < ulo ? r->base : ulo, nhi = r->base + r->len > uhi ? r->base + r->len : uhi;
      /* a region longer than the span is left as it is (re-registering it would cost more than the miss
       * itself: a sequential walk would register its whole past again at every step) */
      if (r->base + r->len < ulo || (nlo == ulo && nhi == uhi) || nhi - nlo > maxr || r->len > hi - lo) continue;
      ulo = nlo, uhi = nhi, grew = 1;
    }
  }
  i = lk_lower(fh, ulo);
  for (j = i; j < fh->nlk && fh->lk[j]->base < uhi && fh->lk[j]->base + fh->lk[j]->len <= uhi;) j++;
  *plo = ulo, *phi = uhi, *pi = i, *pj = j;
}

int fh_acquire(fh_t *fh, const void *p, size_t len, fh_region_t **out) {
  uintptr_t a = (uintptr_t)p, lo, hi, ulo, uhi;
  size_t i, j, page, nidle = 0, idle_bytes = 0, nearly = 0, absorbed_idle_left;
  fh_region_t *r, *nr;
  int rc;

  if (out) *out = NULL;
  if (!fh) return FH_EINVAL;
  if (!p || !out) return fail(fh, FH_EINVAL, "fh_acquire: NULL %s", p ? "out" : "pointer");
  if (!len || len > fh->max_len) return fail(fh, FH_EINVAL, "fh_acquire: length %zu not in 1..%zu", len, fh->max_len);
  page = fh->cfg.page;
  if (a + len < a || ((a + len - 1) | (page - 1)) == UINTPTR_MAX)
    return fail(fh, FH_EINVAL, "fh_acquire: [%#jx,+%zu) wraps the address space", (uintmax_t)a, len);
  apply_pending_if_any(fh);

  /* a hit */
  r = fh->last;
  if (!r || a < r->base || a + len > r->base + r->len) r = lk_find(fh, a, a + len);
  if (r) {
    if (!r->ref++) {
      list_remove(&fh->lru, r);
      fh->idle_bytes -= r->len;
      fh->st.in_use++;
    }
    fh->last = r;
    fh->st.hits++;
    *out = r;
    return FH_OK;
  }

  /* a miss: plan, check the room, make it, register, commit */
  lo = a & ~(uintptr_t)(page - 1);
  hi = (a + len + page - 1) & ~(uintptr_t)(page - 1);
  plan(fh, lo, hi, &ulo, &uhi, &i, &j);
  for (size_t k = i; k < j; k++)
    if (!fh->lk[k]->ref) nidle++, idle_bytes += fh->lk[k]->len;
  /* Everything idle may go (the plan's idle regions would go anyway); in-use ones stay registered until
   * released, redundant or not. */
  if (fh->st.regions - fh->lru.n + 1 > fh->cfg.max_regions ||
      fh->st.pinned - fh->idle_bytes + (uhi - ulo) > fh->cfg.max_pinned)
    return FH_EBUSY;
  if (fh->nlk + 1 > fh->caplk) { /* at most one more entry than now */
    size_t cap = fh->caplk ? 2 * fh->caplk : 64;
    fh_region_t **lk = realloc(fh->lk, cap * sizeof(*lk));
    if (!lk) return fail(fh, FH_ENOMEM, "fh_acquire: no memory for %zu lookup entries", cap);
    fh->lk = lk;
    fh->caplk = cap;
  }
  nr = malloc(sizeof(*nr));
  if (!nr) return fail(fh, FH_ENOMEM, "fh_acquire: no memory for a region");

  /* Make room: the plan's idle regions first (not evictions), then the LRU's head. */
  absorbed_idle_left = nidle;
  while (fh->st.regions + 1 > fh->cfg.max_regions || fh->st.pinned + (uhi - ulo) > fh->cfg.max_pinned) {
    if (absorbed_idle_left) {
      size_t k = i;
      while (fh->lk[k]->ref) k++;
      r = fh->lk[k];
      lk_remove(fh, k, 1);
      j--;
      absorbed_idle_left--;
      nearly++;
    } else {
      size_t k;
      r = fh->lru.head; /* an idle region outside the plan: find it in the lookup */
      k = lk_lower(fh, r->base);
      lk_remove(fh, k, 1);
      if (k < i) i--, j--;
      fh->st.evictions++;
    }
    r->state = ST_REDUNDANT;
    drop(fh, r);
  }

  rc = fh->cfg.reg(fh->cfg.arg, ulo, uhi - ulo, &nr->handle);
  if (rc) {
    free(nr);
    fh->st.evictions += nearly; /* deregistered to make room for a region that never came */
    return fail(fh, FH_EREG, "register callback failed for [%#jx,+%zu)", (uintmax_t)ulo, (size_t)(uhi - ulo));
  }
  nr->base = ulo;
  nr->len = uhi - ulo;
  nr->ref = 1;
  nr->stamp = 0;
  nr->state = ST_VALID;
  nr->prev = nr->next = NULL;
  fh->st.regions++;
  fh->st.pinned += nr->len;
  if (fh->st.pinned > fh->st.pinned_peak) fh->st.pinned_peak = fh->st.pinned;
  fh->st.in_use++;
  fh->st.misses++;
  fh->st.coalesces += j - i + nearly;

  /* Commit: the new region takes the place of lookup entries [i, j), which become redundant. */
  lk_retire(fh, i, j - i, ST_REDUNDANT);
  memmove(fh->lk + i + 1, fh->lk + i, (fh->nlk - i) * sizeof(*fh->lk));
  fh->lk[i] = nr;
  fh->nlk++;
  fh->last = nr;
  *out = nr;
  return FH_OK;
}

void fh_release(fh_t *fh, fh_region_t *r) {
  apply_pending_if_any(fh);
  if (--r->ref) return;
  fh->st.in_use--;
  if (r->state != ST_VALID) { /* retired while in use */
    list_remove(&fh->retired, r);
    dereg(fh, r);
    return;
  }
  if (!fh->keep_idle) {
    lk_remove(fh, lk_lower(fh, r->base), 1);
    dereg(fh, r);
    return;
  }
  r->stamp = ++fh->tick;
  list_push(&fh->lru, r);
  fh->idle_bytes += r->len;
}

uint64_t fh_region_handle(const fh_region_t *r) { return r->handle; }
uintptr_t fh_region_base(const fh_region_t *r) { return r->base; }
size_t fh_region_len(const fh_region_t *r) { return r->len; }

void fh_invalidate(fh_t *fh, const void *p, size_t len) {
  uintptr_t lo = (uintptr_t)p, hi = lo + len;
  if (!fh || !len) return;
  if (hi < lo) hi = UINTPTR_MAX;
  while (atomic_flag_test_and_set_explicit(&fh->lock, memory_order_acquire)) {
  }
  if (fh->npend < FH_PENDING_MAX) {
    fh->pend[fh->npend].lo = lo;
    fh->pend[fh->npend].hi = hi;
    fh->npend++;
  } else {
    fh->overflow = 1;
  }
  atomic_store_explicit(&fh->pending, 1, memory_order_release);
  atomic_flag_clear_explicit(&fh->lock, memory_order_release);
}

void fh_flush(fh_t *fh) { apply_pending_if_any(fh); }

void fh_keep_idle(fh_t *fh, int keep) {
  fh->keep_idle = keep != 0;
  if (keep) return;
  while (fh->lru.head) { /* nothing idle stays */
    fh_region_t *r = fh->lru.head;
    lk_remove(fh, lk_lower(fh, r->base), 1);
    list_remove(&fh->lru, r);
    fh->idle_bytes -= r->len;
    dereg(fh, r);
  }
}

size_t fh_max_len(const fh_t *fh) { return fh->max_len; }
void fh_stats(const fh_t *fh, fh_stats_t *s) {
  *s = fh->st;
  s->max_regions = fh->cfg.max_regions;
  s->max_pinned = fh->cfg.max_pinned;
  s->max_region = fh->cfg.max_region;
}
const char *fh_error(const fh_t *fh) { return fh->err; }

static int bad(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *buf, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (buf && n) vsnprintf(buf, n, fmt, ap);
  va_end(ap);
  return -1;
}

int fh_check(const fh_t *fh, char *buf, size_t n) {
  uint64_t pinned = 0, regions = 0, in_use = 0, idle = 0;
  size_t page = fh->cfg.page, nlru = 0;
  uint64_t stamp = 0;
  for (size_t i = 0; i < fh->nlk; i++) {
    const fh_region_t *r = fh->lk[i];
    if (r->state != ST_VALID) return bad(buf, n, "lookup entry %zu is not valid (state %d)", i, r->state);
    if (r->base % page || r->len % page || !r->len || r->len > fh->cfg.max_region)
      return bad(buf, n, "region [%#jx,+%zu) is not page aligned or too long", (uintmax_t)r->base, r->len);
    if (i && fh->lk[i - 1]->base >= r->base) return bad(buf, n, "lookup entries %zu and %zu out of order", i - 1, i);
    for (size_t k = i + 1; k < fh->nlk && fh->lk[k]->base < r->base + r->len; k++)
      if (fh->lk[k]->base + fh->lk[k]->len <= r->base + r->len)
        return bad(buf, n, "region [%#jx,+%zu) contains region [%#jx,+%zu)", (uintmax_t)r->base, r->len,
                   (uintmax_t)fh->lk[k]->base, fh->lk[k]->len);
    if (r->ref < 0)
      return bad(buf, n, "region [%#jx,+%zu) has refcount %jd", (uintmax_t)r->base, r->len, (intmax_t)r->ref);
    pinned += r->len, regions++;
    if (r->ref)
      in_use++;
    else
      idle += r->len;
  }
  for (const fh_region_t *r = fh->retired.head; r; r = r->next) {
    if (r->state == ST_VALID || r->ref <= 0)
      return bad(buf, n, "retired region [%#jx,+%zu): state %d, refcount %jd", (uintmax_t)r->base, r->len, r->state,
                 (intmax_t)r->ref);
    pinned += r->len, regions++, in_use++;
  }
  for (const fh_region_t *r = fh->lru.head; r; r = r->next, nlru++) {
    if (r->ref || r->state != ST_VALID)
      return bad(buf, n, "LRU region [%#jx,+%zu) is in use or not valid", (uintmax_t)r->base, r->len);
    if (r->stamp < stamp) return bad(buf, n, "LRU out of order at region [%#jx,+%zu)", (uintmax_t)r->base, r->len);
    stamp = r->stamp;
  }
  if (nlru != fh->lru.n) return bad(buf, n, "LRU count %zu, list holds %zu", fh->lru.n, nlru);
  if (nlru + in_use != regions)
    return bad(buf, n, "%zu idle + %ju in use != %ju regions", nlru, (uintmax_t)in_use, (uintmax_t)regions);
  if (idle != fh->idle_bytes) return bad(buf, n, "idle bytes %zu, counted %ju", fh->idle_bytes, (uintmax_t)idle);
  if (pinned != fh->st.pinned || regions != fh->st.regions || in_use != fh->st.in_use)
    return bad(buf, n, "stats say %ju bytes / %ju regions / %ju in use, counted %ju / %ju / %ju",
               (uintmax_t)fh->st.pinned, (uintmax_t)fh->st.regions, (uintmax_t)fh->st.in_use, (uintmax_t)pinned,
               (uintmax_t)regions, (uintmax_t)in_use);
  if (pinned > fh->cfg.max_pinned || regions > fh->cfg.max_regions)
    return bad(buf, n, "over a limit: %ju bytes (max %zu), %ju regions (max %zu)", (uintmax_t)pinned,
               fh->cfg.max_pinned, (uintmax_t)regions, fh->cfg.max_regions);
  return 0;
}
