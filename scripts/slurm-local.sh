#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, everything in one folder (no systemd, nothing in /etc): munged with its
# own key and socket, slurmctld and slurmd with a slurm.conf of their own on free ports. What the Slurm test of the
# suite (tests/DiagExt.Tests/Batch/SlurmShardTests.cs) and docs/batch.md's Slurm example run.
#   scripts/slurm-local.sh start DIR   start it (DIR is created); prints the line to export SLURM_CONF; waits for the node
#   scripts/slurm-local.sh stop DIR    stop the three daemons by their pid files
# Needs slurmctld, slurmd, the Slurm clients and munge (scripts/setup-slurm.sh installs them); runs as root or as the
# user that owns DIR (SlurmUser is that user). Exit 2 on bad arguments or a missing tool, 1 if the node never came up.
set -uo pipefail

usage() { sed -n '4,5p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1 dir=$2

stop() {
    for pid in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
        [ -s "$pid" ] && kill "$(cat "$pid" 2>/dev/null)" 2>/dev/null
    done
    # Give them a moment to go, then make sure (each by its own pid, never by name).
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        alive=0
        for pid in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
            [ -s "$pid" ] && kill -0 "$(cat "$pid" 2>/dev/null)" 2>/dev/null && alive=1
        done
        [ $alive -eq 0 ] && return 0
        sleep 0.5
    done
    for pid in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
        [ -s "$pid" ] && kill -9 "$(cat "$pid" 2>/dev/null)" 2>/dev/null
    done
    return 0
}

free_port() {
    local port
    for _ in $(seq 1 50); do
        port=$((20000 + RANDOM % 30000))
        ss -Htln "sport = :$port" 2>/dev/null | grep -q . || { echo "$port"; return 0; }
    done
    return 1
}

case "$action" in
    stop) stop; exit 0 ;;
    start) ;;
    *) usage ;;
esac

for tool in munged slurmctld slurmd sinfo sbatch; do
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] || { echo "slurm-local.sh: $tool is not installed (scripts/setup-slurm.sh installs it)" >&2; exit 2; }
done
PATH=$PATH:/usr/sbin

mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
chmod 700 "$dir/munge"
user=$(id -un)
# munged: a key of its own (1 KB random, readable by its owner only) and a socket in DIR, so nothing system-wide is touched.
head -c 1024 /dev/urandom > "$dir/munge/munge.key"
chmod 400 "$dir/munge/munge.key"
socket="$dir/munge/munge.socket"
munged --key-file="$dir/munge/munge.key" --socket="$socket" --pid-file="$dir/munged.pid" \
    --log-file="$dir/munged.log" --seed-file="$dir/munge/munge.seed" --force 2>>"$dir/munged.log" \
    || { echo "slurm-local.sh: munged did not start (see $dir/munged.log)" >&2; exit 1; }

ctld_port=$(free_port) && slurmd_port=$(free_port) || { echo "slurm-local.sh: no free port" >&2; stop; exit 1; }
cpus=$(nproc)
cat > "$dir/slurm.conf" <<EOF
ClusterName=diagext
SlurmctldHost=localhost
SlurmUser=$user
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
NodeName=localhost CPUs=$cpus RealMemory=4000 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$SLURM_CONF" 2>>"$dir/slurmctld.log" || { echo "slurm-local.sh: slurmctld did not start (see $dir/slurmctld.log)" >&2; stop; exit 1; }
slurmd -f "$SLURM_CONF" -N localhost 2>>"$dir/slurmd.log" || { echo "slurm-local.sh: slurmd did not start (see $dir/slurmd.log)" >&2; stop; exit 1; }

for _ in $(seq 1 60); do
    state=$(sinfo -h -N -o %t 2>/dev/null | head -1)
    case "$state" in
        idle|mix|alloc) echo "export SLURM_CONF=$SLURM_CONF"; exit 0 ;;
    esac
    sleep 0.5
done
echo "slurm-local.sh: the node did not come up in 30 s (state '${state:-none}'; see $dir/slurmctld.log and $dir/slurmd.log)" >&2
stop
exit 1
