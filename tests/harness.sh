# Test harness, sourced by tests/run.sh.
#
#   t NAME RANKS [-x CODE[,CODE...]|nonzero] [-g REGEX]... [-G REGEX]... [-T SECONDS] [-e VAR=VALUE]... -- PROG [ARGS]
#   s NAME [-T SECONDS] -- CMD [ARGS]
#   skip NAME REASON
#
# Runs PROG on RANKS processes through launch/gasnetrun_mpi under a timeout,
# and passes when the job exits with an expected status (default 0), its
# output matches every -g REGEX and no -G REGEX, and no process of it is
# left behind. Logs go to build/<flavour>/logs/. A test that cannot run
# here (a missing privilege, not a fault of the library) is reported by
# skip with the reason, and counts as neither passed nor failed. `finish`
# prints "N passed, N failed, N skipped" and fails if any test failed.
passed=0
failed=0
skipped=0
failures=()

# fail NAME REASON: records a test that failed before or without running.
fail() {
    failed=$((failed + 1))
    failures+=("[$FLAVOR] $1: $2")
    echo "FAIL [$FLAVOR] $1: $2"
}

skip() {
    skipped=$((skipped + 1))
    echo "SKIP [$FLAVOR] $1: $2"
}

t() {
    local name=$1 ranks=$2 expect=0 limit=${TEST_TIMEOUT:-120}
    local envs=() patterns=() absent=()
    shift 2
    while [ $# -gt 0 ]; do
        case "$1" in
            -x) expect=$2; shift 2 ;;
            -g) patterns+=("$2"); shift 2 ;;
            -G) absent+=("$2"); shift 2 ;;
            -T) limit=$2; shift 2 ;;
            -e) envs+=("$2"); shift 2 ;;
            --) shift; break ;;
            *) fail "$name" "bad harness option $1"; return 1 ;;
        esac
    done
    local label="[$FLAVOR] $name n=$ranks"
    local log="$B/logs/${name//\//_}.n$ranks.log"
    t_log=$log # (t_log, t_tenths: for callers that look further)
    mkdir -p "$B/logs"
    local start end rc reason=""
    start=$(date +%s%N)
    # stdout and stderr kept apart, then joined: the launcher forwards them
    # separately and can split a line of one with output of the other
    env "${envs[@]}" timeout -k 5 "$limit" launch/gasnetrun_mpi -n "$ranks" "$@" > "$log" 2> "$log.err" < /dev/null
    rc=$?
    cat "$log.err" >> "$log" && rm -f "$log.err"
    end=$(date +%s%N)
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        reason="timed out after ${limit}s"
    elif [ "$expect" = nonzero ]; then
        [ $rc -ne 0 ] || reason="exit status 0, expected non-zero"
    elif [[ ",$expect," != *",$rc,"* ]]; then
        reason="exit status $rc, expected $expect"
    fi
    local pattern
    for pattern in "${patterns[@]}"; do
        if [ -z "$reason" ] && ! grep -Eq -- "$pattern" "$log"; then
            reason="output lacks /$pattern/"
        fi
    done
    for pattern in "${absent[@]}"; do
        if [ -z "$reason" ] && grep -Eq -- "$pattern" "$log"; then
            reason="output has /$pattern/: $(grep -Em1 -- "$pattern" "$log")"
        fi
    done
    # No process of the job may outlive it (an absolute path: another
    # checkout's jobs must not match).
    local prog waited=0
    prog=$(realpath -- "$1" 2>/dev/null || echo "$1")
    while pgrep -f -- "$prog" >/dev/null 2>&1 && [ $waited -lt 20 ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
    if pgrep -f -- "$prog" >/dev/null 2>&1; then
        pkill -9 -f -- "$prog"
        reason="${reason:+$reason; }left processes behind"
    fi
    # A test mode may know of more processes of the job (tests/netns: all
    # those on its hosts); job_leftovers names and ends them.
    if declare -F job_leftovers >/dev/null; then
        local left
        left=$(job_leftovers)
        [ -n "$left" ] && reason="${reason:+$reason; }left processes behind: $left"
    fi
    local tenths=$(( (end - start) / 100000000 ))
    local secs=$((tenths / 10)).$((tenths % 10))
    t_tenths=$tenths
    if [ -z "$reason" ]; then
        passed=$((passed + 1))
        printf 'PASS %s (%ss)\n' "$label" "$secs"
    else
        failed=$((failed + 1))
        failures+=("$label: $reason")
        printf 'FAIL %s: %s (log %s)\n' "$label" "$reason" "$log"
        tail -n 15 "$log" | sed 's/^/    | /'
    fi
}

# s NAME [-T SECONDS] -- CMD [ARGS]: a test that is a script or program
# run directly (not through the launcher); passes when it exits with 0.
s() {
    local name=$1 limit=${TEST_TIMEOUT:-300}
    shift
    if [ "$1" = -T ]; then limit=$2; shift 2; fi
    [ "$1" = -- ] && shift
    local log="$B/logs/$name.log" rc start end
    mkdir -p "$B/logs"
    start=$(date +%s)
    timeout -k 5 "$limit" "$@" > "$log" 2>&1 < /dev/null
    rc=$?
    end=$(date +%s)
    if [ $rc -eq 0 ]; then
        passed=$((passed + 1))
        printf 'PASS [%s] %s (%ss)\n' "$FLAVOR" "$name" "$((end - start))"
    else
        failed=$((failed + 1))
        failures+=("[$FLAVOR] $name: exit status $rc")
        printf 'FAIL [%s] %s: exit status %s (log %s)\n' "$FLAVOR" "$name" "$rc" "$log"
        tail -n 15 "$log" | sed 's/^/    | /'
    fi
}

finish() {
    if [ $failed -gt 0 ]; then
        echo "Failures:"
        printf '  %s\n' "${failures[@]}"
    fi
    echo "$passed passed, $failed failed, $skipped skipped"
    [ $failed -eq 0 ]
}
