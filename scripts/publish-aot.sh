#!/usr/bin/env bash
# Publishes diagext compiled ahead of time (Native AOT) to artifacts/aot/diagext (or the folder given): one native
# executable that starts without a JIT and needs no .NET runtime to run; it starts itself again as the isolated
# child, as the ReadyToRun build does. ctororder reads the constructor lists of runtime types (ReadOnlyDictionary`2
# ...) from the .NET installed on the machine (DOTNET_ROOT, the 'dotnet' on PATH, /usr/share/dotnet); without
# one, such call sites stay warnings. Needs the ILCompiler packages (served by the NuGet mirror) and clang or gcc.
# The dotnet tool's linux-x64 package is this same executable (scripts/pack-tool.sh).
#
# usage: scripts/publish-aot.sh [OUTPUT_FOLDER]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-artifacts/aot}
rid=linux-$(uname -m | sed 's/x86_64/x64/; s/aarch64/arm64/')
dotnet publish managed/DiagExt.Cli -c Release -r "$rid" -p:PublishAot=true -o "$out" --nologo -v q -clp:"ErrorsOnly;NoSummary" >&2
echo "$out/diagext"
