#!/usr/bin/env bash
# What the Slurm test (category "slurm": tests/DiagExt.Tests/Batch/SlurmShardTests.cs) needs: Debian's Slurm daemons and
# clients and munge, installed with apt only when missing (slurmctld, slurmd, slurm-client and munge rather than the
# slurm-wlm metapackage, which pulls 42 packages of plugins the one-node cluster never loads). Where they cannot be
# installed (no apt, no root, no registry) the Slurm test skips, saying so; nothing else needs them.
set -uo pipefail

missing=()
[ -x /usr/sbin/slurmctld ] || missing+=(slurmctld)
[ -x /usr/sbin/slurmd ] || missing+=(slurmd)
command -v sbatch >/dev/null 2>&1 || missing+=(slurm-client)
[ -x /usr/sbin/munged ] || missing+=(munge)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "[setup] installing ${missing[*]} with apt (for the Slurm test)" >&2
if ! command -v apt-get >/dev/null 2>&1; then
    echo "[setup] no apt-get: the Slurm test will be skipped" >&2; exit 0
fi
sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo -n"
export DEBIAN_FRONTEND=noninteractive
if ! { $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }; then
    echo "[setup] could not install ${missing[*]}: the Slurm test will be skipped" >&2
fi
exit 0
