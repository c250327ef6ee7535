/*
 * gasnet_tools.h -- the GASNet tools (gasnett_* names), as stageport
 * provides them: every name of the GASNet tools specification 1.20
 * (GASNet-EX 2025.8.0's README-tools; GASNETT_SPEC_VERSION_* say 1.20),
 * plus what GASNet-EX's own test programs use beyond it.
 *
 * Header-only (static inline functions and macros; nothing to link),
 * built on the compilers' __atomic builtins (the C11 memory model),
 * clock_gettime and POSIX; usable alone (a tools-only client), after
 * gasnet.h, or as part of gasnetex.h (which includes it: include
 * gasnetex.h / gasnet.h first when both are used, as GASNet asks), from C
 * and C++.  Needs a GCC-compatible compiler (gcc, clang, icx) and
 * POSIX.1-2008 declarations (the compilers' default modes, or
 * -D_POSIX_C_SOURCE=200809L with -std=c99).  Semantics as README-tools
 * describes them, except where stated below.
 *
 * Provided:
 *   threading    GASNETT_THREAD_SAFE / GASNETT_THREAD_SINGLE /
 *                GASNETT_LITE_MODE (at most one, client-defined, else
 *                derived as GASNet does: SAFE for GASNET_PAR, SINGLE for
 *                GASNET_SEQ and GASNET_PARSYNC, else SAFE iff pthread.h came
 *                first or _REENTRANT / _THREAD_SAFE; conflicts are
 *                #errors), GASNETT_THREAD_MODEL (PAR, SEQ or LITE).  The
 *                model changes nothing else here: every tool is provided
 *                and thread-safe in all three.
 *   versions     GASNETT_SPEC_VERSION_MAJOR/_MINOR (1, 20),
 *                GASNETT_RELEASE_VERSION_MAJOR/_MINOR/_PATCH,
 *                gasnett_release_version_str(), gasnett_release_version()
 *                (gasnet_config.h's release: present when that header is
 *                on the include path, as it is next to this one when
 *                installed)
 *   timers       gasnett_tick_t, GASNETT_TICK_MIN/_MAX, gasnett_ticks_now(),
 *                gasnett_ticks_to_ns(), gasnett_ticks_to_us(),
 *                gasnett_tick_granularityus(), gasnett_tick_overheadus(),
 *                gasnett_gettimeofday_us(); sleep: gasnett_nsleep(ns)
 *   fences       gasnett_local_mb/_wmb/_rmb(), gasnett_weak_mb/_wmb/_rmb(),
 *                gasnett_compiler_fence(), gasnett_spinloop_hint()
 *   atomics      gasnett_atomic_t (32-bit unsigned), gasnett_atomic_val_t,
 *                gasnett_atomic_sval_t, gasnett_atomic_init(v),
 *                gasnett_atomic_{read,set,increment,decrement,
 *                decrement_and_test,add,subtract,compare_and_swap,swap}
 *                (each with GASNet's flags argument), gasnett_atomic_signed(),
 *                GASNETT_ATOMIC_MAX, GASNETT_ATOMIC_SIGNED_MIN/_MAX,
 *                GASNETT_HAVE_ATOMIC_CAS, GASNETT_HAVE_ATOMIC_ADD_SUB; the
 *                same operations on gasnett_atomic32_t (uint32_t) and
 *                gasnett_atomic64_t (uint64_t); every gasnett_strongatomic*
 *                name (GASNETT_STRONGATOMIC*_NOT_SIGNALSAFE undefined: they
 *                are lock-free); the fence flags GASNETT_ATOMIC_NONE,
 *                _{R,W,}MB_{PRE,POST}, _RMB_POST_IF_TRUE/_FALSE, _REL, _ACQ,
 *                _ACQ_IF_TRUE/_FALSE
 *   locks        gasnett_mutex_t, GASNETT_MUTEX_INITIALIZER,
 *                gasnett_mutex_{init,destroy,destroy_ignoreerr,lock,trylock,
 *                unlock,assertlocked,assertunlocked}; gasnett_cond_t,
 *                GASNETT_COND_INITIALIZER, gasnett_cond_{init,destroy,signal,
 *                broadcast,wait}; gasnett_rwlock_t, GASNETT_RWLOCK_INITIALIZER,
 *                gasnett_rwlock_{init,destroy,rdlock,wrlock,tryrdlock,
 *                trywrlock,unlock,assert*} (POSIX threads underneath)
 *   thread keys  GASNETT_THREADKEY_DECLARE(key), GASNETT_THREADKEY_DEFINE(key),
 *                gasnett_threadkey_{get,set,init,get_noinit,set_noinit}
 *                (a thread-local void * underneath)
 *   environment  gasnett_getenv, gasnett_getenv_withdefault,
 *                gasnett_getenv_yesno_withdefault, gasnett_getenv_int_withdefault,
 *                gasnett_getenv_dbl_withdefault, gasnett_parse_int,
 *                gasnett_format_number, gasnett_setenv, gasnett_unsetenv,
 *                gasnett_verboseenv, gasnett_env{str,int,dbl}_display
 *   system       gasnett_gethostname, gasnett_exe_name, gasnett_cpu_count,
 *                gasnett_getPhysMemSz, gasnett_isLittleEndian,
 *                gasnett_set_affinity (GASNETT_SET_AFFINITY_SUPPORT on
 *                Linux), gasnett_sched_yield, gasnett_flush_streams,
 *                gasnett_close_streams, gasnett_killmyprocess,
 *                gasnett_reghandler (gasnett_sighandlerfn_t),
 *                gasnett_checksum, gasnett_count0s, gasnett_count0s_copy,
 *                gasnett_count0s_uint32_t/_uint64_t/_uintptr_t,
 *                gasnett_maximize_rlimit, gasnett_maximize_rlimits,
 *                gasnett_performance_warning_str (""); GASNETT_PAGESIZE,
 *                GASNETT_PAGESHIFT, GASNETT_CACHE_LINE_BYTES,
 *                GASNETT_SYSTEM_TUPLE, GASNETT_CONFIG_STRING and its tokens
 *                GASNETT_{TIMER,MEMBAR,ATOMIC,ATOMIC32,ATOMIC64,PTR,DEBUG}_CONFIG,
 *                GASNETT_MAX_THREADS (below)
 *   errors and   gasnett_fatalerror (with the caller's function, file and
 *   debugging    line: a macro), gasnett_fatalerror_nopos, gasnett_current_loc,
 *                gasnett_print_backtrace, gasnett_print_backtrace_ifenabled,
 *                gasnett_backtrace_init, gasnett_backtrace_type_t and the
 *                client's gasnett_backtrace_user, gasnett_freezeForDebuggerNow,
 *                gasnett_freezeForDebuggerErr (GASNET_BACKTRACE,
 *                GASNET_BACKTRACE_TYPE with the mechanisms EXECINFO and the
 *                client's, GASNET_FREEZE_ON_ERROR; see "Backtraces")
 *   platform     GASNet's portable platform identifiers for what this header
 *                supports: PLATFORM_COMPILER_{GNU,CLANG}[_C,_CXX],
 *                PLATFORM_COMPILER_{FAMILYNAME,FAMILYID,ID,VERSION,VERSION_STR,
 *                VERSION_INT,VERSION_{GT,GE,EQ,LE,LT},C_LANGLVL,CXX_LANGLVL},
 *                PLATFORM_OS_{LINUX,FAMILYNAME}, PLATFORM_ARCH_{X86_64,AARCH64,
 *                X86,POWERPC,FAMILYNAME,32,64,LITTLE_ENDIAN,BIG_ENDIAN}; the
 *                size_t printf conversions PRI{d,i,u,o,x,X}SZ
 *   annotations  GASNETT_INLINE(fn), GASNETT_ALWAYS_INLINE(fn),
 *                GASNETT_PLEASE_INLINE(fn), GASNETT_NEVER_INLINE(fn, decl),
 *                GASNETT_RESTRICT, GASNETT_USED, GASNETT_UNUSED,
 *                GASNETT_NORETURN, GASNETT_NORETURNP(fn), GASNETT_MALLOC(P),
 *                GASNETT_PURE(P), GASNETT_CONST(P), GASNETT_HOT, GASNETT_COLD,
 *                GASNETT_DEPRECATED, GASNETT_WARN_UNUSED_RESULT,
 *                GASNETT_FORMAT_PRINTF(fn, fmt, first, decl),
 *                GASNETT_FORMAT_PRINTF_FUNCPTR, GASNETT_PREDICT_TRUE/_FALSE,
 *                if_pt, if_pf, gasnett_constant_p, gasnett_unreachable(),
 *                gasnett_assume(cond), GASNETT_FALLTHROUGH,
 *                GASNETT_UNUSED_ARGS1..8, GASNETT_CURRENT_FUNCTION,
 *                GASNETT_BEGIN_EXTERNC, GASNETT_END_EXTERNC, GASNETT_EXTERNC,
 *                GASNETT_IDENT(name, text), and GASNet's _STRINGIFY, _CONCAT
 *   tracing      GASNETT_TRACE_* and GASNETT_STATS_* as GASNet's build
 *                without tracing and statistics has them: the _PRINTF forms
 *                check their format and evaluate their arguments, then do
 *                nothing; GASNETT_TRACE_ENABLED is 0, the masks "",
 *                GASNETT_STATS_INIT(fn) 0, GASNETT_STATS_DUMP(reset) and the
 *                rest do nothing (stageport has no tracing)
 *   GASNet-EX    (gasnetex.h clients only: they name its types) descriptions
 *   arguments    for messages, format stageport's: gasnett_format_{memveclist,
 *                putvgetv,addrlist,putigeti,strides,putsgets}[_bufsz],
 *                gasnett_format_{dt,op,ti}
 *
 * Differences from GASNet's tools:
 *   - The atomics are always real atomics, in every build (GASNet's
 *     gasnett_atomic_* are plain operations unless GASNETT_THREAD_SAFE or a
 *     PAR build); read-modify-write operations are sequentially consistent,
 *     reads and sets relaxed, plus exactly the fences the flags ask for
 *     (C11 fences: a WMB is a release fence, an RMB an acquire fence, an MB
 *     or WMB|RMB a sequentially consistent one).  Not signal-safe promises
 *     beyond what the builtins give (lock-free on every common platform).
 *   - gasnett_local_wmb/rmb/mb are C11 release/acquire/seq_cst fences.
 *   - Ticks are nanoseconds of CLOCK_MONOTONIC (so also comparable between
 *     threads of one process, which GASNet does not promise).
 *   - gasnett_getenv* read the process's own environment (getenv) and never
 *     report settings (no GASNET_VERBOSEENV: gasnett_verboseenv() is 0, so
 *     gasnett_env*_display print nothing); a malformed value is a fatal
 *     error, as in GASNet.
 *   - gasnett_mutex_assert* and gasnett_rwlock_assert* check nothing, and
 *     gasnett_assume is never an assertion (there is no debug build).
 *   - Values kept per translation unit (each has its own copy of these
 *     static functions): the host and executable names, the timer
 *     measurements, gasnett_print_backtrace_ifenabled (a client that points
 *     it elsewhere does so for its own translation unit), the freeze flag.
 *   - GASNETT_MAX_THREADS is 256, GASNet's default limit of client threads
 *     per process, for clients that size per-thread tables by it, with or
 *     without gasnetex.h; stageport itself sets no limit (GASNET_PAR: any
 *     number of threads may call).
 *
 * Not provided: what GASNet gives only a client of its own library build
 * (gasnett_mmap, gasnett_run_diagnostics, gasnett_diagnostic_gethandlers,
 * GASNETT_FAST_{ALIGNED,UNALIGNED}_MEMCPY, GASNETT_VALUE_{ASSIGN,RETURN},
 * the GASNET_DEBUGMALLOC gasnett_debug_* and heap statistics) or records at
 * its configure time (GASNETT_CONFIGURE_ARGS, GASNETT_PLATFORM_COMPILER_*,
 * GASNETT_CONFIGURE_MISMATCH); the GASNETT_USE_* feature controls are not
 * read (this header needs a GCC-compatible compiler and uses its features
 * unconditionally); the PLATFORM_* identifiers of other compilers, systems
 * and processors are never defined.
 *
 * Backtraces: a mechanism writes the calling thread's backtrace to a file
 * descriptor.  EXECINFO (glibc's backtrace(), when <execinfo.h> is there)
 * and the client's own gasnett_backtrace_user (by its .name) are the
 * mechanisms; gasnett_print_backtrace(fd) tries the ones
 * GASNET_BACKTRACE_TYPE lists (default: the client's, then EXECINFO) in
 * turn, announcing each on fd, until one succeeds.  A fatal error prints a
 * backtrace on stderr iff GASNET_BACKTRACE is true, and first freezes for a
 * debugger iff GASNET_FREEZE_ON_ERROR is true.
 */
