#!/usr/bin/env bash
# Runs fuzz.sbatch on a real one-node Slurm cluster started here (Debian's slurmctld,
# slurmd and munge; no accounting, no cgroups), as root:
#   1. starts munged, slurmctld and slurmd with their own config, key, spool, state, log
#      directories and ports under WORK;
#   2. submits a two-task array: the campaign "$@" (give --out and the settings);
#   3. cancels task 1 once its shard has finished MIDWAY tests, waits for it to leave the
#      queue, and resubmits it alone (fuzz.sbatch adds --resume);
#   4. waits for the array, stops the daemons and prints both tasks' logs.
# Usage: one-node-test.sh WORK MIDWAY YARPJ-COMMAND -- FUZZ-SETTINGS...
# Exit 77 when Slurm or munge is not installed (the caller skips), 0 when every task ran.
set -euo pipefail
work=$1; midway=$2; export YARPJ=$3; shift 3; [ "${1:-}" = "--" ] && shift
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for c in munged slurmctld slurmd sbatch squeue scancel; do
  command -v "$c" >/dev/null || PATH=$PATH:/usr/sbin:/sbin
  command -v "$c" >/dev/null || { echo "skipped: $c is not installed (apt-get install slurmctld slurmd munge)"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "skipped: the one-node cluster runs its daemons as root (SlurmUser=root)"; exit 77; }
out=""; prev=""
for a in "$@"; do [ "$prev" = --out ] && out=$a; prev=$a; done
mkdir -p "$work"/{state,spool,log,munge}
work=$(cd "$work" && pwd)
node=$(hostname -s)
# Ports from the pid, so that two runs on one machine do not meet.
base=$((20000 + ($$ % 2000) * 4))
cat > "$work/slurm.conf" <<CONF
ClusterName=yarpjtest
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
AuthInfo=socket=$work/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$node CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 status=none
chmod 700 "$work/munge"; chmod 400 "$work/munge/munge.key"
stop() {
  set +e
  [ -f "$work/slurmd.pid" ] && kill "$(cat "$work/slurmd.pid")" 2>/dev/null
  [ -f "$work/slurmctld.pid" ] && kill "$(cat "$work/slurmctld.pid")" 2>/dev/null
  [ -f "$work/munge/munged.pid" ] && kill "$(cat "$work/munge/munged.pid")" 2>/dev/null
  sleep 1
  pkill -9 -f "slurmstepd.*$work" 2>/dev/null
}
trap stop EXIT
munged --force --socket="$work/munge/munge.socket" --key-file="$work/munge/munge.key" \
  --pid-file="$work/munge/munged.pid" --log-file="$work/log/munged.log" --seed-file="$work/munge/munge.seed"
slurmctld -f "$work/slurm.conf"
slurmd -f "$work/slurm.conf"
for _ in $(seq 60); do
  sinfo -h -o %t 2>/dev/null | grep -Eq '^idle' && break
  sleep 1
done
sinfo -h -o %t | grep -Eq '^idle' || { echo "the node did not come up:"; tail -5 "$work"/log/*.log; exit 1; }
echo "cluster: node $node up ($(sinfo -V))"

submit() { sbatch --parsable --cpus-per-task=1 --chdir="$work" --output="$work/task-%A_%a.log" "$@"; }
job=$(submit --array=0-1 "$here/fuzz.sbatch" "$@")
echo "submitted array job $job: tasks 0 and 1"
log1="$out/shards/1/campaign.jsonl"
for _ in $(seq 600); do
  [ -f "$log1" ] && [ "$(grep -c '"event": "done"' "$log1")" -ge "$midway" ] && break
  sleep 0.2
done
done1=$(grep -c '"event": "done"' "$log1" || true)
scancel "${job}_1"
echo "cancelled task ${job}_1 after $done1 tests of shard 1"
while squeue -h -j "${job}_1" 2>/dev/null | grep -q .; do sleep 0.5; done
again=$(submit --array=1 --export=ALL,YARPJ_SHARDS=2 "$here/fuzz.sbatch" "$@")
echo "resubmitted shard 1 as array job $again, task 1"
for _ in $(seq 1200); do
  squeue -h 2>/dev/null | grep -q . || break
  sleep 0.5
done
squeue -h | grep -q . && { echo "jobs still queued:"; squeue; exit 1; }
for f in "$work"/task-*.log; do echo "--- $(basename "$f")"; cat "$f"; done
