/*
 * firehose.h -- a registration cache, network independent (seed 000
 * section 5).
 *
 * Binding memory to a NIC costs: the pages are pinned and registered, and
 * a real NIC's registration is a system call and a table write.  Doing it
 * per transfer (a TMPMD: bind, transfer, unlink) makes an out-of-segment
 * transfer a fraction of an in-segment one.  Firehose keeps registrations
 * ("regions") after their transfer and hands them to the next transfer
 * that falls inside one.  This module is the bookkeeping only: no UCX, no
 * ptl, no GASNet.  Its user supplies two callbacks, register and
 * deregister, and calls acquire/release around each transfer.
 *
 * Regions
 *   A region is a page-aligned [base, base+len), registered once through
 *   the user's reg() callback, which returns an opaque 64-bit handle (the
 *   ptl conduit: a bound MD).  Regions are reference counted: acquire
 *   takes a reference on a region covering the transfer, release drops it.
 *   A region with no references is idle: it stays registered on an LRU
 *   list and is reused by the next acquire it covers (a hit).
 *
 * Limits (fh_config_t)
 *   max_regions  registered regions at once;
 *   max_pinned   bytes registered at once (the sum of region lengths);
 *   max_region   bytes in one region (a multiple of the page).
 *   An acquire that would exceed a limit first deregisters idle regions,
 *   least recently used first (evictions).  If the limits still cannot be
 *   met because every region is in use, acquire fails with FH_EBUSY and
 *   changes nothing: the caller completes transfers (releasing regions)
 *   and tries again.  The limits therefore hold at every moment; they are
 *   never exceeded, not even briefly.
 *
 * Coalescing
 *   On a miss, the new region is the page-aligned span of the transfer
 *   grown to the union of the regions that overlap or touch it (adjacent
 *   pages), one at a time while the union stays within max_region, taking
 *   in only regions no longer than the span: small fragments merge, but a
 *   miss never registers again a region longer than what it needs itself
 *   (a sequential walk would otherwise register its whole past at every
 *   step).  A region left out stays valid even if it overlaps the new one
 *   (by a page, say: unaligned transfers share pages).  Every region the new one contains is redundant: taken out of
 *   the lookup at once (never handed out again) and deregistered on the
 *   next call (acquire, release, flush) once idle -- in use, when its last
 *   reference is released.  So no valid region ever contains another.

 * Splitting
 *   One acquire covers at most fh_max_len() bytes: the largest transfer
 *   that fits one region at worst-case page alignment (max_region - page
 *   + 1).  A longer transfer is split by its user into pieces of at most
 *   that (fh_max_len is what a maximum AM Long payload through firehose
 *   can be).
 *
 * Invalidation
 *   When memory is unmapped (or freed back to the system) and the address
 *   range is later mapped again, an old registration of it is stale: it
 *   names pages that are gone.  fh_invalidate(range) is called from the
 *   memory-event hook (UCM, through ucx/) of any thread, at any time,
 *   even from inside reg()/dereg() (which may unmap memory themselves):
 *   it only records the range, under a lock of its own, and never calls
 *   out.  The next acquire/release/flush applies it before doing anything
 *   else: every region overlapping a recorded range is taken out of the
 *   lookup (never reused) and deregistered once idle.  So an acquire that
 *   starts after the unmapping call returned never returns a stale region.
 *
 * Threads: acquire, release, flush, stats and fini are called by one
 * thread at a time (the library serializes them); fh_invalidate by any.
 */
#ifndef STP_FIREHOSE_H
#define STP_FIREHOSE_H

#include <stddef.h>
#include <stdint.h>

enum {
  FH_OK = 0,
  FH_EBUSY = -1,  /* every region in use: the limits cannot be met now */
  FH_EREG = -2,   /* reg() failed (fh_error() says how) */
  FH_EINVAL = -3, /* bad argument: len 0 or > fh_max_len(), NULL pointer */
  FH_ENOMEM = -4  /* the module's own allocation failed */
};

typedef struct fh_config {
  /* Register [base, base+len) (page aligned); 0 and *handle set, or
   * nonzero (the error is the user's to report; acquire returns FH_EREG). */
  int (*reg)(void *arg, uintptr_t base, size_t len, uint64_t *handle);
  /* Deregister what reg() returned. */
  void (*dereg)(void *arg, uintptr_t base, size_t len, uint64_t handle);
  void *arg;
  size_t page;        /* a power of two (0: 4096) */
  size_t max_regions; /* >= 1 */
  size_t max_pinned;  /* >= max_region */
  size_t max_region;  /* a multiple of page, >= page */
} fh_config_t;

typedef struct fh_stats {
  uint64_t hits;          /* acquires served by an existing region */
  uint64_t misses;        /* acquires that registered a new region */
  uint64_t coalesces;     /* regions absorbed into a new union */
  uint64_t evictions;     /* idle regions deregistered to make room */
  uint64_t invalidations; /* regions invalidated by unmapped memory */
  uint64_t regions;       /* registered now (in use, idle or redundant) */
  uint64_t pinned;        /* bytes registered now */
  uint64_t pinned_peak;   /* the most ever registered at once */
  uint64_t in_use;        /* regions with references now */
  uint64_t max_regions, max_pinned, max_region; /* the limits it was given */
} fh_stats_t;

typedef struct fh fh_t;               /* a cache */
typedef struct fh_region fh_region_t; /* one region */

/* A cache with cfg's callbacks and limits; NULL if cfg is invalid (then
 * *why says why) or memory is short. */
fh_t *fh_init(const fh_config_t *cfg, const char **why);
/* Deregister every region (in use or not: the user is done) and free. */
void fh_fini(fh_t *fh);

/* A referenced region covering [p, p+len), 0 < len <= fh_max_len(); FH_OK
 * and *out, or FH_EBUSY / FH_EREG / FH_EINVAL / FH_ENOMEM, *out NULL and
 * nothing changed but applied invalidations and deregistered redundant
 * regions. */
int fh_acquire(fh_t *fh, const void *p, size_t len, fh_region_t **out);
/* Drop the reference acquire took. */
void fh_release(fh_t *fh, fh_region_t *r);
/* The region's registration (what reg() returned) and its span. */
uint64_t fh_region_handle(const fh_region_t *r);
uintptr_t fh_region_base(const fh_region_t *r);
size_t fh_region_len(const fh_region_t *r);

/* Record that [p, p+len) was unmapped (any thread, never calls out). */
void fh_invalidate(fh_t *fh, const void *p, size_t len);
/* Apply recorded invalidations and deregister idle redundant/invalid
 * regions now. */
void fh_flush(fh_t *fh);

/* keep != 0 (the default): idle regions stay registered for reuse.  0: a
 * region is deregistered when its last reference goes -- for a user that
 * cannot learn of unmapped memory, so nothing may outlive its transfer. */
void fh_keep_idle(fh_t *fh, int keep);

/* The longest transfer one acquire takes. */
size_t fh_max_len(const fh_t *fh);
void fh_stats(const fh_t *fh, fh_stats_t *s);
/* The last FH_EREG/FH_EINVAL's reason (static storage). */
const char *fh_error(const fh_t *fh);

/* Check every invariant (tests): pinned == sum of registered lengths <=
 * max_pinned, regions <= max_regions, every length <= max_region and page
 * aligned, lookup entries disjoint, refcounts >= 0, the LRU holds exactly
 * the idle valid regions, least recently released first.  0, or -1 and
 * a description in buf. */
int fh_check(const fh_t *fh, char *buf, size_t n);

#endif /* STP_FIREHOSE_H */
