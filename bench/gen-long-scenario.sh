#!/usr/bin/env bash
# Writes a 1,000-line scenario (a realistic mix of statements) to stdout.
echo 'title "a long scenario"'
echo 'var port = free-port'
echo 'set timeout 2s'
echo 'sleep 1ms'
for i in $(seq 1 249); do
  echo "connect c$i 127.0.0.1:{port} timeout 1s"
  echo "c$i: send line \"msg:hello $i\" split at 3 every 1ms"
  echo "c$i: expect line /^Luke: hello (?<n$i>\\d+)\$/ within 500ms"
  echo "c$i: assert wire from peer terminator crlf"
done