#ifndef GASNET_TOOLS_H
#define GASNET_TOOLS_H
#define _INCLUDED_GASNET_TOOLS_H

#if !defined(__GNUC__)
#error "stageport's gasnet_tools.h needs a GCC-compatible compiler (__atomic builtins, attributes)"
#endif

/* ------------------------------------------------------------------ */
/* threading model (decided before any system header is read: whether  */
/* pthread.h came first is one of the inputs)                          */
/* ------------------------------------------------------------------ */
#if defined(GASNETT_LITE_MODE) + defined(GASNETT_THREAD_SAFE) + defined(GASNETT_THREAD_SINGLE) > 1
#error "define at most one of GASNETT_THREAD_SAFE, GASNETT_THREAD_SINGLE and GASNETT_LITE_MODE"
#endif
#if defined(GASNETT_THREAD_SAFE) && (defined(GASNET_SEQ) || defined(GASNET_PARSYNC))
#error "GASNETT_THREAD_SAFE conflicts with the client's GASNET_SEQ / GASNET_PARSYNC"
#endif
#if defined(GASNETT_THREAD_SINGLE) && defined(GASNET_PAR)
#error "GASNETT_THREAD_SINGLE conflicts with the client's GASNET_PAR"
#endif
#if defined(GASNETT_LITE_MODE)
#undef GASNETT_LITE_MODE
#define GASNETT_LITE_MODE 1
#define GASNETT_THREAD_MODEL LITE
#elif defined(GASNETT_THREAD_SAFE) || defined(GASNET_PAR) ||                                 \
    (!defined(GASNET_SEQ) && !defined(GASNET_PARSYNC) && !defined(GASNETT_THREAD_SINGLE) && \
     (defined(_REENTRANT) || defined(_THREAD_SAFE) || defined(PTHREAD_MUTEX_INITIALIZER)))
#undef GASNETT_THREAD_SAFE
#define GASNETT_THREAD_SAFE 1
#define GASNETT_THREAD_MODEL PAR
#else
#undef GASNETT_THREAD_SINGLE
#define GASNETT_THREAD_SINGLE 1
#define GASNETT_THREAD_MODEL SEQ
#endif

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#if defined(__has_include)
#if __has_include(<execinfo.h>)
#include <execinfo.h> /* backtrace(), backtrace_symbols_fd(): the EXECINFO backtrace mechanism */
#define STP_TOOLS_HAVE_EXECINFO 1
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* annotations and syntax                                              */
/* ------------------------------------------------------------------ */
#ifdef __cplusplus
#define GASNETT_BEGIN_EXTERNC extern "C" {
#define GASNETT_END_EXTERNC }
#define GASNETT_EXTERNC extern "C"
#else
#define GASNETT_BEGIN_EXTERNC
#define GASNETT_END_EXTERNC
#define GASNETT_EXTERNC extern
#endif

/* GASNETT_INLINE(fn) precedes a definition: a static function inlined by force */
#define GASNETT_INLINE(fnname) static inline __attribute__((__always_inline__))
#define GASNETT_ALWAYS_INLINE(fnname) __attribute__((__always_inline__))
#define GASNETT_PLEASE_INLINE(fnname) static inline
#define GASNETT_NEVER_INLINE(fnname, declarator) __attribute__((__noinline__)) declarator
#define GASNETT_RESTRICT __restrict__
#define GASNETT_USED __attribute__((__used__))
#define GASNETT_UNUSED __attribute__((__unused__))
#define GASNETT_NORETURN __attribute__((__noreturn__))
#define GASNETT_NORETURNP(fnname)
#define GASNETT_MALLOC __attribute__((__malloc__))
#define GASNETT_MALLOCP(fnname)
#define GASNETT_PURE __attribute__((__pure__))
#define GASNETT_PUREP(fnname)
#define GASNETT_CONST __attribute__((__const__))
#define GASNETT_CONSTP(fnname)
#define GASNETT_HOT __attribute__((__hot__))
#define GASNETT_COLD __attribute__((__cold__))
#define GASNETT_DEPRECATED __attribute__((__deprecated__))
#define GASNETT_WARN_UNUSED_RESULT __attribute__((__warn_unused_result__))
/* the attribute first, so that the declarator may begin a definition */
#define GASNETT_FORMAT_PRINTF(fnname, fmtarg, firstvararg, declarator) \
  __attribute__((__format__(__printf__, fmtarg, firstvararg))) declarator
#define GASNETT_FORMAT_PRINTF_FUNCPTR(fnname, fmtarg, firstvararg, declarator) declarator
#define GASNETT_PREDICT_TRUE(expr) __builtin_expect(!!(expr), 1)
#define GASNETT_PREDICT_FALSE(expr) __builtin_expect(!!(expr), 0)
#ifndef if_pt
#define if_pt(cond) if (GASNETT_PREDICT_TRUE(cond))
#endif
#ifndef if_pf
#define if_pf(cond) if (GASNETT_PREDICT_FALSE(cond))
#endif
#define gasnett_constant_p(expr) __builtin_constant_p(expr)
#define GASNETT_CURRENT_FUNCTION __func__
/* this point is never reached (the compiler may assume so) */
#define gasnett_unreachable() __builtin_unreachable()
/* cond always holds: an optimization directive (stageport has no debug
 * mode in which it would become an assertion); cond may or may not be
 * evaluated, so it must have no side effects */
#define gasnett_assume(cond) (GASNETT_PREDICT_TRUE(cond) ? (void)0 : __builtin_unreachable())
/* a deliberate fall-through between case labels; written without a
 * semicolon after it: "case 1: f(); GASNETT_FALLTHROUGH case 2: ..." */
#if defined(__cplusplus) && __cplusplus >= 201703L
#define GASNETT_FALLTHROUGH [[fallthrough]];
#elif defined(__has_attribute)
#if __has_attribute(__fallthrough__)
#define GASNETT_FALLTHROUGH __attribute__((__fallthrough__));
#endif
#endif
#ifndef GASNETT_FALLTHROUGH
#define GASNETT_FALLTHROUGH
#endif
/* evaluate each argument exactly once and discard it, without warnings
 * (for function-like macros that ignore some of their arguments) */
#define GASNETT_UNUSED_ARGS1(a1) ((void)(a1))
#define GASNETT_UNUSED_ARGS2(a1, a2) ((void)(a1), (void)(a2))
#define GASNETT_UNUSED_ARGS3(a1, a2, a3) ((void)(a1), (void)(a2), (void)(a3))
#define GASNETT_UNUSED_ARGS4(a1, a2, a3, a4) ((void)(a1), (void)(a2), (void)(a3), (void)(a4))
#define GASNETT_UNUSED_ARGS5(a1, a2, a3, a4, a5) \
  ((void)(a1), (void)(a2), (void)(a3), (void)(a4), (void)(a5))
#define GASNETT_UNUSED_ARGS6(a1, a2, a3, a4, a5, a6) \
  ((void)(a1), (void)(a2), (void)(a3), (void)(a4), (void)(a5), (void)(a6))
#define GASNETT_UNUSED_ARGS7(a1, a2, a3, a4, a5, a6, a7) \
  ((void)(a1), (void)(a2), (void)(a3), (void)(a4), (void)(a5), (void)(a6), (void)(a7))
#define GASNETT_UNUSED_ARGS8(a1, a2, a3, a4, a5, a6, a7, a8) \
  ((void)(a1), (void)(a2), (void)(a3), (void)(a4), (void)(a5), (void)(a6), (void)(a7), (void)(a8))

/* printf conversions for size_t (u, x, o, X) and ssize_t (d, i), as
 * GASNet's portable inttypes give them: "%" PRIuSZ */
#ifndef PRIdSZ
#define PRIdSZ "zd"
#endif
#ifndef PRIiSZ
#define PRIiSZ "zi"
#endif
#ifndef PRIuSZ
#define PRIuSZ "zu"
#endif
#ifndef PRIoSZ
#define PRIoSZ "zo"
#endif
#ifndef PRIxSZ
#define PRIxSZ "zx"
#endif
#ifndef PRIXSZ
#define PRIXSZ "zX"
#endif
/* GASNETT_IDENT(name, "text"); at file scope: the text is kept in the object */
#define GASNETT_IDENT(identName, identText) \
  static const char identName[] __attribute__((__used__, __unused__)) = identText

/* GASNet-1 clients take these from GASNet's headers too */
#ifndef _STRINGIFY
#define _STRINGIFY_HELPER(x) #x
#define _STRINGIFY(x) _STRINGIFY_HELPER(x)
#endif
#ifndef _CONCAT
#define _CONCAT_HELPER(a, b) a##b
#define _CONCAT(a, b) _CONCAT_HELPER(a, b)
#endif

/* ------------------------------------------------------------------ */
/* system properties                                                   */
/* ------------------------------------------------------------------ */
#ifdef GASNET_PAGESIZE
#define GASNETT_PAGESIZE GASNET_PAGESIZE
#else
#define GASNETT_PAGESIZE 4096
#endif
#if GASNETT_PAGESIZE == 4096
#define GASNETT_PAGESHIFT 12
#endif
#define GASNETT_CACHE_LINE_BYTES 64
#define GASNETT_MAX_THREADS 256

