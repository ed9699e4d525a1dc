#!/bin/bash
# Tracing and statistics (core-mpi/trace.c, docs/debugging.md):
#   tests/trace_test.sh BUILD_DIR
# Runs tests/trace_probe.c (whose events are known) under the trace and
# stats settings and checks the files' content: a put's peer and size, an
# AM's handler index on both sides, source lines, the client's messages,
# GASNET_TRACENODES selection, mask inversion, '%' substitution, a file
# shared by all nodes, stdout, GASNET_TRACELOCAL, the masks the program
# reads and sets, the stats tables and their merged summary; bad values of
# each setting fail with a message naming the variable; a node that dies
# of SIGSEGV keeps its trace and says so. Then a few of the
# suite's programs run with every category traced and counted, a file per
# node, and must pass with whole files. Prints "trace_test: N cases ok" or
# the failures.
set -u
cd "$(dirname "$0")/.."
build=$1
probe=$build/tests/seq/trace_probe
dir=$(mktemp -d "${TMPDIR:-/tmp}/gasnet-trace.XXXXXX")
trap 'rm -rf "$dir"' EXIT
log=$dir/log
failures=0 cases=0

bad() {
    echo "trace_test: $*"
    sed 's/^/    | /' "$log" | head -20
    failures=$((failures + 1))
}

# run RANKS VAR=VALUE... -- PROG ARGS: the job's output in $log, status in $rc
run() {
    local ranks=$1 envs=()
    shift
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    rm -f "$dir"/t.* "$dir"/s.* "$dir"/all
    # stderr after stdout: the launcher can split a line of one with the other
    env "${envs[@]}" timeout -k 5 120 launch/gasnetrun_mpi -n "$ranks" "$@" > "$log" 2> "$log.err" < /dev/null
    rc=$?
    cat "$log.err" >> "$log" && rm -f "$log.err"
    cases=$((cases + 1))
}

# has FILE REGEX WHAT / lacks FILE REGEX WHAT
has() { grep -Eq -- "$2" "$1" 2>/dev/null || bad "$3: $(basename "$1") lacks /$2/"; }
lacks() { ! grep -Eq -- "$2" "$1" 2>/dev/null || bad "$3: $(basename "$1") has /$2/: $(grep -Em1 -- "$2" "$1")"; }

