#!/bin/bash
# A launcher that leaves the survivors running (tests only): run as the
# launch template's program (GASNET_MPIRUN_CMD="mpirun -np %N
# tests/keep_running.sh %C"), it runs the node and, if the node dies of a
# signal, stays alive in its place, so that MPI's launcher (hydra kills
# every process when one dies) sees nothing: the other nodes must notice
# the loss themselves. The launcher's own teardown (MPI_Abort) ends it.
"$@"
rc=$?
[ $rc -gt 128 ] && exec sleep 600
exit $rc
