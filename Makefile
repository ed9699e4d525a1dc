# GASNet-1 over MPI: top-level build.
#
#   make                 build the optimised and debug libraries, tests, benchmarks
#   make check           install missing packages, build, run the test suite
#                        (optimised, debug, ASan+UBSan and TSan builds)
#   make check-asan      only the AddressSanitizer + UBSan run of the suite
#   make check-tsan      only the ThreadSanitizer run of the PAR stress tests
#   make fuzz [FUZZ_SECONDS=300]   build the libFuzzer harnesses (clang) and run
#                        each for FUZZ_SECONDS (docs/fuzzing.md)
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
FUZZ_SECONDS ?= 300
.PHONY: all deps check check-quick check-asan check-tsan bench install clean fuzz build-fuzz $(BUILDS)

all: $(addprefix build-,$(FLAVORS))

deps:
	@./scripts/install-deps.sh

$(BUILDS): build-%:
	@$(MAKE) -f mk/flavor.mk FLAVOR=$*

# The fuzz harnesses need clang's libFuzzer: without it, build/fuzz/SKIPPED
# says why, and the suite reports the fuzz tests as skipped.
build-fuzz:
	@mkdir -p build/fuzz && rm -f build/fuzz/SKIPPED
	@if why=$$(scripts/have-libfuzzer.sh); then $(MAKE) -f mk/flavor.mk FLAVOR=fuzz; \
	 else echo "$$why" > build/fuzz/SKIPPED; echo "build-fuzz: skipped: $$why"; fi

fuzz: deps build-fuzz
	@tests/fuzz/run.sh $(FUZZ_SECONDS)

check: deps
	@$(MAKE) $(JOBS) build-opt build-debug build-asan build-tsan build-fuzz
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
