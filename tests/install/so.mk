# A client's GASNet wrapper as a shared object, from the installed static
# libraries (position-independent), used by a program linked with it and
# by one that loads it with dlopen:
#   make -f so.mk GASNET_PREFIX=/prefix MODE=seq|par|parsync
include $(GASNET_PREFIX)/include/mpi-conduit/mpi-$(MODE).mak

all: libwrapper.so so_linked so_dlopen

so_wrapper.o: so_wrapper.c
	$(GASNET_CC) $(GASNET_CPPFLAGS) $(GASNET_CFLAGS) -fPIC -Wall -Wextra -Werror -c so_wrapper.c
libwrapper.so: so_wrapper.o
	$(GASNET_LD) $(GASNET_LDFLAGS) -shared -o libwrapper.so so_wrapper.o $(GASNET_LIBS)
so_linked: so_main.c libwrapper.so
	$(GASNET_CC) -DLINKED -Wall -Wextra -Werror -o so_linked so_main.c -L. -lwrapper -Wl,-rpath,$(CURDIR)
so_dlopen: so_main.c
	$(GASNET_CC) -Wall -Wextra -Werror -o so_dlopen so_main.c -ldl
