/* gasnet.h: the GASNet-1 client API (spec 1.8) for the MPI conduit, a thin
 * layer over the GASNet-EX engine (gasnetex.h, which this header
 * includes): every GASNet-1 call acts on the "legacy" objects, the client
 * gasnet_init (or gex_Client_Init with GEX_FLAG_USES_GASNET1) created, its
 * primordial endpoint and team (gasnet_node_t = jobrank = rank there) and
 * the segment gasnet_attach (or gex_Segment_Attach) bound to that
 * endpoint; gasnet_QueryGexObjects hands them out so one program may use
 * both APIs. GASNet-1 types are the EX types (gasnet_handle_t is
 * gex_Event_t, and so on).
 *
 * The client defines exactly one of GASNET_SEQ, GASNET_PARSYNC, GASNET_PAR
 * before including this header. gasnet_init is renamed after the thread
 * mode and the debug setting, so a client compiled for one mode fails to
 * link against another library instead of misbehaving at run time.
 */
#ifndef _GASNET_H
#define _GASNET_H 1

#include <gasnetex.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GASNET_SPEC_VERSION_MAJOR 1
#define GASNET_SPEC_VERSION_MINOR 8
#define GASNET_VERSION GASNET_SPEC_VERSION_MAJOR

#define gasnet_init GASNETI_INIT_NAME

/* ---- types (spec 2; EX §16.2) */
typedef gex_Rank_t gasnet_node_t;
typedef gex_AM_Index_t gasnet_handler_t;
typedef gex_AM_Arg_t gasnet_handlerarg_t;
typedef gex_Token_t gasnet_token_t;
typedef gex_RMA_Value_t gasnet_register_value_t;
#define SIZEOF_GASNET_REGISTER_VALUE_T SIZEOF_GEX_RMA_VALUE_T
typedef gex_Event_t gasnet_handle_t;
#define GASNET_INVALID_HANDLE GEX_EVENT_INVALID
typedef struct gasneti_valget *gasnet_valget_handle_t;
typedef gex_HSL_t gasnet_hsl_t;
#define GASNET_HSL_INITIALIZER GEX_HSL_INITIALIZER
typedef struct gasneti_handlerentry_s {
    gasnet_handler_t index; /* 0: don't care; overwritten by gasnet_attach */
    void (*fnptr)();
} gasnet_handlerentry_t;
typedef struct {
    void *addr;
    size_t len;
} gasnet_memvec_t;

/* ---- job control (spec 4) */
int gasnet_init(int *_argc, char ***_argv);
int gasnet_attach(gasnet_handlerentry_t *_table, int _numentries, uintptr_t _segsize,
                  uintptr_t _minheapoffset);
#define gasnet_mynode() ((gasnet_node_t)gasneti_mynode)
#define gasnet_nodes() ((gasnet_node_t)gasneti_nodes)
void gasnet_QueryGexObjects(gex_Client_t *_client_p, gex_EP_t *_endpoint_p, gex_TM_t *_tm_p,
                            gex_Segment_t *_segment_p);

/* ---- Active Messages (spec 5): the EX calls on the legacy team */
#define gasnet_AMMaxArgs() ((size_t)gex_AM_MaxArgs())
#define gasnet_AMMaxMedium() ((size_t)gex_AM_LUBRequestMedium())
#define gasnet_AMMaxLongRequest() ((size_t)gex_AM_LUBRequestLong())
#define gasnet_AMMaxLongReply() ((size_t)gex_AM_LUBReplyLong())
int gasnet_AMGetMsgSource(gasnet_token_t _token, gasnet_node_t *_srcindex);

/* ---- no-interrupt sections and handler-safe locks (spec 6) */
void gasnet_hold_interrupts(void);
void gasnet_resume_interrupts(void);
void gasnet_hsl_init(gasnet_hsl_t *_hsl);
void gasnet_hsl_destroy(gasnet_hsl_t *_hsl);
void gasnet_hsl_lock(gasnet_hsl_t *_hsl);
int gasnet_hsl_trylock(gasnet_hsl_t *_hsl);
void gasnet_hsl_unlock(gasnet_hsl_t *_hsl);

/* ---- extended API (spec 7). Errors are fatal, with a message naming the
 * node, the call and the bad value. */
