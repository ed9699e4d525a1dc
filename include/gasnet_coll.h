/* gasnet_coll.h: GASNet-EX team collectives beyond the barrier (spec §12,
 * §13.3) and the GASNet-1 legacy collectives (§16.5).
 *
 * Every call is collective over its team and non-blocking: it returns a
 * root event that completes when this rank's result is ready (its dst
 * written, its src no longer needed). Any number may be in flight on a
 * team; all members issue them in the same order. The mechanism is in
 * coll/ (binomial trees over Active Messages).
 */
#ifndef _GASNET_COLL_H
#define _GASNET_COLL_H

#include <gasnetex.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y[i] = x[i] (+) y[i] for i < count, x = arg1, y = arg2_and_out. */
typedef void (*gex_Coll_ReduceFn_t)(const void *_arg1, void *_arg2_and_out, size_t _count,
                                    const void *_cdata);

/* root and nbytes are single-valued; src is read on the root only. */
gex_Event_t gex_Coll_BroadcastNB(gex_TM_t tm, gex_Rank_t _root, void *_dst, const void *_src,
                                 size_t _nbytes, gex_Flags_t _flags);
/* dt, dt_sz, dt_cnt, op (and root) are single-valued; dt_sz * dt_cnt
 * bytes per rank. user_op and user_cdata count only for GEX_OP_USER and
 * GEX_OP_USER_NC (required with GEX_DT_USER). */
gex_Event_t gex_Coll_ReduceToOneNB(gex_TM_t tm, gex_Rank_t _root, void *_dst, const void *_src,
                                   gex_DT_t _dt, size_t _dt_sz, size_t _dt_cnt, gex_OP_t _op,
                                   gex_Coll_ReduceFn_t _user_op, void *_user_cdata,
                                   gex_Flags_t _flags);
gex_Event_t gex_Coll_ReduceToAllNB(gex_TM_t tm, void *_dst, const void *_src, gex_DT_t _dt,
                                   size_t _dt_sz, size_t _dt_cnt, gex_OP_t _op,
                                   gex_Coll_ReduceFn_t _user_op, void *_user_cdata,
                                   gex_Flags_t _flags);

/* ---- GASNet-1 collectives over GASNET_TEAM_ALL (one image per process) */

typedef struct gasnete_coll_legacy_team *gasnet_team_handle_t;
extern gasnet_team_handle_t gasnete_coll_team_all;
#define GASNET_TEAM_ALL gasnete_coll_team_all

typedef uint32_t gasnet_image_t;
typedef gex_Event_t gasnet_coll_handle_t;
#define GASNET_COLL_INVALID_HANDLE GEX_EVENT_INVALID

#define GASNET_COLL_IN_NOSYNC (1 << 0)
#define GASNET_COLL_IN_MYSYNC (1 << 1)
#define GASNET_COLL_IN_ALLSYNC (1 << 2)
#define GASNET_COLL_OUT_NOSYNC (1 << 3)
#define GASNET_COLL_OUT_MYSYNC (1 << 4)
#define GASNET_COLL_OUT_ALLSYNC (1 << 5)
#define GASNET_COLL_SYNC_FLAG_MASK 0x3F
#define GASNET_COLL_LOCAL (1 << 7)
#define GASNET_COLL_FIXED_THREADS_PER_NODE (1 << 9)
#define GASNET_COLL_DST_IN_SEGMENT (1 << 10)
#define GASNET_COLL_SRC_IN_SEGMENT (1 << 11)
#define GASNET_COLL_DISABLE_AUTOTUNE (1 << 18)
#define GASNET_COLL_NO_IMAGES (1 << 19)
#define GASNET_COLL_AMSAFE (1 << 0)
#define GASNET_COLL_NONCOMM (1 << 1)
/* Removed from GASNet-EX (single-valued addressing): using it does not
 * compile, naming the replacement. */
#define GASNET_COLL_SINGLE GASNET_COLL_SINGLE_was_removed_use_GASNET_COLL_LOCAL

/* GASNet-1's table of reduction functions, kept so that calls of
 * gasnet_coll_init compile; the entries are not used (there are no
 * legacy reductions). */
typedef void (*gasnet_coll_fn_t)(void *_results, size_t _result_count, const void *_left_operands,
                                 size_t _left_count, const void *_right_operands, size_t _elem_size,
                                 int _flags, int _arg);
typedef struct {
    gasnet_coll_fn_t fnptr;
    unsigned int flags;
} gasnet_coll_fn_entry_t;

/* A shim: the collectives start with the client. images must be NULL
 * (or all 1: one image per process), my_image 0 or this process's rank,
 * init_flags 0. */
void gasnet_coll_init(const gasnet_image_t _images[], gasnet_image_t _my_image,
                      gasnet_coll_fn_entry_t _fn_tbl[], size_t _fn_count, int _init_flags);

/* flags: exactly one IN and one OUT sync flag, and GASNET_COLL_LOCAL;
 * flags, nbytes (> 0) and the root image are single-valued. */
gex_Event_t gasnet_coll_broadcast_nb(gasnet_team_handle_t _team, void *_dst, gasnet_image_t _srcimage,
                                     void *_src, size_t _nbytes, int _flags);
