# Ranks on separate hosts, on one machine: sourced by tests/suite.sh and
# tests/netns/repeat.sh after tests/harness.sh.
#
# Each "host" is a network namespace gasnet-<pid>-h<i> (pid: the shell that
# sourced this file, so concurrent runs never share a name). Its processes
# also get their own UTS namespace (hostname = the namespace's name), IPC
# namespace and mount namespace with a fresh tmpfs on /dev/shm: nothing of
# another host's memory is reachable, as on a real cluster. The hosts and a
# launch node gasnet-<pid>-l are linked by veth pairs to a bridge that lives
# in its own namespace gasnet-<pid>-sw, so nothing is added to the machine's
# own network and every run can use the same subnet:
#
#   gasnet-<pid>-l   eth0 10.0.0.1/24 --+
#   gasnet-<pid>-h0  eth0 10.0.0.10/24 -+-- br0 in gasnet-<pid>-sw
#   gasnet-<pid>-h1  eth0 10.0.0.11/24 -+
#   ...
#
# The MPI launcher (MPICH's hydra mpiexec) runs in the launch node and
# starts its proxy on each host through tests/netns/rsh, given to it as the
# ssh launcher's executable; the proxies connect back to 10.0.0.1. MPI then
# sees one node per host (hydra's process mapping), UCX finds no shared
# memory transport between different hostnames and talks TCP over eth0,
# and the library groups nodes by MPI's view (core-mpi/core.c find_hosts,
# MPI_COMM_TYPE_SHARED), with no GASNET_SUPERNODE_MAXSIZE. That view needs
# no check of ours: an MPI that put nodes of different hosts together
# fails in MPI_Init, its own shared memory failing (tried: ranks that enter
# their namespaces after hydra started them on one host stop in
# MPIDU_Init_shm_init, "unable to allocate shared memory"); and were it to
# start, the shm backend could not map the other hosts' segments and would
# fall back with the reason.
#
#   netns_up HOSTS   creates the namespaces; on failure sets NETNS_SKIP to
#                    the reason (nt then reports every test as skipped)
#   nt NAME RANKS PER_HOST [harness options] -- PROG [ARGS]
#                    the harness's t, with the ranks PER_HOST to a host on
#                    the first ceil(RANKS / PER_HOST) hosts
#   netns_down       kills what is left in the namespaces, deletes them
#
# Needs root (CAP_SYS_ADMIN, CAP_NET_ADMIN), iproute2, util-linux's unshare
# and hydra. Callers trap netns_down so an interrupted run leaves nothing.
NETNS_P=gasnet-$$
NETNS_HOSTS=0
NETNS_SKIP=
NETNS_RSH=$PWD/tests/netns/rsh

netns_names() {
    local i
    echo "$NETNS_P-sw $NETNS_P-l"
    for ((i = 0; i < NETNS_HOSTS; i++)); do echo "$NETNS_P-h$i"; done
}

# netns_create HOSTS: the namespaces and links; the first failing
# command's message on stderr.
netns_create() {
    local sw=$NETNS_P-sw i ns addr
    ip netns add "$sw" && ip -n "$sw" link add br0 type bridge && ip -n "$sw" link set br0 up || return 1
    for ((i = -1; i < $1; i++)); do
        if [ $i -lt 0 ]; then ns=$NETNS_P-l addr=10.0.0.1; else ns=$NETNS_P-h$i addr=10.0.0.$((10 + i)); fi
        ip netns add "$ns" &&
            ip -n "$sw" link add "p$((i + 1))" type veth peer name eth0 netns "$ns" &&
            ip -n "$sw" link set "p$((i + 1))" master br0 up &&
            ip -n "$ns" addr add "$addr/24" dev eth0 &&
            ip -n "$ns" link set eth0 up &&
            ip -n "$ns" link set lo up || return 1
    done
    # a host's own hostname and /dev/shm, as tests/netns/rsh sets them up
    ip netns exec "$NETNS_P-h0" unshare --uts --ipc --mount --propagation private \
        sh -c "hostname $NETNS_P-h0 && mount -t tmpfs -o mode=1777 tmpfs /dev/shm"
}

netns_up() {
    local err stale
    NETNS_SKIP=
    if [ "$(id -u)" -ne 0 ]; then
        NETNS_SKIP="cannot create network namespaces: not root (needs CAP_SYS_ADMIN and CAP_NET_ADMIN)"
        return 1
    fi
    if ! command -v ip >/dev/null || ! command -v unshare >/dev/null; then
        NETNS_SKIP="cannot create network namespaces: ip (iproute2) or unshare (util-linux) not installed"
        return 1
    fi
    if ! mpiexec -h 2>&1 | grep -q -- -launcher-exec; then
        NETNS_SKIP="mpiexec is not MPICH's hydra (no -launcher-exec to reach the namespaces)"
        return 1
    fi
    # names left by a run that was killed before it could clean up
    for stale in $(ip netns list 2>/dev/null | grep -oE '^gasnet-[0-9]+-(sw|l|h[0-9]+)'); do
        stale=${stale#gasnet-}
        kill -0 "${stale%%-*}" 2>/dev/null && [ "${stale%%-*}" != $$ ] && continue
        ip netns del "gasnet-$stale" 2>/dev/null
    done
    NETNS_HOSTS=$1 # (netns_down deletes the names that exist)
    if ! err=$(netns_create "$1" 2>&1); then
        NETNS_SKIP="cannot create network namespaces: $(echo "$err" | head -n 1)"
        netns_down
        return 1
    fi
    return 0
}

netns_down() {
    local ns pids
    for ns in $(netns_names); do
        [ -e "/run/netns/$ns" ] || continue
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] && kill -9 $pids 2>/dev/null
        ip netns del "$ns"
    done
    NETNS_HOSTS=0
}

# The harness's hook after each job: names the processes still running in
# the namespaces 2 s after it ended (none, unless the job left some) and
# kills them.
job_leftovers() {
    local ns pids waited=0
    [ "$NETNS_HOSTS" -gt 0 ] || return 0
    while :; do
        pids=$(for ns in $(netns_names); do ip netns pids "$ns" 2>/dev/null; done)
        [ -z "$pids" ] || [ $waited -ge 20 ] && break
        sleep 0.1
        waited=$((waited + 1))
    done
    [ -n "$pids" ] || return 0
    # shellcheck disable=SC2086
    ps -o pid=,args= -p "$(echo $pids | tr ' ' ,)" | tr '\n' ';'
    kill -9 $pids 2>/dev/null
}

nt() {
    local name=netns_$1 ranks=$2 per=$3 hosts="" i launch
    shift 3
    if [ -n "$NETNS_SKIP" ]; then
        skip "$name n=$ranks" "$NETNS_SKIP"
        return
    fi
    for ((i = 0; i < (ranks + per - 1) / per; i++)); do hosts+="${hosts:+,}$NETNS_P-h$i:$per"; done
    if [ $i -gt $NETNS_HOSTS ]; then
        fail "$name n=$ranks" "needs $i hosts, netns_up made $NETNS_HOSTS"
        return
    fi
    launch="ip netns exec $NETNS_P-l mpiexec -launcher ssh -launcher-exec $NETNS_RSH"
    t "$name" "$ranks" -e "GASNET_MPIRUN_CMD=$launch -localhost 10.0.0.1 -hosts $hosts -n %N %C" "$@"
}
