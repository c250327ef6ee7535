/*
 * exheaders.c -- the includes of a GASNet-EX program, compiled (not
 * linked) through an installed conduit fragment by tests/run-suite.sh,
 * kind clientcompat, with -Wall -Wextra -Werror: gasnetex.h and the EX
 * extension headers must be found through the fragment's include path and
 * compile cleanly in a client, and the version macros must say what a
 * client checks for (GEX_SPEC_VERSION_* 0.19, GASNET_SPEC_VERSION_* 1.8,
 * a GASNet release not older than 1.18.0 -- osss-gasnet's minimum --,
 * the tools' release the same).
 */
#include <gasnetex.h>
#include <gasnet_fwd.h>
#include <gasnet_coll.h>
#include <gasnet_ratomic.h>
#include <gasnet_vis.h>
#include <gasnet_mk.h>
#include <gasnet_tools.h>

#if !defined(GEX_SPEC_VERSION_MAJOR) || !defined(GEX_SPEC_VERSION_MINOR)
#error "gasnetex.h does not define GEX_SPEC_VERSION_*"
#elif GEX_SPEC_VERSION_MAJOR != 0 || GEX_SPEC_VERSION_MINOR != 19
#error "GEX_SPEC_VERSION is not 0.19"
#endif
#if !defined(GASNET_SPEC_VERSION_MAJOR) || GASNET_SPEC_VERSION_MAJOR != 1 || GASNET_SPEC_VERSION_MINOR != 8
#error "GASNET_SPEC_VERSION is not 1.8"
#endif
#if !defined(GASNET_RELEASE_VERSION_MAJOR) || !defined(GASNET_RELEASE_VERSION_MINOR) || \
    !defined(GASNET_RELEASE_VERSION_PATCH)
#error "gasnetex.h does not bring GASNET_RELEASE_VERSION_* (gasnet_config.h)"
#elif ((GASNET_RELEASE_VERSION_MAJOR << 16) | (GASNET_RELEASE_VERSION_MINOR << 8) | GASNET_RELEASE_VERSION_PATCH) < \
    ((1 << 16) | (18 << 8) | 0)
#error "GASNet release older than 1.18.0: clients such as osss-gasnet refuse it"
#endif
#if !defined(GASNETT_RELEASE_VERSION_MAJOR) || GASNETT_RELEASE_VERSION_MAJOR != GASNET_RELEASE_VERSION_MAJOR || \
    GASNETT_RELEASE_VERSION_MINOR != GASNET_RELEASE_VERSION_MINOR || \
    GASNETT_RELEASE_VERSION_PATCH != GASNET_RELEASE_VERSION_PATCH
#error "GASNETT_RELEASE_VERSION_* differs from GASNET_RELEASE_VERSION_*"
#endif
#if !defined(GASNET_SEQ) + !defined(GASNET_PAR) + !defined(GASNET_PARSYNC) != 2
#error "not exactly one of GASNET_SEQ, GASNET_PAR, GASNET_PARSYNC"
#endif

/* a use of the EX types, so that the file is a program's and not empty */
int exheaders_rank_size(void);
int exheaders_rank_size(void) {
  gex_Rank_t r = GEX_RANK_INVALID;
  gex_Event_t e = GEX_EVENT_INVALID;
  return (int)sizeof(r) + (e == GEX_EVENT_INVALID);
}
