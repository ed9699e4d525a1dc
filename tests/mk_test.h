/* The library's test hooks for memory kinds (memkind/memkind.c), for
 * tests/ex_mk.c: not a client API. With the emulated class
 * (GASNETI_MK_CLASS_EMULATED) device memory cannot be touched by host
 * code, so a test reads and writes it only through these copies. */
#ifndef MK_TEST_H
#define MK_TEST_H

#include <gasnet_mk.h>

void *gasneti_mk_test_alloc(gex_MK_t kind, size_t n); /* like cudaMalloc */
void gasneti_mk_test_free(gex_MK_t kind, void *p, size_t n);
void gasneti_mk_test_copy(gex_MK_t dst_kind, void *dst, gex_MK_t src_kind, const void *src, size_t n);
size_t gasneti_mk_test_handle_size(void);
void gasneti_mk_test_export(gex_MK_t kind, void *p, size_t n, void *handle);
void *gasneti_mk_test_import(gex_MK_t kind, const void *handle, size_t n);
void gasneti_mk_test_unimport(gex_MK_t kind, void *p, size_t n);

#endif
