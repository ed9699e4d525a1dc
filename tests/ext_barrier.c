/* ext_barrier: split-phase barriers (spec 8) under either algorithm
 * (GASNET_BARRIER=AMDISSEM or AMCENTRAL; the suite runs both).
 *
 *   ext_barrier [ROUNDS]        every form synchronises, try is NOT_READY
 *                               until all nodes notified, the mismatch rules
 *   ext_barrier notify_twice    misuse, must be fatal on node 0
 *   ext_barrier wait_without_notify
 *   ext_barrier wait_after_try
 *   ext_barrier handlers ROUNDS  node 0 sends every node an AM, then all
 *                               barrier, the others arriving last: the
 *                               barrier's poll runs the handler (on one
 *                               host the AM is in the ring before node 0
 *                               notifies, so this holds for every round)
 *
 * That a barrier synchronises is checked with data: before barrier j every
 * node stores j into its slot on every node with a blocking put, and after
 * it every node must find j in all slots. Rounds alternate between two sets
 * of slots, since a node that leaves barrier j early may already store
 * j + 1 (but not j + 2, which needs barrier j + 1). The expected result of each
 * mismatch case follows from the spec's rules as the reference applies them
 * since GASNet 1.20 (a wait's flags may differ from its notify's: only a
 * named wait checks its id, against the barrier's name), so every
 * algorithm must give the same results on every node.
 */
#include "test.h"

#include <unistd.h>

#define ANON GASNET_BARRIERFLAG_ANONYMOUS
#define MISM GASNET_BARRIERFLAG_MISMATCH
#define UNNAMED GASNET_BARRIERFLAG_UNNAMED

static gasnet_node_t me, nodes;
static gasnet_seginfo_t *seg;
static int arrived; /* client AMs received, counted by the handler */
static int j;       /* data-checked barriers so far: consecutive ones alternate slots */

/* Stores j into this node's slot of round j on every node. */
static void put_round(int j)
{
    for (gasnet_node_t p = 0; p < nodes; p++) {
        uint64_t *slot = (uint64_t *)seg[p].addr + (j & 1) * nodes + me;
        gasnet_put_val(p, slot, (gasnet_register_value_t)j, sizeof *slot);
    }
}

static void check_round(int j, const char *what)
{
    uint64_t *slots = (uint64_t *)seg[me].addr + (j & 1) * nodes;
    for (gasnet_node_t s = 0; s < nodes; s++)
        CHECK(__atomic_load_n(&slots[s], __ATOMIC_ACQUIRE) == (uint64_t)j,
              "after %s %d: node %u's put before it is missing (slot holds %llu)", what, j, s,
              (unsigned long long)slots[s]);
}

static void hello_h(gasnet_token_t tok)
{
    (void)tok;
    __atomic_fetch_add(&arrived, 1, __ATOMIC_RELEASE);
}

enum { FORM_NAMED, FORM_ANON, FORM_TRY, FORM_BLOCKING, FORM_UNNAMED, NFORMS };
static const char *const form_name[NFORMS] = {"notify+wait named", "notify+wait anonymous",
                                              "notify+try", "gasnet_barrier",
                                              "gasnet_barrier UNNAMED"};

static int run_barrier(int form, int id)
{
    int rc;
    switch (form) {
    case FORM_NAMED:
        gasnet_barrier_notify(id, 0);
        return gasnet_barrier_wait(id, 0);
    case FORM_ANON:
        gasnet_barrier_notify(id, ANON);
        return gasnet_barrier_wait(id + 1, ANON); /* ids do not matter */
    case FORM_TRY:
        gasnet_barrier_notify(id, 0);
        while ((rc = gasnet_barrier_try(id, 0)) == GASNET_ERR_NOT_READY) continue;
        return rc;
    case FORM_BLOCKING: return gasnet_barrier(id, 0);
    default: return gasnet_barrier(0, UNNAMED);
    }
}

/* Every form, rounds times, must not let a node through before every
 * node's put of the round has completed. */
static void test_synchronises(int rounds)
{
    for (int form = 0; form < NFORMS; form++) {
        for (int r = 0; r < rounds; r++) {
            put_round(++j);
            int rc = run_barrier(form, j);
            CHECK(rc == GASNET_OK, "%s %d returned %s", form_name[form], j, gasnet_ErrorName(rc));
            check_round(j, form_name[form]);
            int id = -1;
            if (form == FORM_NAMED || form == FORM_TRY || form == FORM_BLOCKING) {
                CHECK(gasnet_barrier_result(&id) == 0 && id == j,
                      "gasnet_barrier_result after %s %d: id %d", form_name[form], j, id);
            } else {
                CHECK(gasnet_barrier_result(&id) != 0,
                      "gasnet_barrier_result after %s: named", form_name[form]);
            }
        }
        MSG0("%s x %d: synchronises", form_name[form], rounds);
    }
}

