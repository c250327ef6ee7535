/*
 * ptl_me.c -- match entries: PtlMEAttach/AttachAny/Insert/Unlink, PtlPost,
 * PtlMEMDPost, and the list-change notification that drives publishing.
 */
#include "ptl_internal.h"

int ptl_me_new(ptl_ni_t *ni, ptl_pt_index_t pt, ptl_meo_t *base, ptl_process_id_t match_id, ptl_match_bits_t bits,
               ptl_match_bits_t ignore, ptl_unlink_t unlink, ptl_ins_pos_t pos, ptl_meo_t **out) {
  ptl_list_t *l;
  ptl_meo_t *me;
  if (base) pt = base->pt;
  if (pt > PTLX_PT_INDEX_MAX) return PTL_PT_INDEX_INVALID;
  if ((unlink != PTL_RETAIN && unlink != PTL_UNLINK) || (pos != PTL_INS_BEFORE && pos != PTL_INS_AFTER))
    return PTL_ME_INVALID;
  l = &ni->pt[pt];
  if (l->len >= (uint32_t)ptl_limits.max_me_list) return PTL_ME_LIST_TOO_LONG;
  if (!(me = ptl_pool_alloc(&ni->mes))) return PTL_NO_SPACE;
  me->pt = pt;
  me->match_id = match_id;
  me->bits = bits;
  me->mask = ~ignore;
  me->unlink = unlink;
  ptl_list_insert(l, me, base, pos);
  l->ever_used = 1;
  *out = me;
  return PTL_OK;
}

void ptl_list_insert(ptl_list_t *l, ptl_meo_t *me, ptl_meo_t *base, ptl_ins_pos_t pos) {
  ptl_meo_t *prev, *next; /* neighbours: insert between prev and next */
  if (base) {
    prev = pos == PTL_INS_BEFORE ? base->prev : base;
    next = pos == PTL_INS_BEFORE ? base : base->next;
  } else {
    prev = pos == PTL_INS_BEFORE ? NULL : l->tail;
    next = pos == PTL_INS_BEFORE ? l->head : NULL;
  }
  me->prev = prev;
  me->next = next;
  if (prev)
    prev->next = me;
  else
    l->head = me;
  if (next)
    next->prev = me;
  else
    l->tail = me;
  me->linked = 1;
  l->len++;
}

void ptl_list_changed(ptl_ni_t *ni, ptl_pt_index_t pt, ptl_meo_t *gone) {
  if (ni->hooks && ni->hooks->list_changed) ni->hooks->list_changed(ni, pt, gone);
}

void ptl_list_dirty(ptl_ni_t *ni) {
  uint64_t m = atomic_exchange(&ni->pub_dirty, 0);
  for (; m; m &= m - 1) ptl_list_changed(ni, (ptl_pt_index_t)__builtin_ctzll(m), NULL);
}

/* ME (and MD when md != NULL) in one step: at pt's head/tail, or next to
 * base_h when base_h != PTL_INVALID_HANDLE. */
static int me_md_new(ptl_ni_t *ni, ptl_pt_index_t pt, ptl_handle_me_t base_h, ptl_process_id_t match_id,
                     ptl_match_bits_t bits, ptl_match_bits_t ignore, ptl_unlink_t unlink, ptl_ins_pos_t pos,
                     const ptl_md_t *d, ptl_unlink_t unlink_op, ptl_handle_me_t *meh, ptl_handle_md_t *mdh) {
  ptl_meo_t *base = NULL, *me = NULL;
  ptl_mdo_t *md = NULL;
  ptl_mdprep_t prep = {0};
  int rc;
  if (!meh || (d && !mdh)) return PTL_SEGV;
  if (d && (rc = ptl_md_prepare(ni, d, &prep)) != PTL_OK) return rc;
  ptl_lock(ni);
  if (base_h != PTL_INVALID_HANDLE && (!(base = ptl_pool_get(&ni->mes, base_h)) || !base->linked))
    rc = PTL_ME_INVALID;
  else if (d && d->eq_handle != PTL_EQ_NONE && !ptl_pool_get(&ni->eqs, d->eq_handle))
    rc = PTL_EQ_INVALID;
  else
    rc = ptl_me_new(ni, pt, base, match_id, bits, ignore, unlink, pos, &me);
  if (rc == PTL_OK && d && (rc = ptl_md_build(ni, d, unlink_op, &prep, &md)) != PTL_OK) {
    ptl_list_remove(ni, me);
    ptl_pool_free(&ni->mes, me);
  }
  if (rc == PTL_OK) {
    *meh = ptl_obj_handle(&ni->mes, me);
    if (md) {
      me->md = md;
      md->me = me;
      *mdh = ptl_obj_handle(&ni->mds, md);
    }
    pt = me->pt;
  }
  ptl_unlock(ni);
  if (rc != PTL_OK) {
    if (d) ptl_md_abandon(ni, &prep);
    return rc;
  }
  ptl_list_changed(ni, pt, NULL);
  return PTL_OK;
}

