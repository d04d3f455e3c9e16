#!/usr/bin/env bash
# The action's set-up step (action.yml): makes tcpprobe ready to run on a GitHub runner.
# Environment: TCPPROBE_RELEASE (a release tarball: a path, or an https URL; empty: build from
# TCPPROBE_SOURCE with Swift), TCPPROBE_SOURCE (the action's checkout), RUNNER_TEMP, and
# GITHUB_OUTPUT / GITHUB_PATH, where it writes `bin=` and the binary's folder.
set -euo pipefail
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"

if ! ldconfig -p | grep -q 'libpcap\.so'; then
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends libpcap-dev
fi

if [ -n "${TCPPROBE_RELEASE:-}" ]; then
    tarball="$TCPPROBE_RELEASE"
    if [[ "$tarball" == https://* ]]; then
        tarball="$RUNNER_TEMP/tcpprobe-release.tar.gz"
        curl -fsSL --retry 3 -o "$tarball" "$TCPPROBE_RELEASE"
    fi
    unpacked="$RUNNER_TEMP/tcpprobe-release"
    rm -rf "$unpacked" && mkdir -p "$unpacked"
    tar -C "$unpacked" -xzf "$tarball"
    bin="$(echo "$unpacked"/tcpprobe-*/bin)"
else
    [ "$(uname -s)" = Linux ] || { echo "tcpprobe runs on Linux only" >&2; exit 1; }
    swift build -c release --package-path "$TCPPROBE_SOURCE"
    bin="$TCPPROBE_SOURCE/.build/release"
fi
[ -x "$bin/tcpprobe" ] || { echo "no tcpprobe in $bin" >&2; exit 1; }

# Capture needs CAP_NET_RAW; root has it already.
if [ -n "$sudo" ]; then
    $sudo setcap cap_net_raw,cap_net_admin+eip "$bin/tcpprobe"
fi
echo "bin=$bin/tcpprobe" >> "$GITHUB_OUTPUT"
echo "$bin" >> "$GITHUB_PATH"
"$bin/tcpprobe" --help | head -1
