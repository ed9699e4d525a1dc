#!/bin/bash
cd /work/wt-collshm
run() { # round ranks version args...
  local r=$1 n=$2 v=$3; shift 3
  bin=build/opt/bench/coll/coll; [ $v = base ] && bin=/tmp/collshm-base/build/opt/bench/coll/coll
  echo "=== round $r ranks $n $v"
  timeout 170 launch/gasnetrun_mpi -n $n $bin "$@" 2>&1 | grep -E "^gasnet "
}
run 1 4 new -s 8 -S 1M -k 1K -n 20 -r 3
run 1 4 base -s 8 -S 1M -k 1K -n 20 -r 3
run 2 2 new -s 8 -S 1M -k 4K -n 200 -r 5
run 2 2 base -s 8 -S 1M -k 4K -n 200 -r 5
run 2 4 base -s 8 -S 1M -k 1K -n 20 -r 3
run 2 4 new -s 8 -S 1M -k 1K -n 20 -r 3
run 3 2 base -s 8 -S 1M -k 4K -n 200 -r 5
run 3 2 new -s 8 -S 1M -k 4K -n 200 -r 5
