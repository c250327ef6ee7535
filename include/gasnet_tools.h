/*
 * gasnet_tools.h -- the GASNet-1 tools (gasnett_* names) that clients
 * commonly use, as stageport provides them.
 *
 * Header-only (static inline functions and macros; nothing to link),
 * built on the compilers' __atomic builtins (the C11 memory model),
 * clock_gettime and POSIX; usable with or without gasnet.h (include
 * gasnet.h first when both are used, as GASNet-1 asks), from C and C++.
 * Needs a GCC-compatible compiler (gcc, clang, icx) and POSIX.1-2008
 * declarations (the compilers' default modes, or -D_POSIX_C_SOURCE=200809L
 * with -std=c99).  Semantics as GASNet-1's README-tools describes them,
 * except where stated below.
 *
 * Provided:
 *   timers       gasnett_tick_t, GASNETT_TICK_MIN/_MAX, gasnett_ticks_now(),
 *                gasnett_ticks_to_ns(), gasnett_ticks_to_us(),
 *                gasnett_tick_granularityus(), gasnett_tick_overheadus(),
 *                gasnett_gettimeofday_us()
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
 *                name; the fence flags GASNETT_ATOMIC_NONE, _{R,W,}MB_{PRE,POST},
 *                _RMB_POST_IF_TRUE/_FALSE, _REL, _ACQ, _ACQ_IF_TRUE/_FALSE
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
 *                gasnett_format_number,
 *                gasnett_setenv, gasnett_unsetenv, gasnett_verboseenv
 *   system       gasnett_gethostname, gasnett_cpu_count, gasnett_getPhysMemSz,
 *                gasnett_isLittleEndian, gasnett_sched_yield,
 *                gasnett_flush_streams, gasnett_close_streams,
 *                gasnett_killmyprocess, gasnett_fatalerror, gasnett_reghandler
 *                (gasnett_sighandlerfn_t), gasnett_checksum,
 *                gasnett_count0s, gasnett_count0s_copy,
 *                gasnett_count0s_uint32_t/_uint64_t/_uintptr_t,
 *                gasnett_maximize_rlimit, gasnett_maximize_rlimits,
 *                gasnett_performance_warning_str, gasnett_print_backtrace
 *                (only the client's gasnett_backtrace_user), gasnett_backtrace_init,
 *                gasnett_backtrace_type_t, gasnett_freezeForDebuggerErr
 *                (no-ops); GASNETT_PAGESIZE,
 *                GASNETT_PAGESHIFT, GASNETT_CACHE_LINE_BYTES,
 *                GASNETT_SYSTEM_TUPLE, GASNETT_CONFIG_STRING,
 *                GASNETT_RELEASE_VERSION_* (gasnet_config.h's); of GASNet's
 *                portable platform macros only PLATFORM_COMPILER_{GNU,CLANG,
 *                FAMILYNAME,FAMILYID,VERSION_STR}, PLATFORM_OS_{LINUX,
 *                FAMILYNAME}, PLATFORM_ARCH_{X86_64,AARCH64,X86,POWERPC,
 *                FAMILYNAME,32,64,LITTLE_ENDIAN,BIG_ENDIAN}
 *   annotations  GASNETT_INLINE(fn), GASNETT_ALWAYS_INLINE(fn),
 *                GASNETT_PLEASE_INLINE(fn), GASNETT_NEVER_INLINE(fn, decl),
 *                GASNETT_RESTRICT, GASNETT_USED, GASNETT_UNUSED,
 *                GASNETT_NORETURN, GASNETT_NORETURNP(fn), GASNETT_MALLOC(P),
 *                GASNETT_PURE(P), GASNETT_CONST(P), GASNETT_HOT, GASNETT_COLD,
 *                GASNETT_DEPRECATED, GASNETT_WARN_UNUSED_RESULT,
 *                GASNETT_FORMAT_PRINTF(fn, fmt, first, decl),
 *                GASNETT_FORMAT_PRINTF_FUNCPTR, GASNETT_PREDICT_TRUE/_FALSE,
 *                if_pt, if_pf, gasnett_constant_p, GASNETT_CURRENT_FUNCTION,
 *                GASNETT_BEGIN_EXTERNC, GASNETT_END_EXTERNC, GASNETT_EXTERNC,
 *                GASNETT_IDENT(name, text), and GASNet-1's _STRINGIFY, _CONCAT
 *   tracing      GASNETT_TRACE_* and GASNETT_STATS_* as no-ops (no tracing
 *                in stageport; GASNETT_TRACE_ENABLED is 0)
 *
 * Differences from GASNet-1's tools:
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
 *     report settings (no GASNET_VERBOSEENV); a malformed value is a fatal
 *     error, as in GASNet.
 *   - gasnett_mutex_assert* and gasnett_rwlock_assert* check nothing.
 *
 * Not provided (a client that uses them does not compile):
 * gasnett_print_backtrace_ifenabled,
 * gasnett_freezeForDebuggerNow, gasnett_set_affinity,
 * gasnett_env*_display, gasnett_current_loc, the other PLATFORM_*
 * identification macros, GASNETT_SPEC_VERSION_* (this is a
 * subset, not a tools implementation of some spec version).
 *
 * GASNETT_MAX_THREADS is 256, GASNet's default limit of client threads per
 * process, for clients that size per-thread tables by it; stageport itself
 * sets no limit (GASNET_PAR: any number of threads may call).
 */