#if defined(__x86_64__)
#define STP_TOOLS_ARCH "x86_64"
#elif defined(__aarch64__)
#define STP_TOOLS_ARCH "aarch64"
#elif defined(__powerpc64__)
#define STP_TOOLS_ARCH "powerpc64"
#elif defined(__i386__)
#define STP_TOOLS_ARCH "i386"
#else
#define STP_TOOLS_ARCH "unknown"
#endif
#if defined(__linux__)
#define STP_TOOLS_OS "linux"
#else
#define STP_TOOLS_OS "unknown"
#endif
/* from the compiler's predefined macros (GASNet's comes from configure) */
#define GASNETT_SYSTEM_TUPLE STP_TOOLS_ARCH "-" STP_TOOLS_OS
/* the tools' specification level (README-tools, "GASNet tools
 * specification version"): every name it documents is here (see the top) */
#define GASNETT_SPEC_VERSION_MAJOR 1
#define GASNETT_SPEC_VERSION_MINOR 20
/* configuration tokens, as GASNet names its (for stringizing) */
#define GASNETT_TIMER_CONFIG timers_posixrt
#define GASNETT_MEMBAR_CONFIG membars_c11
#define GASNETT_ATOMIC_CONFIG atomics_builtin
#define GASNETT_ATOMIC32_CONFIG atomic32_builtin
#define GASNETT_ATOMIC64_CONFIG atomic64_builtin
#define GASNETT_DEBUG_CONFIG nodebug
#if __SIZEOF_POINTER__ == 8
#define GASNETT_PTR_CONFIG 64bit
#else
#define GASNETT_PTR_CONFIG 32bit
#endif
#define STP_TOOLS_STR_(x) #x
#define STP_TOOLS_STR(x) STP_TOOLS_STR_(x)
#define GASNETT_CONFIG_STRING                                                                    \
  "TOOLS=stageport,SPEC=" STP_TOOLS_STR(GASNETT_SPEC_VERSION_MAJOR) "." STP_TOOLS_STR(            \
      GASNETT_SPEC_VERSION_MINOR) ",THREADMODEL=" STP_TOOLS_STR(GASNETT_THREAD_MODEL) ",PTR="      \
      STP_TOOLS_STR(GASNETT_PTR_CONFIG) "," STP_TOOLS_STR(GASNETT_DEBUG_CONFIG) "," STP_TOOLS_STR( \
          GASNETT_TIMER_CONFIG) "," STP_TOOLS_STR(GASNETT_MEMBAR_CONFIG) "," STP_TOOLS_STR(GASNETT_ATOMIC_CONFIG)

/* GASNet's portable platform identifiers (PLATFORM_*) for the compilers,
 * systems and processors this header supports: compiler (family, version,
 * language level), OS, architecture, from the compiler's predefined
 * macros.  The compiler's are left alone when a portable_platform.h came
 * first (GASNet's, or Open MPI's: mpi.h includes one), and the rest when
 * GASNet's did. */
#if !defined(_PORTABLE_PLATFORM_H) && !defined(PLATFORM_COMPILER_FAMILYID)
#if defined(__clang__)
#define PLATFORM_COMPILER_CLANG 1
#define PLATFORM_COMPILER_FAMILYNAME CLANG
#define PLATFORM_COMPILER_FAMILYID 19
#ifdef __cplusplus
#define PLATFORM_COMPILER_CLANG_CXX 1
#else
#define PLATFORM_COMPILER_CLANG_C 1
#endif
#define PLATFORM_COMPILER_VERSION \
  PLATFORM_COMPILER_VERSION_INT(__clang_major__, __clang_minor__, __clang_patchlevel__)
#else
#define PLATFORM_COMPILER_GNU 1
#define PLATFORM_COMPILER_FAMILYNAME GNU
#define PLATFORM_COMPILER_FAMILYID 1
#ifdef __cplusplus
#define PLATFORM_COMPILER_GNU_CXX 1
#else
#define PLATFORM_COMPILER_GNU_C 1
#endif
#define PLATFORM_COMPILER_VERSION PLATFORM_COMPILER_VERSION_INT(__GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__)
#endif
#endif
#ifndef PLATFORM_COMPILER_VERSION_INT
#define PLATFORM_COMPILER_VERSION_INT(maj, min, pat) (((maj) << 16) | ((min) << 8) | (pat))
#endif
#ifndef PLATFORM_COMPILER_VERSION_STR
#define PLATFORM_COMPILER_VERSION_STR __VERSION__
#endif
#ifndef PLATFORM_COMPILER_ID
#define PLATFORM_COMPILER_ID PLATFORM_COMPILER_FAMILYID
#endif
#ifndef PLATFORM_COMPILER_VERSION_GT
#define PLATFORM_COMPILER_VERSION_GT(maj, min, pat) (PLATFORM_COMPILER_VERSION > PLATFORM_COMPILER_VERSION_INT(maj, min, pat))
#define PLATFORM_COMPILER_VERSION_GE(maj, min, pat) (PLATFORM_COMPILER_VERSION >= PLATFORM_COMPILER_VERSION_INT(maj, min, pat))
#define PLATFORM_COMPILER_VERSION_EQ(maj, min, pat) (PLATFORM_COMPILER_VERSION == PLATFORM_COMPILER_VERSION_INT(maj, min, pat))
#define PLATFORM_COMPILER_VERSION_LE(maj, min, pat) (PLATFORM_COMPILER_VERSION <= PLATFORM_COMPILER_VERSION_INT(maj, min, pat))
#define PLATFORM_COMPILER_VERSION_LT(maj, min, pat) (PLATFORM_COMPILER_VERSION < PLATFORM_COMPILER_VERSION_INT(maj, min, pat))
#endif
#if !defined(PLATFORM_COMPILER_C_LANGLVL) && !defined(PLATFORM_COMPILER_CXX_LANGLVL)
#ifdef __cplusplus
#define PLATFORM_COMPILER_CXX_LANGLVL __cplusplus
#elif defined(__STDC_VERSION__)
#define PLATFORM_COMPILER_C_LANGLVL __STDC_VERSION__
#endif
#endif
#ifndef _PORTABLE_PLATFORM_H
#if defined(__linux__)
#define PLATFORM_OS_LINUX 1
#define PLATFORM_OS_FAMILYNAME LINUX
#endif
#if defined(__x86_64__)
#define PLATFORM_ARCH_X86_64 1
#define PLATFORM_ARCH_FAMILYNAME X86_64
#elif defined(__aarch64__)
#define PLATFORM_ARCH_AARCH64 1
#define PLATFORM_ARCH_FAMILYNAME AARCH64
#elif defined(__i386__)
#define PLATFORM_ARCH_X86 1
#define PLATFORM_ARCH_FAMILYNAME X86
#elif defined(__powerpc__)
#define PLATFORM_ARCH_POWERPC 1
#define PLATFORM_ARCH_FAMILYNAME POWERPC
#endif
#if __SIZEOF_POINTER__ == 8
#define PLATFORM_ARCH_64 1
#else
#define PLATFORM_ARCH_32 1
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PLATFORM_ARCH_LITTLE_ENDIAN 1
#else
#define PLATFORM_ARCH_BIG_ENDIAN 1
#endif
#endif

/* the release (gasnet_config.h's: installed next to this header, included
 * by gasnet.h, here for a client of the tools alone) */
#if !defined(GASNET_RELEASE_VERSION_MAJOR) && defined(__has_include)
#if __has_include(<gasnet_config.h>)
#include <gasnet_config.h>
#endif
#endif
#ifdef GASNET_RELEASE_VERSION_MAJOR
#define GASNETT_RELEASE_VERSION_MAJOR GASNET_RELEASE_VERSION_MAJOR
#define GASNETT_RELEASE_VERSION_MINOR GASNET_RELEASE_VERSION_MINOR
#define GASNETT_RELEASE_VERSION_PATCH GASNET_RELEASE_VERSION_PATCH
/* "MAJOR.MINOR.PATCH", and MAJOR * 1000000 + MINOR * 10000 + PATCH (which
 * grows with every release) */
static inline const char *gasnett_release_version_str(void) {
  return STP_TOOLS_STR(GASNETT_RELEASE_VERSION_MAJOR) "." STP_TOOLS_STR(GASNETT_RELEASE_VERSION_MINOR) "." STP_TOOLS_STR(
      GASNETT_RELEASE_VERSION_PATCH);
}
static inline uint64_t gasnett_release_version(void) {
  return (uint64_t)GASNETT_RELEASE_VERSION_MAJOR * 1000000u + (uint64_t)GASNETT_RELEASE_VERSION_MINOR * 10000u +
         (uint64_t)GASNETT_RELEASE_VERSION_PATCH;
}
#endif

/* ------------------------------------------------------------------ */
/* fences                                                              */
/* ------------------------------------------------------------------ */
#define gasnett_compiler_fence() __atomic_signal_fence(__ATOMIC_SEQ_CST)
#define gasnett_local_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define gasnett_local_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define gasnett_local_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define gasnett_weak_mb() gasnett_local_mb()
#define gasnett_weak_wmb() gasnett_local_wmb()
#define gasnett_weak_rmb() gasnett_local_rmb()
#if defined(__x86_64__) || defined(__i386__)
#define gasnett_spinloop_hint() __builtin_ia32_pause()
#else
#define gasnett_spinloop_hint() gasnett_compiler_fence()
#endif

/* ------------------------------------------------------------------ */
/* timers                                                              */
/* ------------------------------------------------------------------ */
typedef uint64_t gasnett_tick_t;
#define GASNETT_TICK_MIN ((gasnett_tick_t)0)
#define GASNETT_TICK_MAX ((gasnett_tick_t)-1)

static inline gasnett_tick_t gasnett_ticks_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (gasnett_tick_t)ts.tv_sec * 1000000000u + (gasnett_tick_t)ts.tv_nsec;
}
static inline uint64_t gasnett_ticks_to_ns(gasnett_tick_t ticks) { return ticks; }
static inline gasnett_tick_t gasnett_ticks_to_us(gasnett_tick_t ticks) { return ticks / 1000u; }

static inline uint64_t gasnett_gettimeofday_us(void) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
}

/* sleep at least ns_delay nanoseconds (nanosleep, CLOCK_MONOTONIC on
 * Linux): 0; non-zero with errno EINTR when a signal cut it short; no
 * sleep at all for 0 */
static inline int gasnett_nsleep(uint64_t ns_delay) {
  struct timespec ts;
  if (!ns_delay) return 0;
  ts.tv_sec = (time_t)(ns_delay / 1000000000u);
  ts.tv_nsec = (long)(ns_delay % 1000000000u);
  return nanosleep(&ts, NULL) ? -1 : 0;
}

