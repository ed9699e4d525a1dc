/* gasnet_core.h: the GASNet-1 core API of the MPI conduit (spec 4-6):
 * job control, environment queries, Active Messages, no-interrupt sections
 * and handler-safe locks. Included by gasnet.h; not for direct inclusion.
 *
 * The numbered AM calls (gasnet_AMRequestShort0..16 and the other six
 * families) are macros over one variadic function per family; each
 * argument is evaluated once and cast to gasnet_handlerarg_t.
 */
#ifndef _GASNET_CORE_H
#define _GASNET_CORE_H

#ifndef _GASNET_H
#error "include gasnet.h, not gasnet_core.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- job control and queries (spec 4) */
int gasnet_init(int *argc, char ***argv);
int gasnet_attach(gasnet_handlerentry_t *table, int numentries, uintptr_t segsize,
                  uintptr_t minheapoffset);
uintptr_t gasnet_getMaxLocalSegmentSize(void);
uintptr_t gasnet_getMaxGlobalSegmentSize(void);
void gasnet_exit(int exitcode) __attribute__((__noreturn__));
int gasnet_getSegmentInfo(gasnet_seginfo_t *seginfo_table, int numentries);
int gasnet_getNodeInfo(gasnet_nodeinfo_t *nodeinfo_table, int numentries);
char *gasnet_getenv(const char *name);

extern gasnet_node_t gasneti_mynode, gasneti_nodes;
#define gasnet_mynode() ((gasnet_node_t)gasneti_mynode)
#define gasnet_nodes() ((gasnet_node_t)gasneti_nodes)

#define GASNET_WAIT_SPIN 0
#define GASNET_WAIT_BLOCK 1
#define GASNET_WAIT_SPINBLOCK 2
int gasnet_set_waitmode(int wait_mode);

/* Reference extensions a client may set before gasnet_attach. */
extern void (*gasnet_client_attach_hook)(void *segbase, uintptr_t segsize);
extern uint64_t gasnet_max_segsize;

/* ---- Active Messages (spec 5) */
#define gasnet_AMMaxArgs() ((size_t)16)
#define gasnet_AMMaxMedium() ((size_t)65000)
#define gasnet_AMMaxLongRequest() ((size_t)1048576)
#define gasnet_AMMaxLongReply() ((size_t)65000)

int gasnetc_AMRequestShortM(gasnet_node_t dest, gasnet_handler_t handler, int numargs, ...);
int gasnetc_AMRequestMediumM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                             size_t nbytes, int numargs, ...);
int gasnetc_AMRequestLongM(gasnet_node_t dest, gasnet_handler_t handler, void *source_addr,
                           size_t nbytes, void *dest_addr, int numargs, ...);
int gasnetc_AMRequestLongAsyncM(gasnet_node_t dest, gasnet_handler_t handler,
                                void *source_addr, size_t nbytes, void *dest_addr,
                                int numargs, ...);
int gasnetc_AMReplyShortM(gasnet_token_t token, gasnet_handler_t handler, int numargs, ...);
int gasnetc_AMReplyMediumM(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                           size_t nbytes, int numargs, ...);
int gasnetc_AMReplyLongM(gasnet_token_t token, gasnet_handler_t handler, void *source_addr,
                         size_t nbytes, void *dest_addr, int numargs, ...);

int gasnet_AMPoll(void);
int gasnet_AMGetMsgSource(gasnet_token_t token, gasnet_node_t *srcindex);

/* Polls until cond holds; yields the CPU while nothing arrives for a while
 * (see gasnet_set_waitmode). */
void gasnetc_block_poll(int *idle);
#define GASNET_BLOCKUNTIL(cond)                           \
    do {                                                  \
        int gasneti_blockuntil_idle = 0;                  \
        while (!(cond)) gasnetc_block_poll(&gasneti_blockuntil_idle); \
    } while (0)

/* ---- no-interrupt sections and handler-safe locks (spec 6) */
void gasnet_hold_interrupts(void);
void gasnet_resume_interrupts(void);
void gasnet_hsl_init(gasnet_hsl_t *hsl);
void gasnet_hsl_destroy(gasnet_hsl_t *hsl);
void gasnet_hsl_lock(gasnet_hsl_t *hsl);
int gasnet_hsl_trylock(gasnet_hsl_t *hsl);
void gasnet_hsl_unlock(gasnet_hsl_t *hsl);

