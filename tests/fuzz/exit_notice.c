/* Fuzzes the exit notices (core-mpi/exit.c): the 4-word messages a node
 * sends every other node when it exits. The input is a series of notices
 * as they would arrive (the sender, the number of 64-bit words MPI
 * reports, the words); gasnetc_exit_notice_error judges each, as
 * take_notices does, against the state its verdicts so far leave (which
 * senders were heard). What it accepts must be usable as take_notices
 * uses it: a code that is an int, an origin that is a node, a count that
 * is a number of messages, one notice per sender.
 *
 * Input: a job size (1..64 nodes), then records of a sender byte, a
 * word-count byte and 4 words of 8 bytes. */
#include "fuzz.h"
#include "gasnet_internal.h"

#include <limits.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_in_t in = {data, size};
    long nodes = 1 + (long)(fuzz_take(&in, 1) % 64);
    unsigned char heard[64] = {0};
    while (in.left) {
        int src = (int)(fuzz_take(&in, 1) % (uint64_t)nodes);
        int words = (int)(int8_t)fuzz_take(&in, 1);
        int64_t msg[4];
        for (int i = 0; i < 4; i++) msg[i] = (int64_t)fuzz_take(&in, 8);
        const char *why = gasnetc_exit_notice_error(msg, words, nodes, heard[src]);
        if (why) {
            FUZZ_CHECK(*why, "an empty reason");
            continue;
        }
        FUZZ_CHECK(words == 4 && msg[0] == 1, "accepted %d words of kind %lld", words,
                   (long long)msg[0]);
        FUZZ_CHECK(msg[1] >= INT_MIN && msg[1] <= INT_MAX, "accepted code %lld", (long long)msg[1]);
        FUZZ_CHECK(msg[2] >= 0 && msg[2] < nodes, "accepted origin %lld of %ld nodes",
                   (long long)msg[2], nodes);
        FUZZ_CHECK(msg[3] >= 0, "accepted count %lld", (long long)msg[3]);
        FUZZ_CHECK(!heard[src], "accepted a second notice from %d", src);
        heard[src] = 1;
    }
    return 0;
}
