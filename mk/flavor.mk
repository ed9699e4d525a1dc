# Builds one flavour (opt, debug, asan, tsan, fuzz) into build/$(FLAVOR):
#   lib/libammpi.a                       AM-over-MPI transport (any thread mode)
#   lib/libgasnet-mpi-{seq,par,parsync}.a
#   lib/libgasnet_tools-{seq,par}.a
#   include/gasnet_config.h              the flavour's configuration
#   tests/..., bench/...                 test and benchmark programs
#   fuzz/<target>                        (fuzz only) the libFuzzer harnesses
#                                        of tests/fuzz/, see docs/fuzzing.md
FLAVOR ?= opt
B := build/$(FLAVOR)
CC := mpicc
# libFuzzer comes with clang: the fuzz flavour compiles the library with it
# (MPICH's mpicc takes the compiler from MPICH_CC).
ifeq ($(FLAVOR),fuzz)
CC := MPICH_CC=clang mpicc
endif
# Tools-only programs need no MPI (and MPI's UCX memory hooks crash under
# ThreadSanitizer): plain compilers build them.
TOOLS_CC := cc
TOOLS_CXX := c++
PREFIX ?= /usr/local/gasnet

# Intel's Skylake family (to Cascade Lake, this VM's CPU) keeps a jump that
# crosses or ends on a 32-byte boundary out of its decoded-instruction cache
# since the JCC erratum's microcode fix; the assembler can pad so none does.
# The on-node put is a few instructions inlined into the client: an 8-byte
# put took 3.9 ns without it, 2.6 with. A few bytes of padding elsewhere.
# Probed: an assembler without the option (or not x86) builds without it.
BRANCH_ALIGN := $(shell echo 'int x;' | $(CC) -Wa,-mbranches-within-32B-boundaries -x c -c -o /dev/null - 2>/dev/null && echo -Wa,-mbranches-within-32B-boundaries)
# -O3, GASNet's usual level: it inlines more of each AM's layers (a Short
# request or reply through shared memory: 365-390 instructions, 495-505 at -O2).
CFLAGS_opt := -O3 -g $(BRANCH_ALIGN)
CFLAGS_debug := -O0 -g
CFLAGS_asan := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
CFLAGS_tsan := -O1 -g -fsanitize=thread -Wno-tsan # TSan cannot model fences; it says so
CFLAGS_fuzz := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
    -fno-sanitize-recover=undefined -Wno-unknown-warning-option # gcc-only pragmas
ifeq ($(CFLAGS_$(FLAVOR)),)
$(error unknown FLAVOR=$(FLAVOR): use opt, debug, asan, tsan or fuzz)
endif
CFLAGS := -std=gnu11 -Wall -Wextra -Werror -pthread $(CFLAGS_$(FLAVOR))
# The libraries' objects are position-independent, so that a client may
# link them into a shared object (runtimes build their GASNet wrapper as a
# .so, some load it with dlopen). -fno-semantic-interposition keeps calls
# within a file direct and inlinable, as without -fPIC; in a program linked
# with the static libraries the linker relaxes thread-local accesses to the
# executable's model. What remains costs a few instructions: the library's
# globals are reached through the GOT (relaxed by the linker to an lea and
# a load), a Short AM request through shared memory 315 -> 330
# instructions, its reply 387 -> 395 (callgrind, bench/pingpong am_short;
# hiding the internal headers' names bought back 2). Tests and benchmarks
# compile as clients do, without it.
LIB_CFLAGS := $(CFLAGS) -fPIC -fno-semantic-interposition
LDFLAGS := -pthread $(filter -fsanitize=%,$(CFLAGS_$(FLAVOR)))
DEBUG_DEF := $(if $(filter debug,$(FLAVOR)),GASNET_DEBUG,GASNET_NDEBUG)