/* Measured once per translation unit: [0] the smallest non-zero step
 * between two readings, [1] the mean cost of one reading, in us. */
static inline double stp_tools_tick_metric(int which) {
  static double metric[2]; /* 0: not measured yet */
  double v;
  __atomic_load(&metric[which], &v, __ATOMIC_ACQUIRE);
  if (v <= 0) {
    enum { N = 2000 };
    gasnett_tick_t min = GASNETT_TICK_MAX, t0 = gasnett_ticks_now(), t1 = t0, start, end;
    for (int i = 0; i < N && t1 - t0 < 1000000; i++) { /* granularity: wait for each change (1 ms at most) */
      gasnett_tick_t t;
      while ((t = gasnett_ticks_now()) == t1) {
      }
      if (t - t1 < min) min = t - t1;
      t1 = t;
    }
    start = gasnett_ticks_now();
    for (int i = 0; i < N; i++) gasnett_compiler_fence(), (void)gasnett_ticks_now();
    end = gasnett_ticks_now();
    double m[2] = {(double)gasnett_ticks_to_ns(min) / 1000.0,
                   (double)gasnett_ticks_to_ns(end - start) / 1000.0 / N};
    if (m[1] <= 0) m[1] = 1e-3; /* (a reading costs something: never report 0, "not measured") */
    __atomic_store(&metric[0], &m[0], __ATOMIC_RELEASE);
    __atomic_store(&metric[1], &m[1], __ATOMIC_RELEASE);
    v = m[which];
  }
  return v;
}
static inline double gasnett_tick_granularityus(void) { return stp_tools_tick_metric(0); }
static inline double gasnett_tick_overheadus(void) { return stp_tools_tick_metric(1); }

/* ------------------------------------------------------------------ */
/* atomics                                                             */
/* ------------------------------------------------------------------ */
#define GASNETT_ATOMIC_NONE 0x00
#define GASNETT_ATOMIC_RMB_PRE 0x01
#define GASNETT_ATOMIC_WMB_PRE 0x02
#define GASNETT_ATOMIC_RMB_POST 0x04
#define GASNETT_ATOMIC_WMB_POST 0x08
#define GASNETT_ATOMIC_RMB_POST_IF_TRUE 0x10
#define GASNETT_ATOMIC_RMB_POST_IF_FALSE 0x20
#define GASNETT_ATOMIC_MB_PRE (GASNETT_ATOMIC_WMB_PRE | GASNETT_ATOMIC_RMB_PRE)
#define GASNETT_ATOMIC_MB_POST (GASNETT_ATOMIC_WMB_POST | GASNETT_ATOMIC_RMB_POST)
#define GASNETT_ATOMIC_REL GASNETT_ATOMIC_WMB_PRE
#define GASNETT_ATOMIC_ACQ GASNETT_ATOMIC_RMB_POST
#define GASNETT_ATOMIC_ACQ_IF_TRUE GASNETT_ATOMIC_RMB_POST_IF_TRUE
#define GASNETT_ATOMIC_ACQ_IF_FALSE GASNETT_ATOMIC_RMB_POST_IF_FALSE

/* the fences a flags argument asks for (constant flags fold away) */
static inline void stp_tools_fence(int flags, int rmb, int wmb) {
  if ((flags & rmb) && (flags & wmb)) __atomic_thread_fence(__ATOMIC_SEQ_CST);
  else if (flags & wmb) __atomic_thread_fence(__ATOMIC_RELEASE);
  else if (flags & rmb) __atomic_thread_fence(__ATOMIC_ACQUIRE);
}
#define STP_TOOLS_PRE(f) stp_tools_fence((f), GASNETT_ATOMIC_RMB_PRE, GASNETT_ATOMIC_WMB_PRE)
#define STP_TOOLS_POST(f) stp_tools_fence((f), GASNETT_ATOMIC_RMB_POST, GASNETT_ATOMIC_WMB_POST)
static inline int stp_tools_post_bool(int flags, int result) {
  STP_TOOLS_POST(flags);
  if (flags & (result ? GASNETT_ATOMIC_RMB_POST_IF_TRUE : GASNETT_ATOMIC_RMB_POST_IF_FALSE))
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
  return result;
}

/* One set of operations per atomic type P##_t holding a V (P is the name
 * prefix: gasnett_atomic, gasnett_atomic32, gasnett_atomic64).  add and
 * subtract return the new value, swap the old one, compare_and_swap and
 * decrement_and_test non-zero on success / on reaching 0. */
#define STP_TOOLS_ATOMIC_OPS(P, V)                                                          \
  static inline V P##_read(P##_t *p, int f) {                                               \
    V v;                                                                                    \
    STP_TOOLS_PRE(f);                                                                       \
    v = __atomic_load_n(&p->ctr, __ATOMIC_RELAXED);                                         \
    STP_TOOLS_POST(f);                                                                      \
    return v;                                                                               \
  }                                                                                         \
  static inline void P##_set(P##_t *p, V v, int f) {                                        \
    STP_TOOLS_PRE(f);                                                                       \
    __atomic_store_n(&p->ctr, v, __ATOMIC_RELAXED);                                         \
    STP_TOOLS_POST(f);                                                                      \
  }                                                                                         \
  static inline V P##_add(P##_t *p, V v, int f) {                                           \
    V r;                                                                                    \
    STP_TOOLS_PRE(f);                                                                       \
    r = __atomic_add_fetch(&p->ctr, v, __ATOMIC_SEQ_CST);                                   \
    STP_TOOLS_POST(f);                                                                      \
    return r;                                                                               \
  }                                                                                         \
  static inline V P##_subtract(P##_t *p, V v, int f) {                                      \
    V r;                                                                                    \
    STP_TOOLS_PRE(f);                                                                       \
    r = __atomic_sub_fetch(&p->ctr, v, __ATOMIC_SEQ_CST);                                   \
    STP_TOOLS_POST(f);                                                                      \
    return r;                                                                               \
  }                                                                                         \
  static inline void P##_increment(P##_t *p, int f) { (void)P##_add(p, 1, f); }             \
  static inline void P##_decrement(P##_t *p, int f) { (void)P##_subtract(p, 1, f); }        \
  static inline int P##_decrement_and_test(P##_t *p, int f) {                               \
    int r;                                                                                  \
    STP_TOOLS_PRE(f);                                                                       \
    r = __atomic_sub_fetch(&p->ctr, 1, __ATOMIC_SEQ_CST) == 0;                              \
    return stp_tools_post_bool(f, r);                                                       \
  }                                                                                         \
  static inline int P##_compare_and_swap(P##_t *p, V oldval, V newval, int f) {             \
    int r;                                                                                  \
    STP_TOOLS_PRE(f);                                                                       \
    r = __atomic_compare_exchange_n(&p->ctr, &oldval, newval, 0, __ATOMIC_SEQ_CST,          \
                                    __ATOMIC_SEQ_CST);                                      \
    return stp_tools_post_bool(f, r);                                                       \
  }                                                                                         \
  static inline V P##_swap(P##_t *p, V v, int f) {                                          \
    V r;                                                                                    \
    STP_TOOLS_PRE(f);                                                                       \
    r = __atomic_exchange_n(&p->ctr, v, __ATOMIC_SEQ_CST);                                  \
    STP_TOOLS_POST(f);                                                                      \
    return r;                                                                               \
  }

/* the general type: 32 bits, as GASNet-1 on today's 64-bit platforms */
typedef uint32_t gasnett_atomic_val_t;
typedef int32_t gasnett_atomic_sval_t;
typedef struct { gasnett_atomic_val_t ctr; } gasnett_atomic_t;
#define gasnett_atomic_init(v) {(gasnett_atomic_val_t)(v)}
#define gasnett_atomic_signed(v) ((gasnett_atomic_sval_t)(v))
#define GASNETT_ATOMIC_MAX ((gasnett_atomic_val_t)0xFFFFFFFFu)
#define GASNETT_ATOMIC_SIGNED_MIN ((gasnett_atomic_sval_t)INT32_MIN)
#define GASNETT_ATOMIC_SIGNED_MAX ((gasnett_atomic_sval_t)INT32_MAX)
#define GASNETT_HAVE_ATOMIC_CAS 1
#define GASNETT_HAVE_ATOMIC_ADD_SUB 1
STP_TOOLS_ATOMIC_OPS(gasnett_atomic, gasnett_atomic_val_t)

/* fixed width: exactly the natural storage (an int32_t or int64_t may be
 * cast to them, as GASNet-1 allows) */
typedef struct { uint32_t ctr; } gasnett_atomic32_t;
typedef struct { uint64_t ctr __attribute__((__aligned__(8))); } gasnett_atomic64_t;
#define gasnett_atomic32_init(v) {(uint32_t)(v)}
#define gasnett_atomic64_init(v) {(uint64_t)(v)}
STP_TOOLS_ATOMIC_OPS(gasnett_atomic32, uint32_t)
STP_TOOLS_ATOMIC_OPS(gasnett_atomic64, uint64_t)

/* "strong" atomics: the same (every atomic here is a real one) */
#define GASNETT_HAVE_STRONGATOMIC_CAS 1
#define GASNETT_HAVE_STRONGATOMIC_ADD_SUB 1
#define gasnett_strongatomic_t gasnett_atomic_t
#define gasnett_strongatomic_init gasnett_atomic_init
#define gasnett_strongatomic_read gasnett_atomic_read
#define gasnett_strongatomic_set gasnett_atomic_set
#define gasnett_strongatomic_increment gasnett_atomic_increment
#define gasnett_strongatomic_decrement gasnett_atomic_decrement
#define gasnett_strongatomic_decrement_and_test gasnett_atomic_decrement_and_test
#define gasnett_strongatomic_add gasnett_atomic_add
#define gasnett_strongatomic_subtract gasnett_atomic_subtract
#define gasnett_strongatomic_compare_and_swap gasnett_atomic_compare_and_swap
#define gasnett_strongatomic_swap gasnett_atomic_swap
#define gasnett_strongatomic32_t gasnett_atomic32_t
#define gasnett_strongatomic32_init gasnett_atomic32_init
#define gasnett_strongatomic32_read gasnett_atomic32_read
#define gasnett_strongatomic32_set gasnett_atomic32_set
#define gasnett_strongatomic32_increment gasnett_atomic32_increment
#define gasnett_strongatomic32_decrement gasnett_atomic32_decrement
#define gasnett_strongatomic32_decrement_and_test gasnett_atomic32_decrement_and_test
#define gasnett_strongatomic32_add gasnett_atomic32_add
#define gasnett_strongatomic32_subtract gasnett_atomic32_subtract
#define gasnett_strongatomic32_compare_and_swap gasnett_atomic32_compare_and_swap
#define gasnett_strongatomic32_swap gasnett_atomic32_swap
#define gasnett_strongatomic64_t gasnett_atomic64_t
#define gasnett_strongatomic64_init gasnett_atomic64_init
#define gasnett_strongatomic64_read gasnett_atomic64_read
#define gasnett_strongatomic64_set gasnett_atomic64_set
#define gasnett_strongatomic64_increment gasnett_atomic64_increment
#define gasnett_strongatomic64_decrement gasnett_atomic64_decrement
#define gasnett_strongatomic64_decrement_and_test gasnett_atomic64_decrement_and_test
#define gasnett_strongatomic64_add gasnett_atomic64_add
#define gasnett_strongatomic64_subtract gasnett_atomic64_subtract
#define gasnett_strongatomic64_compare_and_swap gasnett_atomic64_compare_and_swap
#define gasnett_strongatomic64_swap gasnett_atomic64_swap

