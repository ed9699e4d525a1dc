/* The emulated device class, for tests on machines without a GPU (like
 * tests/fakeverbs for verbs): it proves the library's API use and where
 * it copies, not any hardware behaviour.
 *
 * An allocation is two mappings of one memfd: the "device address" range,
 * reserved with no access (PROT_NONE), which is all the client and the
 * library ever see, and a hidden read-write mapping elsewhere that holds
 * the bytes. Only this class's copy operations translate a device address
 * to the hidden mapping, so any place that dereferences device memory
 * directly faults at once.
 *
 * Export/import (the stand-in for CUDA IPC handles): the handle carries
 * the exporter's pid and memfd number; a process of the same host and
 * user opens /proc/<pid>/fd/<fd>, maps it the same two ways, and gets its
 * own device address for the peer's memory. The memory lives as long as
 * any mapping does.
 *
 * A network card (the ofi and verbs backends) is given the hidden mapping,
 * as a card with GPUDirect RDMA reaches device memory by its own path:
 * the data lands in the device's bytes while the CPU still never touches
 * the device range. It shows that the keys, offsets and completions are
 * right, not that any card or driver accepts device memory.
 */
#include "memkind.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct region {
    char *dev;    /* PROT_NONE: the device address range */
    char *bytes;  /* the hidden read-write mapping */
    size_t size;  /* of both, a whole number of pages */
    int fd;
    int imported;
    struct region *next;
} region_t;

static region_t *regions;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

enum { HANDLE_MAGIC = 0x454d5548 };

static size_t pages(size_t n)
{
    size_t pg = (size_t)GASNET_PAGESIZE;
    return (n + pg - 1) / pg * pg;
}

/* Maps fd both ways and records the region; NULL with why. */
static region_t *map_region(int fd, size_t size, int imported, char *why, size_t whylen)
{
    region_t *r = calloc(1, sizeof *r);
    void *bytes = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    void *dev = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (!r || bytes == MAP_FAILED || dev == MAP_FAILED) {
        snprintf(why, whylen, "mapping %zu bytes of emulated device memory failed: %s", size,
                 strerror(errno));
        if (bytes != MAP_FAILED) munmap(bytes, size);
        if (dev != MAP_FAILED) munmap(dev, size);
        free(r);
        return NULL;
    }
    *r = (region_t){dev, bytes, size, fd, imported, NULL};
    pthread_mutex_lock(&lock);
    r->next = regions;
    regions = r;
    pthread_mutex_unlock(&lock);
    return r;
}

/* The region holding [p, p+n) (NULL: none), with unlink set: removed. */
static region_t *find(const void *p, size_t n, int unlink)
{
    uintptr_t a = (uintptr_t)p;
    pthread_mutex_lock(&lock);
    region_t **link = &regions, *r;
    for (r = regions; r; link = &r->next, r = r->next)
        if (a >= (uintptr_t)r->dev && a - (uintptr_t)r->dev < r->size &&
            n <= r->size - (a - (uintptr_t)r->dev))
            break;
    if (r && unlink) *link = r->next;
    pthread_mutex_unlock(&lock);
    return r;
}

static void unmap_region(region_t *r)
{
    munmap(r->dev, r->size);
    munmap(r->bytes, r->size);
    close(r->fd);
    free(r);
}

/* The hidden bytes behind a device range; fatal when it is not one. */
static char *bytes_of(const void *dev, size_t n, const char *what)
{
    region_t *r = find(dev, n, 0);
    if (!r)
        gasneti_fatalerror("emulated device: %s of [%p, +%zu), which is not emulated device memory",
                           what, dev, n);
    return r->bytes + ((const char *)dev - r->dev);
}

static void *emu_alloc(gasneti_mk_t mk, size_t n, char *why, size_t whylen)
{
    (void)mk;
    size_t size = pages(n);
    int fd = memfd_create("gasnet-emulated-device", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
        snprintf(why, whylen, "memfd for %zu bytes of emulated device memory: %s", size,
                 strerror(errno));
        if (fd >= 0) close(fd);
        return NULL;
    }
    region_t *r = map_region(fd, size, 0, why, whylen);
    if (!r) close(fd);
    return r ? r->dev : NULL;
}

static void emu_free(gasneti_mk_t mk, void *p, size_t n)
{
    (void)mk, (void)n;
    region_t *r = find(p, 1, 1);
    if (!r || r->dev != p || r->imported)
        gasneti_fatalerror("emulated device: free of %p, which is not an allocation", p);
    unmap_region(r);
}

static int emu_owns(gasneti_mk_t mk, const void *p, size_t n)
{
    (void)mk;
    region_t *r = find(p, n, 0);
    return r && !r->imported;
}

static void emu_to_host(gasneti_mk_t mk, void *host, const void *dev, size_t n)
{
    (void)mk;
    memcpy(host, bytes_of(dev, n, "a copy to the host"), n);
}
static void emu_from_host(gasneti_mk_t mk, void *dev, const void *host, size_t n)
{
    (void)mk;
    memcpy(bytes_of(dev, n, "a copy from the host"), host, n);
}
static void emu_dev_to_dev(gasneti_mk_t mk, void *dst, const void *src, size_t n)
{
    (void)mk;
    memmove(bytes_of(dst, n, "a device copy"), bytes_of(src, n, "a device copy"), n);
}

