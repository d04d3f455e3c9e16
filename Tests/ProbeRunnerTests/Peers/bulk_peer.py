"""A client for tcpprobe's tests that moves a bulk of bytes at full speed.

send HOST PORT COUNT: connects, sends COUNT zero bytes (blocking while the other side does not
read), closes, and prints "sent COUNT".
receive HOST PORT: connects, reads nothing for a second (the sockets between fill), then reads
to the end and prints "received N".
"""
import socket
import sys
import time

mode, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
with socket.create_connection((host, port), timeout=30) as connection:
    if mode == "send":
        count = int(sys.argv[4])
        connection.sendall(bytes(count))
        print(f"sent {count}", flush=True)
    else:
        time.sleep(1)
        received = 0
        while chunk := connection.recv(1 << 16):
            received += len(chunk)
        print(f"received {received}", flush=True)
