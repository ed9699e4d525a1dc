/* Collective messages for a team that does not exist, forged by a peer
 * (docs/threat-model.md, EARLY LETTERS in coll/coll.c). Node 1 sends node
 * 0 COUNT requests to the library's collective handler, 60,000 bytes each,
 * for team 0x00000001deadbeef, which no node creates; then both barrier.
 *
 *   ex_forge_coll flood    COUNT 64 (3.8 MB): run with
 *                          GASNET_COLL_EARLY_MAX=1M, node 0 must end the
 *                          job with a fatal error naming node 1, the team
 *                          and the limit; returning fails
 *   ex_forge_coll within   COUNT 8 (480 KB, under the 1M limit): kept, as
 *                          for a team that is about to be created; the
 *                          barrier and exit work ("ex_forge_coll: ok")
 */
#include "ex_test.h"
#include "extended.h"

#include <string.h>

#define TEAM_HI 0x00000001
#define TEAM_LO ((int32_t)0xdeadbeef)
#define BYTES 60000

int main(int argc, char **argv)
{
    gex_Client_t client;
    gex_EP_t ep;
    gex_TM_t tm;
    gex_Segment_t segment;
    CHECK_OK(gex_Client_Init(&client, &ep, &tm, "ex_forge_coll", &argc, &argv, 0));
    CHECK_OK(gex_Segment_Attach(&segment, tm, 1 << 16));
    CHECK(argc == 2 && (!strcmp(argv[1], "flood") || !strcmp(argv[1], "within")),
          "usage: ex_forge_coll flood|within");
    int count = strcmp(argv[1], "flood") ? 8 : 64;
    gex_Rank_t me = gex_TM_QueryRank(tm);
    CHECK(gex_TM_QuerySize(tm) >= 2, "needs 2 nodes");
    if (me == 1) {
        static char data[BYTES];
        memset(data, 0x5a, sizeof data);
        for (int i = 0; i < count; i++) /* team, operation, step, sender, signature, offset */
            CHECK_OK(gex_AM_RequestMedium8(tm, 0, GASNETE_H_COLL, data, sizeof data, GEX_EVENT_NOW, 0,
                                           TEAM_HI, TEAM_LO, i, 0, 1, 0x1234, 0, 0));
    }
    gex_Event_Wait(gex_Coll_BarrierNB(tm, 0));
    if (me == 0) printf("ex_forge_coll: ok\n");
    gasnet_exit(0);
    return 0;
}
