/*
 * ptl_md.c -- memory descriptors: PtlMDAttach, PtlMDBind, PtlMDUnlink.
 */
#include <stdlib.h>
#include <string.h>

#include "ptl_internal.h"

#define PTL_MD_ALL_OPTIONS                                                                                             \
  (PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE | PTL_MD_TRUNCATE | PTL_MD_ACK_DISABLE | PTL_MD_IOVEC |        \
   PTL_MD_MAX_SIZE | PTL_MD_EVENT_START_DISABLE | PTL_MD_EVENT_END_DISABLE | PTLX_MD_EVENT_SEND_DISABLE |              \
   PTLX_MD_REARM)

void ptl_pieces_drop(ptl_ni_t *ni, ptl_pieces_t *p) {
  if (!p) return;
  if (ni->npieces_spare >= PTL_PIECES_SPARES) {
    free(p);
    return;
  }
  p->next = ni->pieces_spare;
  ni->pieces_spare = p;
  ni->npieces_spare++;
}

/* A piece array with room for n: a spare if one is big enough (lock NOT held). */
static ptl_pieces_t *pieces_take(ptl_ni_t *ni, uint32_t n) {
  ptl_pieces_t *p;
  ptl_lock(ni);
  if ((p = ni->pieces_spare)) {
    ni->pieces_spare = p->next;
    ni->npieces_spare--;
  }
  ptl_unlock(ni);
  if (p && p->cap >= n) return p;
  free(p);
  if (n < 64) n = 64;
  if ((p = malloc(sizeof(*p) + n * sizeof(p->p[0])))) p->cap = n;
  return p;
}

/* An IOVEC MD's pieces, checked and copied (those of length 0 left out). */
static int md_pieces(ptl_ni_t *ni, const ptl_md_t *d, ptl_mdprep_t *prep) {
  const ptl_md_iovec_t *v = d->start;
  ptl_size_t total = 0;
  uint32_t n = 0;
  if (d->length > PTLX_MD_IOVECS_MAX || (d->length && !v)) return PTL_MD_ILLEGAL;
  for (ptl_size_t i = 0; i < d->length; i++) {
    if (!v[i].iov_len) continue;
    if (!v[i].iov_base || (uintptr_t)v[i].iov_base + v[i].iov_len < (uintptr_t)v[i].iov_base ||
        total + v[i].iov_len < total)
      return PTL_MD_ILLEGAL;
    total += v[i].iov_len;
    n++;
  }
  prep->len = total;
  prep->niov = n;
  if (!n) return PTL_OK;
  if (!(prep->pieces = pieces_take(ni, n))) return PTL_NO_SPACE;
  n = 0;
  total = 0;
  for (ptl_size_t i = 0; i < d->length; i++) {
    if (!v[i].iov_len) continue;
    prep->pieces->p[n++] = (ptl_piece_t){v[i].iov_base, v[i].iov_len, total};
    total += v[i].iov_len;
  }
  return PTL_OK;
}

int ptl_md_prepare(ptl_ni_t *ni, const ptl_md_t *d, ptl_mdprep_t *prep) {
  memset(prep, 0, sizeof(*prep));
  if (d->options & ~PTL_MD_ALL_OPTIONS) return PTL_MD_ILLEGAL;
  if (d->threshold < PTL_MD_THRESH_INF) return PTL_MD_ILLEGAL;
  if (d->options & PTL_MD_IOVEC) return md_pieces(ni, d, prep); /* (not registered: ptl.h) */
  if (d->length && !d->start) return PTL_MD_ILLEGAL;
  if (d->length && (uintptr_t)d->start + d->length < (uintptr_t)d->start) return PTL_MD_ILLEGAL;
  prep->len = d->length;
  if (!d->length || !ni->hooks || !ni->hooks->md_register) return PTL_OK;
  return ni->hooks->md_register(ni, d->start, d->length, &prep->reg);
}

