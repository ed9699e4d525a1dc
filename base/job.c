/* Who this process is in the job and where the others are: set by the
 * core at start-up (core-mpi/core.c), read by every layer. */
#include "base.h"

gex_Rank_t gasneti_mynode, gasneti_nodes;
int gasneti_init_done;
gasnet_nodeinfo_t *gasneti_nodeinfo;
gex_Rank_t gasneti_nbrhds, gasneti_hosts;
