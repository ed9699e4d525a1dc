/* The CUDA UVA class: device memory of one CUDA device, through the
 * driver API. libcuda.so.1 is opened at run time (dlopen), so the library
 * builds with the CUDA headers alone and runs on hosts without a GPU or
 * driver; there gex_MK_Create says why the class is unavailable.
 *
 * As the seed requires, every operation runs in the device's primary
 * context, retained at gex_MK_Create (pushed around each call, popped
 * after), and only devices with unified addressing are accepted. Copies
 * are synchronous: cuMemcpyHtoD from pageable memory and cuMemcpyDtoD may
 * return before the bytes are in device memory, and another process (a
 * neighbour reading through its IPC mapping once told the data is there)
 * is not ordered after this context's stream, so both are followed by a
 * context synchronise. The asynchronous device-to-device copy (for
 * operations that complete later) goes on the context's default stream,
 * so it is ordered after the client's work there; a fence is an event
 * (from a small pool) recorded behind the copies, which the poll queries.
 * Export/import are CUDA IPC memory handles of the allocation holding the
 * range, plus the range's offset in it.
 */
#include "memkind.h"

#include <cuda.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* The driver entry points used, with the versioned names cuda.h maps the
 * plain names to. */
#define CUDA_FUNCTIONS(X)                                           \
    X(cuInit, "cuInit")                                             \
    X(cuGetErrorString, "cuGetErrorString")                         \
    X(cuDeviceGetCount, "cuDeviceGetCount")                         \
    X(cuDeviceGet, "cuDeviceGet")                                   \
    X(cuDeviceGetAttribute, "cuDeviceGetAttribute")                 \
    X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")         \
    X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2")    \
    X(cuCtxPushCurrent, "cuCtxPushCurrent_v2")                      \
    X(cuCtxPopCurrent, "cuCtxPopCurrent_v2")                        \
    X(cuCtxSynchronize, "cuCtxSynchronize")                         \
    X(cuMemAlloc, "cuMemAlloc_v2")                                  \
    X(cuMemFree, "cuMemFree_v2")                                    \
    X(cuMemGetAddressRange, "cuMemGetAddressRange_v2")              \
    X(cuMemcpyHtoD, "cuMemcpyHtoD_v2")                              \
    X(cuMemcpyDtoH, "cuMemcpyDtoH_v2")                              \
    X(cuMemcpyDtoD, "cuMemcpyDtoD_v2")                              \
    X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2")                    \
    X(cuMemHostAlloc, "cuMemHostAlloc")                             \
    X(cuMemFreeHost, "cuMemFreeHost")                               \
    X(cuEventCreate, "cuEventCreate")                               \
    X(cuEventDestroy, "cuEventDestroy_v2")                          \
    X(cuEventRecord, "cuEventRecord")                               \
    X(cuEventQuery, "cuEventQuery")                                 \
    X(cuPointerGetAttribute, "cuPointerGetAttribute")               \
    X(cuPointerSetAttribute, "cuPointerSetAttribute")               \
    X(cuIpcGetMemHandle, "cuIpcGetMemHandle")                       \
    X(cuIpcOpenMemHandle, "cuIpcOpenMemHandle_v2")                  \
    X(cuIpcCloseMemHandle, "cuIpcCloseMemHandle")

#define DECLARE(fn, sym) static __typeof__(fn) *p_##fn;
CUDA_FUNCTIONS(DECLARE)

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[200]; /* empty when the driver is usable */

static const char *err_name(CUresult rc)
{
    const char *s = NULL;
    if (p_cuGetErrorString && p_cuGetErrorString(rc, &s) == CUDA_SUCCESS && s) return s;
    return "unknown CUDA error";
}

static void load_driver(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(load_error, sizeof load_error,
                 "the CUDA driver (libcuda.so.1) cannot be loaded: %s", dlerror());
        return;
    }
