// The EX install client compiled as C++ with every public header included
// first: the headers must be clean under -Wall -Wextra -pedantic.
#include <gasnet_fwd.h>
#include <gasnetex.h>
#include <gasnet.h>
#include <gasnet_ratomic.h>
#include <gasnet_vis.h>
#include <gasnet_mk.h>
#include <gasnet_coll.h>
#include <gasnet_tools.h>

enum class Op : gex_OP_t { add = GEX_OP_ADD, fadd = GEX_OP_FADD }; // clients do this
static_assert(static_cast<gex_OP_t>(Op::fadd) == GEX_OP_TO_FETCHING(GEX_OP_ADD), "OP pairs");

#include "ex_client.c"
