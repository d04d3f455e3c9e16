"""A server that sends BYTES bytes to the first client and closes: python3 bulk-sender.py PORT BYTES"""
import socket
import sys

port, size = int(sys.argv[1]), int(sys.argv[2])
with socket.create_server(("127.0.0.1", port)) as server:
    client, _ = server.accept()
    client.sendall(b"x" * size)
    client.close()