/* ---- the numbered AM families */
#define GASNETI_C(a) , (gasnet_handlerarg_t)(a)
#define GASNETI_ARGS0()
#define GASNETI_ARGS1(a) GASNETI_C(a)
#define GASNETI_ARGS2(a, ...) GASNETI_C(a) GASNETI_ARGS1(__VA_ARGS__)
#define GASNETI_ARGS3(a, ...) GASNETI_C(a) GASNETI_ARGS2(__VA_ARGS__)
#define GASNETI_ARGS4(a, ...) GASNETI_C(a) GASNETI_ARGS3(__VA_ARGS__)
#define GASNETI_ARGS5(a, ...) GASNETI_C(a) GASNETI_ARGS4(__VA_ARGS__)
#define GASNETI_ARGS6(a, ...) GASNETI_C(a) GASNETI_ARGS5(__VA_ARGS__)
#define GASNETI_ARGS7(a, ...) GASNETI_C(a) GASNETI_ARGS6(__VA_ARGS__)
#define GASNETI_ARGS8(a, ...) GASNETI_C(a) GASNETI_ARGS7(__VA_ARGS__)
#define GASNETI_ARGS9(a, ...) GASNETI_C(a) GASNETI_ARGS8(__VA_ARGS__)
#define GASNETI_ARGS10(a, ...) GASNETI_C(a) GASNETI_ARGS9(__VA_ARGS__)
#define GASNETI_ARGS11(a, ...) GASNETI_C(a) GASNETI_ARGS10(__VA_ARGS__)
#define GASNETI_ARGS12(a, ...) GASNETI_C(a) GASNETI_ARGS11(__VA_ARGS__)
#define GASNETI_ARGS13(a, ...) GASNETI_C(a) GASNETI_ARGS12(__VA_ARGS__)
#define GASNETI_ARGS14(a, ...) GASNETI_C(a) GASNETI_ARGS13(__VA_ARGS__)
#define GASNETI_ARGS15(a, ...) GASNETI_C(a) GASNETI_ARGS14(__VA_ARGS__)
#define GASNETI_ARGS16(a, ...) GASNETI_C(a) GASNETI_ARGS15(__VA_ARGS__)

