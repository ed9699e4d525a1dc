/* gasnet_core.h: the GASNet-EX core API of the MPI conduit: the client,
 * endpoint, segment and team objects, job and host queries, Active
 * Messages and their tokens, polling and exit. Included by gasnetex.h;
 * not for direct inclusion.
 *
 * The numbered AM calls (gex_AM_RequestShort0..16 and the other nine
 * families) are macros over one variadic function per family; each
 * argument is evaluated once and cast to gex_AM_Arg_t. The unnumbered
 * forms count their arguments and expand to the numbered ones.
 */
#ifndef _GASNET_CORE_H
#define _GASNET_CORE_H

#ifndef _GASNETEX_H
#error "include gasnetex.h or gasnet.h, not gasnet_core.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- client, endpoints, segments (§6) */
int gex_Client_Init(gex_Client_t *_client_p, gex_EP_t *_ep_p, gex_TM_t *_tm_p,
                    const char *_clientName, int *_argc, char ***_argv, gex_Flags_t _flags);
gex_Flags_t gex_Client_QueryFlags(gex_Client_t _client);
const char *gex_Client_QueryName(gex_Client_t _client);
void gex_Client_SetCData(gex_Client_t _client, const void *_val);
void *gex_Client_QueryCData(gex_Client_t _client);

int gex_Segment_Attach(gex_Segment_t *_segment_p, gex_TM_t tm, uintptr_t size);
gex_Client_t gex_Segment_QueryClient(gex_Segment_t _seg);
gex_Flags_t gex_Segment_QueryFlags(gex_Segment_t _seg);
void *gex_Segment_QueryAddr(gex_Segment_t _seg);
uintptr_t gex_Segment_QuerySize(gex_Segment_t _seg);
void gex_Segment_SetCData(gex_Segment_t _seg, const void *_val);
void *gex_Segment_QueryCData(gex_Segment_t _seg);
int gex_Segment_QueryBound(gex_TM_t tm, gex_Rank_t _rank, void **_owneraddr_p, void **_localaddr_p,
                           uintptr_t *_size_p);

#define GEX_EP_CAPABILITY_RMA ((gex_EP_Capabilities_t)1U << 0)
#define GEX_EP_CAPABILITY_AM ((gex_EP_Capabilities_t)1U << 1)
#define GEX_EP_CAPABILITY_VIS ((gex_EP_Capabilities_t)1U << 2)
#define GEX_EP_CAPABILITY_COLL ((gex_EP_Capabilities_t)1U << 3)
#define GEX_EP_CAPABILITY_AD ((gex_EP_Capabilities_t)1U << 4)
#define GEX_EP_CAPABILITY_ALL ((gex_EP_Capabilities_t)0x1f)

gex_Client_t gex_EP_QueryClient(gex_EP_t _ep);
gex_Flags_t gex_EP_QueryFlags(gex_EP_t _ep);
gex_Segment_t gex_EP_QuerySegment(gex_EP_t _ep);
gex_EP_Index_t gex_EP_QueryIndex(gex_EP_t _ep);
void gex_EP_SetCData(gex_EP_t _ep, const void *_val);
void *gex_EP_QueryCData(gex_EP_t _ep);
int gex_EP_RegisterHandlers(gex_EP_t _ep, gex_AM_Entry_t *_table, size_t _numentries);

/* ---- seed 003 (spec §17): created endpoints and segments, TM-pairs */
/* (gex_MK_t and GEX_MK_HOST: gasnetex.h) */
int gex_EP_Create(gex_EP_t *_ep_p, gex_Client_t _client, gex_EP_Capabilities_t _capabilities,
                  gex_Flags_t _flags);
gex_TM_t gex_TM_Pair(gex_EP_t _local_ep, gex_EP_Index_t _remote_ep_index);
int gex_Segment_Create(gex_Segment_t *_segment_p, gex_Client_t _client, gex_Addr_t _address,
                       uintptr_t _length, gex_MK_t _kind, gex_Flags_t _flags);
void gex_Segment_Destroy(gex_Segment_t _segment, gex_Flags_t _flags);
int gex_EP_BindSegment(gex_EP_t _ep, gex_Segment_t _segment, gex_Flags_t _flags);
int gex_EP_PublishBoundSegment(gex_TM_t tm, gex_EP_t *_eps, size_t _num_eps, gex_Flags_t _flags);
gex_Event_t gex_EP_QueryBoundSegmentNB(gex_TM_t tm, gex_Rank_t _rank, void **_owneraddr_p,
                                       void **_localaddr_p, uintptr_t *_size_p, gex_Flags_t _flags);