gex_Event_t gasnet_coll_scatter_nb(gasnet_team_handle_t _team, void *_dst, gasnet_image_t _srcimage,
                                   void *_src, size_t _nbytes, int _flags);
gex_Event_t gasnet_coll_gather_nb(gasnet_team_handle_t _team, gasnet_image_t _dstimage, void *_dst,
                                  void *_src, size_t _nbytes, int _flags);
gex_Event_t gasnet_coll_gather_all_nb(gasnet_team_handle_t _team, void *_dst, void *_src,
                                      size_t _nbytes, int _flags);
gex_Event_t gasnet_coll_exchange_nb(gasnet_team_handle_t _team, void *_dst, void *_src, size_t _nbytes,
                                    int _flags);
void gasnet_coll_broadcast(gasnet_team_handle_t _team, void *_dst, gasnet_image_t _srcimage, void *_src,
                           size_t _nbytes, int _flags);
void gasnet_coll_scatter(gasnet_team_handle_t _team, void *_dst, gasnet_image_t _srcimage, void *_src,
                         size_t _nbytes, int _flags);
void gasnet_coll_gather(gasnet_team_handle_t _team, gasnet_image_t _dstimage, void *_dst, void *_src,
                        size_t _nbytes, int _flags);
void gasnet_coll_gather_all(gasnet_team_handle_t _team, void *_dst, void *_src, size_t _nbytes,
                            int _flags);
void gasnet_coll_exchange(gasnet_team_handle_t _team, void *_dst, void *_src, size_t _nbytes, int _flags);

/* Syncs: the try forms do not poll. */
#define gasnet_coll_wait_sync(h) gex_Event_Wait(h)
#define gasnet_coll_try_sync(h) gex_Event_Test(h)
#define gasnet_coll_wait_sync_some(hs, _n) gex_Event_WaitSome((hs), (_n), 0)
#define gasnet_coll_try_sync_some(hs, _n) gex_Event_TestSome((hs), (_n), 0)
#define gasnet_coll_wait_sync_all(hs, _n) gex_Event_WaitAll((hs), (_n), 0)
#define gasnet_coll_try_sync_all(hs, _n) gex_Event_TestAll((hs), (_n), 0)

/* Team barriers with GASNet-1 barrier semantics (GASNET_TEAM_ALL: the
 * gasnet_barrier_* calls). */
void gasnet_coll_barrier_notify(gasnet_team_handle_t _team, int _id, int _flags);
int gasnet_coll_barrier_wait(gasnet_team_handle_t _team, int _id, int _flags);
int gasnet_coll_barrier_try(gasnet_team_handle_t _team, int _id, int _flags);
int gasnet_coll_barrier(gasnet_team_handle_t _team, int _id, int _flags);
int gasnet_coll_barrier_result(gasnet_team_handle_t _team, int *_id);

/* Tuning and profiling hooks of GASNet-1's autotuner (coll/legacy.c).
 * The collectives here use fixed algorithms (a binomial tree for
 * broadcast, direct sends for the others, dissemination for barriers),
 * so there is nothing to tune: the setters check their arguments and
 * change nothing; dumpTuningState writes a state file that says so,
 * which loadTuningState accepts; dumpProfile writes a file saying no
 * profile is kept. The files are written by the team's rank 0 (NULL
 * filename: gasnet_coll_tuning_defaults.bin / gasnet_coll_profile.bin). */
typedef enum {
    GASNET_COLL_BROADCAST_OP = 0,
    GASNET_COLL_SCATTER_OP,
    GASNET_COLL_GATHER_OP,
    GASNET_COLL_GATHER_ALL_OP,
    GASNET_COLL_EXCHANGE_OP,
    GASNET_COLL_NUM_COLL_OPTYPES
} gasnet_coll_optype_t;
typedef enum {
    GASNET_COLL_TREE_TYPE = 0,
    GASNET_COLL_PIPE_SEG_SIZE,
    GASNET_COLL_DISSEM_RADIX,
    GASNET_COLL_NUM_PARAM_TYPES
} gasnet_coll_tuning_param_type_t;
typedef void (*gasnet_coll_overlap_sample_work_t)(void *_arg);
int gasnet_coll_get_num_tree_classes(gasnet_team_handle_t _team, gasnet_coll_optype_t _optype);
void gasnet_coll_set_tree_kind(gasnet_team_handle_t _team, int _tree_type, int _fanout,
                               gasnet_coll_optype_t _optype);
void gasnet_coll_set_dissem_limit(gasnet_team_handle_t _team, size_t _dissemlimit,
                                  gasnet_coll_optype_t _optype);
void gasnete_coll_dumpTuningState(char *_filename, gasnet_team_handle_t _team);
void gasnete_coll_loadTuningState(char *_filename, gasnet_team_handle_t _team);
void gasnete_coll_dumpProfile(char *_filename, gasnet_team_handle_t _team);
#define gasnet_coll_dumpTuningState(FILENAME, TEAM) gasnete_coll_dumpTuningState((FILENAME), (TEAM))
#define gasnet_coll_loadTuningState(FILENAME, TEAM) gasnete_coll_loadTuningState((FILENAME), (TEAM))
#define gasnet_coll_dumpProfile(FILENAME, TEAM) gasnete_coll_dumpProfile((FILENAME), (TEAM))

#ifdef __cplusplus
}
#endif

#endif
