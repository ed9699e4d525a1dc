/* A line of /proc/self/status in KiB, for the memory tests: field is
 * "VmHWM" (the peak resident set) or "VmRSS" (the resident set now);
 * -1 when absent. */
#ifndef PROC_STATUS_H
#define PROC_STATUS_H
#include <stdio.h>
#include <string.h>

static inline long proc_status_kib(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    size_t len = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, field, len) && line[len] == ':' && sscanf(line + len + 1, "%ld", &kib) == 1) break;
    if (f) fclose(f);
    return kib;
}
#endif