static int emu_export(gasneti_mk_t mk, void *p, size_t n, gasneti_mk_handle_t *h, char *why,
                      size_t whylen)
{
    (void)mk;
    region_t *r = find(p, n, 0);
    if (!r) {
        snprintf(why, whylen, "[%p, +%zu) is not emulated device memory", p, n);
        return -1;
    }
    memset(h, 0, sizeof *h);
    h->words[0] = HANDLE_MAGIC;
    h->words[1] = (uint64_t)getpid();
    h->words[2] = (uint64_t)r->fd;
    h->words[3] = r->size;
    h->words[4] = (uint64_t)((char *)p - r->dev);
    return 0;
}

static void *emu_import(gasneti_mk_t mk, const gasneti_mk_handle_t *h, size_t n, char *why,
                        size_t whylen)
{
    (void)mk;
    if (h->words[0] != HANDLE_MAGIC || h->words[4] > h->words[3] || n > h->words[3] - h->words[4]) {
        snprintf(why, whylen, "not a handle of the emulated device class");
        return NULL;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/%llu/fd/%llu", (unsigned long long)h->words[1],
             (unsigned long long)h->words[2]);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, whylen, "opening the peer's emulated device memory %s: %s", path,
                 strerror(errno));
        return NULL;
    }
    region_t *r = map_region(fd, (size_t)h->words[3], 1, why, whylen);
    if (!r) {
        close(fd);
        return NULL;
    }
    return r->dev + h->words[4];
}

static void emu_unimport(gasneti_mk_t mk, void *p, size_t n)
{
    (void)mk;
    region_t *r = find(p, n, 1);
    if (!r || !r->imported)
        gasneti_fatalerror("emulated device: unimport of %p, which was not imported", p);
    unmap_region(r);
}

static void emu_sync(gasneti_mk_t mk)
{
    (void)mk;
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* copies are done when they return */
}

/* Asynchronous copies wait in a queue and are made, in order, only when a
 * poll asks a fence behind them the second time whether it is passed: the
 * bytes are not in place, and the source is not read, until the library
 * has seen the copy complete, so a wait the library leaves out shows up as
 * stale data in a test. */
typedef struct queued {
    void *dst;
    const void *src;
    size_t n;
    struct queued *next;
} queued_t;
static queued_t *queue, **queue_end = &queue;
static uint64_t nqueued, nmade; /* copies ever queued, ever made */
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct {
    uint64_t upto; /* the copies before it */
    int asked;
} emu_fence_t;

static void emu_copy_start(gasneti_mk_t mk, void *dst, const void *src, size_t n)
{
    (void)mk;
    (void)bytes_of(dst, n, "a device copy"); /* both must be device memory now */
    (void)bytes_of(src, n, "a device copy");
    queued_t *q = malloc(sizeof *q);
    if (!q) gasneti_fatalerror("emulated device: out of memory queueing a copy");
    *q = (queued_t){dst, src, n, NULL};
    pthread_mutex_lock(&queue_lock);
    *queue_end = q;
    queue_end = &q->next;
    nqueued++;
    pthread_mutex_unlock(&queue_lock);
}

static void *emu_fence(gasneti_mk_t mk)
{
    (void)mk;
    emu_fence_t *f = malloc(sizeof *f);
    if (!f) gasneti_fatalerror("emulated device: out of memory for a fence");
    pthread_mutex_lock(&queue_lock);
    *f = (emu_fence_t){nqueued, 0};
    pthread_mutex_unlock(&queue_lock);
    return f;
}

static int emu_fence_done(gasneti_mk_t mk, void *h)
{
    emu_fence_t *f = h;
    if (++f->asked < 2) return 0;
    pthread_mutex_lock(&queue_lock);
    while (nmade < f->upto) {
        queued_t *q = queue;
        if (!(queue = q->next)) queue_end = &queue;
        emu_dev_to_dev(mk, q->dst, q->src, q->n);
        nmade++;
        free(q);
    }
    pthread_mutex_unlock(&queue_lock);
    free(f);
    return 1;
}

/* "Pinned" memory is plain memory here: the tests then take the library's
 * pinned bounce path too. */
static void *emu_pinned_alloc(gasneti_mk_t mk, size_t n)
{
    (void)mk;
    return malloc(n);
}
static void emu_pinned_free(gasneti_mk_t mk, void *p, size_t n)
{
    (void)mk, (void)n;
    free(p);
}

static int emu_nic_view(gasneti_mk_t mk, void *p, size_t n, gasneti_mk_nic_t *v, char *why,
                        size_t whylen)
{
    (void)mk, (void)why, (void)whylen;
    *v = (gasneti_mk_nic_t){bytes_of(p, n, "network registration"), -1};
    return 0;
}

const gasneti_mk_class_t gasneti_mk_class_emulated = {
    "emulated", NULL, NULL, emu_alloc, emu_free, emu_owns, emu_to_host, emu_from_host,
    emu_dev_to_dev, emu_export, emu_import, emu_unimport, emu_sync, emu_copy_start, emu_fence,
    emu_fence_done, emu_pinned_alloc, emu_pinned_free, emu_nic_view,
};
