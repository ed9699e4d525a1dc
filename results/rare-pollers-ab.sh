#!/bin/bash
# before/after interleaved: the same benchmark source linked with the
# library before (ammpi/send.c of HEAD~1) and after the change. The
# before binary: `git show HEAD~1:ammpi/send.c` compiled with the opt
# flags, put into a copy of build/opt/lib/libammpi.a (ar r), and
# bench/rarepoll/rarepoll.c linked with that copy into /tmp/before/.
cd /work/wt-scale
BEFORE=/tmp/before/rarepoll AFTER=build/opt/bench/rarepoll/rarepoll
run() { # label env... -- args
    local label=$1; shift
    local envs=(); while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
    echo "## $label: env ${envs[*]} launch/gasnetrun_mpi -n $N rarepoll $*"
    env "${envs[@]}" timeout 120 launch/gasnetrun_mpi -n $N $BIN "$@" 2>&1 | grep -v '^#'
    echo "## rc=${PIPESTATUS[0]}"
}
echo "# $(date -u) $(uptime)"
for rep in 1 2; do
  for N in 4 8 16; do
    for v in before after; do BIN=$([ $v = before ] && echo $BEFORE || echo $AFTER)
      run "$v shm N=$N" GASNET_SHM_AM=yes -- -n 10000
    done
  done
  for N in 4 8; do
    for v in before after; do BIN=$([ $v = before ] && echo $BEFORE || echo $AFTER)
      run "$v mpi N=$N" GASNET_SHM_AM=no -- -n 2000 -o medium,long
    done
    BIN=$AFTER run "after mpi N=$N" GASNET_SHM_AM=no -- -n 2000 -o immediate
  done
  N=16
  for v in before after; do BIN=$([ $v = before ] && echo $BEFORE || echo $AFTER)
    run "$v nbrhd4 N=$N" GASNET_SUPERNODE_MAXSIZE=4 -- -n 2000 -o medium,long
  done
done
N=4 BIN=$BEFORE
echo "## before mpi N=4 immediate, 30 s limit:"
GASNET_SHM_AM=no timeout 30 launch/gasnetrun_mpi -n 4 $BEFORE -n 2000 -o immediate 2>&1 | grep -v '^#' | tail -2; echo "## rc=${PIPESTATUS[0]}"
echo "# $(date -u) $(uptime)"