/* ------------------------------------------------------------------ */
/* misc: processes, hosts, backtraces, errors, signals                 */
/* ------------------------------------------------------------------ */
static inline void gasnett_sched_yield(void) { (void)sched_yield(); }
static inline void gasnett_flush_streams(void) {
  (void)fflush(stdout);
  (void)fflush(stderr);
}
static inline void gasnett_close_streams(void) {
  (void)fclose(stdin);
  (void)fclose(stdout);
  (void)fclose(stderr);
}
/* ends the process at once: no atexit handlers, no stream flushing */
__attribute__((__noreturn__)) static inline void gasnett_killmyprocess(int exitcode) { _exit(exitcode); }

static inline char *stp_tools_hostname_buf(void) {
  static char name[256];
  return name;
}
static inline void stp_tools_hostname_fill(void) {
  char *name = stp_tools_hostname_buf();
  if (gethostname(name, 255)) strcpy(name, "*unknown*");
  name[255] = '\0';
}
/* the host's name (gethostname), read once per translation unit */
static inline const char *gasnett_gethostname(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  (void)pthread_once(&once, stp_tools_hostname_fill);
  return stp_tools_hostname_buf();
}

static inline char *stp_tools_exe_buf(void) {
  static char path[4096];
  return path;
}
static inline void stp_tools_exe_fill(void) {
  char *path = stp_tools_exe_buf();
  ssize_t n = readlink("/proc/self/exe", path, 4095);
  path[n > 0 ? n : 0] = '\0';
}
/* the running executable's full path (/proc/self/exe), "" when unknown;
 * read once per translation unit */
static inline const char *gasnett_exe_name(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  (void)pthread_once(&once, stp_tools_exe_fill);
  return stp_tools_exe_buf();
}

/* a setting that is on: Y..., y..., 1... (read leniently here: these are
 * consulted on the way to a fatal error, which must not recurse) */
static inline int stp_tools_env_on(const char *key) {
  const char *v = getenv(key);
  return v && (*v == 'Y' || *v == 'y' || *v == '1');
}
/* write a whole string to fd, ignoring failures (fd may be anything) */
static inline void stp_tools_write(int fd, const char *s) {
  size_t len = strlen(s);
  while (len) {
    ssize_t n = write(fd, s, len);
    if (n <= 0) return;
    s += n;
    len -= (size_t)n;
  }
}

/* Backtraces.  A mechanism writes the calling thread's backtrace to a
 * file descriptor and returns 0, or non-zero when it cannot.  The
 * mechanisms: the client's own (a client that defines
 * gasnett_backtrace_user, named by its .name), and EXECINFO (glibc's
 * backtrace(): raw frames, symbols as the dynamic symbol table has them).
 * gasnett_print_backtrace(fd) tries those GASNET_BACKTRACE_TYPE lists
 * (comma-separated, case-insensitive; default: the client's, then
 * EXECINFO) in order until one succeeds: 0, else non-zero (-1 when called
 * again while one is being printed).  gasnett_backtrace_init needs not be
 * called first. */
typedef struct {
  const char *name;       /* the mechanism's name in GASNET_BACKTRACE_TYPE */
  int (*fnp)(int fd);     /* writes the backtrace to fd: 0 on success */
  int threadsupport;      /* does it handle a multi-threaded process? */
} gasnett_backtrace_type_t;
extern gasnett_backtrace_type_t gasnett_backtrace_user __attribute__((__weak__));
static inline int stp_tools_bt_execinfo(int fd) {
#ifdef STP_TOOLS_HAVE_EXECINFO
  void *frames[128];
  int n = backtrace(frames, 128);
  if (n <= 0) return 1;
  backtrace_symbols_fd(frames, n, fd);
  return 0;
#else
  (void)fd;
  return 1;
#endif
}
static inline int stp_tools_bt_run(int fd, const char *sel) {
  const gasnett_backtrace_type_t *user = &gasnett_backtrace_user;
  int (*fn)(int) = NULL;
  char msg[256];
  const char *name = NULL;
  if (user && user->name && user->fnp && !strcasecmp(sel, user->name)) fn = user->fnp, name = user->name;
  else if (!strcasecmp(sel, "EXECINFO")) fn = stp_tools_bt_execinfo, name = "EXECINFO";
  if (!fn) {
    snprintf(msg, sizeof(msg), "WARNING: GASNET_BACKTRACE_TYPE=%s unrecognized or unsupported - ignoring\n", sel);
    stp_tools_write(STDERR_FILENO, msg);
    return 1;
  }
  snprintf(msg, sizeof(msg), "Invoking %s for backtrace...\n", name);
  stp_tools_write(fd, msg);
  return fn(fd);
}
static inline int gasnett_print_backtrace(int fd) {
  static int busy; /* one at a time (per translation unit), and never from within one */
  const char *list = getenv("GASNET_BACKTRACE_TYPE");
  const gasnett_backtrace_type_t *user = &gasnett_backtrace_user;
  int rc = 1;
  if (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE)) return -1;
  if (list) {
    while (*list && rc) {
      char sel[64];
      size_t n = 0;
      while (*list && strchr(" ,|;", *list)) list++;
      while (*list && !strchr(" ,|;", *list)) {
        if (n < sizeof(sel) - 1) sel[n++] = *list;
        list++;
      }
      sel[n] = '\0';
      if (n) rc = stp_tools_bt_run(fd, sel);
    }
  } else {
    if (user && user->name && user->fnp) rc = stp_tools_bt_run(fd, user->name);
    if (rc) rc = stp_tools_bt_run(fd, "EXECINFO");
  }
  __atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
  return rc;
}
/* what fatal errors call: a backtrace iff GASNET_BACKTRACE is set to a
 * true value (else 1, nothing printed).  A variable: a client may point it
 * at its own function (in its translation unit). */
static inline int stp_tools_bt_ifenabled(int fd) {
  if (!stp_tools_env_on("GASNET_BACKTRACE")) return 1;
  gasnett_flush_streams();
  return gasnett_print_backtrace(fd);
}
static int (*gasnett_print_backtrace_ifenabled)(int fd) __attribute__((__unused__)) = stp_tools_bt_ifenabled;
/* nothing to prepare: the mechanisms need no executable name */
static inline void gasnett_backtrace_init(const char *exename) { (void)exename; }

/* Freezing for a debugger: Now prints where the process is and spins
 * (sleeping) until a debugger sets *flag to 0; Err does that iff
 * GASNET_FREEZE_ON_ERROR is set to a true value (fatal errors call it),
 * on the flag stp_tools_frozen. */
static inline void gasnett_freezeForDebuggerNow(volatile int *flag, const char *flagsymname) {
  char msg[512];
  struct timespec ts = {0, 10000000}; /* 10 ms */
  snprintf(msg, sizeof(msg),
           "Process frozen for debugger: host=%s  pid=%d\n"
           "    To unfreeze, attach a debugger and set '%s' to 0\n",
           gasnett_gethostname(), (int)getpid(), flagsymname ? flagsymname : "the flag");
  stp_tools_write(STDERR_FILENO, msg);
  *flag = 1;
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  while (*flag) (void)nanosleep(&ts, NULL);
}
static volatile int stp_tools_frozen __attribute__((__unused__));
static inline void gasnett_freezeForDebuggerErr(void) {
  if (stp_tools_env_on("GASNET_FREEZE_ON_ERROR")) gasnett_freezeForDebuggerNow(&stp_tools_frozen, "stp_tools_frozen");
}

/* Fatal errors: the message (printf format) on stderr, with the calling
 * function, file and line (gasnett_fatalerror) or without
 * (gasnett_fatalerror_nopos); then a freeze for a debugger and a
 * backtrace if the environment asks for them (above), then abort(). */
__attribute__((__format__(__printf__, 4, 0), __noreturn__, __cold__)) static inline void
stp_tools_fatal_va(const char *func, const char *file, int line, const char *msg, va_list ap) {
  fflush(stdout);
  if (file) fprintf(stderr, "*** FATAL ERROR: in %s() at %s:%d: ", func ? func : "?", file, line);
  else fprintf(stderr, "*** FATAL ERROR: ");
  vfprintf(stderr, msg, ap);
  fprintf(stderr, "\n");
  fflush(stderr);
  gasnett_freezeForDebuggerErr();
  (void)gasnett_print_backtrace_ifenabled(STDERR_FILENO);
  gasnett_flush_streams();
  abort();
}
__attribute__((__format__(__printf__, 4, 5), __noreturn__, __cold__)) static inline void
stp_tools_fatalerror(const char *func, const char *file, int line, const char *msg, ...) {
  va_list ap;
  va_start(ap, msg);
  stp_tools_fatal_va(func, file, line, msg, ap);
}
__attribute__((__format__(__printf__, 1, 2), __noreturn__, __cold__)) static inline void
gasnett_fatalerror_nopos(const char *msg, ...) {
  va_list ap;
  va_start(ap, msg);
  stp_tools_fatal_va(NULL, NULL, 0, msg, ap);
}
#define gasnett_fatalerror(...) stp_tools_fatalerror(GASNETT_CURRENT_FUNCTION, __FILE__, __LINE__, __VA_ARGS__)

/* "func() at file:line" of the place it is written, in a malloc'd string
 * (the caller frees it) */
static inline char *stp_tools_loc(const char *func, const char *file, int line) {
  size_t sz = strlen(func) + strlen(file) + 40;
  char *s = (char *)malloc(sz);
  if (s) snprintf(s, sz, "%s() at %s:%d", func, file, line);
  return s;
}
#define gasnett_current_loc stp_tools_loc(GASNETT_CURRENT_FUNCTION, __FILE__, __LINE__)

typedef void (*gasnett_sighandlerfn_t)(int);
static inline gasnett_sighandlerfn_t gasnett_reghandler(int sigtocatch, gasnett_sighandlerfn_t fp) {
  gasnett_sighandlerfn_t old = signal(sigtocatch, fp);
  if (old == SIG_ERR) gasnett_fatalerror_nopos("gasnett_reghandler: cannot register a handler for signal %d", sigtocatch);
  return old;
}

