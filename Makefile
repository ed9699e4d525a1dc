# GASNet-1 over MPI: top-level build.
#
#   make                 build the optimised and debug libraries, tests, benchmarks
#   make check           install missing packages, build, run the test suite
#                        (optimised, debug, ASan+UBSan and TSan builds)
#   make check-asan      only the AddressSanitizer + UBSan run of the suite
#   make check-tsan      only the ThreadSanitizer run of the PAR stress tests
#   make bench           install missing packages, build, run the benchmarks
#   make install PREFIX=/path [DEBUG=1]   install the GASNet layout
#   make clean
#
# Each flavour builds into build/<flavour>/ through mk/flavor.mk.

PREFIX ?= /usr/local/gasnet
FLAVORS := opt debug
MAKEFLAGS += --no-print-directory
JOBS := -j$(shell nproc 2>/dev/null || echo 2)

BUILDS := $(addprefix build-,opt debug asan tsan)
.PHONY: all deps check check-quick check-asan check-tsan bench install clean $(BUILDS)

all: $(addprefix build-,$(FLAVORS))

deps:
	@./scripts/install-deps.sh

$(BUILDS): build-%:
	@$(MAKE) -f mk/flavor.mk FLAVOR=$*

check: deps
	@$(MAKE) $(JOBS) build-opt build-debug build-asan build-tsan
	@tests/run.sh all

check-quick: deps
	@$(MAKE) $(JOBS) build-opt build-debug
	@tests/run.sh opt debug

check-asan: deps
	@$(MAKE) build-asan
	@tests/run.sh asan

check-tsan: deps
	@$(MAKE) build-tsan
	@tests/run.sh tsan

bench: deps
	@$(MAKE) $(JOBS) build-opt
	@bench/run.sh

install: deps
	@$(MAKE) -f mk/flavor.mk FLAVOR=$(if $(DEBUG),debug,opt) install PREFIX=$(abspath $(PREFIX))

clean:
	rm -rf build
