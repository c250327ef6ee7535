/*
 * gasnet_mk.h -- GASNet-EX memory kinds.  stageport has host memory only:
 * every GASNET_HAVE_MK_CLASS_* is 0, GEX_MK_HOST (gasnetex.h) is the only
 * kind, and gex_MK_Create refuses every class (GASNET_ERR_BAD_ARG; host
 * memory needs no kind created).
 */
#ifndef _GASNET_MK_H
#define _GASNET_MK_H

#include "gasnetex.h"

#define GASNET_HAVE_MK_CLASS_CUDA_UVA 0
#define GASNET_HAVE_MK_CLASS_HIP 0
#define GASNET_HAVE_MK_CLASS_ZE 0
#define GASNET_HAVE_MK_CLASS_MULTIPLE 0

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  GEX_MK_CLASS_HOST,
  GEX_MK_CLASS_CUDA_UVA,
  GEX_MK_CLASS_HIP,
  GEX_MK_CLASS_ZE,
  _GEX_MK_CLASS_COUNT
} gex_MK_Class_t;

typedef struct {
  uint64_t gex_flags; /* reserved: 0 */
  gex_MK_Class_t gex_class;
  union {
    struct {
      int gex_CUdevice;
    } gex_class_cuda_uva;
    struct {
      int gex_hipDevice;
    } gex_class_hip;
    struct {
      void *gex_zeDevice;
      void *gex_zeContext;
      uint32_t gex_zeMemoryOrdinal;
    } gex_class_ze;
  } gex_args;
} gex_MK_Create_args_t;

extern int gex_MK_Create(gex_MK_t *memkind_p, gex_Client_t client, const gex_MK_Create_args_t *args, gex_Flags_t flags);
extern void gex_MK_Destroy(gex_MK_t memkind, gex_Flags_t flags);

#ifdef __cplusplus
}
#endif

#endif /* _GASNET_MK_H */