# 1. everything, a file per node, 3 nodes
run 3 GASNET_TRACEFILE="$dir/t.%" GASNET_STATSFILE="$dir/s.%" -- $probe
[ $rc -eq 0 ] || bad "all categories: exit status $rc"
has "$log" "trace_probe: node 0 trace mask GPRSWBLAXIOCDNHU stats mask GPRSWBLAXIOCDNHU enabled 1 tracelocal 1" "masks read"
has "$log" "trace_probe: node 1 after setmask GPRSWBLXIOCDNHU" "mask set without A"
for n in 0 1 2; do
    f=$dir/t.$n next=$(((n + 1) % 3))
    [ -s "$f" ] || { bad "'%' substitution: no $f"; continue; }
    line='^[0-9]+\.[0-9]{6} '$n' T[0-9]+ '
    has "$f" "${line}U trace node $n of 3, pid [0-9]+ on .*, mask GPRSWBLAXIOCDNHU, tracelocal 1$" "header"
    has "$f" "${line}P gex_RMA_PutBlocking peer $next bytes 8 dst 0x[0-9a-f]+ src 0x[0-9a-f]+ data=0707070707070707 \[.*trace_probe.c:[0-9]+\]$" "8-byte put"
    has "$f" "${line}P gex_RMA_PutNBI peer $next bytes 1000 " "NBI put"
    has "$f" "${line}G gex_RMA_GetBlocking peer $next bytes 16 " "get"
    has "$f" "${line}P gex_RMA_PutBlocking peer $n bytes 4 " "put to itself (tracelocal)"
    has "$f" "${line}P gex_RMA_PutBlockingVal peer $n bytes 4 dst 0x[0-9a-f]+ src 0x[0-9a-f]+ data=0d0c0b0a " "value put's data"
    has "$f" "${line}A gex_AM_RequestShort request Short peer $next handler 200 bytes 0 dst \(nil\) args 0 flags 0x0 \[.*trace_probe.c:[0-9]+\]$" "AM request"
    has "$f" "${line}A handler\(request\) Short from [0-9]+ ep 0 handler 200" "AM request handler run"
    has "$f" "${line}A gex_AM_ReplyShort reply Short peer [0-9]+ handler 201 " "AM reply"
    has "$f" "${line}A handler\(reply\) Short from $next ep 0 handler 201" "AM reply handler run"
    lacks "$f" "gex_AM_RequestShort .*handler 202" "AM after SETMASK(^A)"
    has "$f" "${line}P gex_RMA_PutBlocking peer $next bytes 24 " "put after SETMASK(^A)"
    has "$f" "${line}B gex_Coll_BarrierNB team 0x[0-9a-f]+ size 3 \(NB\)" "barrier"
    has "$f" "${line}S gex_Event_Wait waited [0-9.]+ us" "wait"
    has "$f" "${line}H client probe says 42 \[.*trace_probe.c:[0-9]+\]$" "GASNETT_TRACE_PRINTF"
    has "$f" "${line}C attach node $next: host 0 neighbourhood 0, RMA by " "transport"
    has "$f" "${line}O (team_create|ep_create) " "objects"
    has "$f" "${line}I attach segment 0x[0-9a-f]+ size 1048576$" "information"
    has "$f" "${line}U exit code 0( \[.*\])?$" "exit line"
    s=$dir/s.$n
    has "$s" "^# GASNet statistics \(dump\): node $n of 3" "stats dump"
    has "$s" "^# GASNet statistics \(exit\): node $n of 3" "stats at exit"
    has "$s" "^size P gex_RMA_PutBlocking count 3 bytes 36 min 4 max 24 hist 4:1 8:1 16:1$" "put sizes"
    has "$s" "^size G gex_RMA_GetBlocking count 1 bytes 16 min 16 max 16 hist 16:1$" "get sizes"
    has "$s" "^size A gex_AM_RequestShort count 2 bytes 0 " "AM counts"
    has "$s" "^time B gex_Coll_BarrierNB|^time S gex_Event_Wait count [0-9]+ total_ns [0-9]+ min_ns [0-9]+ mean_ns [0-9]+ max_ns [0-9]+$" "wait times"
    has "$s" "^peer $next puts 3 put_bytes 1032 gets 2 get_bytes 48 ams 2 am_bytes 0$" "per-peer table"
    has "$s" "^note probe note 7$" "GASNETT_STATS_PRINTF"
done
if scripts/stats-summary.py "$dir"/s.* > "$dir/summary" 2>&1; then
    has "$dir/summary" "^GASNet statistics of 3 node" "summary"
    has "$dir/summary" "^  P gex_RMA_PutNBI +3 +3000 +1000 +1000  512:3$" "summary of the NBI puts"
    has "$dir/summary" "^  P gex_RMA_PutBlocking +9 +108 +4 +24  4:3 8:3 16:3$" "summary of the blocking puts"
    has "$dir/summary" "^ +[0-2] +[0-2] +3 +1032 +2 +48 +2 +0$" "summary's busiest peers"
    has "$dir/summary" "^  S gex_Event_Wait " "summary's waits"
    has "$dir/summary" "^note from node [0-2]: probe note 7$" "summary's notes"
else
    bad "stats-summary.py failed: $(cat "$dir/summary")"
fi
# --plot draws a PNG (gnuplot comes with make check's packages)
if command -v gnuplot >/dev/null; then
    if scripts/stats-summary.py --plot "$dir/stats.png" "$dir"/s.* > /dev/null 2> "$dir/plot.err"; then
        [ "$(head -c 8 "$dir/stats.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] &&
            [ "$(stat -c %s "$dir/stats.png")" -gt 4096 ] || bad "stats-summary.py --plot wrote no PNG"
    else
        bad "stats-summary.py --plot failed: $(cat "$dir/plot.err")"
    fi
fi

