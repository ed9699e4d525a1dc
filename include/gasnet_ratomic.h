/* gasnet_ratomic.h: GASNet-EX remote atomics (spec §14).
 *
 * An atomic domain (gex_AD_t, from gasnetex.h) ties a team, one data type
 * and a set of operations together; gex_AD_OpNB_<T> and gex_AD_OpNBI_<T>
 * apply one operation to a word in the bound segment of a member. Every
 * operation of a domain is atomic with every other operation of that
 * domain on the same word, whichever rank or thread issues it. There are
 * no blocking forms: wait on the NB event. The mechanism is in
 * ratomic/ratomic.c.
 */
#ifndef _GASNET_RATOMIC_H
#define _GASNET_RATOMIC_H

#include <gasnetex.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over tm; dt, ops and flags are single-valued. flags: at most
 * one of GEX_FLAG_AD_FAVOR_MY_RANK, _MY_NBRHD, _REMOTE (hints). */
void gex_AD_Create(gex_AD_t *_ad_p, gex_TM_t tm, gex_DT_t _dt, gex_OP_t _ops, gex_Flags_t _flags);
/* Collective over the domain's team, no synchronisation: every operation
 * on the domain must be complete on every rank first. */
void gex_AD_Destroy(gex_AD_t _ad);

gex_Flags_t gex_AD_QueryFlags(gex_AD_t _ad);
gex_TM_t gex_AD_QueryTM(gex_AD_t _ad);
gex_DT_t gex_AD_QueryDT(gex_AD_t _ad);
gex_OP_t gex_AD_QueryOps(gex_AD_t _ad);
void gex_AD_SetCData(gex_AD_t _ad, const void *_val);
void *gex_AD_QueryCData(gex_AD_t _ad);

/* result_p receives the old value for the fetching opcodes (F*, SWAP,
 * FCAS, GET); operand2 is used by CAS and FCAS only. */
gex_Event_t gex_AD_OpNB_I32(gex_AD_t _ad, int32_t *_result_p, gex_Rank_t _tgt_rank, void *_tgt_addr,
                            gex_OP_t _opcode, int32_t _operand1, int32_t _operand2, gex_Flags_t _flags);
int gex_AD_OpNBI_I32(gex_AD_t _ad, int32_t *_result_p, gex_Rank_t _tgt_rank, void *_tgt_addr,
                     gex_OP_t _opcode, int32_t _operand1, int32_t _operand2, gex_Flags_t _flags);
gex_Event_t gex_AD_OpNB_U32(gex_AD_t _ad, uint32_t *_result_p, gex_Rank_t _tgt_rank, void *_tgt_addr,
                            gex_OP_t _opcode, uint32_t _operand1, uint32_t _operand2, gex_Flags_t _flags);
int gex_AD_OpNBI_U32(gex_AD_t _ad, uint32_t *_result_p, gex_Rank_t _tgt_rank, void *_tgt_addr,
                     gex_OP_t _opcode, uint32_t _operand1, uint32_t _operand2, gex_Flags_t _flags);
gex_Event_t gex_AD_OpNB_I64(gex_AD_t _ad, int64_t *_result_p, gex_Rank_t _tgt_rank, void *_tgt_addr,
                            gex_OP_t _opcode, int64_t _operand1, int64_t _operand2, gex_Flags_t _flags);
int gex_AD_OpNBI_I64(gex_AD_t _ad, int64_t *_result_p, gex_Rank_t _tgt_rank, void *_tgt_addr,
                     gex_OP_t _opcode, int64_t _operand1, int64_t _operand2, gex_Flags_t _flags);
gex_Event_t gex_AD_OpNB_U64(gex_AD_t _ad, uint64_t *_result_p, gex_Rank_t _tgt_rank, void *_tgt_addr,
                            gex_OP_t _opcode, uint64_t _operand1, uint64_t _operand2, gex_Flags_t _flags);
int gex_AD_OpNBI_U64(gex_AD_t _ad, uint64_t *_result_p, gex_Rank_t _tgt_rank, void *_tgt_addr,
                     gex_OP_t _opcode, uint64_t _operand1, uint64_t _operand2, gex_Flags_t _flags);
gex_Event_t gex_AD_OpNB_FLT(gex_AD_t _ad, float *_result_p, gex_Rank_t _tgt_rank, void *_tgt_addr,
                            gex_OP_t _opcode, float _operand1, float _operand2, gex_Flags_t _flags);
int gex_AD_OpNBI_FLT(gex_AD_t _ad, float *_result_p, gex_Rank_t _tgt_rank, void *_tgt_addr,
                     gex_OP_t _opcode, float _operand1, float _operand2, gex_Flags_t _flags);
gex_Event_t gex_AD_OpNB_DBL(gex_AD_t _ad, double *_result_p, gex_Rank_t _tgt_rank, void *_tgt_addr,
                            gex_OP_t _opcode, double _operand1, double _operand2, gex_Flags_t _flags);
int gex_AD_OpNBI_DBL(gex_AD_t _ad, double *_result_p, gex_Rank_t _tgt_rank, void *_tgt_addr,
                     gex_OP_t _opcode, double _operand1, double _operand2, gex_Flags_t _flags);

#ifdef __cplusplus
}
#endif
#endif