int PtlMEAttach(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, ptl_process_id_t match_id,
                ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits, ptl_unlink_t unlink, ptl_ins_pos_t position,
                ptl_handle_me_t *me_handle) {
  ptl_ni_t *ni = ptl_ni_get(ni_handle);
  if (!ni) return PTL_NI_INVALID;
  if (pt_index > PTLX_PT_INDEX_MAX) return PTL_PT_INDEX_INVALID;
  return me_md_new(ni, pt_index, PTL_INVALID_HANDLE, match_id, match_bits, ignore_bits, unlink, position, NULL,
                   PTL_RETAIN, me_handle, NULL);
}

int PtlMEAttachAny(ptl_handle_ni_t ni_handle, ptl_pt_index_t *pt_index, ptl_process_id_t match_id,
                   ptl_match_bits_t match_bits, ptl_match_bits_t ignore_bits, ptl_unlink_t unlink,
                   ptl_handle_me_t *me_handle) {
  ptl_ni_t *ni = ptl_ni_get(ni_handle);
  ptl_pt_index_t pt = 0;
  int rc;
  if (!ni) return PTL_NI_INVALID;
  if (!pt_index) return PTL_SEGV;
  ptl_lock(ni);
  while (pt <= PTLX_PT_INDEX_MAX && ni->pt[pt].ever_used) pt++;
  if (pt <= PTLX_PT_INDEX_MAX) ni->pt[pt].ever_used = 1; /* reserve it */
  ptl_unlock(ni);
  if (pt > PTLX_PT_INDEX_MAX) return PTL_PT_FULL;
  rc = me_md_new(ni, pt, PTL_INVALID_HANDLE, match_id, match_bits, ignore_bits, unlink, PTL_INS_BEFORE, NULL,
                 PTL_RETAIN, me_handle, NULL);
  if (rc == PTL_OK) *pt_index = pt;
  return rc;
}

int PtlMEInsert(ptl_handle_me_t base, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
                ptl_match_bits_t ignore_bits, ptl_unlink_t unlink, ptl_ins_pos_t position, ptl_handle_me_t *me_handle) {
  ptl_ni_t *ni = ptl_ni_of(base);
  if (!ni || base == PTL_INVALID_HANDLE) return PTL_ME_INVALID;
  return me_md_new(ni, 0, base, match_id, match_bits, ignore_bits, unlink, position, NULL, PTL_RETAIN, me_handle, NULL);
}

int PtlPost(ptl_handle_ni_t ni_handle, ptl_pt_index_t pt_index, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
            ptl_match_bits_t ignore_bits, ptl_unlink_t unlink, ptl_ins_pos_t position, ptl_md_t md,
            ptl_unlink_t unlink_op, ptl_handle_me_t *me_handle, ptl_handle_md_t *md_handle) {
  ptl_ni_t *ni = ptl_ni_get(ni_handle);
  if (!ni) return PTL_NI_INVALID;
  if (pt_index > PTLX_PT_INDEX_MAX) return PTL_PT_INDEX_INVALID;
  return me_md_new(ni, pt_index, PTL_INVALID_HANDLE, match_id, match_bits, ignore_bits, unlink, position, &md,
                   unlink_op, me_handle, md_handle);
}