#define gasnet_AMRequestShort0(d, h) gasnetc_AMRequestShortM(d, h, 0)
#define gasnet_AMRequestShort1(d, h, ...) gasnetc_AMRequestShortM(d, h, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMRequestShort2(d, h, ...) gasnetc_AMRequestShortM(d, h, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMRequestShort3(d, h, ...) gasnetc_AMRequestShortM(d, h, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMRequestShort4(d, h, ...) gasnetc_AMRequestShortM(d, h, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMRequestShort5(d, h, ...) gasnetc_AMRequestShortM(d, h, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMRequestShort6(d, h, ...) gasnetc_AMRequestShortM(d, h, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMRequestShort7(d, h, ...) gasnetc_AMRequestShortM(d, h, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMRequestShort8(d, h, ...) gasnetc_AMRequestShortM(d, h, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMRequestShort9(d, h, ...) gasnetc_AMRequestShortM(d, h, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMRequestShort10(d, h, ...) gasnetc_AMRequestShortM(d, h, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMRequestShort11(d, h, ...) gasnetc_AMRequestShortM(d, h, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMRequestShort12(d, h, ...) gasnetc_AMRequestShortM(d, h, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMRequestShort13(d, h, ...) gasnetc_AMRequestShortM(d, h, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMRequestShort14(d, h, ...) gasnetc_AMRequestShortM(d, h, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMRequestShort15(d, h, ...) gasnetc_AMRequestShortM(d, h, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMRequestShort16(d, h, ...) gasnetc_AMRequestShortM(d, h, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gasnet_AMRequestMedium0(d, h, s, n) gasnetc_AMRequestMediumM(d, h, s, n, 0)
#define gasnet_AMRequestMedium1(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMRequestMedium2(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMRequestMedium3(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMRequestMedium4(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMRequestMedium5(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMRequestMedium6(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMRequestMedium7(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMRequestMedium8(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMRequestMedium9(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMRequestMedium10(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMRequestMedium11(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMRequestMedium12(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMRequestMedium13(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMRequestMedium14(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMRequestMedium15(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMRequestMedium16(d, h, s, n, ...) gasnetc_AMRequestMediumM(d, h, s, n, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gasnet_AMRequestLong0(d, h, s, n, a) gasnetc_AMRequestLongM(d, h, s, n, a, 0)
#define gasnet_AMRequestLong1(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMRequestLong2(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMRequestLong3(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMRequestLong4(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMRequestLong5(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMRequestLong6(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMRequestLong7(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMRequestLong8(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMRequestLong9(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMRequestLong10(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMRequestLong11(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMRequestLong12(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMRequestLong13(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMRequestLong14(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMRequestLong15(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMRequestLong16(d, h, s, n, a, ...) gasnetc_AMRequestLongM(d, h, s, n, a, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gasnet_AMRequestLongAsync0(d, h, s, n, a) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 0)
#define gasnet_AMRequestLongAsync1(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMRequestLongAsync2(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMRequestLongAsync3(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMRequestLongAsync4(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMRequestLongAsync5(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMRequestLongAsync6(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMRequestLongAsync7(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMRequestLongAsync8(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMRequestLongAsync9(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMRequestLongAsync10(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMRequestLongAsync11(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMRequestLongAsync12(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMRequestLongAsync13(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMRequestLongAsync14(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMRequestLongAsync15(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMRequestLongAsync16(d, h, s, n, a, ...) gasnetc_AMRequestLongAsyncM(d, h, s, n, a, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gasnet_AMReplyShort0(t, h) gasnetc_AMReplyShortM(t, h, 0)
#define gasnet_AMReplyShort1(t, h, ...) gasnetc_AMReplyShortM(t, h, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMReplyShort2(t, h, ...) gasnetc_AMReplyShortM(t, h, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMReplyShort3(t, h, ...) gasnetc_AMReplyShortM(t, h, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMReplyShort4(t, h, ...) gasnetc_AMReplyShortM(t, h, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMReplyShort5(t, h, ...) gasnetc_AMReplyShortM(t, h, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMReplyShort6(t, h, ...) gasnetc_AMReplyShortM(t, h, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMReplyShort7(t, h, ...) gasnetc_AMReplyShortM(t, h, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMReplyShort8(t, h, ...) gasnetc_AMReplyShortM(t, h, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMReplyShort9(t, h, ...) gasnetc_AMReplyShortM(t, h, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMReplyShort10(t, h, ...) gasnetc_AMReplyShortM(t, h, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMReplyShort11(t, h, ...) gasnetc_AMReplyShortM(t, h, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMReplyShort12(t, h, ...) gasnetc_AMReplyShortM(t, h, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMReplyShort13(t, h, ...) gasnetc_AMReplyShortM(t, h, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMReplyShort14(t, h, ...) gasnetc_AMReplyShortM(t, h, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMReplyShort15(t, h, ...) gasnetc_AMReplyShortM(t, h, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMReplyShort16(t, h, ...) gasnetc_AMReplyShortM(t, h, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gasnet_AMReplyMedium0(t, h, s, n) gasnetc_AMReplyMediumM(t, h, s, n, 0)
#define gasnet_AMReplyMedium1(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMReplyMedium2(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMReplyMedium3(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMReplyMedium4(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMReplyMedium5(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMReplyMedium6(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMReplyMedium7(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMReplyMedium8(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMReplyMedium9(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMReplyMedium10(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMReplyMedium11(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMReplyMedium12(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMReplyMedium13(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMReplyMedium14(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMReplyMedium15(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMReplyMedium16(t, h, s, n, ...) gasnetc_AMReplyMediumM(t, h, s, n, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gasnet_AMReplyLong0(t, h, s, n, a) gasnetc_AMReplyLongM(t, h, s, n, a, 0)
#define gasnet_AMReplyLong1(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gasnet_AMReplyLong2(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gasnet_AMReplyLong3(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gasnet_AMReplyLong4(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gasnet_AMReplyLong5(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gasnet_AMReplyLong6(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gasnet_AMReplyLong7(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gasnet_AMReplyLong8(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gasnet_AMReplyLong9(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gasnet_AMReplyLong10(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gasnet_AMReplyLong11(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gasnet_AMReplyLong12(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gasnet_AMReplyLong13(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gasnet_AMReplyLong14(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gasnet_AMReplyLong15(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gasnet_AMReplyLong16(t, h, s, n, a, ...) gasnetc_AMReplyLongM(t, h, s, n, a, 16 GASNETI_ARGS16(__VA_ARGS__))

/* Reference extension: unnumbered forms taking the argument count. */
#define gasnet_AMRequestShort gasnetc_AMRequestShortM
#define gasnet_AMRequestMedium gasnetc_AMRequestMediumM
#define gasnet_AMRequestLong gasnetc_AMRequestLongM
#define gasnet_AMRequestLongAsync gasnetc_AMRequestLongAsyncM
#define gasnet_AMReplyShort gasnetc_AMReplyShortM
#define gasnet_AMReplyMedium gasnetc_AMReplyMediumM
#define gasnet_AMReplyLong gasnetc_AMReplyLongM

#ifdef __cplusplus
}
#endif
#endif

