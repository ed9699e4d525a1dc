/* Shared memory between the processes of a host, with no name in
 * /dev/shm: an object is a memfd its owner keeps open until its
 * neighbours have mapped it through /proc/<pid>/fd/<fd>. So nothing is
 * ever left behind, whenever a process dies. Used by the shm backend
 * (core-native/shm.c), the AM rings (shmam/) and created segments
 * (core-mpi/segment.c).
 */
#include "base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* A shared-memory object of size bytes: a memfd, mapped at `at` (MAP_FIXED,
 * to turn this node's segment into a shared object) or anywhere (*addr).
 * Returns its fd, which stays open until every neighbour has mapped it,
 * or -1 with why. */
int gasneti_shm_create(size_t size, void *at, void **addr, char *why, size_t whylen)
{
    int fd = memfd_create("gasnet-shm", MFD_CLOEXEC);
    void *p = MAP_FAILED;
    if (fd >= 0 && ftruncate(fd, (off_t)size) == 0)
        p = mmap(at, size, PROT_READ | PROT_WRITE, MAP_SHARED | (at ? MAP_FIXED : MAP_NORESERVE),
                 fd, 0);
    if (p == MAP_FAILED) {
        snprintf(why, whylen, "node %u could not create %zu bytes of shared memory: %s",
                 gasneti_mynode, size, strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    *addr = p;
    return fd;
}

/* Maps a neighbour's object (its pid and fd, size bytes at least) anywhere;
 * NULL with why. */
void *gasneti_shm_map(long pid, int fd, size_t size, char *why, size_t whylen)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/fd/%d", pid, fd);
    int mfd = open(path, O_RDWR | O_CLOEXEC);
    struct stat st;
    /* the pid and fd come from the peer: the file must hold the whole object */
    int big_enough = mfd >= 0 && fstat(mfd, &st) == 0 && S_ISREG(st.st_mode) &&
                     (uintmax_t)st.st_size >= (uintmax_t)size;
    if (mfd >= 0 && !big_enough) errno = EINVAL;
    void *p = big_enough ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, mfd, 0)
                         : MAP_FAILED;
    if (p == MAP_FAILED)
        snprintf(why, whylen, "node %u could not map the shared memory of process %ld (%s, %zu "
                 "bytes): %s", gasneti_mynode, pid, path, size, strerror(errno));
    if (mfd >= 0) close(mfd);
    return p == MAP_FAILED ? NULL : p;
}