# 2. GASNET_TRACENODES and STATSNODES select nodes
for sel in "1:1" "0,2:0 2" "1-2:1 2" "*:0 1 2"; do
    list=${sel%%:*} want=" ${sel#*:} "
    run 3 GASNET_TRACEFILE="$dir/t.%" GASNET_TRACENODES="$list" GASNET_STATSFILE="$dir/s.%" \
        GASNET_STATSNODES="$list" -- $probe
    [ $rc -eq 0 ] || bad "TRACENODES=$list: exit status $rc"
    for n in 0 1 2; do
        if [[ "$want" == *" $n "* ]]; then
            [ -s "$dir/t.$n" ] && [ -s "$dir/s.$n" ] || bad "TRACENODES=$list: node $n wrote no trace or stats"
        else
            [ ! -e "$dir/t.$n" ] && [ ! -e "$dir/s.$n" ] || bad "TRACENODES=$list: node $n wrote a file"
        fi
    done
done

# 3. masks: one letter, an inverted set
run 2 GASNET_TRACEFILE="$dir/t.%" GASNET_TRACEMASK=P -- $probe
[ $rc -eq 0 ] || bad "TRACEMASK=P: exit status $rc"
has "$dir/t.0" " P gex_RMA_PutBlocking peer 1 bytes 8 " "TRACEMASK=P"
lacks "$dir/t.0" " [GRSWBLAXIOCDNH] " "TRACEMASK=P"
lacks "$dir/t.0" "data=|\[.*trace_probe.c" "TRACEMASK=P (no D, no N)"
run 2 GASNET_TRACEFILE="$dir/t.%" GASNET_TRACEMASK=^PD -- $probe
[ $rc -eq 0 ] || bad "TRACEMASK=^PD: exit status $rc"
lacks "$dir/t.0" " P |data=" "TRACEMASK=^PD"
has "$dir/t.0" " G gex_RMA_GetBlocking peer 1 bytes 16 " "TRACEMASK=^PD"
has "$dir/t.0" " A gex_AM_RequestShort request Short peer 1 handler 200 " "TRACEMASK=^PD"
has "$log" "trace mask GRSWBLAXIOCNHU " "TRACEMASK=^PD read back"

# 4. one file for all nodes; stdout
run 2 GASNET_TRACEFILE="$dir/all" GASNET_TRACEMASK=PU -- $probe
[ $rc -eq 0 ] || bad "shared file: exit status $rc"
has "$dir/all" "^[0-9.]+ 0 T[0-9]+ P gex_RMA_PutBlocking peer 1 bytes 8 " "shared file, node 0"
has "$dir/all" "^[0-9.]+ 1 T[0-9]+ P gex_RMA_PutBlocking peer 0 bytes 8 " "shared file, node 1"
[ "$(grep -Ec ' U exit code 0( \[.*\])?$' "$dir/all")" = 2 ] || bad "shared file: not one exit line per node"
# a stats file the nodes share: whole blocks, which the summary tells apart
run 3 GASNET_STATSFILE="$dir/all" -- $probe
[ $rc -eq 0 ] || bad "shared stats file: exit status $rc"
if scripts/stats-summary.py "$dir/all" > "$dir/summary" 2>&1; then
    has "$dir/summary" "^GASNet statistics of 3 node" "summary of a shared stats file"
    has "$dir/summary" "^  P gex_RMA_PutBlocking +9 +108 +4 +24  4:3 8:3 16:3$" "summary of a shared stats file's puts"
else
    bad "stats-summary.py failed on a shared file: $(cat "$dir/summary")"
fi
run 2 GASNET_TRACEFILE=stdout GASNET_TRACEMASK=H -- $probe
[ $rc -eq 0 ] || bad "stdout: exit status $rc"
[ "$(grep -c ' H client probe says 42' "$log")" = 2 ] || bad "TRACEFILE=stdout: not one client line per node"

