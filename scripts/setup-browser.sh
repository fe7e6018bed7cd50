#!/usr/bin/env bash
# The batch HTML report's browser test (tests/DiagExt.Tests/Batch/BatchHtmlBrowserTests.cs) drives Debian's chromium,
# headless, through Playwright's bundled driver (Playwright downloads no browser of its own). Installed with apt only
# when missing. Where it cannot be installed (no apt, no root, no registry) that test skips, saying so; nothing else
# needs it.
set -uo pipefail

[ -x /usr/bin/chromium ] && exit 0
echo "[setup] installing chromium with apt (for the HTML report's browser test)" >&2
if ! command -v apt-get >/dev/null 2>&1; then
    echo "[setup] no apt-get: the browser test will be skipped" >&2; exit 0
fi
sudo_cmd=""; [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo -n"
export DEBIAN_FRONTEND=noninteractive
if ! { $sudo_cmd apt-get update -qq && $sudo_cmd apt-get install -y -qq chromium >/dev/null; }; then
    echo "[setup] could not install chromium: the browser test will be skipped" >&2
fi
exit 0
