#!/usr/bin/env bash
# The action's run step (action.yml): runs the scenarios with a JUnit and an HTML report, and
# keeps the pcaps of failing scenarios beside them.
# Environment: TCPPROBE_BIN, TCPPROBE_SCENARIOS (paths, split on spaces; globs expand),
# TCPPROBE_ARGS (more options for `tcpprobe run`, split on spaces), TCPPROBE_REPORTS (a folder),
# GITHUB_OUTPUT, where it writes `exit-code=` and `junit=`.
set -uo pipefail
mkdir -p "$TCPPROBE_REPORTS/pcaps"
chmod 700 "$TCPPROBE_REPORTS/pcaps"
# shellcheck disable=SC2086 # word splitting (and globbing) of the two lists is what they ask for
"$TCPPROBE_BIN" run $TCPPROBE_SCENARIOS \
    --report "junit=$TCPPROBE_REPORTS/junit.xml" \
    --report "html=$TCPPROBE_REPORTS/report.html" \
    --pcap-dir "$TCPPROBE_REPORTS/pcaps" --keep-pcap failed \
    $TCPPROBE_ARGS
status=$?
echo "exit-code=$status" >> "$GITHUB_OUTPUT"
echo "junit=$TCPPROBE_REPORTS/junit.xml" >> "$GITHUB_OUTPUT"
exit "$status"