#ifndef GASNET_TOOLS_H
#define GASNET_TOOLS_H

#if !defined(__GNUC__)
#error "stageport's gasnet_tools.h needs a GCC-compatible compiler (__atomic builtins, attributes)"
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
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

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
#define GASNETT_CONFIG_STRING "TOOLS=stageport,THREADMODEL=PAR,atomics=builtin,membars=c11,timers=posixrt"

/* A few of GASNet's portable platform identifiers (PLATFORM_*), the ones
 * GASNet-1's test harness prints and tests: compiler, OS, architecture, from
 * the compiler's predefined macros.  (Left alone when GASNet's own
 * portable_platform.h came first.) */
#ifndef _PORTABLE_PLATFORM_H
#if defined(__clang__)
#define PLATFORM_COMPILER_CLANG 1
#define PLATFORM_COMPILER_FAMILYNAME CLANG
#define PLATFORM_COMPILER_FAMILYID 17
#else
#define PLATFORM_COMPILER_GNU 1
#define PLATFORM_COMPILER_FAMILYNAME GNU
#define PLATFORM_COMPILER_FAMILYID 1
#endif
#define PLATFORM_COMPILER_VERSION_STR __VERSION__
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
/* misc: errors, processes, signals, hosts                             */
/* ------------------------------------------------------------------ */
__attribute__((__format__(__printf__, 1, 2), __noreturn__)) static inline void
gasnett_fatalerror(const char *msg, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "*** FATAL ERROR: ");
  va_start(ap, msg);
  vfprintf(stderr, msg, ap);
  va_end(ap);
  fprintf(stderr, "\n");
  fflush(stderr);
  abort();
}

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

typedef void (*gasnett_sighandlerfn_t)(int);
static inline gasnett_sighandlerfn_t gasnett_reghandler(int sigtocatch, gasnett_sighandlerfn_t fp) {
  gasnett_sighandlerfn_t old = signal(sigtocatch, fp);
  if (old == SIG_ERR) gasnett_fatalerror("gasnett_reghandler: cannot register a handler for signal %d", sigtocatch);
  return old;
}

static inline int gasnett_cpu_count(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 0;
}
static inline uint64_t gasnett_getPhysMemSz(int failureIsFatal) {
  long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || psz <= 0) {
    if (failureIsFatal) gasnett_fatalerror("gasnett_getPhysMemSz: the physical memory size is unknown");
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

/* Backtraces: the only mechanism is the client's own.  A client that
 * defines gasnett_backtrace_user (GASNet's extension hook) has
 * gasnett_print_backtrace(fd) call its function, whatever
 * GASNET_BACKTRACE_TYPE says; without one it fails (non-zero), as GASNet's
 * does when no mechanism works. */
typedef struct {
  const char *name;
  int (*fnp)(int fd);
  int threadsupport;
} gasnett_backtrace_type_t;
extern gasnett_backtrace_type_t gasnett_backtrace_user __attribute__((__weak__));
static inline int gasnett_print_backtrace(int fd) {
  if (&gasnett_backtrace_user != NULL && gasnett_backtrace_user.fnp) return gasnett_backtrace_user.fnp(fd);
  return 1;
}
static inline void gasnett_backtrace_init(const char *exename) { (void)exename; }
static inline void gasnett_freezeForDebuggerErr(void) {}

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
  if (setenv(key, value, 1)) gasnett_fatalerror("gasnett_setenv(%s): %s", key, strerror(errno));
}
static inline void gasnett_unsetenv(const char *key) {
  if (unsetenv(key)) gasnett_fatalerror("gasnett_unsetenv(%s): %s", key, strerror(errno));
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
  gasnett_fatalerror("environment variable %s=\"%s\": expected Y, YES, 1, N, NO or 0", keyname, v);
}