int PtlMEMDPost(ptl_handle_ni_t ni_handle, ptl_handle_me_t base, ptl_process_id_t match_id, ptl_match_bits_t match_bits,
                ptl_match_bits_t ignore_bits, ptl_unlink_t unlink, ptl_ins_pos_t position, ptl_md_t md,
                ptl_unlink_t unlink_op, ptl_handle_me_t *me_handle, ptl_handle_md_t *md_handle,
                ptl_handle_eq_t eq_handle) {
  ptl_ni_t *ni = ptl_ni_get(ni_handle);
  int ok;
  if (!ni) return PTL_NI_INVALID;
  if (base == PTL_INVALID_HANDLE) return PTL_ME_INVALID;
  ptl_lock(ni);
  ok = eq_handle == PTL_EQ_NONE || ptl_pool_get(&ni->eqs, eq_handle);
  ptl_unlock(ni);
  if (!ok) return PTL_EQ_INVALID;
  return me_md_new(ni, 0, base, match_id, match_bits, ignore_bits, unlink, position, &md, unlink_op, me_handle,
                   md_handle);
}

int PtlMEUnlink(ptl_handle_me_t me_handle) {
  ptl_ni_t *ni = ptl_ni_of(me_handle);
  ptl_meo_t *me;
  ptl_pt_index_t pt;
  if (!ni) return PTL_ME_INVALID;
  ptl_lock(ni);
  if (!(me = ptl_pool_get(&ni->mes, me_handle)) || !me->linked) {
    ptl_unlock(ni);
    return PTL_ME_INVALID;
  }
  if (me->md && me->md->pending) {
    ptl_unlock(ni);
    return PTL_ME_IN_USE;
  }
  pt = me->pt;
  ptl_list_remove(ni, me); /* no message matches it from here on */
  ptl_unlock(ni);
  ptl_list_changed(ni, pt, me); /* revoked (if published) before the memory goes */
  ptl_lock(ni);
  ptl_me_unlink_now(ni, me);
  ptl_unlock(ni);
  return PTL_OK;
}

int PtlXMERearm(ptl_handle_me_t me_handle, ptl_handle_me_t base_handle, ptl_ins_pos_t position) {
  ptl_ni_t *ni = ptl_ni_of(me_handle);
  ptl_meo_t *me, *base;
  ptl_mdo_t *md;
  ptl_pt_index_t pt;
  int rc = PTL_OK;
  if (!ni) return PTL_ME_INVALID;
  if (position != PTL_INS_BEFORE && position != PTL_INS_AFTER) return PTL_ME_INVALID;
  ptl_lock(ni);
  if (!(me = ptl_pool_get(&ni->mes, me_handle)) || !me->linked || !(base = ptl_pool_get(&ni->mes, base_handle)) ||
      !base->linked || base == me || base->pt != me->pt)
    rc = PTL_ME_INVALID;
  else if (!(md = me->md) || !(md->d.options & PTLX_MD_REARM))
    rc = PTL_MD_INVALID;
  else if (md->pending || !(md->xmd && atomic_load_explicit(&md->xmd->final, memory_order_acquire)
                                 ? ptl_xmd_drained(md->xmd)
                                 : md->inactive && !md->drain_owed))
    rc = PTL_MD_IN_USE; /* still taking messages, or its DRAINED not posted yet */
  if (rc != PTL_OK) {
    ptl_unlock(ni);
    return rc;
  }
  pt = me->pt;
  ptl_list_remove(ni, me);
  ptl_list_insert(&ni->pt[pt], me, base, position);
  md->loffset = 0;
  if (md->xmd) { /* published: its new order first, then the room (ptl_xmd_t) */
    if (ni->hooks && ni->hooks->me_rearmed) ni->hooks->me_rearmed(ni, me);
    atomic_store_explicit(&md->xmd->final, 0, memory_order_relaxed);
    uint64_t w = atomic_load_explicit(&md->xmd->word, memory_order_relaxed);
    atomic_store_explicit(&md->xmd->word, w & ~PTL_XMD_OFF_MASK, memory_order_release);
  }
  PTL_WR(md->inactive, 0);
  ptl_unlock(ni);
  ptl_list_changed(ni, pt, NULL); /* (what the move shadows or uncovers) */
  return PTL_OK;
}
