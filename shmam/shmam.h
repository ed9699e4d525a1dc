/* The ring entries of the shared-memory AM queues (shmam.c, which
 * describes the mechanism), shared with the fuzz harness that feeds
 * gasneti_shmam_take rings of its own (tests/fuzz/shm_ring.c). */
#ifndef GASNETI_SHMAM_H
#define GASNETI_SHMAM_H

#include "gasnet_internal.h"

#define GASNETI_SHMAM_LINE 64
#define GASNETI_SHMAM_FRAME 16 /* entry header */

typedef struct {
    uint64_t head; /* bytes the receiver has consumed */
    char pad[GASNETI_SHMAM_LINE - 8];
} gasneti_shmam_ctl_t;

typedef struct {
    uint32_t total; /* bytes of the entry, frame and padding included */
    uint32_t len;   /* bytes of the message; 0: a wrap frame */
    uint64_t stamp; /* 1 + the entry's position in bytes since the start;
                       written last: the entry is there when it matches */
} gasneti_shmam_frame_t;

/* Reads the ring data[0..size) (size a power of two) that ctl describes,
 * written by peer: takes the entries from the head on whose stamps match
 * their positions (at most budget messages), hands each message to
 * ammpi_deliver on gasnetc_ep through ch, and advances the head past each
 * entry. A frame that does not make sense is fatal, naming peer: the ring
 * cannot be read past it. The caller holds the ring's reader lock.
 * Returns the messages taken. */
int gasneti_shmam_take(gasneti_shmam_ctl_t *ctl, char *data, uint64_t size, gex_Rank_t peer,
                       ammpi_channel_t *ch, int budget);

#endif
