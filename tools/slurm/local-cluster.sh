#!/bin/bash
# A throwaway one-node Slurm cluster on this machine, everything under one
# directory (configuration, MUNGE key and socket, state, spool, logs, pid
# files): to run the job-array scripts of tools/slurm against a real
# scheduler (crates/janggi-tools/tests/slurm_real.rs; docs/nnue.md,
# "Job arrays on a cluster (Slurm)"). Needs Debian's slurm-wlm and munge
# (apt-get install slurm-wlm munge) and root: slurmd starts the jobs as
# the submitting user.
#
#   tools/slurm/local-cluster.sh start DIR         # writes DIR/slurm.conf, starts munged, slurmctld, slurmd
#   export SLURM_CONF=DIR/slurm.conf               # for sbatch, scontrol, scancel, submit.sh
#   tools/slurm/local-cluster.sh wait DIR JOB [SECONDS]   # until job JOB ends; 0 if it COMPLETED
#   tools/slurm/local-cluster.sh stop DIR          # cancels the jobs, stops the three daemons
#
# Nothing is written outside DIR (the jobs write where they are told and
# their logs into the directory sbatch was run from). The daemons listen on
# 127.0.0.1 on two free ports from 16817 up (SLURM_PORT sets the first).
# Exit status 77: a program the cluster needs is missing.
set -euo pipefail

usage() {
    echo "usage: $0 start DIR | wait DIR JOB [SECONDS] | stop DIR" >&2
    exit 2
}
[ $# -ge 2 ] || usage
cmd=$1
dir=$2

# Is something listening on 127.0.0.1:$1?
listening() {
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Is the process whose id is in file $1 alive?
alive() {
    [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

# Stops the process whose id is in file $1 (SIGTERM, then SIGKILL after 10 s).
stop_pid() {
    local file=$1 pid i
    [ -s "$file" ] || return 0
    pid=$(cat "$file")
    if kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        for ((i = 0; i < 100; i++)); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        if kill -0 "$pid" 2>/dev/null; then
            echo "pid $pid ($file) ignored SIGTERM: SIGKILL" >&2
            kill -9 "$pid" 2>/dev/null || true
        fi
    fi
    rm -f "$file"
}

# The state of job $1 (its first JobState=, for an array its first task).
job_state() {
    scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1
}

start() {
    local missing="" tool
    for tool in munged mungekey slurmctld slurmd scontrol sbatch; do
        command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
    done
    if [ -n "$missing" ]; then
        echo "missing:$missing (Debian: apt-get install slurm-wlm munge)" >&2
        exit 77
    fi
    if [ "$(id -u)" != 0 ]; then
        echo "slurmd must run as root to start jobs (not root here)" >&2
        exit 77
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if alive "$dir/slurmctld.pid" || alive "$dir/slurmd.pid" || alive "$dir/munged.pid"; then
        echo "a cluster is already running in $dir (stop it first)" >&2
        exit 1
    fi
    mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log"
    chmod 700 "$dir/munge"

    # MUNGE: its own key and socket, so that no system munged is needed.
    [ -s "$dir/munge/munge.key" ] || mungekey --create --keyfile="$dir/munge/munge.key"
    chmod 600 "$dir/munge/munge.key"
    munged --force --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
        --pid-file="$dir/munged.pid" --log-file="$dir/log/munged.log" \
        --seed-file="$dir/munge/munged.seed"

    # Two free ports: slurmctld's and slurmd's.
    local port=${SLURM_PORT:-16817}
    while listening "$port" || listening $((port + 1)); do
        port=$((port + 2))
    done
    # The node as slurmd sees it (CPUs, sockets, cores, memory), renamed.
    local hw
    hw=$(slurmd -C | sed -n 's/^NodeName=[^ ]* //p')
    hw=${hw:-CPUs=1}
    cat >"$dir/slurm.conf" <<EOF
# Written by tools/slurm/local-cluster.sh: a one-node cluster in $dir.
ClusterName=janggi-local
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
# A job whose dependency can never be met (afterok on a failed array) is
# cancelled rather than left pending.
DependencyParameters=kill_invalid_depend
# Finished jobs stay visible to scontrol for 10 minutes.
MinJobAge=600
SlurmdTimeout=60
InactiveLimit=0
KillWait=10
NodeName=localhost NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
    : >"$dir/plugstack.conf"
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -f "$SLURM_CONF"
    slurmd -f "$SLURM_CONF" -N localhost
    # Until the node is up and idle (registered with slurmctld).
    local i state=""
    for ((i = 0; i < 300; i++)); do
        state=$(scontrol show node localhost 2>/dev/null | sed -n 's/.*State=\([A-Z_+]*\).*/\1/p' | head -n 1)
        [ "$state" = IDLE ] && break
        sleep 0.2
    done
    if [ "$state" != IDLE ]; then
        echo "the node did not come up (state '${state:-none}'); logs in $dir/log:" >&2
        tail -n 20 "$dir"/log/*.log >&2 || true
        exit 1
    fi
    echo "one-node Slurm up in $dir (ports $port, $((port + 1)))"
    echo "export SLURM_CONF=$SLURM_CONF"
}

wait_job() {
    local job=$1 limit=${2:-600} state="" i
    export SLURM_CONF=$dir/slurm.conf
    for ((i = 0; i < limit * 2; i++)); do
        state=$(job_state "$job")
        case $state in
            COMPLETED) echo "job $job: COMPLETED"; return 0 ;;
            CANCELLED | FAILED | TIMEOUT | NODE_FAIL | PREEMPTED | BOOT_FAIL | DEADLINE | OUT_OF_MEMORY)
                echo "job $job: $state" >&2
                scontrol show job "$job" >&2 || true
                return 1 ;;
        esac
        sleep 0.5
    done
    echo "job $job: still ${state:-unknown} after $limit s" >&2
    scontrol show job "$job" >&2 || true
    return 1
}

stop() {
    local i
    [ -d "$dir" ] || return 0
    dir=$(cd "$dir" && pwd)
    export SLURM_CONF=$dir/slurm.conf
    # Cancel what is still queued or running, and wait for its steps to end
    # (slurmd kills them) while the daemons are still there.
    if alive "$dir/slurmctld.pid"; then
        scancel --full --partition=local 2>/dev/null || true
        for ((i = 0; i < 60; i++)); do
            scontrol show jobs 2>/dev/null | grep -qE "JobState=(RUNNING|COMPLETING|CONFIGURING|SUSPENDED)" || break
            sleep 0.5
        done
    fi
    stop_pid "$dir/slurmd.pid"
    stop_pid "$dir/slurmctld.pid"
    stop_pid "$dir/munged.pid"
    echo "stopped the cluster in $dir"
}

case $cmd in
    start) [ $# -eq 2 ] || usage; start ;;
    wait)
        [ $# -ge 3 ] || usage
        [[ $3 =~ ^[0-9]+$ ]] || usage
        [[ ${4:-600} =~ ^[0-9]+$ ]] || usage
        wait_job "$3" "${4:-600}" ;;
    stop) [ $# -eq 2 ] || usage; stop ;;
    *) usage ;;
esac