/* Puts and gets try the on-node fast path (gasnet_extended.h) first. */
void gasnete_g1_get(void *_dest, gasnet_node_t _node, void *_src, size_t _nbytes);
void gasnete_g1_put(gasnet_node_t _node, void *_dest, void *_src, size_t _nbytes);
void gasnete_g1_get_bulk(void *_dest, gasnet_node_t _node, void *_src, size_t _nbytes);
void gasnete_g1_put_bulk(gasnet_node_t _node, void *_dest, void *_src, size_t _nbytes);
gasnet_handle_t gasnete_g1_get_nb(void *_dest, gasnet_node_t _node, void *_src, size_t _nbytes);
gasnet_handle_t gasnete_g1_put_nb(gasnet_node_t _node, void *_dest, void *_src, size_t _nbytes);
gasnet_handle_t gasnete_g1_get_nb_bulk(void *_dest, gasnet_node_t _node, void *_src, size_t _nbytes);
gasnet_handle_t gasnete_g1_put_nb_bulk(gasnet_node_t _node, void *_dest, void *_src, size_t _nbytes);
void gasnete_g1_get_nbi(void *_dest, gasnet_node_t _node, void *_src, size_t _nbytes);
void gasnete_g1_put_nbi(gasnet_node_t _node, void *_dest, void *_src, size_t _nbytes);
void gasnete_g1_get_nbi_bulk(void *_dest, gasnet_node_t _node, void *_src, size_t _nbytes);
void gasnete_g1_put_nbi_bulk(gasnet_node_t _node, void *_dest, void *_src, size_t _nbytes);

static inline void gasnet_get(void *_dest, gasnet_node_t _node, void *_src, size_t _nbytes)
{
    if (!gasneti_fast_get(gasneti_tm0, _dest, _node, _src, _nbytes, 0)) gasnete_g1_get(_dest, _node, _src, _nbytes);
}

static inline void gasnet_put(gasnet_node_t _node, void *_dest, void *_src, size_t _nbytes)
{
    if (!gasneti_fast_put(gasneti_tm0, _node, _dest, _src, _nbytes, 0)) gasnete_g1_put(_node, _dest, _src, _nbytes);
}

static inline void gasnet_get_bulk(void *_dest, gasnet_node_t _node, void *_src, size_t _nbytes)
{
    if (!gasneti_fast_get(gasneti_tm0, _dest, _node, _src, _nbytes, 0)) gasnete_g1_get_bulk(_dest, _node, _src, _nbytes);
}

static inline void gasnet_put_bulk(gasnet_node_t _node, void *_dest, void *_src, size_t _nbytes)
{
    if (!gasneti_fast_put(gasneti_tm0, _node, _dest, _src, _nbytes, 0)) gasnete_g1_put_bulk(_node, _dest, _src, _nbytes);
}

static inline gasnet_handle_t gasnet_get_nb(void *_dest, gasnet_node_t _node, void *_src, size_t _nbytes)
{
    if (gasneti_fast_get(gasneti_tm0, _dest, _node, _src, _nbytes, 0)) return GASNET_INVALID_HANDLE;
    return gasnete_g1_get_nb(_dest, _node, _src, _nbytes);
}

static inline gasnet_handle_t gasnet_put_nb(gasnet_node_t _node, void *_dest, void *_src, size_t _nbytes)
{
    if (gasneti_fast_put(gasneti_tm0, _node, _dest, _src, _nbytes, 0)) return GASNET_INVALID_HANDLE;
    return gasnete_g1_put_nb(_node, _dest, _src, _nbytes);
}

static inline gasnet_handle_t gasnet_get_nb_bulk(void *_dest, gasnet_node_t _node, void *_src, size_t _nbytes)
{
    if (gasneti_fast_get(gasneti_tm0, _dest, _node, _src, _nbytes, 0)) return GASNET_INVALID_HANDLE;
    return gasnete_g1_get_nb_bulk(_dest, _node, _src, _nbytes);
}

static inline gasnet_handle_t gasnet_put_nb_bulk(gasnet_node_t _node, void *_dest, void *_src, size_t _nbytes)
{
    if (gasneti_fast_put(gasneti_tm0, _node, _dest, _src, _nbytes, 0)) return GASNET_INVALID_HANDLE;
    return gasnete_g1_put_nb_bulk(_node, _dest, _src, _nbytes);
}