#define LOAD(fn, sym)                                                                        \
    if (!(p_##fn = (__typeof__(fn) *)dlsym(lib, sym))) {                                      \
        snprintf(load_error, sizeof load_error, "the CUDA driver lacks %s", sym);            \
        return;                                                                               \
    }
    CUDA_FUNCTIONS(LOAD)
    CUresult rc = p_cuInit(0);
    if (rc != CUDA_SUCCESS)
        snprintf(load_error, sizeof load_error, "cuInit failed: %s (CUresult %d)%s", err_name(rc),
                 (int)rc,
                 rc == CUDA_ERROR_STUB_LIBRARY ? ": libcuda.so.1 is the toolkit's stub, not a driver"
                 : rc == CUDA_ERROR_NO_DEVICE  ? ": no CUDA device on this host"
                                               : "");
}

int gasneti_mk_cuda_usable(void)
{
    pthread_once(&load_once, load_driver);
    return !load_error[0];
}

/* Fatal on failure: copies and frees have no error return. */
static void check(CUresult rc, const char *what)
{
    if (rc != CUDA_SUCCESS)
        gasneti_fatalerror("CUDA_UVA memory kind: %s failed: %s (CUresult %d)", what, err_name(rc),
                           (int)rc);
}
/* A kind's state (mk->priv). */
enum { POOL = 64 };
typedef struct {
    CUcontext ctx;             /* the device's primary context */
    pthread_mutex_t lock;      /* for the pool */
    int nfree;
    CUevent free[POOL];        /* events of finished copies, for reuse */
} cuda_kind_t;

static void push(gasneti_mk_t mk)
{
    check(p_cuCtxPushCurrent(((cuda_kind_t *)mk->priv)->ctx), "cuCtxPushCurrent");
}
static void pop(void)
{
    CUcontext c;
    check(p_cuCtxPopCurrent(&c), "cuCtxPopCurrent");
}

static int cuda_create(gasneti_mk_t mk, const gex_MK_Create_args_t *args, char *why, size_t whylen)
{
    (void)args;
    pthread_once(&load_once, load_driver);
    if (load_error[0]) {
        snprintf(why, whylen, "%s", load_error);
        return GASNET_ERR_RESOURCE;
    }
    int count = 0, uva = 0;
    CUdevice dev;
    CUresult rc = p_cuDeviceGetCount(&count);
    if (rc != CUDA_SUCCESS || mk->device < 0 || mk->device >= count) {
        snprintf(why, whylen, "gex_CUdevice %d: this host has %d CUDA device(s)", mk->device, count);
        return GASNET_ERR_BAD_ARG;
    }
    if ((rc = p_cuDeviceGet(&dev, mk->device)) != CUDA_SUCCESS ||
        (rc = p_cuDeviceGetAttribute(&uva, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING, dev)) != CUDA_SUCCESS) {
        snprintf(why, whylen, "querying CUDA device %d: %s", mk->device, err_name(rc));
        return GASNET_ERR_RESOURCE;
    }
    if (!uva) {
        snprintf(why, whylen, "CUDA device %d lacks unified addressing (required by CUDA_UVA)",
                 mk->device);
        return GASNET_ERR_BAD_ARG;
    }
    cuda_kind_t *k = calloc(1, sizeof *k);
    if (!k) {
        snprintf(why, whylen, "out of memory");
        return GASNET_ERR_RESOURCE;
    }
    if ((rc = p_cuDevicePrimaryCtxRetain(&k->ctx, dev)) != CUDA_SUCCESS) {
        snprintf(why, whylen, "retaining the primary context of CUDA device %d: %s", mk->device,
                 err_name(rc));
        free(k);
        return GASNET_ERR_RESOURCE;
    }
    pthread_mutex_init(&k->lock, NULL);
    mk->priv = k;
    return GASNET_OK;
}

static void cuda_destroy(gasneti_mk_t mk)
{
    cuda_kind_t *k = mk->priv;
    CUdevice dev;
    push(mk);
    for (int i = 0; i < k->nfree; i++) p_cuEventDestroy(k->free[i]);
    pop();
    if (p_cuDeviceGet(&dev, mk->device) == CUDA_SUCCESS) p_cuDevicePrimaryCtxRelease(dev);
    pthread_mutex_destroy(&k->lock);
    free(k);
}