static inline int gasnett_cpu_count(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 0;
}
static inline uint64_t gasnett_getPhysMemSz(int failureIsFatal) {
  long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || psz <= 0) {
    if (failureIsFatal) gasnett_fatalerror_nopos("gasnett_getPhysMemSz: the physical memory size is unknown");
    return 0;
  }
  return (uint64_t)pages * (uint64_t)psz;
}
static inline int gasnett_isLittleEndian(void) {
  const uint32_t one = 1;
  unsigned char b;
  memcpy(&b, &one, 1);
  return b == 1;
}

/* Pin the calling thread to processor rank mod the number of processors
 * the system has (sched_setaffinity; the processors as Linux numbers
 * them, each hardware thread one): 0 on success, non-zero otherwise (for
 * instance a processor outside the process's allowed set).  Deprecated in
 * GASNet in favour of hwloc; supported here on Linux only. */
#if defined(__linux__)
#define GASNETT_SET_AFFINITY_SUPPORT 1
/* the C library's sched_setaffinity under a name of our own, so that no
 * _GNU_SOURCE is needed for its declaration (a GCC-compatible asm label) */
extern int stp_tools_sched_setaffinity(pid_t pid, size_t cpusetsize, const void *mask) __asm__("sched_setaffinity");
static inline int gasnett_set_affinity(int rank) {
  long ncpu = sysconf(_SC_NPROCESSORS_CONF);
  unsigned long mask[64]; /* 4096 processors */
  long cpu;
  size_t words;
  if (ncpu <= 0) return 1;
  cpu = (long)(((rank % ncpu) + ncpu) % ncpu);
  if (cpu >= (long)(sizeof(mask) * 8)) return 1;
  words = (size_t)cpu / (8 * sizeof(unsigned long)) + 1;
  memset(mask, 0, sizeof(mask));
  mask[cpu / (long)(8 * sizeof(unsigned long))] = 1ul << (cpu % (long)(8 * sizeof(unsigned long)));
  return stp_tools_sched_setaffinity(0, words * sizeof(unsigned long), mask) ? 1 : 0;
}
#else
static inline int gasnett_set_affinity(int rank) {
  (void)rank;
  return 1;
}
#endif

/* a simple (not cryptographic) 64-bit checksum of numbytes bytes: FNV-1a */
static inline uint64_t gasnett_checksum(const void *p, int numbytes) {
  const unsigned char *b = (const unsigned char *)p;
  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < numbytes; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

/* zero bytes: in a word (each byte's high bit is set in y exactly where
 * the byte is zero: the add cannot carry out of a byte), in a region, and
 * in a region while copying it */
static inline int gasnett_count0s_uint64_t(uint64_t x) {
  const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
  uint64_t y = ~(((x & low7) + low7) | x | low7);
  return __builtin_popcountll(y);
}
static inline int gasnett_count0s_uint32_t(uint32_t x) {
  return gasnett_count0s_uint64_t((uint64_t)x | 0xFFFFFFFF00000000ull);
}
#define gasnett_count0s_uintptr_t(x) \
  (sizeof(uintptr_t) == 8 ? gasnett_count0s_uint64_t((uint64_t)(x)) : gasnett_count0s_uint32_t((uint32_t)(x)))
static inline size_t gasnett_count0s(const void *src, size_t len) {
  const unsigned char *p = (const unsigned char *)src;
  size_t n = 0, i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    n += (size_t)gasnett_count0s_uint64_t(w);
  }
  for (; i < len; i++) n += !p[i];
  return n;
}
static inline size_t gasnett_count0s_copy(void *dst, const void *src, size_t len) {
  memcpy(dst, src, len);
  return gasnett_count0s(dst, len);
}

/* raise a soft resource limit to its hard limit (lim_desc names it, for
 * messages: none are printed): non-zero when it is there; the CPU and
 * memory limits together, as GASNet's */
static inline int gasnett_maximize_rlimit(int res, const char *lim_desc) {
  struct rlimit r;
  (void)lim_desc;
  if (getrlimit(res, &r)) return 0;
  if (r.rlim_cur == r.rlim_max) return 1;
  r.rlim_cur = r.rlim_max;
  return setrlimit(res, &r) == 0;
}
static inline int gasnett_maximize_rlimits(void) {
  static const int res[] = {RLIMIT_CPU, RLIMIT_DATA, RLIMIT_RSS, RLIMIT_STACK, RLIMIT_AS};
  int ok = 1;
  for (size_t i = 0; i < sizeof(res) / sizeof(res[0]); i++) ok &= gasnett_maximize_rlimit(res[i], "");
  return ok;
}

/* configuration choices that cost performance: none to report */
static inline const char *gasnett_performance_warning_str(void) { return ""; }

/* ------------------------------------------------------------------ */
/* environment                                                         */
/* ------------------------------------------------------------------ */
static inline char *gasnett_getenv(const char *keyname) { return keyname ? getenv(keyname) : NULL; }
static inline void gasnett_setenv(const char *key, const char *value) {
  if (setenv(key, value, 1)) gasnett_fatalerror_nopos("gasnett_setenv(%s): %s", key, strerror(errno));
}
static inline void gasnett_unsetenv(const char *key) {
  if (unsetenv(key)) gasnett_fatalerror_nopos("gasnett_unsetenv(%s): %s", key, strerror(errno));
}
static inline int gasnett_verboseenv(void) { return 0; }

static inline char *gasnett_getenv_withdefault(const char *keyname, const char *defaultval) {
  char *v = gasnett_getenv(keyname);
  return v ? v : (char *)(uintptr_t)defaultval;
}

/* Y, YES, 1 (any case) or N, NO, 0; anything else is a fatal error */
static inline int gasnett_getenv_yesno_withdefault(const char *keyname, int defaultval) {
  const char *v = gasnett_getenv(keyname);
  char up[8];
  size_t i;
  if (!v) return defaultval;
  for (i = 0; v[i] && i < sizeof(up) - 1; i++) up[i] = (char)((v[i] >= 'a' && v[i] <= 'z') ? v[i] - 32 : v[i]);
  up[i] = '\0';
  if (!v[i]) {
    if (!strcmp(up, "Y") || !strcmp(up, "YES") || !strcmp(up, "1")) return 1;
    if (!strcmp(up, "N") || !strcmp(up, "NO") || !strcmp(up, "0")) return 0;
  }
  gasnett_fatalerror_nopos("environment variable %s=\"%s\": expected Y, YES, 1, N, NO or 0", keyname, v);
}

/* An integer: with mem_size_multiplier 0, decimal or 0x hex, signed; else a
 * memory size, possibly fractional, with an optional suffix B, K(B), M(B),
 * G(B), T(B) (any case; powers of 1024), mem_size_multiplier being the unit
 * of a bare number.  A malformed string is a fatal error. */
static inline int64_t gasnett_parse_int(const char *str, uint64_t mem_size_multiplier) {
  char *end;
  if (!str) gasnett_fatalerror_nopos("gasnett_parse_int: no string");
  errno = 0;
  if (!mem_size_multiplier) {
    long long v = strtoll(str, &end, 0);
    while (*end == ' ' || *end == '\t') end++;
    if (end == str || *end || errno) gasnett_fatalerror_nopos("\"%s\" is not an integer", str);
    return (int64_t)v;
  } else {
    double v = strtod(str, &end), unit = (double)mem_size_multiplier;
    while (*end == ' ' || *end == '\t') end++;
    if (end == str || errno) gasnett_fatalerror_nopos("\"%s\" is not a memory size", str);
    if (*end) {
      switch (*end) {
        case 'b': case 'B': unit = 1; break;
        case 'k': case 'K': unit = 1024.0; break;
        case 'm': case 'M': unit = 1024.0 * 1024; break;
        case 'g': case 'G': unit = 1024.0 * 1024 * 1024; break;
        case 't': case 'T': unit = 1024.0 * 1024 * 1024 * 1024; break;
        default: gasnett_fatalerror_nopos("\"%s\": unknown memory size suffix", str);
      }
      end++;
      if (unit > 1 && (*end == 'b' || *end == 'B')) end++;
      if (*end) gasnett_fatalerror_nopos("\"%s\": unknown memory size suffix", str);
    }
    return (int64_t)(v * unit);
  }
}

/* val as text in buf: with is_mem_size, in the largest of KB, MB, GB, TB
 * (powers of 1024) that divides it exactly, else in B */
static inline char *gasnett_format_number(int64_t val, char *buf, size_t bufsz, int is_mem_size) {
  static const char *const units[] = {" B", " KB", " MB", " GB", " TB"};
  uint64_t mag = val < 0 ? 0 - (uint64_t)val : (uint64_t)val;
  int u = 0;
  if (is_mem_size)
    while (u < 4 && mag && mag % 1024 == 0) mag /= 1024, u++;
  snprintf(buf, bufsz, "%s%" PRIu64 "%s", val < 0 ? "-" : "", mag, is_mem_size ? units[u] : "");
  return buf;
}

static inline int64_t gasnett_getenv_int_withdefault(const char *keyname, int64_t defaultval,
                                                     uint64_t mem_size_multiplier) {
  const char *v = gasnett_getenv(keyname);
  return v ? gasnett_parse_int(v, mem_size_multiplier) : defaultval;
}

/* a floating-point value, or a fraction "a/b" */
static inline double gasnett_getenv_dbl_withdefault(const char *keyname, double defaultval) {
  const char *v = gasnett_getenv(keyname);
  char *end;
  double x;
  if (!v) return defaultval;
  x = strtod(v, &end);
  if (end != v && *end == '/') {
    const char *d = end + 1;
    double y = strtod(d, &end);
    if (end == d || y == 0) gasnett_fatalerror_nopos("environment variable %s=\"%s\": bad fraction", keyname, v);
    x /= y;
  }
  if (end == v || *end) gasnett_fatalerror_nopos("environment variable %s=\"%s\": not a number", keyname, v);
  return x;
}

/* a setting's report line ("ENV parameter: KEY = value", with
 * "(default)" when it was not set), on stderr iff gasnett_verboseenv():
 * never here, so these print nothing */
static inline void gasnett_envstr_display(const char *key, const char *val, int is_dflt) {
  if (!gasnett_verboseenv()) return;
  fprintf(stderr, "ENV parameter: %s = %s%s\n", key, val ? val : "*not set*", is_dflt ? "   (default)" : "");
}
static inline void gasnett_envint_display(const char *key, int64_t val, int is_dflt, int is_mem_size) {
  char buf[64];
  if (!gasnett_verboseenv()) return;
  gasnett_envstr_display(key, gasnett_format_number(val, buf, sizeof(buf), is_mem_size), is_dflt);
}
static inline void gasnett_envdbl_display(const char *key, double val, int is_dflt) {
  char buf[64];
  if (!gasnett_verboseenv()) return;
  snprintf(buf, sizeof(buf), "%g", val);
  gasnett_envstr_display(key, buf, is_dflt);
}