void ptl_md_abandon(ptl_ni_t *ni, ptl_mdprep_t *prep) {
  if (ni->hooks && ni->hooks->md_deregister) ni->hooks->md_deregister(ni, &prep->reg);
  free(prep->pieces); /* (lock not held; rare) */
  prep->pieces = NULL;
}

int ptl_md_build(ptl_ni_t *ni, const ptl_md_t *d, ptl_unlink_t unlink_op, ptl_mdprep_t *prep, ptl_mdo_t **out) {
  ptl_mdo_t *md;
  if (d->eq_handle != PTL_EQ_NONE && !ptl_pool_get(&ni->eqs, d->eq_handle)) return PTL_EQ_INVALID;
  if (unlink_op != PTL_RETAIN && unlink_op != PTL_UNLINK) return PTL_MD_ILLEGAL;
  /* re-armed: a locally managed request buffer that stays (ptl.h) */
  if ((d->options & PTLX_MD_REARM) && (unlink_op != PTL_RETAIN || (d->options & (PTL_MD_MANAGE_REMOTE | PTL_MD_IOVEC)) ||
                                       !(d->options & PTL_MD_MAX_SIZE)))
    return PTL_MD_ILLEGAL;
  if (PTL_UNLIKELY(ni->limbo != NULL)) ptl_limbo_reap(ni);
  if (!(md = ptl_pool_alloc(&ni->mds))) return PTL_NO_SPACE;
  md->d = *d;
  md->len = prep->len;
  md->pieces = prep->pieces; /* (the MD owns them now) */
  md->iov = prep->pieces ? prep->pieces->p : NULL;
  md->niov = prep->niov;
  prep->pieces = NULL;
  md->self = ptl_obj_handle(&ni->mds, md);
  md->ev_mask = ptl_md_ev_mask(d);
  if ((md->eqo = d->eq_handle != PTL_EQ_NONE ? ptl_pool_get(&ni->eqs, d->eq_handle) : NULL))
    md->eq_gen = md->eqo->o.gen;
  md->unlink_op = unlink_op;
  md->reg = prep->reg;
  if (md->d.threshold == 0) PTL_WR(md->inactive, 1); /* usable by nothing */
  *out = md;
  return PTL_OK;
}

/* The piece of an IOVEC MD holding byte off (the last that starts at or before it). */
const ptl_piece_t *ptl_md_piece(const ptl_mdo_t *md, ptl_size_t off) {
  uint32_t lo = 0, hi = md->niov; /* answer in [lo, hi) */
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (md->iov[mid].off <= off)
      lo = mid;
    else
      hi = mid;
  }
  return &md->iov[lo];
}

char *ptl_md_piece_at(const ptl_mdo_t *md, ptl_size_t off, ptl_size_t len) {
  static char nothing;
  const ptl_piece_t *p;
  if (!len) return &nothing; /* (never dereferenced) */
  p = ptl_md_piece(md, off);
  return off - p->off + len <= p->len ? p->base + (off - p->off) : NULL;
}

void ptl_md_gather(const ptl_mdo_t *md, ptl_size_t off, void *dst, ptl_size_t len) {
  char *out = dst;
  if (!md->iov) {
    memcpy(out, (char *)md->d.start + off, len);
    return;
  }
  for (const ptl_piece_t *p = len ? ptl_md_piece(md, off) : NULL; len; p++) {
    ptl_size_t in = off - p->off, n = p->len - in < len ? p->len - in : len;
    memcpy(out, p->base + in, n);
    out += n;
    off += n;
    len -= n;
  }
}

char *ptl_md_send_src(const ptl_mdo_t *md, ptl_size_t off, ptl_size_t len, void **bounce, void **memh) {
  char *src = ptl_md_at(md, off, len);
  *memh = md->reg.memh;
  if (PTL_LIKELY(!md->iov) || src) return src;
  src = *bounce = ptl_alloc_or_die(NULL, len, "bouncing %llu bytes of a scatter/gather MD", (unsigned long long)len);
  ptl_md_gather(md, off, src, len);
  *memh = NULL;
  return src;
}