/* ---- teams (§6.6, 6.7; construction is in coll/) */
gex_Client_t gex_TM_QueryClient(gex_TM_t tm);
gex_EP_t gex_TM_QueryEP(gex_TM_t tm);
gex_Flags_t gex_TM_QueryFlags(gex_TM_t tm);
gex_Rank_t gex_TM_QueryRank(gex_TM_t tm);
gex_Rank_t gex_TM_QuerySize(gex_TM_t tm);
void gex_TM_SetCData(gex_TM_t tm, const void *_val);
void *gex_TM_QueryCData(gex_TM_t tm);
gex_Rank_t gex_TM_TranslateRankToJobrank(gex_TM_t tm, gex_Rank_t _rank);
gex_Rank_t gex_TM_TranslateJobrankToRank(gex_TM_t tm, gex_Rank_t _jobrank);
gex_EP_Location_t gex_TM_TranslateRankToEP(gex_TM_t tm, gex_Rank_t _rank, gex_Flags_t _flags);
size_t gex_TM_Split(gex_TM_t *_new_tm_p, gex_TM_t _parent_tm, int _color, int _key,
                    void *_scratch_addr, size_t _scratch_size, gex_Flags_t _flags);
int gex_TM_Destroy(gex_TM_t tm, gex_Memvec_t *_scratch_p, gex_Flags_t _flags);
/* seed 003 §5.2-5.3 */
size_t gex_TM_Dup(gex_TM_t *_new_tm_p, gex_TM_t _orig_tm, void *_scratch_addr, size_t _scratch_size,
                  gex_Flags_t _flags);
size_t gex_TM_Create(gex_TM_t *_new_tms, size_t _num_new_tms, gex_TM_t _parent_tm,
                     gex_EP_Location_t *_args, size_t _numargs, gex_Addr_t *_scratch_addrs,
                     size_t _scratch_length, gex_Flags_t _flags);

/* ---- job, neighbourhood and host (§7) */
extern gex_Rank_t gasneti_mynode, gasneti_nodes;
#define gex_System_QueryJobRank() ((gex_Rank_t)gasneti_mynode)
#define gex_System_QueryJobSize() ((gex_Rank_t)gasneti_nodes)
void gex_System_QueryNbrhdInfo(gex_RankInfo_t **_info_p, gex_Rank_t *_info_count_p,
                               gex_Rank_t *_my_info_index_p);
void gex_System_QueryHostInfo(gex_RankInfo_t **_info_p, gex_Rank_t *_info_count_p,
                              gex_Rank_t *_my_info_index_p);
void gex_System_QueryMyPosition(gex_Rank_t *_nbrhd_set_size_p, gex_Rank_t *_nbrhd_set_rank_p,
                                gex_Rank_t *_host_set_size_p, gex_Rank_t *_host_set_rank_p);

/* ---- system queries of spec v0.13-v0.18 */
/* Whether calls that return a non-fatal error also print it on stderr (on
 * by default); Set takes 1 or 0. */
int gex_System_GetVerboseErrors(void);
void gex_System_SetVerboseErrors(int _enable);
/* The most client threads that may be inside GASNet at once: 1 in SEQ. */
uint64_t gex_System_QueryMaxThreads(void);
/* Non-zero when the progress thread runs (handlers may run on it). */
int gex_System_QueryHiddenAMConcurrencyLevel(void);

/* Deferred progress threads (spec v0.18): under GEX_FLAG_DEFER_THREADS the
 * library starts none of its threads; the client asks once for the list
 * and runs each gex_progress_fn(gex_progress_arg) in a joinable POSIX
 * thread. gasnet_exit stops and joins them. */
#define GEX_THREAD_ROLE_RCV (1U << 0) /* may run handlers */
#define GEX_THREAD_ROLE_SND (1U << 1) /* never runs handlers */
typedef struct {
    const char *gex_device_list;
    unsigned int gex_thread_roles;
    void *(*gex_progress_fn)(void *);
    void *gex_progress_arg;
} gex_ProgressThreadInfo_t;
int gex_System_QueryProgressThreads(gex_Client_t _client, unsigned int *_count_p,
                                    const gex_ProgressThreadInfo_t **_info_p, gex_Flags_t _flags);