static void *cuda_alloc(gasneti_mk_t mk, size_t n, char *why, size_t whylen)
{
    CUdeviceptr d = 0;
    push(mk);
    CUresult rc = p_cuMemAlloc(&d, n);
    pop();
    if (rc != CUDA_SUCCESS) {
        snprintf(why, whylen, "cuMemAlloc of %zu bytes on CUDA device %d: %s", n, mk->device,
                 err_name(rc));
        return NULL;
    }
    return (void *)(uintptr_t)d;
}

static void cuda_free(gasneti_mk_t mk, void *p, size_t n)
{
    (void)n;
    push(mk);
    check(p_cuMemFree((CUdeviceptr)(uintptr_t)p), "cuMemFree");
    pop();
}

static int cuda_owns(gasneti_mk_t mk, const void *p, size_t n)
{
    unsigned type = 0;
    int ordinal = -1;
    CUdeviceptr base = 0, d = (CUdeviceptr)(uintptr_t)p;
    size_t size = 0;
    push(mk);
    int ok = p_cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d) == CUDA_SUCCESS &&
             type == CU_MEMORYTYPE_DEVICE &&
             p_cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, d) == CUDA_SUCCESS &&
             ordinal == mk->device && p_cuMemGetAddressRange(&base, &size, d) == CUDA_SUCCESS &&
             n <= size - (d - base);
    pop();
    return ok;
}

