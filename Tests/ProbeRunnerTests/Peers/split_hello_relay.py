"""A relay for tcpprobe's tests that re-sends the server's first TLS record (its ServerHello)
as two records, as TLS allows: the handshake message cut at an offset.

PORT UPSTREAM OFFSETS: listens on 127.0.0.1:PORT; for each connection in turn, connects to
127.0.0.1:UPSTREAM and relays both ways, cutting the first server record's body at the next of
OFFSETS (comma-separated; a negative one counts from the end).
"""
import socket
import sys
import threading


def read_exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def pump(source, destination):
    try:
        while chunk := source.recv(65536):
            destination.sendall(chunk)
    except OSError:
        pass
    finally:
        try:
            destination.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def relay(client, upstream_port, offset):
    server = socket.create_connection(("127.0.0.1", upstream_port), timeout=10)
    threading.Thread(target=pump, args=(client, server), daemon=True).start()
    header = read_exactly(server, 5)
    body = read_exactly(server, int.from_bytes(header[3:5], "big"))
    cut = offset if offset > 0 else len(body) + offset
    first, second = body[:cut], body[cut:]
    client.sendall(header[:3] + len(first).to_bytes(2, "big") + first + header[:3] + len(second).to_bytes(2, "big") + second)
    pump(server, client)


def main():
    port, upstream, offsets = int(sys.argv[1]), int(sys.argv[2]), [int(o) for o in sys.argv[3].split(",")]
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen()
    threads = []
    for offset in offsets:
        client, _ = listener.accept()
        thread = threading.Thread(target=relay, args=(client, upstream, offset), daemon=True)
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join(10)


if __name__ == "__main__":
    main()
