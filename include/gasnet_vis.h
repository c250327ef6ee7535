/*
 * gasnet_vis.h -- GASNet-EX non-contiguous RMA (API description, "VIS").
 * Not provided yet (a later phase of stageport's GASNet-EX work): no call
 * is declared.
 */
#ifndef _GASNET_VIS_H
#define _GASNET_VIS_H

#include "gasnetex.h"

#endif /* _GASNET_VIS_H */
