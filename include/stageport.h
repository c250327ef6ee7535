/*
 * stageport.h -- toolkit extensions beyond the GASNet-1 API.
 *
 * Clients that want to stay portable to a real GASNet include this behind
 * #ifdef STAGEPORT (defined by this header's companion pkg-config flags and
 * by gasnet.h's users who check for it):
 *
 *     #include <gasnet.h>
 *     #if defined(__has_include) && __has_include(<stageport.h>)
 *     #include <stageport.h>
 *     #endif
 */
#ifndef STAGEPORT_H
#define STAGEPORT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STAGEPORT 1
#define STAGEPORT_VERSION "0.1.0"

/* Name of the active stage ("mpi", "ucx", ...).  Valid after gasnet_init. */
extern const char *stageport_stage(void);

/* Stages this library was built with, in table order. */
extern int stageport_stage_count(void);
extern const char *stageport_stage_name(int i); /* NULL when i is out of range */

/* Build configuration: a one-line "key=value ..." summary (version, default
 * stage, argument checks, UCX, PAPI, compiler flags). */
extern const char *stageport_config(void);

#ifdef __cplusplus
}
#endif

#endif /* STAGEPORT_H */
