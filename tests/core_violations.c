/* Rule violations the debug build must detect and report with the node and
 * the call named (spec 6.3): run with one case name; the job must stop
 * with a fatal error whose message the suite checks. On 2 nodes.
 *   recursive_hsl unlock_order unlock_unheld uninit_hsl handler_hsl
 *   nis_request hsl_request nested_nis resume_unheld handler_request
 *   handler_poll second_reply reply_from_reply reply_with_hsl
 *   long_outside
 */
#include "test.h"

enum { H_REQ = 130, H_REP, H_HSL, H_SEND, H_POLL, H_TWICE, H_REPLY_REQ, H_REPLY_REP, H_REPLY_HSL };
static gasnet_hsl_t a = GASNET_HSL_INITIALIZER, b = GASNET_HSL_INITIALIZER;
static volatile int done;

static void req_h(gasnet_token_t t) { gasnet_AMReplyShort0(t, H_REP); }
static void rep_h(gasnet_token_t t) { (void)t; done = 1; }
static void hsl_h(gasnet_token_t t) { (void)t; gasnet_hsl_lock(&a); }
static void send_h(gasnet_token_t t) { (void)t; gasnet_AMRequestShort0(0, H_REQ); }
static void poll_h(gasnet_token_t t) { (void)t; gasnet_AMPoll(); }
static void twice_h(gasnet_token_t t)
{
    gasnet_AMReplyShort0(t, H_REP);
    gasnet_AMReplyShort0(t, H_REP);
}
static void reply_req_h(gasnet_token_t t) { gasnet_AMReplyShort0(t, H_REPLY_REP); }
static void reply_rep_h(gasnet_token_t t) { gasnet_AMReplyShort0(t, H_REP); }
static void reply_hsl_h(gasnet_token_t t)
{
    gasnet_hsl_lock(&a);
    gasnet_AMReplyShort0(t, H_REP);
}

static gasnet_handlerentry_t table[] = {
    {H_REQ, (void (*)())req_h},         {H_REP, (void (*)())rep_h},
    {H_HSL, (void (*)())hsl_h},         {H_SEND, (void (*)())send_h},
    {H_POLL, (void (*)())poll_h},       {H_TWICE, (void (*)())twice_h},
    {H_REPLY_REQ, (void (*)())reply_req_h}, {H_REPLY_REP, (void (*)())reply_rep_h},
    {H_REPLY_HSL, (void (*)())reply_hsl_h},
};

/* Node 0 sends one request to node 1 whose handler breaks a rule. */
static void provoke(int handler)
{
    if (gasnet_mynode() == 0) gasnet_AMRequestShort0(1, (gasnet_handler_t)handler);
    GASNET_BLOCKUNTIL(done);
}

int main(int argc, char **argv)
{
    gasnet_seginfo_t *seg = test_start(&argc, &argv, table, (int)(sizeof table / sizeof table[0]),
                                       GASNET_PAGESIZE);
    CHECK(argc == 2 && gasnet_nodes() == 2, "usage: core_violations CASE, on 2 nodes");
    const char *c = argv[1];
    char buf[16] = {0};
    BARRIER();
    if (!strcmp(c, "recursive_hsl")) {
        gasnet_hsl_lock(&a);
        gasnet_hsl_lock(&a);
    } else if (!strcmp(c, "unlock_order")) {
        gasnet_hsl_lock(&a);
        gasnet_hsl_lock(&b);
        gasnet_hsl_unlock(&a);
    } else if (!strcmp(c, "unlock_unheld")) {
        gasnet_hsl_unlock(&a);
    } else if (!strcmp(c, "uninit_hsl")) {
        gasnet_hsl_t z;
        memset(&z, 0, sizeof z);
        gasnet_hsl_lock(&z);
    } else if (!strcmp(c, "handler_hsl")) {
        provoke(H_HSL);
    } else if (!strcmp(c, "nis_request")) {
        gasnet_hold_interrupts();
        gasnet_AMRequestShort0(1, H_REQ);
    } else if (!strcmp(c, "hsl_request")) {
        gasnet_hsl_lock(&a);
        gasnet_AMRequestShort0(1, H_REQ);
    } else if (!strcmp(c, "nested_nis")) {
        gasnet_hold_interrupts();
        gasnet_hold_interrupts();
    } else if (!strcmp(c, "resume_unheld")) {
        gasnet_resume_interrupts();
    } else if (!strcmp(c, "handler_request")) {
        provoke(H_SEND);
    } else if (!strcmp(c, "handler_poll")) {
        provoke(H_POLL);
    } else if (!strcmp(c, "second_reply")) {
        provoke(H_TWICE);
    } else if (!strcmp(c, "reply_from_reply")) {
        provoke(H_REPLY_REQ);
    } else if (!strcmp(c, "reply_with_hsl")) {
        provoke(H_REPLY_HSL);
    } else if (!strcmp(c, "long_outside")) {
        char *end = (char *)seg[1].addr + seg[1].size;
        if (gasnet_mynode() == 0) gasnet_AMRequestLong0(1, H_REQ, buf, sizeof buf, end - 8);
    } else {
        CHECK(0, "unknown case %s", c);
    }
    /* Reaching here means the violation went unnoticed. */
    BARRIER();
    MSG0("core_violations: %s was not detected", c);
    gasnet_exit(2);
    return 0;
}