/* GASNet-1 calls EX keeps (§7.3) */
void gasnet_exit(int _exitcode) __attribute__((__noreturn__));
uintptr_t gasnet_getMaxLocalSegmentSize(void);
uintptr_t gasnet_getMaxGlobalSegmentSize(void);
int gasnet_getSegmentInfo(gasnet_seginfo_t *_seginfo_table, int _numentries);
int gasnet_getNodeInfo(gasnet_nodeinfo_t *_nodeinfo_table, int _numentries);
char *gasnet_getenv(const char *name);
#define GASNET_WAIT_SPIN 0
#define GASNET_WAIT_BLOCK 1
#define GASNET_WAIT_SPINBLOCK 2
int gasnet_set_waitmode(int _wait_mode);
/* Client-assignable globals, read at segment attach. */
extern void (*gasnet_client_attach_hook)(void *_segbase, uintptr_t _segsize);
extern uint64_t gasnet_max_segsize;
extern const char *gasnet_max_segsize_str;

/* ---- Active Messages (§8) */
#define gex_AM_MaxArgs() ((unsigned int)16)
size_t gex_AM_MaxRequestLong(gex_TM_t tm, gex_Rank_t _other_rank, const gex_Event_t *_lc_opt,
                             gex_Flags_t _flags, unsigned int _numargs);
size_t gex_AM_MaxReplyLong(gex_TM_t tm, gex_Rank_t _other_rank, const gex_Event_t *_lc_opt,
                           gex_Flags_t _flags, unsigned int _numargs);
size_t gex_AM_MaxRequestMedium(gex_TM_t tm, gex_Rank_t _other_rank, const gex_Event_t *_lc_opt,
                               gex_Flags_t _flags, unsigned int _numargs);
size_t gex_AM_MaxReplyMedium(gex_TM_t tm, gex_Rank_t _other_rank, const gex_Event_t *_lc_opt,
                             gex_Flags_t _flags, unsigned int _numargs);
size_t gex_Token_MaxReplyLong(gex_Token_t _token, const gex_Event_t *_lc_opt, gex_Flags_t _flags,
                              unsigned int _numargs);
size_t gex_Token_MaxReplyMedium(gex_Token_t _token, const gex_Event_t *_lc_opt, gex_Flags_t _flags,
                                unsigned int _numargs);
/* Every limit is the transport's, whatever the peer, flags or argument
 * count: 65000 bytes for Medium payloads and Long replies, 1 MiB for Long
 * requests (they land in place). */
#define GASNETI_AM_MAX_PAYLOAD ((size_t)65000)
#define GASNETI_AM_MAX_LONG_REQUEST ((size_t)1048576)
#define gex_AM_LUBRequestLong() GASNETI_AM_MAX_LONG_REQUEST
#define gex_AM_LUBReplyLong() GASNETI_AM_MAX_PAYLOAD
#define gex_AM_LUBRequestMedium() GASNETI_AM_MAX_PAYLOAD
#define gex_AM_LUBReplyMedium() GASNETI_AM_MAX_PAYLOAD

#define GEX_TI_SRCRANK ((gex_TI_t)1U << 0)
#define GEX_TI_ENTRY ((gex_TI_t)1U << 1)
#define GEX_TI_IS_REQ ((gex_TI_t)1U << 2)
#define GEX_TI_IS_LONG ((gex_TI_t)1U << 3)
#define GEX_TI_EP ((gex_TI_t)1U << 4)
#define GEX_TI_ALL ((gex_TI_t)(1U << 5) - 1)
/* gex_Token_Info answers every field for every token (spec v0.17). */
#define GASNET_SUPPORTS_TI_SRCRANK 1
#define GASNET_SUPPORTS_TI_EP 1
#define GASNET_SUPPORTS_TI_ENTRY 1
#define GASNET_SUPPORTS_TI_IS_REQ 1
#define GASNET_SUPPORTS_TI_IS_LONG 1
gex_TI_t gex_Token_Info(gex_Token_t _token, gex_Token_Info_t *_info, gex_TI_t _mask);

/* Private: the flag GASNet-1's AM macros pass, so that messages name the
 * GASNet-1 call. */
#define GASNETI_FLAG_LEGACY_CALL ((gex_Flags_t)1U << 31)
int gasnetc_AMRequestShort(gex_TM_t tm, gex_Rank_t _rank, gex_AM_Index_t _handler,
                           gex_Flags_t _flags, int _numargs, ...);
