/*
 * ptl_md.c -- memory descriptors: PtlMDAttach, PtlMDBind, PtlMDUnlink.
 */
#include <string.h>

#include "ptl_internal.h"

#define PTL_MD_ALL_OPTIONS                                                                                             \
  (PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE | PTL_MD_TRUNCATE | PTL_MD_ACK_DISABLE | PTL_MD_MAX_SIZE |     \
   PTL_MD_EVENT_START_DISABLE | PTL_MD_EVENT_END_DISABLE | PTLX_MD_EVENT_SEND_DISABLE)

int ptl_md_prepare(ptl_ni_t *ni, const ptl_md_t *d, ptl_reg_t *reg) {
  memset(reg, 0, sizeof(*reg));
  if (d->options & ~PTL_MD_ALL_OPTIONS) return PTL_MD_ILLEGAL; /* incl. PTL_MD_IOVEC */
  if (d->threshold < PTL_MD_THRESH_INF) return PTL_MD_ILLEGAL;
  if (d->length && !d->start) return PTL_MD_ILLEGAL;
  if (d->length && (uintptr_t)d->start + d->length < (uintptr_t)d->start) return PTL_MD_ILLEGAL;
  if (!d->length || !ni->hooks || !ni->hooks->md_register) return PTL_OK;
  return ni->hooks->md_register(ni, d->start, d->length, reg);
}

void ptl_md_abandon(ptl_ni_t *ni, ptl_reg_t *reg) {
  if (ni->hooks && ni->hooks->md_deregister) ni->hooks->md_deregister(ni, reg);
}

int ptl_md_build(ptl_ni_t *ni, const ptl_md_t *d, ptl_unlink_t unlink_op, const ptl_reg_t *reg, ptl_mdo_t **out) {
  ptl_mdo_t *md;
  if (d->eq_handle != PTL_EQ_NONE && !ptl_pool_get(&ni->eqs, d->eq_handle)) return PTL_EQ_INVALID;
  if (unlink_op != PTL_RETAIN && unlink_op != PTL_UNLINK) return PTL_MD_ILLEGAL;
  if (PTL_UNLIKELY(ni->limbo != NULL)) ptl_limbo_reap(ni);
  if (!(md = ptl_pool_alloc(&ni->mds))) return PTL_NO_SPACE;
  md->d = *d;
  md->self = ptl_obj_handle(&ni->mds, md);
  md->ev_mask = ptl_md_ev_mask(d);
  if ((md->eqo = d->eq_handle != PTL_EQ_NONE ? ptl_pool_get(&ni->eqs, d->eq_handle) : NULL))
    md->eq_gen = md->eqo->o.gen;
  md->unlink_op = unlink_op;
  md->reg = *reg;
  if (md->d.threshold == 0) PTL_WR(md->inactive, 1); /* usable by nothing */
  *out = md;
  return PTL_OK;
}

/* Attach (me != NULL) or bind. */
static int md_make(ptl_ni_t *ni, ptl_handle_me_t meh, const ptl_md_t *d, ptl_unlink_t unlink_op, ptl_handle_md_t *mdh) {
  ptl_reg_t reg;
  ptl_meo_t *me = NULL;
  ptl_mdo_t *md = NULL;
  int rc;
  if (!mdh) return PTL_SEGV;
  if ((rc = ptl_md_prepare(ni, d, &reg)) != PTL_OK) return rc;
  ptl_lock(ni);
  if (meh != PTL_INVALID_HANDLE && !(me = ptl_pool_get(&ni->mes, meh)))
    rc = PTL_ME_INVALID;
  else if (me && (me->md || !me->linked))
    rc = me->md ? PTL_ME_IN_USE : PTL_ME_INVALID;
  else
    rc = ptl_md_build(ni, d, unlink_op, &reg, &md);
  if (rc == PTL_OK) {
    if (me) {
      me->md = md;
      md->me = me;
    }
    *mdh = ptl_obj_handle(&ni->mds, md);
  }
  ptl_unlock(ni);
  if (rc != PTL_OK)
    ptl_md_abandon(ni, &reg);
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
