/* gasnet_mk.h: GASNet-EX memory kinds (seed 003 §6): creating a kind for
 * one device, to pass to gex_Segment_Create. gex_MK_t, GEX_MK_HOST,
 * gex_MK_Class_t and the GASNET_HAVE_MK_CLASS_* macros come from
 * gasnetex.h. Only basic C types here: no device headers are needed.
 */
#ifndef _GASNET_MK_H
#define _GASNET_MK_H 1

#include <gasnetex.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A tagged union: gex_class picks the member of gex_args. Zero what you do
 * not set (the struct may grow); gex_flags is first and must be 0. */
typedef struct {
    uint64_t gex_flags;
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

/* Not collective. GASNET_OK and *kind_p written, or GASNET_ERR_BAD_ARG for
 * a bad or unsupported request, GASNET_ERR_RESOURCE when the class is built
 * but its device cannot be used here (the reason is printed). */
int gex_MK_Create(gex_MK_t *_kind_p, gex_Client_t _client, const gex_MK_Create_args_t *_args,
                  gex_Flags_t _flags);
void gex_MK_Destroy(gex_MK_t _kind, gex_Flags_t _flags);
/* The reference's queries of a created kind (not GEX_MK_HOST): client
 * data, the flags it was created with (0), its client and class. */
void gex_MK_SetCData(gex_MK_t _kind, const void *_val);
void *gex_MK_QueryCData(gex_MK_t _kind);
gex_Flags_t gex_MK_QueryFlags(gex_MK_t _kind);
gex_Client_t gex_MK_QueryClient(gex_MK_t _kind);
gex_MK_Class_t gex_MK_QueryClass(gex_MK_t _kind);

/* GASNETI_MK_CLASS_EMULATED (gex_MK_Class_t, not part of the spec): an
 * emulated device for this library's tests, no GPU needed. Its device
 * memory is mapped without access at the device address, so host code
 * that touches it faults; the library reaches it only through the class's
 * copy operations (docs/memkinds.md). It takes no gex_args. */

#ifdef __cplusplus
}
#endif

#endif
