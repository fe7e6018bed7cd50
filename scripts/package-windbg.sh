#!/usr/bin/env bash
# Builds the WinDbg extension package from Linux:
#   artifacts/windbg/                  the DiagExt folder a user copies (e.g. to C:\tools\DiagExt)
#     GalleryManifest.xml              for %LOCALAPPDATA%\Dbg\UserExtensions (auto-load on first command)
#     x64/DiagExt.dll                  the extension for 64-bit WinDbg/cdb
#     x64/diagext/diagext.exe ...      diagext, self-contained win-x64 (no .NET needed on the machine), compiled
#                                      ReadyToRun: the fastest form Linux can build for Windows (Native AOT does
#                                      not cross-compile to another OS), so each !command starts without JIT
#     x86/DiagExt.dll                  the extension for 32-bit debuggers
#     x86/diagext/diagext.dll ...      diagext, framework-dependent: run by the 32-bit .NET 10 runtime,
#                                      because no win-x86 runtime or apphost pack restores here
#   artifacts/windbg-zips/DiagExt-<version>-x64.zip and -x86.zip (each unzips to DiagExt/...)
set -euo pipefail
cd "$(dirname "$0")/.."

out=artifacts/windbg
zips=artifacts/windbg-zips
version=$(sed -n 's:.*<Version>\(.*\)</Version>.*:\1:p' Directory.Build.props | head -1)

bash native/build.sh >/dev/null
rm -rf "$out/x64/diagext" "$out/x86/diagext" "$zips"
publish=(dotnet publish managed/DiagExt.Cli -c Release --nologo -v q -clp:"ErrorsOnly;NoSummary")
"${publish[@]}" -r win-x64 --self-contained -p:PublishReadyToRun=true -o "$out/x64/diagext"
"${publish[@]}" -r win-x86 --self-contained false -p:UseAppHost=false -o "$out/x86/diagext"
# One EngineCommand per debugger command of diagext's own list (native/build.sh wrote it), escaped for XML.
engine_commands=$(awk -F '\t' '
    function xml(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
    function item(name, syntax, text) {
        printf "          <EngineCommand Name=\"%s\">\n            <EngineCommandItem>\n", name
        printf "              <Syntax>%s</Syntax>\n              <Description>%s</Description>\n", xml(syntax), xml(text)
        printf "            </EngineCommandItem>\n          </EngineCommand>\n"
    }
    BEGIN { item("diagext", "!diagext [<command>] [diagext options]", "with no command, runs every detector (diagext analyze; !analyze stays WinDbg'"'"'s); with one, any of the commands below by name") }
    $2 == "debugger" { item($1, "!DiagExt." $1 " [diagext options]", $3) }' artifacts/native-build/commands.tsv)
ENGINE_COMMANDS=$engine_commands awk -v version="$version" '
    /@ENGINE_COMMANDS@/ { print ENVIRON["ENGINE_COMMANDS"]; next }
    { gsub(/@VERSION@/, version); print }' native/package/GalleryManifest.xml > "$out/GalleryManifest.xml"

mkdir -p "$zips"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
for arch in x64 x86; do
    rm -rf "$stage/DiagExt"
    mkdir -p "$stage/DiagExt"
    cp -r "$out/$arch" "$stage/DiagExt/$arch"
    cp "$out/GalleryManifest.xml" "$stage/DiagExt/"
    (cd "$stage" && zip -qr "$OLDPWD/$zips/DiagExt-$version-$arch.zip" DiagExt)
done
echo "$out: DiagExt folder; $zips: $(ls "$zips" | tr '\n' ' ')"