# Optional native stacks: detected, never assumed (a backend is built when
# its library is present).
HAVE_OFI := $(if $(wildcard core-native/ofi.c),$(shell pkg-config --exists libfabric 2>/dev/null && echo 1))
HAVE_VERBS := $(if $(wildcard core-native/verbs.c),$(shell printf '\043include <infiniband/verbs.h>\nint main(void){return ibv_get_device_list(0)!=0;}\n' | $(CC) -x c - -libverbs -o /dev/null 2>/dev/null && echo 1))
HAVE_HWLOC := $(shell pkg-config --exists hwloc 2>/dev/null && echo 1)
# The CUDA memory class needs only the headers at build time (the driver
# is opened at run time): built when cuda.h is found.
CUDA_INC ?= /usr/local/cuda/include
HAVE_CUDA := $(if $(wildcard $(CUDA_INC)/cuda.h),1)
# bench/gpu times against cudaMemcpy through the static CUDA runtime
# (which opens the driver at run time too); without it, only its emulated mode.
CUDA_LIB ?= /usr/local/cuda/lib64
HAVE_CUDART := $(if $(HAVE_CUDA),$(if $(wildcard $(CUDA_LIB)/libcudart_static.a),1))
NATIVE_LIBS := $(if $(HAVE_VERBS),-libverbs) $(if $(HAVE_HWLOC),-lhwloc) -ldl

CPPFLAGS := -D_GNU_SOURCE=1 -I$(B)/include -Iinclude -Ibase -Icore-mpi -Iammpi -Iextended -Ibarrier -Icoll -Icore-native -Ishmam -Imemkind -Itools
MODES := seq par parsync
MODE_DEF_seq := -DGASNET_SEQ
MODE_DEF_par := -DGASNET_PAR -D_REENTRANT
MODE_DEF_parsync := -DGASNET_PARSYNC -D_REENTRANT