/* ------------------------------------------------------------------ */
/* mutexes and condition variables (POSIX threads)                     */
/* ------------------------------------------------------------------ */
typedef pthread_mutex_t gasnett_mutex_t;
#define GASNETT_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER
static inline void stp_tools_check(int rc, const char *what) {
  if (rc) gasnett_fatalerror_nopos("%s: %s", what, strerror(rc));
}
static inline void gasnett_mutex_init(gasnett_mutex_t *m) { stp_tools_check(pthread_mutex_init(m, NULL), "gasnett_mutex_init"); }
static inline void gasnett_mutex_destroy(gasnett_mutex_t *m) { stp_tools_check(pthread_mutex_destroy(m), "gasnett_mutex_destroy"); }
static inline int gasnett_mutex_destroy_ignoreerr(gasnett_mutex_t *m) { return pthread_mutex_destroy(m); }
static inline void gasnett_mutex_lock(gasnett_mutex_t *m) { stp_tools_check(pthread_mutex_lock(m), "gasnett_mutex_lock"); }
static inline void gasnett_mutex_unlock(gasnett_mutex_t *m) { stp_tools_check(pthread_mutex_unlock(m), "gasnett_mutex_unlock"); }
/* a try form's result: 0 when taken, EBUSY when not (anything else fatal) */
static inline int stp_tools_try(int rc, const char *what) {
  if (rc && rc != EBUSY) stp_tools_check(rc, what);
  return rc;
}
static inline int gasnett_mutex_trylock(gasnett_mutex_t *m) {
  return stp_tools_try(pthread_mutex_trylock(m), "gasnett_mutex_trylock");
}
#define gasnett_mutex_assertlocked(m) ((void)(m))
#define gasnett_mutex_assertunlocked(m) ((void)(m))

/* reader/writer locks (pthread_rwlock_t) */
typedef pthread_rwlock_t gasnett_rwlock_t;
#define GASNETT_RWLOCK_INITIALIZER PTHREAD_RWLOCK_INITIALIZER
static inline void gasnett_rwlock_init(gasnett_rwlock_t *l) { stp_tools_check(pthread_rwlock_init(l, NULL), "gasnett_rwlock_init"); }
static inline void gasnett_rwlock_destroy(gasnett_rwlock_t *l) { stp_tools_check(pthread_rwlock_destroy(l), "gasnett_rwlock_destroy"); }
static inline void gasnett_rwlock_rdlock(gasnett_rwlock_t *l) { stp_tools_check(pthread_rwlock_rdlock(l), "gasnett_rwlock_rdlock"); }
static inline void gasnett_rwlock_wrlock(gasnett_rwlock_t *l) { stp_tools_check(pthread_rwlock_wrlock(l), "gasnett_rwlock_wrlock"); }
static inline void gasnett_rwlock_unlock(gasnett_rwlock_t *l) { stp_tools_check(pthread_rwlock_unlock(l), "gasnett_rwlock_unlock"); }
static inline int gasnett_rwlock_tryrdlock(gasnett_rwlock_t *l) {
  return stp_tools_try(pthread_rwlock_tryrdlock(l), "gasnett_rwlock_tryrdlock");
}
static inline int gasnett_rwlock_trywrlock(gasnett_rwlock_t *l) {
  return stp_tools_try(pthread_rwlock_trywrlock(l), "gasnett_rwlock_trywrlock");
}
#define gasnett_rwlock_assertlocked(l) ((void)(l))
#define gasnett_rwlock_assertrdlocked(l) ((void)(l))
#define gasnett_rwlock_assertwrlocked(l) ((void)(l))
#define gasnett_rwlock_assertunlocked(l) ((void)(l))

typedef pthread_cond_t gasnett_cond_t;
#define GASNETT_COND_INITIALIZER PTHREAD_COND_INITIALIZER
static inline void gasnett_cond_init(gasnett_cond_t *c) { stp_tools_check(pthread_cond_init(c, NULL), "gasnett_cond_init"); }
static inline void gasnett_cond_destroy(gasnett_cond_t *c) { stp_tools_check(pthread_cond_destroy(c), "gasnett_cond_destroy"); }
static inline void gasnett_cond_signal(gasnett_cond_t *c) { stp_tools_check(pthread_cond_signal(c), "gasnett_cond_signal"); }
static inline void gasnett_cond_broadcast(gasnett_cond_t *c) { stp_tools_check(pthread_cond_broadcast(c), "gasnett_cond_broadcast"); }
static inline void gasnett_cond_wait(gasnett_cond_t *c, gasnett_mutex_t *m) {
  stp_tools_check(pthread_cond_wait(c, m), "gasnett_cond_wait");
}

/* ------------------------------------------------------------------ */
/* thread-specific data                                                */
/* ------------------------------------------------------------------ */
/* A thread key holds one void * per thread, NULL in a thread that has not
 * set it.  DECLARE (extern) and DEFINE go at file scope, DEFINE in one
 * translation unit (optionally static); a thread-local variable underneath,
 * so _init does nothing and the _noinit forms are the same operations. */
#define GASNETT_THREADKEY_DECLARE(key) extern __thread void *stp_threadkey_##key
#define GASNETT_THREADKEY_DEFINE(key) __thread void *stp_threadkey_##key = NULL
#define gasnett_threadkey_get(key) ((void *)stp_threadkey_##key)
#define gasnett_threadkey_set(key, newval) ((void)(stp_threadkey_##key = (void *)(newval)))
#define gasnett_threadkey_init(key) ((void)stp_threadkey_##key)
#define gasnett_threadkey_get_noinit(key) gasnett_threadkey_get(key)
#define gasnett_threadkey_set_noinit(key, newval) gasnett_threadkey_set(key, newval)

/* ------------------------------------------------------------------ */
/* descriptions of GASNet-EX arguments (gasnetex.h clients only: they  */
/* name its types), for messages: VIS lists, data types, operations,   */
/* token-info masks.  A _bufsz(...) function gives a buffer size that  */
/* always suffices for the matching call; the format is stageport's.   */
/* ------------------------------------------------------------------ */
#if defined(_GASNETEX_H)
/* an appender: formats at buf[len] within cap bytes, counts every byte
 * it would have written (so cap 0 and buf NULL measure) */
typedef struct {
  char *buf;
  size_t cap, len;
} stp_tools_app_t;
__attribute__((__format__(__printf__, 2, 3))) static inline void stp_tools_app(stp_tools_app_t *a, const char *fmt, ...) {
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(a->buf ? a->buf + (a->len < a->cap ? a->len : a->cap) : NULL,
                a->buf && a->len < a->cap ? a->cap - a->len : 0, fmt, ap);
  va_end(ap);
  if (n > 0) a->len += (size_t)n;
}

/* what a list of memory vectors covers: entries' sizes (least, greatest,
 * total) and the lowest and highest addresses of its non-empty entries
 * (maxaddr: the last byte) */
typedef struct {
  size_t minsz, maxsz, totalsz;
  void *minaddr, *maxaddr;
} stp_tools_memveclist_stats_t;
typedef struct {
  void *minaddr, *maxaddr;
} stp_tools_addrlist_stats_t;
static inline stp_tools_memveclist_stats_t stp_tools_memvec_stats(size_t count, gex_Memvec_t const *list) {
  stp_tools_memveclist_stats_t st = {(size_t)-1, 0, 0, NULL, NULL};
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (size_t i = 0; i < count; i++) {
    size_t len = list[i].gex_len;
    if (len < st.minsz) st.minsz = len;
    if (len > st.maxsz) st.maxsz = len;
    st.totalsz += len;
    if (len) {
      uintptr_t a = (uintptr_t)list[i].gex_addr;
      if (a < lo) lo = a;
      if (a + len - 1 > hi) hi = a + len - 1;
    }
  }
  if (!count) st.minsz = 0;
  if (st.totalsz) st.minaddr = (void *)lo, st.maxaddr = (void *)hi;
  return st;
}
static inline void stp_tools_app_memveclist(stp_tools_app_t *a, size_t count, gex_Memvec_t const *list,
                                            stp_tools_memveclist_stats_t st) {
  stp_tools_app(a, "%" PRIuSZ " entries, totalsz=%" PRIuSZ ", bounds=[0x%" PRIxPTR "..0x%" PRIxPTR "], list=[", count,
                st.totalsz, (uintptr_t)st.minaddr, (uintptr_t)st.maxaddr);
  for (size_t i = 0; i < count; i++)
    stp_tools_app(a, "%s{0x%" PRIxPTR ",%" PRIuSZ "}", i ? " " : "", (uintptr_t)list[i].gex_addr, list[i].gex_len);
  stp_tools_app(a, "]");
}
static inline size_t gasnett_format_memveclist_bufsz(size_t count) { return 160 + count * 44; }
/* "N entries, totalsz=T, bounds=[0xfirst..0xlast], list=[{0xaddr,len} ...]".
 * The list is a gex_Memvec_t array or GASNet-1's gasnet_memvec_t array
 * (gasnet_vis.h: the same layout), hence the untyped pointer. */
static inline stp_tools_memveclist_stats_t gasnett_format_memveclist(char *buf, size_t count, const void *vlist) {
  gex_Memvec_t const *list = (gex_Memvec_t const *)vlist;
  stp_tools_app_t a = {buf, gasnett_format_memveclist_bufsz(count), 0};
  stp_tools_memveclist_stats_t st = stp_tools_memvec_stats(count, list);
  stp_tools_app_memveclist(&a, count, list, st);
  return st;
}
static inline size_t gasnett_format_putvgetv_bufsz(size_t dstcount, size_t srccount) {
  return 80 + gasnett_format_memveclist_bufsz(dstcount) + gasnett_format_memveclist_bufsz(srccount);
}
/* "(T data bytes) peer=R\ndst: <memveclist>\nsrc: <memveclist>": T */
static inline size_t gasnett_format_putvgetv(char *buf, gex_TM_t tm, gex_Rank_t rank, size_t dstcount,
                                             gex_Memvec_t const dstlist[], size_t srccount, gex_Memvec_t const srclist[]) {
  stp_tools_app_t a = {buf, gasnett_format_putvgetv_bufsz(dstcount, srccount), 0};
  stp_tools_memveclist_stats_t st = stp_tools_memvec_stats(dstcount, dstlist);
  (void)tm;
  stp_tools_app(&a, "(%" PRIuSZ " data bytes) peer=%u\ndst: ", st.totalsz, (unsigned)rank);
  stp_tools_app_memveclist(&a, dstcount, dstlist, st);
  stp_tools_app(&a, "\nsrc: ");
  stp_tools_app_memveclist(&a, srccount, srclist, stp_tools_memvec_stats(srccount, srclist));
  return st.totalsz;
}

