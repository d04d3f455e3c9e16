"""An SMTP-like STARTTLS peer for tcpprobe's tests.

server CERT KEY ENDING [PORT]: listens on 127.0.0.1 (on PORT, else a free one; prints its port), greets with 220, answers
STARTTLS with "220 ready", upgrades, answers one line with "250 over TLS: LINE", then ends
with close_notify and FIN (ENDING=close_notify), close_notify and FIN half a second later
(ENDING=close_notify_late), a bidirectional shutdown (ENDING=bidirectional: close_notify, then a
blocking wait for the probe's, then FIN), close_notify and then RST (ENDING=close_notify_rst),
close_notify and a full close of the socket, as postfix does (ENDING=close_notify_close: what
the probe sends after it is answered with RST by the kernel), or a bare FIN (ENDING=truncate);
or it waits for the probe's close_notify (ENDING=probe_closes), or sends bytes that are no TLS
record (ENDING=garbage), then writes below TLS and prints "reset" when the probe's socket was
closed whole, "no reset" when it was not. After its FIN it reads below TLS to the probe's end
and prints "fin" or "reset".
client PORT CA: connects, reads the greeting, sends STARTTLS, reads "220 ready", upgrades
trusting CA for localhost, sends "hello", prints the answer and closes.
pipelining PORT CA: connects, reads the greeting, sends STARTTLS and its ClientHello in one
write without waiting for "220 ready", upgrades, sends "hello" and "world" each with a 2-byte
length in front, in a TLS record of its own, and closes once the probe has closed.
"""
import socket
import ssl
import struct
import sys
import time


def read_line(sock):
    line = b""
    while not line.endswith(b"\n") and len(line) < 4096:
        byte = sock.recv(1)
        if not byte:
            break
        line += byte
    return line


def send_close_notify(secure):
    """close_notify, without waiting for the probe's (a blocking unwrap would)."""
    secure.setblocking(False)
    try:
        secure.unwrap()
    except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
        pass
    secure.setblocking(True)


def server(cert, key, ending, port="0"):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.socket()
    listener.bind(("127.0.0.1", int(port)))
    listener.listen()
    listener.settimeout(10)
    print(listener.getsockname()[1], flush=True)
    connection, _ = listener.accept()
    connection.settimeout(10)
    connection.sendall(b"220 peer.test ESMTP\r\n")
    if read_line(connection) != b"STARTTLS\r\n":
        connection.sendall(b"500 expected STARTTLS\r\n")
        return
    connection.sendall(b"220 ready\r\n")
    secure = context.wrap_socket(connection, server_side=True)
    line = read_line(secure).rstrip(b"\r\n")
    secure.sendall(b"250 over TLS: " + line + b"\r\n")
    if ending == "close_notify_garbage":
        # close_notify, which the probe answers, then bytes that are no TLS record.
        send_close_notify(secure)
        ending = "garbage"
    if ending in ("probe_closes", "garbage"):
        # Waits for the probe's close_notify (a read of nothing), or writes bytes that are no
        # TLS record, which the probe's TLS layer refuses by closing; then writes below TLS: a
        # socket the probe closed whole answers with RST, and says so on stdout.
        if ending == "garbage":
            time.sleep(0.3)  # the answer read first
            socket.socket.sendall(secure, b"not a TLS record\r\n")
        else:
            while secure.recv(4096):
                pass
        time.sleep(0.3)
        try:
            # The kernel answers the first write with RST; the next ones fail with it.
            for _ in range(3):
                socket.socket.sendall(secure, b"late\r\n")
                time.sleep(0.2)
            print("no reset", flush=True)
        except (ConnectionResetError, BrokenPipeError):
            print("reset", flush=True)
        return
    if ending == "bidirectional":
        # Python's unwrap() in blocking mode: close_notify, then wait for the peer's (10 s at most).
        plain = secure.unwrap()
        plain.shutdown(socket.SHUT_WR)
        report_ending(plain)
        return
    if ending != "truncate":
        send_close_notify(secure)
        if ending == "close_notify_late":
            time.sleep(0.5)
        if ending == "close_notify_close":
            socket.socket.close(secure)  # FIN; the kernel answers what comes later with RST
            time.sleep(1)
            return
        if ending == "close_notify_rst":
            time.sleep(0.1)
            socket.socket.setsockopt(secure, socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            socket.socket.close(secure)  # RST, below TLS
            return
    socket.socket.shutdown(secure, socket.SHUT_WR)  # the FIN, below TLS
    secure.settimeout(10)
    report_ending(secure)


def report_ending(sock):
    """Reads below TLS until the probe's end, and prints it: "fin" or "reset"."""
    try:
        while socket.socket.recv(sock, 4096):
            pass
        print("fin", flush=True)
    except ConnectionResetError:
        print("reset", flush=True)


def client(port, ca):
    connection = socket.create_connection(("127.0.0.1", int(port)), timeout=10)
    print(read_line(connection).decode().strip(), flush=True)
    connection.sendall(b"STARTTLS\r\n")
    print(read_line(connection).decode().strip(), flush=True)
    context = ssl.create_default_context(cafile=ca)
    secure = context.wrap_socket(connection, server_hostname="localhost")
    secure.sendall(b"hello\r\n")
    print(read_line(secure).decode().strip(), flush=True)
    secure.close()


def pipelining(port, ca):
    connection = socket.create_connection(("127.0.0.1", int(port)), timeout=10)
    read_line(connection)
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    secure = ssl.create_default_context(cafile=ca).wrap_bio(incoming, outgoing, server_hostname="localhost")

    def pump(step):
        """Runs `step` over the socket: what TLS writes goes out, what it waits for comes in."""
        while True:
            try:
                result = step()
                connection.sendall(outgoing.read())
                return result
            except ssl.SSLWantReadError:
                connection.sendall(outgoing.read())
                data = connection.recv(65536)
                if not data:
                    raise ConnectionError("the probe closed")
                incoming.write(data)

    try:
        secure.do_handshake()
    except ssl.SSLWantReadError:
        connection.sendall(b"STARTTLS\r\n" + outgoing.read())  # the hello right after the command
    ready = read_line(connection)  # "220 ready", in the clear before the ServerHello
    pump(secure.do_handshake)
    for word in (b"hello", b"world"):
        pump(lambda: secure.write(struct.pack(">H", len(word)) + word))
        time.sleep(0.05)
    print(ready.decode().strip(), flush=True)
    while connection.recv(65536):
        pass


if __name__ == "__main__":
    {"server": lambda: server(*sys.argv[2:6]), "client": lambda: client(*sys.argv[2:4]),
     "pipelining": lambda: pipelining(*sys.argv[2:4])}[sys.argv[1]]()
