/* gasnet_ratomic.h: GASNet-EX remote atomics (spec §14).
 *
 * An atomic domain (gex_AD_t, from gasnetex.h) ties a team, one data type
 * and a set of operations together; gex_AD_OpNB_<T> and gex_AD_OpNBI_<T>
 * apply one operation to a word in the bound segment of a member. Every
 * operation of a domain is atomic with every other operation of that
 * domain on the same word, whichever rank or thread issues it. There are
 * no blocking forms: wait on the NB event. The mechanism is in
 * extended/ratomic.c.
 */
#ifndef _GASNET_RATOMIC_H
#define _GASNET_RATOMIC_H

#include <gasnetex.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Collective over tm; dt, ops and flags are single-valued. flags: at most
 * one of GEX_FLAG_AD_FAVOR_MY_RANK, _MY_NBRHD, _REMOTE (hints). */
void gex_AD_Create(gex_AD_t *ad_p, gex_TM_t tm, gex_DT_t dt, gex_OP_t ops, gex_Flags_t flags);
/* Collective over the domain's team, no synchronisation: every operation
 * on the domain must be complete on every rank first. */
void gex_AD_Destroy(gex_AD_t ad);

gex_Flags_t gex_AD_QueryFlags(gex_AD_t ad);
gex_TM_t gex_AD_QueryTM(gex_AD_t ad);
gex_DT_t gex_AD_QueryDT(gex_AD_t ad);
gex_OP_t gex_AD_QueryOps(gex_AD_t ad);
void gex_AD_SetCData(gex_AD_t ad, const void *val);
void *gex_AD_QueryCData(gex_AD_t ad);

/* result_p receives the old value for the fetching opcodes (F*, SWAP,
 * FCAS, GET); operand2 is used by CAS and FCAS only. */
gex_Event_t gex_AD_OpNB_I32(gex_AD_t ad, int32_t *result_p, gex_Rank_t tgt_rank, void *tgt_addr,
                            gex_OP_t opcode, int32_t operand1, int32_t operand2, gex_Flags_t flags);
int gex_AD_OpNBI_I32(gex_AD_t ad, int32_t *result_p, gex_Rank_t tgt_rank, void *tgt_addr,
                     gex_OP_t opcode, int32_t operand1, int32_t operand2, gex_Flags_t flags);
gex_Event_t gex_AD_OpNB_U32(gex_AD_t ad, uint32_t *result_p, gex_Rank_t tgt_rank, void *tgt_addr,
                            gex_OP_t opcode, uint32_t operand1, uint32_t operand2, gex_Flags_t flags);
int gex_AD_OpNBI_U32(gex_AD_t ad, uint32_t *result_p, gex_Rank_t tgt_rank, void *tgt_addr,
                     gex_OP_t opcode, uint32_t operand1, uint32_t operand2, gex_Flags_t flags);
gex_Event_t gex_AD_OpNB_I64(gex_AD_t ad, int64_t *result_p, gex_Rank_t tgt_rank, void *tgt_addr,
                            gex_OP_t opcode, int64_t operand1, int64_t operand2, gex_Flags_t flags);
int gex_AD_OpNBI_I64(gex_AD_t ad, int64_t *result_p, gex_Rank_t tgt_rank, void *tgt_addr,
                     gex_OP_t opcode, int64_t operand1, int64_t operand2, gex_Flags_t flags);
gex_Event_t gex_AD_OpNB_U64(gex_AD_t ad, uint64_t *result_p, gex_Rank_t tgt_rank, void *tgt_addr,
                            gex_OP_t opcode, uint64_t operand1, uint64_t operand2, gex_Flags_t flags);
int gex_AD_OpNBI_U64(gex_AD_t ad, uint64_t *result_p, gex_Rank_t tgt_rank, void *tgt_addr,
                     gex_OP_t opcode, uint64_t operand1, uint64_t operand2, gex_Flags_t flags);
gex_Event_t gex_AD_OpNB_FLT(gex_AD_t ad, float *result_p, gex_Rank_t tgt_rank, void *tgt_addr,
                            gex_OP_t opcode, float operand1, float operand2, gex_Flags_t flags);
int gex_AD_OpNBI_FLT(gex_AD_t ad, float *result_p, gex_Rank_t tgt_rank, void *tgt_addr,
                     gex_OP_t opcode, float operand1, float operand2, gex_Flags_t flags);
gex_Event_t gex_AD_OpNB_DBL(gex_AD_t ad, double *result_p, gex_Rank_t tgt_rank, void *tgt_addr,
                            gex_OP_t opcode, double operand1, double operand2, gex_Flags_t flags);
int gex_AD_OpNBI_DBL(gex_AD_t ad, double *result_p, gex_Rank_t tgt_rank, void *tgt_addr,
                     gex_OP_t opcode, double operand1, double operand2, gex_Flags_t flags);

#ifdef __cplusplus
}
#endif
#endif
