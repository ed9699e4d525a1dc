#!/bin/sh
# Succeeds when clang can build a libFuzzer program with AddressSanitizer
# and UBSan against MPICH (what the fuzz flavour needs); otherwise prints
# why on stdout and fails.
command -v clang >/dev/null 2>&1 || { echo "no clang (install the clang package)"; exit 1; }
command -v mpicc >/dev/null 2>&1 || { echo "no mpicc"; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cat > "$dir/probe.c" <<'C'
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { (void)data; (void)size; return 0; }
C
if ! MPICH_CC=clang mpicc -fsanitize=fuzzer,address,undefined "$dir/probe.c" -o "$dir/probe" \
        >"$dir/log" 2>&1; then
    echo "clang cannot link a libFuzzer program: $(head -c 300 "$dir/log" | tr '\n' ' ')"
    exit 1
fi
exit 0
