/* A peer that floods a node with messages it did not ask for (issue 27,
 * item 2): rank 1 writes raw headers onto the endpoint's communicator.
 *   replies         replies when rank 0 sent no request: no credit to return
 *   payload_replies replies announcing a separate payload that never comes,
 *                   (and returning no credit: none is owed)
 *   payload_requests requests announcing a separate payload that never comes
 *   oversized       a header message longer than any valid one
 * Rank 0 counts the rejections (its error handler returns) and checks that
 * its resident memory grew by less than LIMIT: every accepted message
 * that waits for a payload holds a credit, so at most C per peer wait
 * (ammpi/internal.h's memory bound). Before the fix each payload reply took
 * a pending record and a 65000-byte buffer. The oversized header must be
 * reported as such, naming the sender.
 * Usage: ammpi_unsolicited KIND [COUNT] (default 4000) */
#include "ammpi_test.h"
#include "internal.h" /* the wire format, to forge headers */
#include "proc_status.h"

#define LIMIT (24L << 20)
static long nerrors;
static char first_error[512];
static volatile long good;

static void record_error(ammpi_ep_t *ep, int src, const char *what)
{
    (void)ep;
    CHECK(src == 1 && strstr(what, "node 1"), "error blames rank %d: %s", src, what);
    if (!nerrors++) snprintf(first_error, sizeof first_error, "%s", what);
}

static void on_any(ammpi_token_t t, void *buf, size_t n)
{
    (void)t, (void)buf, (void)n;
    good++;
}

static void forge(ammpi_ep_t *ep, int kind, uint32_t nbytes, uint16_t credits, int flags,
                  int tag, int len)
{
    char buf[HDR_MAX + 65536];
    memset(buf, 0, (size_t)len);
    ammpi_hdr_t *h = (ammpi_hdr_t *)buf;
    *h = (ammpi_hdr_t){(uint8_t)kind, 5, 0, (uint8_t)flags, credits, 0, 0, nbytes, tag, 0};
    MPI_Send(buf, len, MPI_BYTE, 0, TAG_HEADER, ammpi_comm(ep));
}

int main(int argc, char **argv)
{
    ammpi_ep_t *ep = test_open(&argc, &argv);
    CHECK(ammpi_size(ep) == 2 && argc > 1, "usage: 2 ranks, ammpi_unsolicited KIND [COUNT]");
    const char *kind = argv[1];
    long count = argc > 2 ? atol(argv[2]) : 4000;
    int me = ammpi_rank(ep);
    ammpi_set_handler(ep, 5, (ammpi_handler_fn)on_any);
    ammpi_set_error_handler(ep, record_error);
    long before = proc_status_kib("VmRSS");
    MPI_Barrier(MPI_COMM_WORLD);
    int h0 = (int)hdr_len(0);
    if (me == 1) {
        for (long i = 0; i < count; i++) {
            if (!strcmp(kind, "replies"))
                forge(ep, K_MEDIUM | K_REPLY, 100, 0, 0, -1, h0 + 100);
            else if (!strcmp(kind, "payload_replies"))
                forge(ep, K_MEDIUM | K_REPLY, 65000, 0, F_SEPARATE, (int)(i % TAG_SPACE), h0);
            else if (!strcmp(kind, "payload_requests"))
                forge(ep, K_MEDIUM, 65000, 0, F_SEPARATE, (int)(i % TAG_SPACE), h0);
            else if (!strcmp(kind, "oversized"))
                forge(ep, K_MEDIUM, 100, 0, 0, -1, (int)(HDR_MAX + 65536));
            else
                CHECK(0, "unknown kind %s", kind);
        }
    } else {
        /* until every forged message is accounted for: rejected, run, or
         * waiting for its payload */
        int idle = 0;
        for (;;) {
            long waiting = 0;
            for (pending_t *p = ep->pending; p; p = p->next) waiting++;
            if (nerrors + good + waiting >= count) break;
            ammpi_poll_wait(ep, &idle);
        }
        long grew = proc_status_kib("VmRSS") - before;
        printf("ammpi_unsolicited %s: %ld forged, %ld rejected, resident memory grew by %ld KiB; "
               "first error: %s\n", kind, count, nerrors, grew, first_error);
        CHECK(grew * 1024L < LIMIT, "resident memory grew by %ld KiB (limit %ld KiB)", grew,
              LIMIT / 1024);
        if (!strcmp(kind, "oversized"))
            CHECK(nerrors == count && strstr(first_error, "node 1") &&
                  strstr(first_error, "a header message of more than"),
                  "%ld errors; first: %s", nerrors, first_error);
        else
            CHECK(nerrors >= count - ammpi_config(ep)->credits_pp, "only %ld of %ld rejected",
                  nerrors, count);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* what rank 1 forged was never counted as sent, and payloads are still
     * awaited: leave without ammpi_close */
    printf("ammpi_unsolicited %s: node %d: ok\n", kind, me);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