# 5. GASNET_TRACELOCAL=no: no put within the neighbourhood is traced,
#    over the AM path a put to another node is
run 2 GASNET_TRACEFILE="$dir/t.%" GASNET_TRACELOCAL=no -- $probe
[ $rc -eq 0 ] || bad "TRACELOCAL=no: exit status $rc"
lacks "$dir/t.0" " [PG] gex_RMA" "TRACELOCAL=no"
has "$log" "trace_probe: node 0 .* tracelocal 0" "TRACELOCAL=no read back"
run 2 GASNET_TRACEFILE="$dir/t.%" GASNET_STATSFILE="$dir/s.%" GASNET_TRACELOCAL=no GASNET_RMA=am -- $probe
[ $rc -eq 0 ] || bad "TRACELOCAL=no over AM: exit status $rc"
has "$dir/t.0" " P gex_RMA_PutBlocking peer 1 bytes 8 " "TRACELOCAL=no, RMA over AM"
lacks "$dir/t.0" " P gex_RMA_PutBlocking peer 0 " "TRACELOCAL=no, put to itself"
# the library's own AMs (a put over the AM path is one, a packed batch
# and its reply too) are traced: each library handler node 1 ran for
# node 0 (indices below the client's 200) is one node 0 sent, and the
# other way for replies
has "$dir/t.0" " A library AM Request request (Short|Medium|Long) peer 1 handler [0-9]+ bytes [0-9]+ " "library AM request"
has "$dir/t.1" " A library AM Reply reply (Short|Medium|Long) peer 0 handler [0-9]+ " "library AM reply"
handlers() { grep -Eo -- "$2 handler [0-9]+" "$1" | awk '$NF < 200 { print $NF }' | sort -u; }
for pair in "request:1:0" "reply:0:1"; do
    IFS=: read -r kind runner sender <<< "$pair"
    cap=${kind^}
    missing=$(comm -23 <(handlers "$dir/t.$runner" " A handler\($kind\) [A-Za-z]+ from $sender ep [0-9]+") \
                       <(handlers "$dir/t.$sender" " A library AM $cap $kind [A-Za-z]+ peer $runner"))
    [ -z "$missing" ] || bad "library AM ${kind}s run on node $runner but not traced on node $sender: handler(s) $missing"
done
# and the summary reads the library's rows, whose names have spaces
if scripts/stats-summary.py "$dir"/s.* > "$dir/summary" 2>&1; then
    has "$dir/summary" "^  A library AM Request +[0-9]+ " "summary of the library's AMs"
else
    bad "stats-summary.py failed on the library's AMs: $(cat "$dir/summary")"
fi

# 5b. a node that dies of a fatal signal still writes what it traced,
#     and the signal, without GASNET_TRACEFLUSH
run 2 GASNET_TRACEFILE="$dir/t.%" -- $build/tests/seq/exit_matrix crash
[ $rc -ne 0 ] || bad "crash traced: the job passed"
tail -n1 "$dir/t.1" 2>/dev/null | grep -Eq ' U signal SIGSEGV\(11\)$' ||
    bad "crash traced: t.1 does not end with the signal: $(tail -n1 "$dir/t.1" 2>&1)"

# 6. bad values: the job fails, the message names the variable and value
for case in "GASNET_TRACEMASK=PQ" "GASNET_TRACEMASK=p" "GASNET_STATSMASK=^x" "GASNET_TRACENODES=1-x" \
            "GASNET_TRACENODES=3-1" "GASNET_TRACENODES=0,,1" "GASNET_STATSNODES=-1" \
            "GASNET_TRACEFLUSH=maybe" "GASNET_TRACELOCAL=2" "GASNET_TRACEFILE=$dir/no/such/dir/t.%" \
            "GASNET_STATSFILE=$dir/no/such/dir/s"; do
    var=${case%%=*} val=${case#*=}
    run 2 GASNET_TRACEFILE="$dir/t.%" GASNET_STATSFILE="$dir/s.%" "$case" -- $probe
    [ $rc -ne 0 ] || bad "$case: the job passed"
    grep -Fq "environment variable $var='$val'" "$log" || bad "$case: no message naming the variable"
done

# 7. the suite's programs with every category traced and counted
for prog in "2 seq/ex_am" "3 seq/ext_barrier" "2 par/ex_threads" "2 seq/ex_coll"; do
    run ${prog%% *} GASNET_TRACEFILE="$dir/t.%" GASNET_STATSFILE="$dir/s.%" -- $build/tests/${prog#* }
    [ $rc -eq 0 ] || bad "${prog#* } traced: exit status $rc"
    for ((n = 0; n < ${prog%% *}; n++)); do
        tail -n1 "$dir/t.$n" 2>/dev/null | grep -Eq ' U exit code 0( \[.*\])?$' ||
            bad "${prog#* } traced: t.$n does not end with its exit line"
        has "$dir/s.$n" "^# GASNet statistics \(exit\)" "${prog#* } counted"
    done
done

if [ $failures -eq 0 ]; then
    echo "trace_test: $cases cases ok"
else
    echo "trace_test: $failures failures in $cases cases"
    exit 1
fi
