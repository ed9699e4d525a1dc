/* Uses the wrapper of so_wrapper.c, linked (-DLINKED) or loaded with
 * dlopen; includes no GASNet header. */
#include <stdio.h>
#ifdef LINKED
int wrapper_run(int *argc, char ***argv);
void wrapper_exit(int code);
#else
#include <dlfcn.h>
#endif

int main(int argc, char **argv)
{
#ifdef LINKED
    int (*run)(int *, char ***) = wrapper_run;
    void (*end)(int) = wrapper_exit;
    const char *how = "linked";
#else
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "so_main: dlopen: %s\n", dlerror());
        return 1;
    }
    int (*run)(int *, char ***) = (int (*)(int *, char ***))dlsym(lib, "wrapper_run");
    void (*end)(int) = (void (*)(int))dlsym(lib, "wrapper_exit");
    if (!run || !end) {
        fprintf(stderr, "so_main: dlsym: %s\n", dlerror());
        return 1;
    }
    const char *how = "dlopen";
#endif
    int me = run(&argc, &argv);
    printf("so client ok node %d (%s)\n", me, how);
    fflush(stdout);
    end(0);
    return 1;
}
