"""A line server that refuses an over-long line and closes at once: python3 line_limit_server.py

Listens on 127.0.0.1 (prints its port). Each client's lines (CRLF) are answered "OK LINE"; once
1024 bytes arrive without a CRLF it answers "ERR line too long" and closes the socket at once,
with the client's later bytes unread (so the kernel answers them with RST), as many servers do.
"""
import socket
import threading


def serve(connection):
    buffer = b""
    with connection:
        while True:
            data = connection.recv(4096)
            if not data:
                return
            buffer += data
            while b"\r\n" in buffer:
                line, buffer = buffer.split(b"\r\n", 1)
                connection.sendall(b"OK " + line + b"\r\n")
            if len(buffer) > 1024:
                connection.sendall(b"ERR line too long\r\n")
                return  # close() now, whatever the client still sends


def main():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print(listener.getsockname()[1], flush=True)
    listener.settimeout(30)
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection,), daemon=True).start()


main()