void ptl_md_scatter(const ptl_mdo_t *md, ptl_size_t off, const void *src, ptl_size_t len) {
  const char *in_ = src;
  if (!md->iov) {
    memcpy((char *)md->d.start + off, in_, len);
    return;
  }
  for (const ptl_piece_t *p = len ? ptl_md_piece(md, off) : NULL; len; p++) {
    ptl_size_t in = off - p->off, n = p->len - in < len ? p->len - in : len;
    memcpy(p->base + in, in_, n);
    in_ += n;
    off += n;
    len -= n;
  }
}

/* Attach (me != NULL) or bind. */
static int md_make(ptl_ni_t *ni, ptl_handle_me_t meh, const ptl_md_t *d, ptl_unlink_t unlink_op, ptl_handle_md_t *mdh) {
  ptl_mdprep_t prep;
  ptl_meo_t *me = NULL;
  ptl_mdo_t *md = NULL;
  int rc;
  if (!mdh) return PTL_SEGV;
  if ((rc = ptl_md_prepare(ni, d, &prep)) != PTL_OK) return rc;
  ptl_lock(ni);
  if (meh != PTL_INVALID_HANDLE && !(me = ptl_pool_get(&ni->mes, meh)))
    rc = PTL_ME_INVALID;
  else if (me && (me->md || !me->linked))
    rc = me->md ? PTL_ME_IN_USE : PTL_ME_INVALID;
  else
    rc = ptl_md_build(ni, d, unlink_op, &prep, &md);
  if (rc == PTL_OK) {
    if (me) {
      me->md = md;
      md->me = me;
    }
    *mdh = ptl_obj_handle(&ni->mds, md);
  }
  ptl_unlock(ni);
  if (rc != PTL_OK)
    ptl_md_abandon(ni, &prep);
  else if (me)
    ptl_list_changed(ni, me->pt, NULL);
  return rc;
}

int PtlMDAttach(ptl_handle_me_t me_handle, ptl_md_t md, ptl_unlink_t unlink_op, ptl_handle_md_t *md_handle) {
  ptl_ni_t *ni = ptl_ni_of(me_handle);
  if (!ni || me_handle == PTL_INVALID_HANDLE) return PTL_ME_INVALID;
  return md_make(ni, me_handle, &md, unlink_op, md_handle);
}

int PtlMDBind(ptl_handle_ni_t ni_handle, ptl_md_t md, ptl_unlink_t unlink_op, ptl_handle_md_t *md_handle) {
  ptl_ni_t *ni = ptl_ni_get(ni_handle);
  if (!ni) return PTL_NI_INVALID;
  return md_make(ni, PTL_INVALID_HANDLE, &md, unlink_op, md_handle);
}

int PtlMDUnlink(ptl_handle_md_t md_handle) {
  ptl_ni_t *ni = ptl_ni_of(md_handle);
  ptl_mdo_t *md;
  ptl_pt_index_t pt = 0;
  int attached = 0;
  if (!ni) return PTL_MD_INVALID;
  ptl_lock(ni);
  if (!(md = ptl_pool_get(&ni->mds, md_handle))) {
    ptl_unlock(ni);
    return PTL_MD_INVALID;
  }
  if (md->pending) {
    ptl_unlock(ni);
    return PTL_MD_IN_USE;
  }
  if (md->me) {
    attached = 1;
    pt = md->me->pt;
    if (md->me->pub) { /* stop matching it, revoke it, then release the memory */
      PTL_WR(md->inactive, 1);
      ptl_unlock(ni);
      ptl_list_changed(ni, pt, NULL);
      ptl_lock(ni);
      md = ptl_pool_get(&ni->mds, md_handle);
    }
  }
  if (md) ptl_md_unlink_now(ni, md);
  ptl_unlock(ni);
  if (attached) ptl_list_changed(ni, pt, NULL);
  return PTL_OK;
}
