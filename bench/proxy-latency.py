"""For bench/proxy: the latency a proxy adds to each chunk, from a pcap's timestamps.

Usage: proxy-latency.py PCAP FRONT_PORT BACK_PORT. Pairs each data segment the client sent to
FRONT_PORT with the segment the proxy sent to BACK_PORT that carries the same stream offset
(relative sequence numbers, as tshark gives them), and prints "p50 p99 max count" in
microseconds.
"""
import subprocess
import sys

pcap, front, back = sys.argv[1], sys.argv[2], sys.argv[3]
rows = subprocess.run(["tshark", "-r", pcap, "-Y", "tcp.len > 0", "-T", "fields", "-e", "frame.time_epoch",
                       "-e", "tcp.dstport", "-e", "tcp.seq", "-e", "tcp.len"],
                      check=True, capture_output=True, text=True).stdout.split("\n")
sent, forwarded = {}, {}
for row in rows:
    if not row:
        continue
    time, port, seq, length = row.split("\t")
    target = sent if port == front else forwarded if port == back else None
    if target is not None:
        target.setdefault(int(seq), float(time))
delays = sorted((forwarded[seq] - time) * 1e6 for seq, time in sent.items() if seq in forwarded)
if not delays:
    sys.exit("no segment of the front leg was found on the back leg")
pick = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))]
print(f"{pick(0.5):.0f} {pick(0.99):.0f} {delays[-1]:.0f} {len(delays)}")