int gasnetc_AMRequestMedium(gex_TM_t tm, gex_Rank_t _rank, gex_AM_Index_t _handler,
                            const void *_source_addr, size_t _nbytes, gex_Event_t *_lc_opt,
                            gex_Flags_t _flags, int _numargs, ...);
int gasnetc_AMRequestLong(gex_TM_t tm, gex_Rank_t _rank, gex_AM_Index_t _handler,
                          const void *_source_addr, size_t _nbytes, void *_dest_addr,
                          gex_Event_t *_lc_opt, gex_Flags_t _flags, int _numargs, ...);
int gasnetc_AMReplyShort(gex_Token_t _token, gex_AM_Index_t _handler, gex_Flags_t _flags,
                         int _numargs, ...);
int gasnetc_AMReplyMedium(gex_Token_t _token, gex_AM_Index_t _handler, const void *_source_addr,
                          size_t _nbytes, gex_Event_t *_lc_opt, gex_Flags_t _flags, int _numargs, ...);
int gasnetc_AMReplyLong(gex_Token_t _token, gex_AM_Index_t _handler, const void *_source_addr,
                        size_t _nbytes, void *_dest_addr, gex_Event_t *_lc_opt, gex_Flags_t _flags,
                        int _numargs, ...);

/* Negotiated payload (§8.6) */
gex_AM_SrcDesc_t gex_AM_PrepareRequestMedium(gex_TM_t tm, gex_Rank_t _rank, const void *_client_buf,
                                             size_t _least_payload, size_t _most_payload,
                                             gex_Event_t *_lc_opt, gex_Flags_t _flags,
                                             unsigned int _numargs);
gex_AM_SrcDesc_t gex_AM_PrepareReplyMedium(gex_Token_t _token, const void *_client_buf,
                                           size_t _least_payload, size_t _most_payload,
                                           gex_Event_t *_lc_opt, gex_Flags_t _flags,
                                           unsigned int _numargs);
gex_AM_SrcDesc_t gex_AM_PrepareRequestLong(gex_TM_t tm, gex_Rank_t _rank, const void *_client_buf,
                                           size_t _least_payload, size_t _most_payload,
                                           void *_dest_addr, gex_Event_t *_lc_opt,
                                           gex_Flags_t _flags, unsigned int _numargs);
gex_AM_SrcDesc_t gex_AM_PrepareReplyLong(gex_Token_t _token, const void *_client_buf,
                                         size_t _least_payload, size_t _most_payload,
                                         void *_dest_addr, gex_Event_t *_lc_opt, gex_Flags_t _flags,
                                         unsigned int _numargs);
/* A payload up to the eager size that the client writes into GASNet's
 * buffer is sent from there: one copy fewer than a fixed-payload AM. */
#define GASNET_NATIVE_NP_ALLOC_REQ_MEDIUM 1
#define GASNET_NATIVE_NP_ALLOC_REP_MEDIUM 1
#define GASNET_NATIVE_NP_ALLOC_REQ_LONG 1
#define GASNET_NATIVE_NP_ALLOC_REP_LONG 1
void *gex_AM_SrcDescAddr(gex_AM_SrcDesc_t _sd);
size_t gex_AM_SrcDescSize(gex_AM_SrcDesc_t _sd);
void gasnetc_AMCommitRequestMedium(gex_AM_SrcDesc_t _sd, gex_AM_Index_t _handler, size_t _nbytes,
                                   int _numargs, ...);
void gasnetc_AMCommitReplyMedium(gex_AM_SrcDesc_t _sd, gex_AM_Index_t _handler, size_t _nbytes,
                                 int _numargs, ...);
void gasnetc_AMCommitRequestLong(gex_AM_SrcDesc_t _sd, gex_AM_Index_t _handler, size_t _nbytes,
                                 void *_dest_addr, int _numargs, ...);
void gasnetc_AMCommitReplyLong(gex_AM_SrcDesc_t _sd, gex_AM_Index_t _handler, size_t _nbytes,
                               void *_dest_addr, int _numargs, ...);

/* Spec v0.19: Cancel gives up a Prepare (nothing is sent, the buffer and
 * credit it took are released); Commit_v2 takes commit_flags (0 or
 * GEX_FLAG_IMMEDIATE) and returns 0 once sent, or non-zero having sent
 * nothing, the descriptor still pending (only under IMMEDIATE). */