/* An integer: with mem_size_multiplier 0, decimal or 0x hex, signed; else a
 * memory size, possibly fractional, with an optional suffix B, K(B), M(B),
 * G(B), T(B) (any case; powers of 1024), mem_size_multiplier being the unit
 * of a bare number.  A malformed string is a fatal error. */
static inline int64_t gasnett_parse_int(const char *str, uint64_t mem_size_multiplier) {
  char *end;
  if (!str) gasnett_fatalerror("gasnett_parse_int: no string");
  errno = 0;
  if (!mem_size_multiplier) {
    long long v = strtoll(str, &end, 0);
    while (*end == ' ' || *end == '\t') end++;
    if (end == str || *end || errno) gasnett_fatalerror("\"%s\" is not an integer", str);
    return (int64_t)v;
  } else {
    double v = strtod(str, &end), unit = (double)mem_size_multiplier;
    while (*end == ' ' || *end == '\t') end++;
    if (end == str || errno) gasnett_fatalerror("\"%s\" is not a memory size", str);
    if (*end) {
      switch (*end) {
        case 'b': case 'B': unit = 1; break;
        case 'k': case 'K': unit = 1024.0; break;
        case 'm': case 'M': unit = 1024.0 * 1024; break;
        case 'g': case 'G': unit = 1024.0 * 1024 * 1024; break;
        case 't': case 'T': unit = 1024.0 * 1024 * 1024 * 1024; break;
        default: gasnett_fatalerror("\"%s\": unknown memory size suffix", str);
      }
      end++;
      if (unit > 1 && (*end == 'b' || *end == 'B')) end++;
      if (*end) gasnett_fatalerror("\"%s\": unknown memory size suffix", str);
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
    if (end == d || y == 0) gasnett_fatalerror("environment variable %s=\"%s\": bad fraction", keyname, v);
    x /= y;
  }
  if (end == v || *end) gasnett_fatalerror("environment variable %s=\"%s\": not a number", keyname, v);
  return x;
}

/* ------------------------------------------------------------------ */
/* mutexes and condition variables (POSIX threads)                     */
/* ------------------------------------------------------------------ */
typedef pthread_mutex_t gasnett_mutex_t;
#define GASNETT_MUTEX_INITIALIZER PTHREAD_MUTEX_INITIALIZER
static inline void stp_tools_check(int rc, const char *what) {
  if (rc) gasnett_fatalerror("%s: %s", what, strerror(rc));
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
/* tracing and statistics: stageport has none, these compile to nothing */
/* ------------------------------------------------------------------ */
#define GASNETT_TRACE_ENABLED 0
#define GASNETT_STATS_ENABLED 0
#define GASNETT_TRACE_PRINTF(...) ((void)0)
#define GASNETT_TRACE_PRINTF_FORCE(...) ((void)0)
#define GASNETT_STATS_PRINTF(...) ((void)0)
#define GASNETT_STATS_PRINTF_FORCE(...) ((void)0)
#define GASNETT_TRACE_SETMASK(mask) ((void)0)
#define GASNETT_TRACE_GETMASK() ""
#define GASNETT_STATS_SETMASK(mask) ((void)0)
#define GASNETT_STATS_GETMASK() ""
#define GASNETT_TRACE_SET_TRACELOCAL(val) ((void)0)
#define GASNETT_TRACE_GET_TRACELOCAL() 0
#define GASNETT_TRACE_SETSOURCELINE(file, line) ((void)0)
#define GASNETT_TRACE_GETSOURCELINE(pfile, pline) ((void)0)
#define GASNETT_TRACE_FREEZESOURCELINE() ((void)0)
#define GASNETT_TRACE_UNFREEZESOURCELINE() ((void)0)

#endif /* GASNET_TOOLS_H */