static inline stp_tools_addrlist_stats_t stp_tools_app_addrlist(stp_tools_app_t *a, size_t count, void *const *list,
                                                                size_t len) {
  stp_tools_addrlist_stats_t st = {NULL, NULL};
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (size_t i = 0; len && i < count; i++) {
    uintptr_t p = (uintptr_t)list[i];
    if (p < lo) lo = p;
    if (p + len - 1 > hi) hi = p + len - 1;
  }
  if (len && count) st.minaddr = (void *)lo, st.maxaddr = (void *)hi;
  stp_tools_app(a, "%" PRIuSZ " entries, len=%" PRIuSZ ", totalsz=%" PRIuSZ ", bounds=[0x%" PRIxPTR "..0x%" PRIxPTR
                   "], list=[",
                count, len, count * len, (uintptr_t)st.minaddr, (uintptr_t)st.maxaddr);
  for (size_t i = 0; i < count; i++) stp_tools_app(a, "%s0x%" PRIxPTR, i ? " " : "", (uintptr_t)list[i]);
  stp_tools_app(a, "]");
  return st;
}
static inline size_t gasnett_format_addrlist_bufsz(size_t count) { return 160 + count * 20; }
/* "N entries, len=L, totalsz=T, bounds=[0xfirst..0xlast], list=[0xaddr ...]" */
static inline stp_tools_addrlist_stats_t gasnett_format_addrlist(char *buf, size_t count, void *const *list, size_t len) {
  stp_tools_app_t a = {buf, gasnett_format_addrlist_bufsz(count), 0};
  return stp_tools_app_addrlist(&a, count, list, len);
}
static inline size_t gasnett_format_putigeti_bufsz(size_t dstcount, size_t srccount) {
  return 80 + gasnett_format_addrlist_bufsz(dstcount) + gasnett_format_addrlist_bufsz(srccount);
}
/* "(T data bytes) peer=R\ndst: <addrlist>\nsrc: <addrlist>": T */
static inline size_t gasnett_format_putigeti(char *buf, gex_TM_t tm, gex_Rank_t rank, size_t dstcount,
                                             void *const dstlist[], size_t dstlen, size_t srccount,
                                             void *const srclist[], size_t srclen) {
  stp_tools_app_t a = {buf, gasnett_format_putigeti_bufsz(dstcount, srccount), 0};
  (void)tm;
  stp_tools_app(&a, "(%" PRIuSZ " data bytes) peer=%u\ndst: ", dstcount * dstlen, (unsigned)rank);
  (void)stp_tools_app_addrlist(&a, dstcount, dstlist, dstlen);
  stp_tools_app(&a, "\nsrc: ");
  (void)stp_tools_app_addrlist(&a, srccount, srclist, srclen);
  return dstcount * dstlen;
}

static inline void stp_tools_app_strides(stp_tools_app_t *a, size_t count, const ptrdiff_t *list) {
  stp_tools_app(a, "[");
  for (size_t i = 0; i < count; i++) stp_tools_app(a, "%s%td", i ? ", " : "", list[i]);
  stp_tools_app(a, "]");
}
static inline size_t gasnett_format_strides_bufsz(size_t count) { return 3 + count * 22; }
/* "[s0, s1, ...]" */
static inline void gasnett_format_strides(char *buf, size_t count, const ptrdiff_t *list) {
  stp_tools_app_t a = {buf, gasnett_format_strides_bufsz(count), 0};
  stp_tools_app_strides(&a, count, list);
}
static inline size_t gasnett_format_putsgets_bufsz(size_t stridelevels) { return 200 + 3 * 22 * (stridelevels + 1); }
/* "(T data bytes) peer=R elemsz=E count=[c0, ...] dst=0xaddr dststrides=[...]
 * src=0xaddr srcstrides=[...]": T (pstats: ignored) */
static inline size_t gasnett_format_putsgets(char *buf, void *pstats, gex_TM_t tm, gex_Rank_t rank, void *dstaddr,
                                             const ptrdiff_t dststrides[], void *srcaddr, const ptrdiff_t srcstrides[],
                                             size_t elemsz, const size_t count[], size_t stridelevels) {
  stp_tools_app_t a = {buf, gasnett_format_putsgets_bufsz(stridelevels), 0};
  size_t total = elemsz;
  (void)pstats;
  (void)tm;
  for (size_t i = 0; i < stridelevels; i++) total *= count[i];
  stp_tools_app(&a, "(%" PRIuSZ " data bytes) peer=%u elemsz=%" PRIuSZ " count=[", total, (unsigned)rank, elemsz);
  for (size_t i = 0; i < stridelevels; i++) stp_tools_app(&a, "%s%" PRIuSZ, i ? ", " : "", count[i]);
  stp_tools_app(&a, "] dst=0x%" PRIxPTR " dststrides=", (uintptr_t)dstaddr);
  stp_tools_app_strides(&a, stridelevels, dststrides);
  stp_tools_app(&a, " src=0x%" PRIxPTR " srcstrides=", (uintptr_t)srcaddr);
  stp_tools_app_strides(&a, stridelevels, srcstrides);
  return total;
}

/* A set of values (bits) by name, joined by '|' ("0" for none, any bit
 * without a name in hex), into buf; the size it needs, its '\0' included
 * (buf NULL: only that size).  A name matches when all of its bits are
 * set and one of them is not yet named (a fetching operation shares its
 * fetch bit with the others). */
typedef struct {
  uint64_t val;
  const char *name;
} stp_tools_name_t;
static inline size_t stp_tools_format_set(char *buf, uint64_t v, const stp_tools_name_t *tab, size_t n) {
  stp_tools_app_t a = {buf, buf ? (size_t)-1 : 0, 0};
  uint64_t named = 0;
  for (size_t i = 0; i < n; i++)
    if (tab[i].val && (v & tab[i].val) == tab[i].val && (tab[i].val & ~named)) {
      stp_tools_app(&a, "%s%s", named ? "|" : "", tab[i].name);
      named |= tab[i].val;
    }
  if (v & ~named) stp_tools_app(&a, "%s0x%" PRIx64, named ? "|" : "", v & ~named);
  else if (!v) stp_tools_app(&a, "0");
  return a.len + 1;
}
#define STP_TOOLS_NAME(x) {(uint64_t)(x), #x}
static inline size_t gasnett_format_dt(char *buf, gex_DT_t dt) {
  static const stp_tools_name_t tab[] = {STP_TOOLS_NAME(GEX_DT_I32), STP_TOOLS_NAME(GEX_DT_U32),
                                         STP_TOOLS_NAME(GEX_DT_I64), STP_TOOLS_NAME(GEX_DT_U64),
                                         STP_TOOLS_NAME(GEX_DT_FLT), STP_TOOLS_NAME(GEX_DT_DBL),
                                         STP_TOOLS_NAME(GEX_DT_USER)};
  return stp_tools_format_set(buf, dt, tab, sizeof(tab) / sizeof(tab[0]));
}
static inline size_t gasnett_format_op(char *buf, gex_OP_t op) {
  static const stp_tools_name_t tab[] = {
      STP_TOOLS_NAME(GEX_OP_FAND), STP_TOOLS_NAME(GEX_OP_FOR),  STP_TOOLS_NAME(GEX_OP_FXOR),
      STP_TOOLS_NAME(GEX_OP_FADD), STP_TOOLS_NAME(GEX_OP_FSUB), STP_TOOLS_NAME(GEX_OP_FMULT),
      STP_TOOLS_NAME(GEX_OP_FMIN), STP_TOOLS_NAME(GEX_OP_FMAX), STP_TOOLS_NAME(GEX_OP_FINC),
      STP_TOOLS_NAME(GEX_OP_FDEC), STP_TOOLS_NAME(GEX_OP_SWAP), STP_TOOLS_NAME(GEX_OP_FCAS),
      STP_TOOLS_NAME(GEX_OP_GET),  STP_TOOLS_NAME(GEX_OP_AND),  STP_TOOLS_NAME(GEX_OP_OR),
      STP_TOOLS_NAME(GEX_OP_XOR),  STP_TOOLS_NAME(GEX_OP_ADD),  STP_TOOLS_NAME(GEX_OP_SUB),
      STP_TOOLS_NAME(GEX_OP_MULT), STP_TOOLS_NAME(GEX_OP_MIN),  STP_TOOLS_NAME(GEX_OP_MAX),
      STP_TOOLS_NAME(GEX_OP_INC),  STP_TOOLS_NAME(GEX_OP_DEC),  STP_TOOLS_NAME(GEX_OP_SET),
      STP_TOOLS_NAME(GEX_OP_CAS),  STP_TOOLS_NAME(GEX_OP_USER), STP_TOOLS_NAME(GEX_OP_USER_NC)};
  return stp_tools_format_set(buf, op, tab, sizeof(tab) / sizeof(tab[0]));
}
static inline size_t gasnett_format_ti(char *buf, gex_TI_t ti) {
  static const stp_tools_name_t tab[] = {STP_TOOLS_NAME(GEX_TI_SRCRANK), STP_TOOLS_NAME(GEX_TI_EP),
                                         STP_TOOLS_NAME(GEX_TI_ENTRY), STP_TOOLS_NAME(GEX_TI_IS_REQ),
                                         STP_TOOLS_NAME(GEX_TI_IS_LONG)};
  return stp_tools_format_set(buf, ti, tab, sizeof(tab) / sizeof(tab[0]));
}
#endif /* _GASNETEX_H */

/* ------------------------------------------------------------------ */
/* tracing and statistics: stageport has none.  As in a GASNet build     */
/* without --enable-trace/--enable-stats: the printf forms check their  */
/* format and evaluate their arguments, then do nothing; the rest are   */
/* constants or do nothing (STATS_INIT is 0: no callback registered).   */
/* ------------------------------------------------------------------ */
__attribute__((__format__(__printf__, 1, 2))) static inline void stp_tools_trace_noop(const char *fmt, ...) {
  (void)fmt;
}
#define GASNETT_TRACE_ENABLED 0
#define GASNETT_STATS_ENABLED 0
#define GASNETT_TRACE_PRINTF stp_tools_trace_noop
#define GASNETT_TRACE_PRINTF_FORCE stp_tools_trace_noop
#define GASNETT_STATS_PRINTF stp_tools_trace_noop
#define GASNETT_STATS_PRINTF_FORCE stp_tools_trace_noop
#define GASNETT_TRACE_SETMASK(mask) ((void)0)
#define GASNETT_TRACE_GETMASK() ""
#define GASNETT_STATS_SETMASK(mask) ((void)0)
#define GASNETT_STATS_GETMASK() ""
#define GASNETT_STATS_INIT(callbackfn) 0
#define GASNETT_STATS_DUMP(reset) ((void)0)
#define GASNETT_TRACE_SET_TRACELOCAL(val) ((void)0)
#define GASNETT_TRACE_GET_TRACELOCAL() 0
#define GASNETT_TRACE_SETSOURCELINE(file, line) ((void)0)
#define GASNETT_TRACE_GETSOURCELINE(pfile, pline) ((void)0)
#define GASNETT_TRACE_FREEZESOURCELINE() ((void)0)
#define GASNETT_TRACE_UNFREEZESOURCELINE() ((void)0)

#ifdef __cplusplus
}
#endif

#endif /* GASNET_TOOLS_H */