#define GASNET_SUPPORTS_AM_CANCEL 1
#define GASNET_SUPPORTS_AM_COMMIT_V2 1
int gex_AM_CancelRequestMedium(gex_AM_SrcDesc_t _sd, gex_Flags_t _flags);
int gex_AM_CancelReplyMedium(gex_AM_SrcDesc_t _sd, gex_Flags_t _flags);
int gex_AM_CancelRequestLong(gex_AM_SrcDesc_t _sd, gex_Flags_t _flags);
int gex_AM_CancelReplyLong(gex_AM_SrcDesc_t _sd, gex_Flags_t _flags);
int gasnetc_AMCommitRequestMedium_v2(gex_AM_SrcDesc_t _sd, gex_AM_Index_t _handler, size_t _nbytes,
                                     gex_Flags_t _commit_flags, int _numargs, ...);
int gasnetc_AMCommitReplyMedium_v2(gex_AM_SrcDesc_t _sd, gex_AM_Index_t _handler, size_t _nbytes,
                                   gex_Flags_t _commit_flags, int _numargs, ...);
int gasnetc_AMCommitRequestLong_v2(gex_AM_SrcDesc_t _sd, gex_AM_Index_t _handler, size_t _nbytes,
                                   void *_dest_addr, gex_Flags_t _commit_flags, int _numargs, ...);
int gasnetc_AMCommitReplyLong_v2(gex_AM_SrcDesc_t _sd, gex_AM_Index_t _handler, size_t _nbytes,
                                 void *_dest_addr, gex_Flags_t _commit_flags, int _numargs, ...);

/* ---- polling */
int gasnet_AMPoll(void);
/* Polls until cond holds; yields the CPU while nothing arrives for a while
 * (see gasnet_set_waitmode). */
void gasnetc_block_poll(int *_idle);
#define GASNET_BLOCKUNTIL(cond)                                           \
    do {                                                                  \
        int gasneti_blockuntil_idle = 0;                                  \
        while (!(cond)) gasnetc_block_poll(&gasneti_blockuntil_idle);     \
    } while (0)

/* ---- the numbered AM families */
#define GASNETI_C(a) , (gex_AM_Arg_t)(a)
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

/* The unnumbered forms: GASNETI_NARGS<k> counts the arguments after the
 * k fixed ones; the result names the numbered macro. */
#define GASNETI_PICK(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, \
                     _18, _19, _20, _21, _22, _23, _24, _25, N, ...) N
#define GASNETI_NARGS3(...) GASNETI_PICK(__VA_ARGS__, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, \
                                         11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, x)
#define GASNETI_NARGS4(...) GASNETI_PICK(__VA_ARGS__, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, \
                                         10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, x)
#define GASNETI_NARGS6(...) GASNETI_PICK(__VA_ARGS__, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, \
                                         8, 7, 6, 5, 4, 3, 2, 1, 0, x)
#define GASNETI_NARGS7(...) GASNETI_PICK(__VA_ARGS__, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, \
                                         7, 6, 5, 4, 3, 2, 1, 0, x)
#define GASNETI_NARGS8(...) GASNETI_PICK(__VA_ARGS__, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, \
                                         5, 4, 3, 2, 1, 0, x)
#define GASNETI_NARGS5(...) GASNETI_PICK(__VA_ARGS__, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, \
                                         9, 8, 7, 6, 5, 4, 3, 2, 1, 0, x)
