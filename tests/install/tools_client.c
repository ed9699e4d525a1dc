/* A tools-only client: gasnet_tools.h without the rest of GASNet. */
#include <gasnet_tools.h>

#include <stdio.h>

int main(void)
{
    gasnett_atomic_t a = gasnett_atomic_init(5);
    gasnett_atomic_increment(&a, 0);
    gasnett_tick_t t0 = gasnett_ticks_now();
    uint64_t sum = gasnett_checksum("hello", 5);
    if (gasnett_atomic_read(&a, 0) != 6 || sum != 0x68656c6c6fULL || gasnett_ticks_now() < t0) {
        printf("tools client FAILED\n");
        return 1;
    }
    printf("tools client ok\n");
    return 0;
}