static inline void gasnet_get_nbi(void *_dest, gasnet_node_t _node, void *_src, size_t _nbytes)
{
    if (!gasneti_fast_get(gasneti_tm0, _dest, _node, _src, _nbytes, 0)) gasnete_g1_get_nbi(_dest, _node, _src, _nbytes);
}

static inline void gasnet_put_nbi(gasnet_node_t _node, void *_dest, void *_src, size_t _nbytes)
{
    if (!gasneti_fast_put(gasneti_tm0, _node, _dest, _src, _nbytes, 0)) gasnete_g1_put_nbi(_node, _dest, _src, _nbytes);
}

static inline void gasnet_get_nbi_bulk(void *_dest, gasnet_node_t _node, void *_src, size_t _nbytes)
{
    if (!gasneti_fast_get(gasneti_tm0, _dest, _node, _src, _nbytes, 0)) gasnete_g1_get_nbi_bulk(_dest, _node, _src, _nbytes);
}

static inline void gasnet_put_nbi_bulk(gasnet_node_t _node, void *_dest, void *_src, size_t _nbytes)
{
    if (!gasneti_fast_put(gasneti_tm0, _node, _dest, _src, _nbytes, 0)) gasnete_g1_put_nbi_bulk(_node, _dest, _src, _nbytes);
}

void gasnet_memset(gasnet_node_t _node, void *_dest, int _val, size_t _nbytes);
gasnet_handle_t gasnet_memset_nb(gasnet_node_t _node, void *_dest, int _val, size_t _nbytes);
void gasnet_memset_nbi(gasnet_node_t _node, void *_dest, int _val, size_t _nbytes);

void gasnet_wait_syncnb(gasnet_handle_t _handle);
int gasnet_try_syncnb(gasnet_handle_t _handle);
void gasnet_wait_syncnb_all(gasnet_handle_t *_handles, size_t _numhandles);
int gasnet_try_syncnb_all(gasnet_handle_t *_handles, size_t _numhandles);
void gasnet_wait_syncnb_some(gasnet_handle_t *_handles, size_t _numhandles);
int gasnet_try_syncnb_some(gasnet_handle_t *_handles, size_t _numhandles);
int gasnet_try_syncnb_nopoll(gasnet_handle_t _handle);
int gasnet_try_syncnb_all_nopoll(gasnet_handle_t *_handles, size_t _numhandles);
int gasnet_try_syncnb_some_nopoll(gasnet_handle_t *_handles, size_t _numhandles);

void gasnet_wait_syncnbi_gets(void);
void gasnet_wait_syncnbi_puts(void);
void gasnet_wait_syncnbi_all(void);
int gasnet_try_syncnbi_gets(void);
int gasnet_try_syncnbi_puts(void);
int gasnet_try_syncnbi_all(void);

void gasnet_begin_nbi_accessregion(void);
gasnet_handle_t gasnet_end_nbi_accessregion(void);

void gasnet_put_val(gasnet_node_t _node, void *_dest, gasnet_register_value_t _value, size_t _nbytes);
gasnet_handle_t gasnet_put_nb_val(gasnet_node_t _node, void *_dest, gasnet_register_value_t _value,
                                  size_t _nbytes);
void gasnet_put_nbi_val(gasnet_node_t _node, void *_dest, gasnet_register_value_t _value,
                        size_t _nbytes);
gasnet_register_value_t gasnet_get_val(gasnet_node_t _node, void *_src, size_t _nbytes);
gasnet_valget_handle_t gasnet_get_nb_val(gasnet_node_t _node, void *_src, size_t _nbytes);
gasnet_register_value_t gasnet_wait_syncnb_valget(gasnet_valget_handle_t _handle);

/* ---- GASNet-1 VIS (EX §16.4): the gex_VIS_* calls (gasnet_vis.h) on the
 * legacy team, flags 0, with GASNet-1 names in their error messages.
 * Strided metadata is translated: elemsz = count[0], the EX counts are
 * count[1..stridelevels], and the strides (size_t here) must not
 * transpose: strides[0] >= count[0], strides[i] >= count[i] * strides[i-1]. */