AMMPI_SRCS := $(wildcard ammpi/*.c)
TOOLS_SRCS := $(wildcard tools/*.c)
GASNET_SRCS := $(wildcard base/*.c core-mpi/*.c extended/*.c barrier/*.c coll/*.c ratomic/*.c conduit/*.c) shmam/shmam.c core-native/rma.c core-native/route.c core-native/shm.c \
    $(if $(HAVE_OFI),core-native/ofi.c) $(if $(HAVE_VERBS),core-native/verbs.c) \
    memkind/memkind.c memkind/emulated.c $(if $(HAVE_CUDA),memkind/cuda.c) \
    $(TOOLS_SRCS)
TEST_SRCS := $(wildcard tests/*.c)
AMMPI_TESTS := $(filter tests/ammpi_%,$(TEST_SRCS))
TOOLS_TESTS := $(filter tests/tools_%,$(TEST_SRCS)) $(wildcard tests/tools_*.cc)
MPI_TESTS := $(filter tests/mpi_%,$(TEST_SRCS))
GASNET_TESTS := $(filter-out $(AMMPI_TESTS) $(TOOLS_TESTS) $(MPI_TESTS),$(TEST_SRCS))
BENCH_SRCS := $(wildcard bench/pingpong/*.c bench/flood/*.c bench/barrier/*.c bench/ratomic/*.c bench/vis/*.c bench/coll/*.c bench/gpu/*.c bench/rarepoll/*.c)

CONFIG_H := $(B)/include/gasnet_config.h
LIBAMMPI := $(B)/lib/libammpi.a
GASNET_LIBS := $(foreach m,$(MODES),$(B)/lib/libgasnet-mpi-$(m).a)
BUILT_LIBS = $(GASNET_LIBS)
TOOLS_LIBS := $(B)/lib/libgasnet_tools-seq.a $(B)/lib/libgasnet_tools-par.a
TOOLS_TEST_BINS := $(foreach m,seq par,$(foreach t,$(basename $(notdir $(TOOLS_TESTS))),$(B)/tests/tools/$(t)-$(m))) \
    $(B)/tests/tools/headercheck.ok
TEST_BINS := $(patsubst tests/%.c,$(B)/tests/%,$(AMMPI_TESTS) $(MPI_TESTS)) \
    $(foreach m,seq par,$(patsubst tests/%.c,$(B)/tests/$(m)/%,$(GASNET_TESTS))) \
    $(TOOLS_TEST_BINS)
BENCH_BINS := $(patsubst %.c,$(B)/%,$(BENCH_SRCS))

# The verbs backend's tests where no RDMA device exists: these programs are
# linked with tests/fakeverbs/fakeverbs.c (an emulated device, see there)
# in place of libibverbs.
FAKEVERBS_TESTS := ext_putget ext_flood ext_threads par_stress interop_mpi ex_mk ex_eps
FAKEVERBS_BINS := $(if $(HAVE_VERBS),$(foreach m,seq par,$(foreach t,$(FAKEVERBS_TESTS),$(B)/tests/fakeverbs/$(m)/$(t))))

# Only what tests/suite.sh and bench/run.sh use from each flavour: the
# benchmarks run from the optimised build, the emulated verbs device in the
# optimised and ASan ones, and ThreadSanitizer runs only the threaded tests.
ifneq ($(FLAVOR),opt)
BENCH_BINS :=
endif
ifeq ($(filter opt asan,$(FLAVOR)),)
FAKEVERBS_BINS :=
endif
# The sanitizer flavours' tests use no PARSYNC library (install builds it
# on demand).
ifneq ($(filter asan tsan,$(FLAVOR)),)
BUILT_LIBS := $(filter-out %-parsync.a,$(GASNET_LIBS))
endif
ifeq ($(FLAVOR),tsan)
TEST_BINS := $(foreach t,par_stress ext_threads ex_threads interop_mpi progress_thread ex_ratomic ex_mk ex_coll ex_pack ex_eps ex_clients,$(B)/tests/par/$(t)) \
    $(B)/tests/seq/progress_thread $(B)/tests/tools/tools_basic-par $(B)/tests/tools/tools_debugmalloc-par
endif

# The fuzz flavour builds the SEQ library and the harnesses only.
FUZZ_SRCS := $(wildcard tests/fuzz/*.c)
FUZZ_BINS :=
ifeq ($(FLAVOR),fuzz)
GASNET_LIBS := $(B)/lib/libgasnet-mpi-seq.a
TOOLS_LIBS :=
TEST_BINS :=
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(B)/fuzz/%,$(FUZZ_SRCS))
endif

.PHONY: all install
all: $(LIBAMMPI) $(BUILT_LIBS) $(TOOLS_LIBS) $(TEST_BINS) $(FAKEVERBS_BINS) $(BENCH_BINS) $(FUZZ_BINS) $(B)/flags.sh

$(CONFIG_H): mk/flavor.mk scripts/gen-config.sh $(wildcard core-native/ofi.c core-native/verbs.c)
	@mkdir -p $(dir $@)
	@scripts/gen-config.sh $(DEBUG_DEF) "$(HAVE_OFI)" "$(HAVE_VERBS)" "$(HAVE_HWLOC)" "$(HAVE_CUDA)" > $@.tmp && mv $@.tmp $@

# What scripts/install.sh and the tests need to know about this build, as
# shell assignments.
$(B)/flags.sh: mk/flavor.mk $(wildcard core-native/ofi.c core-native/verbs.c)
	@mkdir -p $(dir $@)
	@printf "CC='%s'\nCFLAGS='%s'\nLDFLAGS='%s'\nNATIVE_LIBS='%s'\nDEBUG_DEF='%s'\n" \
	    '$(CC)' '$(CFLAGS)' '$(LDFLAGS)' '$(NATIVE_LIBS)' '$(DEBUG_DEF)' > $@

$(B)/obj/ammpi/%.o: ammpi/%.c $(CONFIG_H)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(CPPFLAGS) $(LIB_CFLAGS) -MMD -MP -c $< -o $@

$(LIBAMMPI): $(patsubst ammpi/%.c,$(B)/obj/ammpi/%.o,$(AMMPI_SRCS))
	@mkdir -p $(dir $@)
	@rm -f $@ && ar rcs $@ $^

define mode_rules
$(B)/obj/$(1)/%.o: %.c $(CONFIG_H)
	@mkdir -p $$(dir $$@)
	@echo "  CC      $$@"
	@$(CC) $(CPPFLAGS) $$(FILE_CPPFLAGS) $(MODE_DEF_$(1)) $(LIB_CFLAGS) -MMD -MP -c $$< -o $$@

$(B)/lib/libgasnet-mpi-$(1).a: $(patsubst %.c,$(B)/obj/$(1)/%.o,$(GASNET_SRCS))
	@mkdir -p $$(dir $$@)
	@rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach m,$(MODES),$(eval $(call mode_rules,$(m))))
$(B)/obj/%/memkind/cuda.o: FILE_CPPFLAGS := -I$(CUDA_INC)
# ident.c's build-specific values (core-mpi/ident.c)
$(B)/obj/%/core-mpi/ident.o: FILE_CPPFLAGS := -DGASNETI_IDENT_SYSTEM='"$(shell uname -n)"' \
    -DGASNETI_IDENT_TUPLE='"$(shell $(CC) -dumpmachine)"' -DGASNETI_IDENT_FLAVOR='"$(FLAVOR)"' \
    -DGASNETI_IDENT_GITHASH='"$(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)"'

# (-pthread defines _REENTRANT, which makes gasnet_tools.h thread-safe:
# the SEQ library is built without it, as its clients are)
$(B)/obj/tools-seq/%.o: %.c $(CONFIG_H)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(CPPFLAGS) $(filter-out -pthread,$(LIB_CFLAGS)) -MMD -MP -c $< -o $@
$(B)/obj/tools-par/%.o: %.c $(CONFIG_H)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	@$(CC) $(CPPFLAGS) -DGASNETT_THREAD_SAFE=1 -D_REENTRANT $(LIB_CFLAGS) -MMD -MP -c $< -o $@
$(B)/lib/libgasnet_tools-%.a: $(addprefix $(B)/obj/tools-%/,$(TOOLS_SRCS:.c=.o))
	@mkdir -p $(dir $@)
	@rm -f $@ && ar rcs $@ $^

# Tests: tests/ammpi_*.c use only libammpi; the others are GASNet clients
# built for SEQ and PAR.
$(B)/tests/ammpi_%: tests/ammpi_%.c $(LIBAMMPI) tests/ammpi_test.h
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(CC) $(CPPFLAGS) $(CFLAGS) $< -o $@ $(LDFLAGS) $(LIBAMMPI)

# tests/mpi_*.c: plain MPI programs, the twins measured beside a GASNet one
$(B)/tests/mpi_%: tests/mpi_%.c
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(CC) $(CFLAGS) $< -o $@ $(LDFLAGS)

define test_rules
$(B)/tests/$(1)/%: tests/%.c $(B)/lib/libgasnet-mpi-$(1).a $(LIBAMMPI) $(wildcard tests/*.h)
	@mkdir -p $$(dir $$@)
	@echo "  LINK    $$@"
	@$(CC) $(CPPFLAGS) $(MODE_DEF_$(1)) $(CFLAGS) $$< -o $$@ $(LDFLAGS) $(B)/lib/libgasnet-mpi-$(1).a $(LIBAMMPI) $(NATIVE_LIBS) -lm
endef
$(foreach m,seq par,$(eval $(call test_rules,$(m))))

define fakeverbs_rules
$(B)/tests/fakeverbs/$(1)/%: tests/%.c tests/fakeverbs/fakeverbs.c $(B)/lib/libgasnet-mpi-$(1).a $(LIBAMMPI) $(wildcard tests/*.h)
	@mkdir -p $$(dir $$@)
	@echo "  LINK    $$@"
	@$(CC) $(CPPFLAGS) $(MODE_DEF_$(1)) $(CFLAGS) $$< tests/fakeverbs/fakeverbs.c -o $$@ $(LDFLAGS) $(B)/lib/libgasnet-mpi-$(1).a $(LIBAMMPI) $(filter-out -libverbs,$(NATIVE_LIBS)) -lm
endef
$(foreach m,seq par,$(eval $(call fakeverbs_rules,$(m))))

# Tools-only tests (tests/tools_*.c, *.cc) use no GASNet: each is built
# against libgasnet_tools-seq.a and -par.a. The SEQ build compiles and
# links without -pthread, whose _REENTRANT would make gasnet_tools.h choose
# the PAR model.
TOOLS_PAR_DEF := -DGASNETT_THREAD_SAFE=1 -D_REENTRANT
CXXFLAGS := $(filter-out -std=gnu11,$(CFLAGS)) -std=gnu++11
TOOLS_HDRS := tools/gasnet_tools.h include/gasnet_portable_platform.h tools/gasnet_tools_internal.h include/gasnet_fwd.h $(CONFIG_H)
$(B)/tests/tools/%-seq: tests/%.c $(B)/lib/libgasnet_tools-seq.a $(TOOLS_HDRS)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(TOOLS_CC) $(CPPFLAGS) $(filter-out -pthread,$(CFLAGS)) $< -o $@ $(filter-out -pthread,$(LDFLAGS)) $(B)/lib/libgasnet_tools-seq.a
$(B)/tests/tools/%-par: tests/%.c $(B)/lib/libgasnet_tools-par.a $(TOOLS_HDRS)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(TOOLS_CC) $(CPPFLAGS) $(TOOLS_PAR_DEF) $(CFLAGS) $< -o $@ $(LDFLAGS) $(B)/lib/libgasnet_tools-par.a
$(B)/tests/tools/%-seq: tests/%.cc $(B)/lib/libgasnet_tools-seq.a $(TOOLS_HDRS)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(TOOLS_CXX) $(CPPFLAGS) $(filter-out -pthread,$(CXXFLAGS)) $< -o $@ $(filter-out -pthread,$(LDFLAGS)) $(B)/lib/libgasnet_tools-seq.a
$(B)/tests/tools/%-par: tests/%.cc $(B)/lib/libgasnet_tools-par.a $(TOOLS_HDRS)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(TOOLS_CXX) $(CPPFLAGS) $(TOOLS_PAR_DEF) $(CXXFLAGS) $< -o $@ $(LDFLAGS) $(B)/lib/libgasnet_tools-par.a
# Compile-time checks of gasnet_tools.h in each context (see the script).
$(B)/tests/tools/headercheck.ok: tests/tools_headercheck.sh $(TOOLS_HDRS)
	@mkdir -p $(dir $@)
	@tests/tools_headercheck.sh "$(TOOLS_CC)" "$(TOOLS_CXX)" "$(CPPFLAGS) $(filter-out -pthread,$(CFLAGS))" $(dir $@)hc
	@touch $@

# Fuzz harnesses: libFuzzer's main, over the SEQ library. A harness that
# feeds the library's handlers defines __wrap_gasneti_fatalerror, so that a
# message rejected as fatal ends that input and not the run.
$(B)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(B)/lib/libgasnet-mpi-seq.a $(LIBAMMPI)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(CC) $(CPPFLAGS) -Itests/fuzz $(MODE_DEF_seq) $(CFLAGS) $< -o $@ -fsanitize=fuzzer,address,undefined \
	    -pthread -Wl,--wrap=gasneti_fatalerror $(B)/lib/libgasnet-mpi-seq.a $(LIBAMMPI) $(NATIVE_LIBS) -lm

# Benchmarks: SEQ clients.
$(B)/bench/%: bench/%.c $(B)/lib/libgasnet-mpi-seq.a $(LIBAMMPI) $(wildcard bench/*.h)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(CC) $(CPPFLAGS) $(FILE_CPPFLAGS) -Ibench $(MODE_DEF_seq) $(CFLAGS) $< -o $@ $(LDFLAGS) $(B)/lib/libgasnet-mpi-seq.a $(LIBAMMPI) $(FILE_LIBS) $(NATIVE_LIBS) -lm
$(B)/bench/gpu/gpu_bw: FILE_CPPFLAGS := $(if $(HAVE_CUDART),-DBENCH_CUDART -I$(CUDA_INC))
$(B)/bench/gpu/gpu_bw: FILE_LIBS := $(if $(HAVE_CUDART),-L$(CUDA_LIB) -lcudart_static -lrt)

install: $(LIBAMMPI) $(GASNET_LIBS) $(TOOLS_LIBS) $(B)/flags.sh
	@scripts/install.sh "$(PREFIX)" "$(B)"

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
