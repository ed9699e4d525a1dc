/* gasnett_run_diagnostics: the tools' self-tests (tools/gasnet_tools_diag.c,
 * sections A-H) plus two that need the network: I, AM round trips of every
 * category to the peer; J, puts and gets to the peer's area, each checked
 * byte for byte. Each writer uses its own 256-byte slot of the peer's 4 KiB
 * area (by jobrank), so peers that share a target do not disturb each
 * other.
 */
#include "gasnet_internal.h"
#include "gasnet_tools_internal.h"

#include <stdio.h>
#include <string.h>

static void diag_request(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t v);
static void diag_reply(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t v);
static void diag_short_request(gex_Token_t t, gex_AM_Arg_t v);
static void diag_short_reply(gex_Token_t t, gex_AM_Arg_t v);

static gex_AM_Entry_t handlers[] = {
    {0, (gex_AM_Fn_t)diag_request, GEX_FLAG_AM_MEDLONG | GEX_FLAG_AM_REQUEST, 1, NULL, "diag_request"},
    {0, (gex_AM_Fn_t)diag_reply, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY, 1, NULL, "diag_reply"},
    {0, (gex_AM_Fn_t)diag_short_request, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 1, NULL, "diag_short_request"},
    {0, (gex_AM_Fn_t)diag_short_reply, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 1, NULL, "diag_short_reply"},
};
enum { H_REQ, H_REP, H_SREQ, H_SREP };

static int replies, bad_replies;

/* Echoes the payload, with the argument incremented. */
static void diag_request(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t v)
{
    gex_AM_ReplyMedium1(t, handlers[H_REP].gex_index, buf, n, GEX_EVENT_NOW, 0, v + 1);
}

static int expected_arg;
static unsigned char expected[256];
static size_t expected_len;

static void diag_reply(gex_Token_t t, void *buf, size_t n, gex_AM_Arg_t v)
{
    (void)t;
    if (v != expected_arg || n != expected_len || memcmp(buf, expected, n))
        __atomic_fetch_add(&bad_replies, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&replies, 1, __ATOMIC_RELEASE);
}

static void diag_short_request(gex_Token_t t, gex_AM_Arg_t v)
{
    gex_AM_ReplyShort1(t, handlers[H_SREP].gex_index, 0, v + 1);
}

static void diag_short_reply(gex_Token_t t, gex_AM_Arg_t v)
{
    (void)t;
    if (v != expected_arg) __atomic_fetch_add(&bad_replies, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&replies, 1, __ATOMIC_RELEASE);
}

void gasnett_diagnostic_gethandlers(gex_AM_Entry_t **table, int *count)
{
    *table = handlers;
    *count = (int)(sizeof handlers / sizeof handlers[0]);
}

static void wait_replies(int n)
{
    GASNET_BLOCKUNTIL(__atomic_load_n(&replies, __ATOMIC_ACQUIRE) >= n);
}

static int am_checks(int iters, gex_TM_t tm, gex_Rank_t peer, void *peerseg)
{
    for (int h = 0; h < 4; h++)
        if (!handlers[h].gex_index) {
            fprintf(stderr, "gasnett diagnostics: I: the diagnostic handlers are not registered "
                            "(gasnett_diagnostic_gethandlers)\n");
            return 1;
        }
    replies = bad_replies = 0;
    for (int i = 0; i < iters; i++) {
        expected_arg = i + 1;
        expected_len = (size_t)i % sizeof expected;
        for (size_t k = 0; k < expected_len; k++) expected[k] = (unsigned char)(i + k);
        gex_AM_RequestShort1(tm, peer, handlers[H_SREQ].gex_index, 0, i);
        wait_replies(3 * i + 1);
        gex_AM_RequestMedium1(tm, peer, handlers[H_REQ].gex_index, expected, expected_len,
                              GEX_EVENT_NOW, 0, i);
        wait_replies(3 * i + 2);
        /* a Long into the slot of the peer's area, echoed back as a Medium */
        char *slot = (char *)peerseg + 256 * (gex_System_QueryJobRank() % 16);
        gex_AM_RequestLong1(tm, peer, handlers[H_REQ].gex_index, expected, expected_len, slot,
                            GEX_EVENT_NOW, 0, i);
        wait_replies(3 * i + 3);
    }
    if (bad_replies)
        fprintf(stderr, "gasnett diagnostics: I: %d of %d AM replies were wrong\n", bad_replies,
                replies);
    return bad_replies != 0;
}

static int rma_checks(int iters, gex_TM_t tm, gex_Rank_t peer, void *peerseg)
{
    unsigned char out[256], back[256];
    char *slot = (char *)peerseg + 256 * (gex_System_QueryJobRank() % 16);
    int failed = 0;
    for (int i = 0; i < iters && !failed; i++) {
        size_t n = 1 + (size_t)i % sizeof out;
        for (size_t k = 0; k < n; k++) out[k] = (unsigned char)(i * 3 + k);
        memset(back, 0, sizeof back);
        gex_RMA_PutBlocking(tm, peer, slot, out, n, 0);
        gex_RMA_GetBlocking(tm, back, peer, slot, n, 0);
        failed |= memcmp(out, back, n) != 0;
        gex_Event_t ev = gex_RMA_PutNB(tm, peer, slot, out, n, GEX_EVENT_DEFER, 0);
        gex_Event_Wait(ev);
        memset(back, 0, sizeof back);
        gex_RMA_GetNBI(tm, back, peer, slot, n, 0);
        gex_NBI_Wait(GEX_EC_GET, 0);
        failed |= memcmp(out, back, n) != 0;
    }
    if (failed) fprintf(stderr, "gasnett diagnostics: J: a put and get to rank %u differ\n", peer);
    return failed;
}

int gasnett_run_diagnostics(int iters, int threadcnt, const char *sections, gex_TM_t tm,
                            void *myseg, gex_Rank_t peer, void *peerseg)
{
    (void)myseg;
    int failed = gasneti_tools_diagnostics(iters, threadcnt, sections);
    int all = !sections || !*sections;
    int n = iters > 0 ? iters : 100;
    if (tm && peerseg && (all || strchr(sections, 'I'))) failed += am_checks(n, tm, peer, peerseg);
    if (tm && peerseg && (all || strchr(sections, 'J'))) failed += rma_checks(n, tm, peer, peerseg);
    return failed;
}