void gasnet_putv_bulk(gasnet_node_t _dstnode, size_t _dstcount, gasnet_memvec_t _dstlist[],
                      size_t _srccount, gasnet_memvec_t _srclist[]);
void gasnet_getv_bulk(size_t _dstcount, gasnet_memvec_t _dstlist[], gasnet_node_t _srcnode,
                      size_t _srccount, gasnet_memvec_t _srclist[]);
void gasnet_puti_bulk(gasnet_node_t _dstnode, size_t _dstcount, void *_dstlist[], size_t _dstlen,
                      size_t _srccount, void *_srclist[], size_t _srclen);
void gasnet_geti_bulk(size_t _dstcount, void *_dstlist[], size_t _dstlen, gasnet_node_t _srcnode,
                      size_t _srccount, void *_srclist[], size_t _srclen);
void gasnet_puts_bulk(gasnet_node_t _dstnode, void *_dstaddr, const size_t _dststrides[],
                      void *_srcaddr, const size_t _srcstrides[], const size_t _count[],
                      size_t _stridelevels);
void gasnet_gets_bulk(void *_dstaddr, const size_t _dststrides[], gasnet_node_t _srcnode,
                      void *_srcaddr, const size_t _srcstrides[], const size_t _count[],
                      size_t _stridelevels);
gasnet_handle_t gasnet_putv_nb_bulk(gasnet_node_t _dstnode, size_t _dstcount,
                                    gasnet_memvec_t _dstlist[], size_t _srccount,
                                    gasnet_memvec_t _srclist[]);
gasnet_handle_t gasnet_getv_nb_bulk(size_t _dstcount, gasnet_memvec_t _dstlist[],
                                    gasnet_node_t _srcnode, size_t _srccount,
                                    gasnet_memvec_t _srclist[]);
gasnet_handle_t gasnet_puti_nb_bulk(gasnet_node_t _dstnode, size_t _dstcount, void *_dstlist[],
                                    size_t _dstlen, size_t _srccount, void *_srclist[],
                                    size_t _srclen);
gasnet_handle_t gasnet_geti_nb_bulk(size_t _dstcount, void *_dstlist[], size_t _dstlen,
                                    gasnet_node_t _srcnode, size_t _srccount, void *_srclist[],
                                    size_t _srclen);
gasnet_handle_t gasnet_puts_nb_bulk(gasnet_node_t _dstnode, void *_dstaddr,
                                    const size_t _dststrides[], void *_srcaddr,
                                    const size_t _srcstrides[], const size_t _count[],
                                    size_t _stridelevels);
gasnet_handle_t gasnet_gets_nb_bulk(void *_dstaddr, const size_t _dststrides[],
                                    gasnet_node_t _srcnode, void *_srcaddr,
                                    const size_t _srcstrides[], const size_t _count[],
                                    size_t _stridelevels);
void gasnet_putv_nbi_bulk(gasnet_node_t _dstnode, size_t _dstcount, gasnet_memvec_t _dstlist[],
                          size_t _srccount, gasnet_memvec_t _srclist[]);
void gasnet_getv_nbi_bulk(size_t _dstcount, gasnet_memvec_t _dstlist[], gasnet_node_t _srcnode,
                          size_t _srccount, gasnet_memvec_t _srclist[]);
void gasnet_puti_nbi_bulk(gasnet_node_t _dstnode, size_t _dstcount, void *_dstlist[],
                          size_t _dstlen, size_t _srccount, void *_srclist[], size_t _srclen);
void gasnet_geti_nbi_bulk(size_t _dstcount, void *_dstlist[], size_t _dstlen,
                          gasnet_node_t _srcnode, size_t _srccount, void *_srclist[],
                          size_t _srclen);
void gasnet_puts_nbi_bulk(gasnet_node_t _dstnode, void *_dstaddr, const size_t _dststrides[],
                          void *_srcaddr, const size_t _srcstrides[], const size_t _count[],
                          size_t _stridelevels);
void gasnet_gets_nbi_bulk(void *_dstaddr, const size_t _dststrides[], gasnet_node_t _srcnode,
                          void *_srcaddr, const size_t _srcstrides[], const size_t _count[],
                          size_t _stridelevels);

/* GASNet-1's barrier flag for images (no longer in EX) */
#define GASNET_BARRIERFLAG_IMAGES 4