static void cuda_to_host(gasneti_mk_t mk, void *host, const void *dev, size_t n)
{
    push(mk);
    check(p_cuMemcpyDtoH(host, (CUdeviceptr)(uintptr_t)dev, n), "cuMemcpyDtoH");
    pop();
}
static void cuda_from_host(gasneti_mk_t mk, void *dev, const void *host, size_t n)
{
    push(mk);
    check(p_cuMemcpyHtoD((CUdeviceptr)(uintptr_t)dev, host, n), "cuMemcpyHtoD");
    check(p_cuCtxSynchronize(), "cuCtxSynchronize");
    pop();
}
static void cuda_dev_to_dev(gasneti_mk_t mk, void *dst, const void *src, size_t n)
{
    push(mk);
    check(p_cuMemcpyDtoD((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, n), "cuMemcpyDtoD");
    check(p_cuCtxSynchronize(), "cuCtxSynchronize");
    pop();
}

/* words[0..7]: the CUipcMemHandle (64 bytes); words[8]: the offset. */
static int cuda_export(gasneti_mk_t mk, void *p, size_t n, gasneti_mk_handle_t *h, char *why,
                       size_t whylen)
{
    CUdeviceptr base = 0, d = (CUdeviceptr)(uintptr_t)p;
    size_t size = 0;
    CUipcMemHandle ipc;
    _Static_assert(sizeof ipc <= 8 * sizeof(uint64_t), "CUipcMemHandle fits the handle");
    push(mk);
    CUresult rc = p_cuMemGetAddressRange(&base, &size, d);
    if (rc == CUDA_SUCCESS) rc = p_cuIpcGetMemHandle(&ipc, base);
    pop();
    if (rc != CUDA_SUCCESS) {
        snprintf(why, whylen, "cuIpcGetMemHandle for [%p, +%zu): %s", p, n, err_name(rc));
        return -1;
    }
    memset(h, 0, sizeof *h);
    memcpy(h->words, &ipc, sizeof ipc);
    h->words[8] = (uint64_t)(d - base);
    return 0;
}

static void *cuda_import(gasneti_mk_t mk, const gasneti_mk_handle_t *h, size_t n, char *why,
                         size_t whylen)
{
    (void)n;
    CUipcMemHandle ipc;
    CUdeviceptr d = 0;
    memcpy(&ipc, h->words, sizeof ipc);
    push(mk);
    CUresult rc = p_cuIpcOpenMemHandle(&d, ipc, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    pop();
    if (rc != CUDA_SUCCESS) {
        snprintf(why, whylen, "cuIpcOpenMemHandle: %s", err_name(rc));
        return NULL;
    }
    return (void *)(uintptr_t)(d + h->words[8]);
}

static void cuda_unimport(gasneti_mk_t mk, void *p, size_t n)
{
    (void)n;
    CUdeviceptr base = 0;
    size_t size = 0;
    push(mk);
    check(p_cuMemGetAddressRange(&base, &size, (CUdeviceptr)(uintptr_t)p), "cuMemGetAddressRange");
    check(p_cuIpcCloseMemHandle(base), "cuIpcCloseMemHandle");
    pop();
}

static void cuda_sync(gasneti_mk_t mk)
{
    push(mk);
    check(p_cuCtxSynchronize(), "cuCtxSynchronize");
    pop();
}

static void cuda_copy_start(gasneti_mk_t mk, void *dst, const void *src, size_t n)
{
    push(mk);
    check(p_cuMemcpyDtoDAsync((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)(uintptr_t)src, n, NULL),
          "cuMemcpyDtoDAsync");
    pop();
}

static void *cuda_fence(gasneti_mk_t mk)
{
    cuda_kind_t *k = mk->priv;
    CUevent ev = NULL;
    pthread_mutex_lock(&k->lock);
    if (k->nfree) ev = k->free[--k->nfree];
    pthread_mutex_unlock(&k->lock);
    push(mk);
    if (!ev) check(p_cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    check(p_cuEventRecord(ev, NULL), "cuEventRecord");
    pop();
    return ev;
}

static int cuda_fence_done(gasneti_mk_t mk, void *h)
{
    cuda_kind_t *k = mk->priv;
    CUevent ev = h;
    push(mk);
    CUresult rc = p_cuEventQuery(ev);
    if (rc != CUDA_ERROR_NOT_READY) check(rc, "cuEventQuery");
    if (rc == CUDA_SUCCESS) {
        pthread_mutex_lock(&k->lock);
        if (k->nfree < POOL) k->free[k->nfree++] = ev, ev = NULL;
        pthread_mutex_unlock(&k->lock);
        if (ev) p_cuEventDestroy(ev);
    }
    pop();
    return rc == CUDA_SUCCESS;
}

static void *cuda_pinned_alloc(gasneti_mk_t mk, size_t n)
{
    void *p = NULL;
    push(mk);
    if (p_cuMemHostAlloc(&p, n, CU_MEMHOSTALLOC_PORTABLE) != CUDA_SUCCESS) p = NULL;
    pop();
    return p;
}
static void cuda_pinned_free(gasneti_mk_t mk, void *p, size_t n)
{
    (void)n;
    push(mk);
    check(p_cuMemFreeHost(p), "cuMemFreeHost");
    pop();
}

/* GPUDirect RDMA: the card writes device memory behind the copy engines'
 * back, so the allocation is marked for synchronous memory operations
 * (later copies see what the card wrote). Whether the card can register
 * it at all (FI_HMEM, the peer-memory driver) the backend finds out. */
static int cuda_nic_view(gasneti_mk_t mk, void *p, size_t n, gasneti_mk_nic_t *v, char *why,
                         size_t whylen)
{
    (void)n;
    unsigned one = 1;
    push(mk);
    CUresult rc = p_cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS,
                                          (CUdeviceptr)(uintptr_t)p);
    pop();
    if (rc != CUDA_SUCCESS) {
        snprintf(why, whylen, "cuPointerSetAttribute(SYNC_MEMOPS) failed: %s", err_name(rc));
        return -1;
    }
    *v = (gasneti_mk_nic_t){p, mk->device};
    return 0;
}

const gasneti_mk_class_t gasneti_mk_class_cuda_uva = {
    "CUDA_UVA", cuda_create, cuda_destroy, cuda_alloc, cuda_free, cuda_owns, cuda_to_host,
    cuda_from_host, cuda_dev_to_dev, cuda_export, cuda_import, cuda_unimport, cuda_sync,
    cuda_copy_start, cuda_fence, cuda_fence_done, cuda_pinned_alloc, cuda_pinned_free,
    cuda_nic_view,
};
