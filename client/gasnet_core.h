/*
 * gasnet_core.h -- in every <stage>-conduit directory, for clients that
 * include a conduit's header by name: stageport's API is gasnet.h.
 */
#ifndef STAGEPORT_GASNET_CORE_H
#define STAGEPORT_GASNET_CORE_H
#include <gasnet.h>
#endif