/* ---- the numbered AM families, as EX calls on the legacy team; each
 * returns 0 or a GASNET_ERR_* code */

#define gasnet_AMRequestShort0(_d, h) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 0)
#define gasnet_AMRequestShort1(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMRequestShort2(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMRequestShort3(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMRequestShort4(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMRequestShort5(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMRequestShort6(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMRequestShort7(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMRequestShort8(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMRequestShort9(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMRequestShort10(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMRequestShort11(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMRequestShort12(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMRequestShort13(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMRequestShort14(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMRequestShort15(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMRequestShort16(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gasnet_AMRequestMedium0(_d, h, _s, _n) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 0)
#define gasnet_AMRequestMedium1(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMRequestMedium2(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMRequestMedium3(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMRequestMedium4(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMRequestMedium5(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMRequestMedium6(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMRequestMedium7(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMRequestMedium8(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMRequestMedium9(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMRequestMedium10(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMRequestMedium11(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMRequestMedium12(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMRequestMedium13(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMRequestMedium14(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMRequestMedium15(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMRequestMedium16(_d, h, _s, _n, ...) gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gasnet_AMRequestLong0(_d, h, _s, _n, a) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 0)
#define gasnet_AMRequestLong1(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMRequestLong2(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMRequestLong3(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMRequestLong4(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMRequestLong5(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMRequestLong6(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMRequestLong7(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMRequestLong8(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMRequestLong9(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMRequestLong10(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMRequestLong11(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMRequestLong12(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMRequestLong13(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMRequestLong14(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMRequestLong15(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMRequestLong16(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gasnet_AMRequestLongAsync0(_d, h, _s, _n, a) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 0)
#define gasnet_AMRequestLongAsync1(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMRequestLongAsync2(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMRequestLongAsync3(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMRequestLongAsync4(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMRequestLongAsync5(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMRequestLongAsync6(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMRequestLongAsync7(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMRequestLongAsync8(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMRequestLongAsync9(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMRequestLongAsync10(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMRequestLongAsync11(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMRequestLongAsync12(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMRequestLongAsync13(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMRequestLongAsync14(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMRequestLongAsync15(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMRequestLongAsync16(_d, h, _s, _n, a, ...) gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gasnet_AMReplyShort0(t, h) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 0)
#define gasnet_AMReplyShort1(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMReplyShort2(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMReplyShort3(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMReplyShort4(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMReplyShort5(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMReplyShort6(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMReplyShort7(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMReplyShort8(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMReplyShort9(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMReplyShort10(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMReplyShort11(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMReplyShort12(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMReplyShort13(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMReplyShort14(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMReplyShort15(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMReplyShort16(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gasnet_AMReplyMedium0(t, h, _s, _n) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 0)
#define gasnet_AMReplyMedium1(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMReplyMedium2(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMReplyMedium3(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMReplyMedium4(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMReplyMedium5(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMReplyMedium6(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMReplyMedium7(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMReplyMedium8(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMReplyMedium9(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMReplyMedium10(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMReplyMedium11(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMReplyMedium12(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMReplyMedium13(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMReplyMedium14(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMReplyMedium15(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMReplyMedium16(t, h, _s, _n, ...) gasnetc_AMReplyMedium(t, h, _s, _n, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gasnet_AMReplyLong0(t, h, _s, _n, a) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 0)
#define gasnet_AMReplyLong1(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMReplyLong2(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMReplyLong3(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMReplyLong4(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMReplyLong5(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMReplyLong6(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMReplyLong7(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMReplyLong8(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMReplyLong9(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMReplyLong10(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMReplyLong11(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMReplyLong12(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMReplyLong13(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMReplyLong14(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMReplyLong15(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMReplyLong16(t, h, _s, _n, a, ...) gasnetc_AMReplyLong(t, h, _s, _n, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, 16 GASNETI_ARGS16(__VA_ARGS__))

/* Reference extension: unnumbered forms taking the argument count first
 * (the arguments are not cast: pass ints). */
#define gasnet_AMRequestShort(_d, h, ...) gasnetc_AMRequestShort(gasneti_tm0, _d, h, GASNETI_FLAG_LEGACY_CALL, __VA_ARGS__)
#define gasnet_AMRequestMedium(_d, h, _s, nb, ...) \
    gasnetc_AMRequestMedium(gasneti_tm0, _d, h, _s, nb, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, __VA_ARGS__)