/* Until every node has notified, try says NOT_READY: node 0 notifies only
 * after every other node has seen that and told it so. */
static void test_try_not_ready(void)
{
    if (nodes == 1) {
        gasnet_barrier_notify(3, 0);
        CHECK_OK(gasnet_barrier_try(3, 0)); /* one node: complete at once */
    } else if (me != 0) {
        gasnet_barrier_notify(3, 0);
        for (int i = 0; i < 3; i++)
            CHECK(gasnet_barrier_try(3, 0) == GASNET_ERR_NOT_READY,
                  "barrier_try completed before node 0 notified");
        CHECK_OK(gasnet_AMRequestShort0(0, 128));
        int rc;
        while ((rc = gasnet_barrier_try(3, 0)) == GASNET_ERR_NOT_READY) continue;
        CHECK(rc == GASNET_OK, "barrier_try returned %s", gasnet_ErrorName(rc));
    } else {
        GASNET_BLOCKUNTIL(__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) == (int)nodes - 1);
        gasnet_barrier_notify(3, 0);
        CHECK_OK(gasnet_barrier_wait(3, 0));
    }
    MSG0("barrier_try: NOT_READY until every node notified");
}

/* One case of the mismatch rules: what this node notifies and waits with,
 * and the result it must get. */
struct mcase {
    int nid, nflags, wid, wflags, expect;
    int named_id; /* >= 0: barrier_result must report this id; -1: anonymous; -2: don't check */
};

/* Fills m for case c on this node; returns 0 if the case needs more nodes. */
static int mismatch_case(int c, struct mcase *m)
{
    const int last = (int)nodes - 1, i = (int)me;
    *m = (struct mcase){5, 0, 5, 0, GASNET_OK, 5};
    switch (c) {
    case 0: return 1; /* everybody agrees */
    case 1: /* rule 3: a named wait with another id than the notify */
        if (i == 0) m->wid = 6;
        break;
    case 2: /* wait flags may differ from notify flags (GASNet 1.20 on, as
             * the reference): an anonymous wait after a named notify */
        if (i == 0) m->wflags = ANON;
        return 1;
    case 3: /* ... and a named wait after an anonymous notify, with the
             * node's own id, every node anonymous */
        m->nflags = m->wflags = ANON;
        if (i == last) m->wflags = 0;
        m->named_id = -1;
        return 1;
    case 4: /* waiting with MISMATCH, without notifying it, is local */
        if (i == 0) m->wflags = MISM;
        break;
    case 5: /* rule 2: one node notifies MISMATCH, everybody mismatches */
        if (i == last) m->nflags = m->wflags = MISM;
        m->expect = GASNET_ERR_BARRIER_MISMATCH;
        m->named_id = -2;
        return 1;
    case 6: /* rule 4: every node names its own id */
        if (nodes < 2) return 0;
        m->nid = m->wid = i;
        m->expect = GASNET_ERR_BARRIER_MISMATCH;
        m->named_id = -2;
        return 1;
    case 7: /* anonymous nodes match a named one, whose id wins */
        if (i == 0) {
            m->nid = m->wid = 7;
        } else {
            m->nid = 3 * i;
            m->wid = 100 + i;
            m->nflags = m->wflags = ANON;
        }
        m->named_id = 7;
        return 1;
    case 8: /* all anonymous: the ids are ignored */
        m->nid = i;
        m->wid = i + 100;
        m->nflags = m->wflags = ANON;
        m->named_id = -1;
        return 1;
    case 9: /* rule 4 among the named nodes, the anonymous one aside */
        if (nodes < 3) return 0;
        if (i == 0) m->nflags = m->wflags = ANON;
        else m->nid = m->wid = 10 + i % 2;
        m->expect = GASNET_ERR_BARRIER_MISMATCH;
        m->named_id = -2;
        return 1;
    case 10: /* UNNAMED on every node */
        m->nid = m->wid = 0;
        m->nflags = m->wflags = UNNAMED;
        m->named_id = -1;
        return 1;
    case 11: /* the client: notify(0, ANONYMOUS) then wait(0, 0) everywhere */
        m->nid = m->wid = 0;
        m->nflags = ANON;
        m->named_id = -1;
        return 1;
    case 12: /* all anonymous: a named wait compares with the node's own notify
              * id; node 0 names another and mismatches alone */
        m->nid = m->wid = 20 + i;
        m->nflags = ANON;
        if (i == 0) m->wid = 40;
        m->named_id = -1;
        break;
    case 13: /* node 0 named 7, the others anonymous and waiting named: with 7
              * they match, the last node's 8 mismatches there only */
        m->nid = m->wid = 7;
        if (i != 0) m->nflags = ANON, m->nid = 30 + i;
        if (i == last && i != 0) m->wid = 8;
        m->named_id = 7;
        if (m->wid != 7) m->expect = GASNET_ERR_BARRIER_MISMATCH, m->named_id = -2;
        return 1;
    default: return 0;
    }
    /* cases 1, 4, 12: only the node that broke a rule mismatches */
    if (m->wid != m->nid || (m->wflags & MISM)) {
        m->expect = GASNET_ERR_BARRIER_MISMATCH;
        m->named_id = -2;
    }
    return 1;
}
#define NCASES 14