#define gex_AM_RequestShort(...) GASNETI_CONCAT(gex_AM_RequestShort, GASNETI_NARGS4(__VA_ARGS__))(__VA_ARGS__)
#define gex_AM_RequestMedium(...) GASNETI_CONCAT(gex_AM_RequestMedium, GASNETI_NARGS7(__VA_ARGS__))(__VA_ARGS__)
#define gex_AM_RequestLong(...) GASNETI_CONCAT(gex_AM_RequestLong, GASNETI_NARGS8(__VA_ARGS__))(__VA_ARGS__)
#define gex_AM_ReplyShort(...) GASNETI_CONCAT(gex_AM_ReplyShort, GASNETI_NARGS3(__VA_ARGS__))(__VA_ARGS__)
#define gex_AM_ReplyMedium(...) GASNETI_CONCAT(gex_AM_ReplyMedium, GASNETI_NARGS6(__VA_ARGS__))(__VA_ARGS__)
#define gex_AM_ReplyLong(...) GASNETI_CONCAT(gex_AM_ReplyLong, GASNETI_NARGS7(__VA_ARGS__))(__VA_ARGS__)
#define gex_AM_CommitRequestMedium(...) GASNETI_CONCAT(gex_AM_CommitRequestMedium, GASNETI_NARGS3(__VA_ARGS__))(__VA_ARGS__)
#define gex_AM_CommitReplyMedium(...) GASNETI_CONCAT(gex_AM_CommitReplyMedium, GASNETI_NARGS3(__VA_ARGS__))(__VA_ARGS__)
#define gex_AM_CommitRequestLong(...) GASNETI_CONCAT(gex_AM_CommitRequestLong, GASNETI_NARGS4(__VA_ARGS__))(__VA_ARGS__)
#define gex_AM_CommitReplyLong(...) GASNETI_CONCAT(gex_AM_CommitReplyLong, GASNETI_NARGS4(__VA_ARGS__))(__VA_ARGS__)
#define gex_AM_CommitRequestMedium_v2(...) GASNETI_CONCAT(GASNETI_CONCAT(gex_AM_CommitRequestMedium, GASNETI_NARGS4(__VA_ARGS__)), _v2)(__VA_ARGS__)
#define gex_AM_CommitReplyMedium_v2(...) GASNETI_CONCAT(GASNETI_CONCAT(gex_AM_CommitReplyMedium, GASNETI_NARGS4(__VA_ARGS__)), _v2)(__VA_ARGS__)
#define gex_AM_CommitRequestLong_v2(...) GASNETI_CONCAT(GASNETI_CONCAT(gex_AM_CommitRequestLong, GASNETI_NARGS5(__VA_ARGS__)), _v2)(__VA_ARGS__)
#define gex_AM_CommitReplyLong_v2(...) GASNETI_CONCAT(GASNETI_CONCAT(gex_AM_CommitReplyLong, GASNETI_NARGS5(__VA_ARGS__)), _v2)(__VA_ARGS__)

