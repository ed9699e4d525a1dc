/* gasnet_extended.h: the GASNet-1 extended API (spec 7) and barriers
 * (spec 8). Included by gasnet.h; not for direct inclusion. Every error in
 * these calls is fatal, with a message naming the node, the call and the
 * bad value. */
#ifndef _GASNET_EXTENDED_H
#define _GASNET_EXTENDED_H

#ifndef _GASNET_H
#error "include gasnet.h, not gasnet_extended.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- blocking (7.2) */
void gasnet_get(void *dest, gasnet_node_t node, void *src, size_t nbytes);
void gasnet_put(gasnet_node_t node, void *dest, void *src, size_t nbytes);
void gasnet_get_bulk(void *dest, gasnet_node_t node, void *src, size_t nbytes);
void gasnet_put_bulk(gasnet_node_t node, void *dest, void *src, size_t nbytes);
void gasnet_memset(gasnet_node_t node, void *dest, int val, size_t nbytes);

/* ---- explicit handle (7.4, 7.5) */
gasnet_handle_t gasnet_get_nb(void *dest, gasnet_node_t node, void *src, size_t nbytes);
gasnet_handle_t gasnet_put_nb(gasnet_node_t node, void *dest, void *src, size_t nbytes);
gasnet_handle_t gasnet_get_nb_bulk(void *dest, gasnet_node_t node, void *src, size_t nbytes);
gasnet_handle_t gasnet_put_nb_bulk(gasnet_node_t node, void *dest, void *src, size_t nbytes);
gasnet_handle_t gasnet_memset_nb(gasnet_node_t node, void *dest, int val, size_t nbytes);

void gasnet_wait_syncnb(gasnet_handle_t handle);
int gasnet_try_syncnb(gasnet_handle_t handle);
void gasnet_wait_syncnb_all(gasnet_handle_t *handles, size_t numhandles);
int gasnet_try_syncnb_all(gasnet_handle_t *handles, size_t numhandles);
void gasnet_wait_syncnb_some(gasnet_handle_t *handles, size_t numhandles);
int gasnet_try_syncnb_some(gasnet_handle_t *handles, size_t numhandles);
int gasnet_try_syncnb_nopoll(gasnet_handle_t handle);
int gasnet_try_syncnb_all_nopoll(gasnet_handle_t *handles, size_t numhandles);
int gasnet_try_syncnb_some_nopoll(gasnet_handle_t *handles, size_t numhandles);

/* ---- implicit handle (7.6, 7.7, 7.8) */
void gasnet_get_nbi(void *dest, gasnet_node_t node, void *src, size_t nbytes);
void gasnet_put_nbi(gasnet_node_t node, void *dest, void *src, size_t nbytes);
void gasnet_get_nbi_bulk(void *dest, gasnet_node_t node, void *src, size_t nbytes);
void gasnet_put_nbi_bulk(gasnet_node_t node, void *dest, void *src, size_t nbytes);
void gasnet_memset_nbi(gasnet_node_t node, void *dest, int val, size_t nbytes);

void gasnet_wait_syncnbi_gets(void);
void gasnet_wait_syncnbi_puts(void);
void gasnet_wait_syncnbi_all(void);
int gasnet_try_syncnbi_gets(void);
int gasnet_try_syncnbi_puts(void);
int gasnet_try_syncnbi_all(void);

void gasnet_begin_nbi_accessregion(void);
gasnet_handle_t gasnet_end_nbi_accessregion(void);

/* ---- register values (7.9) */
void gasnet_put_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                    size_t nbytes);
gasnet_handle_t gasnet_put_nb_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                                  size_t nbytes);
void gasnet_put_nbi_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                        size_t nbytes);
gasnet_register_value_t gasnet_get_val(gasnet_node_t node, void *src, size_t nbytes);
gasnet_valget_handle_t gasnet_get_nb_val(gasnet_node_t node, void *src, size_t nbytes);
gasnet_register_value_t gasnet_wait_syncnb_valget(gasnet_valget_handle_t handle);

/* ---- barriers (8) */
#define GASNET_BARRIERFLAG_ANONYMOUS 1
#define GASNET_BARRIERFLAG_MISMATCH 2
#define GASNET_BARRIERFLAG_IMAGES 4
#define GASNET_BARRIERFLAG_UNNAMED (GASNET_BARRIERFLAG_ANONYMOUS | 8)
void gasnet_barrier_notify(int id, int flags);
int gasnet_barrier_wait(int id, int flags);
int gasnet_barrier_try(int id, int flags);
int gasnet_barrier(int id, int flags);
int gasnet_barrier_result(int *id);

#ifdef __cplusplus
}
#endif
#endif