static void test_mismatch(void)
{
    for (int how = 0; how < 3; how++) {
        for (int c = 0; c < NCASES; c++) {
            struct mcase m;
            if (!mismatch_case(c, &m)) continue;
            int rc;
            if (how == 0) {
                gasnet_barrier_notify(m.nid, m.nflags);
                rc = gasnet_barrier_wait(m.wid, m.wflags);
            } else if (how == 1) {
                gasnet_barrier_notify(m.nid, m.nflags);
                while ((rc = gasnet_barrier_try(m.wid, m.wflags)) == GASNET_ERR_NOT_READY) continue;
            } else {
                /* gasnet_barrier cannot wait with other values than it
                 * notifies, which cases 1-4 and 11-13 need */
                if ((c >= 1 && c <= 4) || c >= 11) continue;
                rc = gasnet_barrier(m.nid, m.nflags);
            }
            CHECK(rc == m.expect, "mismatch case %d (%s): notify(%d, %d) wait(%d, %d) returned "
                  "%s, expected %s", c, how == 0 ? "wait" : how == 1 ? "try" : "gasnet_barrier",
                  m.nid, m.nflags, m.wid, m.wflags, gasnet_ErrorName(rc),
                  gasnet_ErrorName(m.expect));
            int id = -1, res = gasnet_barrier_result(&id);
            if (m.named_id >= 0)
                CHECK(res == 0 && id == m.named_id, "case %d: barrier_result %d, id %d, expected "
                      "id %d", c, res, id, m.named_id);
            else if (m.named_id == -1)
                CHECK(res != 0, "case %d: barrier_result says named (id %d)", c, id);
            /* a clean barrier right after still synchronises */
            put_round(++j);
            CHECK_OK(gasnet_barrier(j, 0));
            check_round(j, "the barrier after a mismatch case");
        }
    }
    MSG0("mismatch rules: %d cases x wait/try/gasnet_barrier give the expected results", NCASES);
}

int main(int argc, char **argv)
{
    gasnet_handlerentry_t table[] = {{128, (void (*)())hello_h}};
    seg = test_start(&argc, &argv, table, 1, GASNET_PAGESIZE);
    me = gasnet_mynode();
    nodes = gasnet_nodes();
    const char *mode = argc > 1 ? argv[1] : "20";
    if (!strcmp(mode, "notify_twice")) {
        gasnet_barrier_notify(1, 0);
        if (me == 0) gasnet_barrier_notify(1, 0);
        gasnet_barrier_wait(1, 0);
        BARRIER();
        CHECK(0, "a second notify was not fatal");
    } else if (!strcmp(mode, "wait_without_notify")) {
        if (me == 0) gasnet_barrier_wait(1, 0);
        BARRIER();
        CHECK(0, "a wait without notify was not fatal");
    } else if (!strcmp(mode, "wait_after_try")) {
        gasnet_barrier_notify(1, 0);
        while (gasnet_barrier_try(1, 0) == GASNET_ERR_NOT_READY) continue;
        if (me == 0) gasnet_barrier_wait(1, 0);
        BARRIER();
        CHECK(0, "a wait after a successful try was not fatal");
    }
    if (!strcmp(mode, "handlers")) {
        int rounds = argc > 2 ? atoi(argv[2]) : 10;
        for (int r = 1; r <= rounds; r++) {
            if (me == 0)
                for (gasnet_node_t p = 1; p < nodes; p++) CHECK_OK(gasnet_AMRequestShort0(p, 128));
            else
                usleep(2000); /* node 0 notifies first: this node's notify may end the barrier */
            CHECK_OK(r & 1 ? gasnet_barrier(r, 0) : (gasnet_barrier_notify(r, 0), gasnet_barrier_wait(r, 0)));
            int got = __atomic_load_n(&arrived, __ATOMIC_ACQUIRE);
            CHECK(me == 0 || got >= r, "after barrier %d, only %d of node 0's AMs had run here", r, got);
        }
        BARRIER();
        MSG0("ext_barrier handlers: ok");
        gasnet_exit(0);
    }
    int rounds = atoi(mode);
    CHECK(rounds > 0, "usage: ext_barrier [ROUNDS | notify_twice | wait_without_notify | "
          "wait_after_try | handlers ROUNDS]");
    const char *alg = gasnet_getenv("GASNET_BARRIER");
    MSG0("ext_barrier: %u nodes, %s", nodes, alg ? alg : "default algorithm");
    test_synchronises(rounds);
    test_try_not_ready();
    test_mismatch();
    test_synchronises(2);
    MSG0("ext_barrier: OK");
    gasnet_exit(0);
}