#define gex_AM_RequestShort0(tm, _r, h, f) gasnetc_AMRequestShort(tm, _r, h, f, 0)
#define gex_AM_RequestShort1(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_RequestShort2(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_RequestShort3(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_RequestShort4(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_RequestShort5(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_RequestShort6(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_RequestShort7(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_RequestShort8(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_RequestShort9(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_RequestShort10(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_RequestShort11(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_RequestShort12(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_RequestShort13(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_RequestShort14(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_RequestShort15(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_RequestShort16(tm, _r, h, f, ...) gasnetc_AMRequestShort(tm, _r, h, f, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gex_AM_RequestMedium0(tm, _r, h, _s, _n, lc, f) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 0)
#define gex_AM_RequestMedium1(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_RequestMedium2(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_RequestMedium3(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_RequestMedium4(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_RequestMedium5(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_RequestMedium6(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_RequestMedium7(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_RequestMedium8(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_RequestMedium9(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_RequestMedium10(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_RequestMedium11(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_RequestMedium12(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_RequestMedium13(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_RequestMedium14(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_RequestMedium15(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_RequestMedium16(tm, _r, h, _s, _n, lc, f, ...) gasnetc_AMRequestMedium(tm, _r, h, _s, _n, lc, f, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gex_AM_RequestLong0(tm, _r, h, _s, _n, _d, lc, f) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 0)
#define gex_AM_RequestLong1(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_RequestLong2(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_RequestLong3(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_RequestLong4(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_RequestLong5(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_RequestLong6(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_RequestLong7(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_RequestLong8(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_RequestLong9(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_RequestLong10(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_RequestLong11(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_RequestLong12(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_RequestLong13(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_RequestLong14(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_RequestLong15(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_RequestLong16(tm, _r, h, _s, _n, _d, lc, f, ...) gasnetc_AMRequestLong(tm, _r, h, _s, _n, _d, lc, f, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gex_AM_ReplyShort0(t, h, f) gasnetc_AMReplyShort(t, h, f, 0)
#define gex_AM_ReplyShort1(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_ReplyShort2(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_ReplyShort3(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_ReplyShort4(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_ReplyShort5(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_ReplyShort6(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_ReplyShort7(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_ReplyShort8(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_ReplyShort9(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_ReplyShort10(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_ReplyShort11(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_ReplyShort12(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_ReplyShort13(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_ReplyShort14(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_ReplyShort15(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_ReplyShort16(t, h, f, ...) gasnetc_AMReplyShort(t, h, f, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gex_AM_ReplyMedium0(t, h, _s, _n, lc, f) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 0)
#define gex_AM_ReplyMedium1(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_ReplyMedium2(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_ReplyMedium3(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_ReplyMedium4(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_ReplyMedium5(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_ReplyMedium6(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_ReplyMedium7(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_ReplyMedium8(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_ReplyMedium9(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_ReplyMedium10(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_ReplyMedium11(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_ReplyMedium12(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_ReplyMedium13(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_ReplyMedium14(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_ReplyMedium15(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_ReplyMedium16(t, h, _s, _n, lc, f, ...) gasnetc_AMReplyMedium(t, h, _s, _n, lc, f, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gex_AM_ReplyLong0(t, h, _s, _n, _d, lc, f) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 0)
#define gex_AM_ReplyLong1(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_ReplyLong2(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_ReplyLong3(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_ReplyLong4(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_ReplyLong5(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_ReplyLong6(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_ReplyLong7(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_ReplyLong8(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_ReplyLong9(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_ReplyLong10(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_ReplyLong11(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_ReplyLong12(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_ReplyLong13(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_ReplyLong14(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_ReplyLong15(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_ReplyLong16(t, h, _s, _n, _d, lc, f, ...) gasnetc_AMReplyLong(t, h, _s, _n, _d, lc, f, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gex_AM_CommitRequestMedium0(_sd, h, _n) gasnetc_AMCommitRequestMedium(_sd, h, _n, 0)
#define gex_AM_CommitRequestMedium1(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_CommitRequestMedium2(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_CommitRequestMedium3(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_CommitRequestMedium4(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_CommitRequestMedium5(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_CommitRequestMedium6(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_CommitRequestMedium7(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_CommitRequestMedium8(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_CommitRequestMedium9(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_CommitRequestMedium10(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_CommitRequestMedium11(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_CommitRequestMedium12(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_CommitRequestMedium13(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_CommitRequestMedium14(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_CommitRequestMedium15(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_CommitRequestMedium16(_sd, h, _n, ...) gasnetc_AMCommitRequestMedium(_sd, h, _n, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gex_AM_CommitReplyMedium0(_sd, h, _n) gasnetc_AMCommitReplyMedium(_sd, h, _n, 0)
#define gex_AM_CommitReplyMedium1(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_CommitReplyMedium2(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_CommitReplyMedium3(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_CommitReplyMedium4(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_CommitReplyMedium5(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_CommitReplyMedium6(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_CommitReplyMedium7(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_CommitReplyMedium8(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_CommitReplyMedium9(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_CommitReplyMedium10(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_CommitReplyMedium11(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_CommitReplyMedium12(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_CommitReplyMedium13(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_CommitReplyMedium14(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_CommitReplyMedium15(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_CommitReplyMedium16(_sd, h, _n, ...) gasnetc_AMCommitReplyMedium(_sd, h, _n, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gex_AM_CommitRequestLong0(_sd, h, _n, _d) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 0)
#define gex_AM_CommitRequestLong1(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_CommitRequestLong2(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_CommitRequestLong3(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_CommitRequestLong4(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_CommitRequestLong5(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_CommitRequestLong6(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_CommitRequestLong7(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_CommitRequestLong8(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_CommitRequestLong9(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_CommitRequestLong10(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_CommitRequestLong11(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_CommitRequestLong12(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_CommitRequestLong13(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_CommitRequestLong14(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_CommitRequestLong15(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_CommitRequestLong16(_sd, h, _n, _d, ...) gasnetc_AMCommitRequestLong(_sd, h, _n, _d, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gex_AM_CommitReplyLong0(_sd, h, _n, _d) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 0)
#define gex_AM_CommitReplyLong1(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_CommitReplyLong2(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_CommitReplyLong3(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_CommitReplyLong4(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_CommitReplyLong5(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_CommitReplyLong6(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_CommitReplyLong7(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_CommitReplyLong8(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_CommitReplyLong9(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_CommitReplyLong10(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_CommitReplyLong11(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_CommitReplyLong12(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_CommitReplyLong13(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_CommitReplyLong14(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_CommitReplyLong15(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_CommitReplyLong16(_sd, h, _n, _d, ...) gasnetc_AMCommitReplyLong(_sd, h, _n, _d, 16 GASNETI_ARGS16(__VA_ARGS__))

