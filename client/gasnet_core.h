/*
 * gasnet_core.h -- in every <stage>-conduit directory, as in every GASNet
 * conduit's: build systems look for it to tell a configured conduit
 * directory (osss-gasnet's configure does).  stageport's API is
 * gasnetex.h (GASNet-EX) and gasnet.h (GASNet-1, over gasnetex.h); a
 * client that includes this header by name gets gasnet.h, and with it
 * gasnetex.h.  A GASNet conduit's gasnet_core.h is a part of gasnetex.h
 * and refuses to be included directly; stageport's gasnetex.h does not
 * include it, and were it included from there it adds nothing.
 */
#ifndef STAGEPORT_GASNET_CORE_H
#define STAGEPORT_GASNET_CORE_H
#ifndef _IN_GASNETEX_H
#include <gasnet.h>
#endif
#endif