#define gasnet_AMRequestLong(_d, h, _s, nb, a, ...) \
    gasnetc_AMRequestLong(gasneti_tm0, _d, h, _s, nb, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, __VA_ARGS__)
#define gasnet_AMRequestLongAsync gasnet_AMRequestLong
#define gasnet_AMReplyShort(t, h, ...) gasnetc_AMReplyShort(t, h, GASNETI_FLAG_LEGACY_CALL, __VA_ARGS__)
#define gasnet_AMReplyMedium(t, h, _s, nb, ...) \
    gasnetc_AMReplyMedium(t, h, _s, nb, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, __VA_ARGS__)
#define gasnet_AMReplyLong(t, h, _s, nb, a, ...) \
    gasnetc_AMReplyLong(t, h, _s, nb, a, GEX_EVENT_NOW, GASNETI_FLAG_LEGACY_CALL, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

/* -DGASNET_SRCLINES: the GASNet-1 calls record the client's source line
 * too (gasnetex.h has the rest). */
#if defined(GASNET_SRCLINES) && (!defined(__cplusplus) || __cplusplus >= 201103L)
#define gasnet_get(...) (GASNETI_SRCLINE_HERE, gasnet_get(__VA_ARGS__))
#define gasnet_put(...) (GASNETI_SRCLINE_HERE, gasnet_put(__VA_ARGS__))
#define gasnet_get_bulk(...) (GASNETI_SRCLINE_HERE, gasnet_get_bulk(__VA_ARGS__))
#define gasnet_put_bulk(...) (GASNETI_SRCLINE_HERE, gasnet_put_bulk(__VA_ARGS__))
#define gasnet_get_nb(...) (GASNETI_SRCLINE_HERE, gasnet_get_nb(__VA_ARGS__))
#define gasnet_put_nb(...) (GASNETI_SRCLINE_HERE, gasnet_put_nb(__VA_ARGS__))
#define gasnet_get_nb_bulk(...) (GASNETI_SRCLINE_HERE, gasnet_get_nb_bulk(__VA_ARGS__))
#define gasnet_put_nb_bulk(...) (GASNETI_SRCLINE_HERE, gasnet_put_nb_bulk(__VA_ARGS__))
#define gasnet_get_nbi(...) (GASNETI_SRCLINE_HERE, gasnet_get_nbi(__VA_ARGS__))
#define gasnet_put_nbi(...) (GASNETI_SRCLINE_HERE, gasnet_put_nbi(__VA_ARGS__))
#define gasnet_get_nbi_bulk(...) (GASNETI_SRCLINE_HERE, gasnet_get_nbi_bulk(__VA_ARGS__))
#define gasnet_put_nbi_bulk(...) (GASNETI_SRCLINE_HERE, gasnet_put_nbi_bulk(__VA_ARGS__))
#define gasnet_wait_syncnb(...) (GASNETI_SRCLINE_HERE, gasnet_wait_syncnb(__VA_ARGS__))
#define gasnet_wait_syncnb_all(...) (GASNETI_SRCLINE_HERE, gasnet_wait_syncnb_all(__VA_ARGS__))
#define gasnet_wait_syncnb_some(...) (GASNETI_SRCLINE_HERE, gasnet_wait_syncnb_some(__VA_ARGS__))
#define gasnet_wait_syncnbi_gets(...) (GASNETI_SRCLINE_HERE, gasnet_wait_syncnbi_gets(__VA_ARGS__))
#define gasnet_wait_syncnbi_puts(...) (GASNETI_SRCLINE_HERE, gasnet_wait_syncnbi_puts(__VA_ARGS__))
#define gasnet_wait_syncnbi_all(...) (GASNETI_SRCLINE_HERE, gasnet_wait_syncnbi_all(__VA_ARGS__))
#define gasnet_put_val(...) (GASNETI_SRCLINE_HERE, gasnet_put_val(__VA_ARGS__))
#define gasnet_get_val(...) (GASNETI_SRCLINE_HERE, gasnet_get_val(__VA_ARGS__))
#define gasnet_memset(...) (GASNETI_SRCLINE_HERE, gasnet_memset(__VA_ARGS__))
#endif

#endif
