/*
 * gasnet_ratomic.h -- GASNet-EX remote atomics (API description, "Remote
 * Atomic Operations").  Not provided yet (a later phase of stageport's
 * GASNet-EX work): the atomic domain type, so that code naming it
 * compiles; no operation is declared.
 */
#ifndef _GASNET_RATOMIC_H
#define _GASNET_RATOMIC_H

#include "gasnetex.h"

struct _stp_ad;
typedef struct _stp_ad *gex_AD_t;
#define GEX_AD_INVALID ((gex_AD_t)0)

#endif /* _GASNET_RATOMIC_H */