/* the _v2 Commits: commit_flags after nbytes (Medium) or dest_addr (Long) */
#define gex_AM_CommitRequestMedium0_v2(_sd, h, _n, _f) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 0)
#define gex_AM_CommitRequestMedium1_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_CommitRequestMedium2_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_CommitRequestMedium3_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_CommitRequestMedium4_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_CommitRequestMedium5_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_CommitRequestMedium6_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_CommitRequestMedium7_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_CommitRequestMedium8_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_CommitRequestMedium9_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_CommitRequestMedium10_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_CommitRequestMedium11_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_CommitRequestMedium12_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_CommitRequestMedium13_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_CommitRequestMedium14_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_CommitRequestMedium15_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_CommitRequestMedium16_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitRequestMedium_v2(_sd, h, _n, _f, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gex_AM_CommitReplyMedium0_v2(_sd, h, _n, _f) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 0)
#define gex_AM_CommitReplyMedium1_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_CommitReplyMedium2_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_CommitReplyMedium3_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_CommitReplyMedium4_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_CommitReplyMedium5_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_CommitReplyMedium6_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_CommitReplyMedium7_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_CommitReplyMedium8_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_CommitReplyMedium9_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_CommitReplyMedium10_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_CommitReplyMedium11_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_CommitReplyMedium12_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_CommitReplyMedium13_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_CommitReplyMedium14_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_CommitReplyMedium15_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_CommitReplyMedium16_v2(_sd, h, _n, _f, ...) gasnetc_AMCommitReplyMedium_v2(_sd, h, _n, _f, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gex_AM_CommitRequestLong0_v2(_sd, h, _n, _d, _f) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 0)
#define gex_AM_CommitRequestLong1_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_CommitRequestLong2_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_CommitRequestLong3_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_CommitRequestLong4_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_CommitRequestLong5_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_CommitRequestLong6_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_CommitRequestLong7_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_CommitRequestLong8_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_CommitRequestLong9_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_CommitRequestLong10_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_CommitRequestLong11_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_CommitRequestLong12_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_CommitRequestLong13_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_CommitRequestLong14_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_CommitRequestLong15_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_CommitRequestLong16_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitRequestLong_v2(_sd, h, _n, _d, _f, 16 GASNETI_ARGS16(__VA_ARGS__))

#define gex_AM_CommitReplyLong0_v2(_sd, h, _n, _d, _f) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 0)
#define gex_AM_CommitReplyLong1_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 1 GASNETI_ARGS1(__VA_ARGS__))
#define gex_AM_CommitReplyLong2_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 2 GASNETI_ARGS2(__VA_ARGS__))
#define gex_AM_CommitReplyLong3_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 3 GASNETI_ARGS3(__VA_ARGS__))
#define gex_AM_CommitReplyLong4_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 4 GASNETI_ARGS4(__VA_ARGS__))
#define gex_AM_CommitReplyLong5_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 5 GASNETI_ARGS5(__VA_ARGS__))
#define gex_AM_CommitReplyLong6_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 6 GASNETI_ARGS6(__VA_ARGS__))
#define gex_AM_CommitReplyLong7_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 7 GASNETI_ARGS7(__VA_ARGS__))
#define gex_AM_CommitReplyLong8_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 8 GASNETI_ARGS8(__VA_ARGS__))
#define gex_AM_CommitReplyLong9_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 9 GASNETI_ARGS9(__VA_ARGS__))
#define gex_AM_CommitReplyLong10_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 10 GASNETI_ARGS10(__VA_ARGS__))
#define gex_AM_CommitReplyLong11_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 11 GASNETI_ARGS11(__VA_ARGS__))
#define gex_AM_CommitReplyLong12_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 12 GASNETI_ARGS12(__VA_ARGS__))
#define gex_AM_CommitReplyLong13_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 13 GASNETI_ARGS13(__VA_ARGS__))
#define gex_AM_CommitReplyLong14_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 14 GASNETI_ARGS14(__VA_ARGS__))
#define gex_AM_CommitReplyLong15_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 15 GASNETI_ARGS15(__VA_ARGS__))
#define gex_AM_CommitReplyLong16_v2(_sd, h, _n, _d, _f, ...) gasnetc_AMCommitReplyLong_v2(_sd, h, _n, _d, _f, 16 GASNETI_ARGS16(__VA_ARGS__))

#ifdef __cplusplus
}
#endif
#endif
