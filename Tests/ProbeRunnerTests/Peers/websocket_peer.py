"""A WebSocket peer for tcpprobe's tests, on the Python websockets library.

server [CERT KEY]: listens on 127.0.0.1 (prints its port), over TLS with CERT and KEY when given, with max_size 64; echoes each message; answers
"fragment" with a message sent in three fragments, "ping me" with a ping, "bye" with a close
1000 "bye"; a message over max_size closes with 1009.
client PORT: connects to ws://127.0.0.1:PORT/chat (subprotocol chat.v1), sends "hello", then
a message in fragments, prints each message it receives, and closes with 1000 when it reads
"done".
raw-server HEX [REPEATED COUNT]: a server that answers the upgrade itself (no library), then
sends the bytes HEX as they are (frames that break the rules), then the bytes REPEATED COUNT
times (a flood, with a 4 KiB receive buffer), and waits, never reading.
raw-reader HEX: as raw-server, then reads the client's frames until it closes (at most 5 s)
and prints their opcodes, "received opcodes: 8" for one close frame.
"""
import asyncio
import base64
import hashlib
import socket
import ssl
import sys
import time

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve


async def handler(websocket):
    async for message in websocket:
        if message == "fragment":
            await websocket.send(["frag", "ment", "ed"])
        elif message == "ping me":
            await websocket.ping(b"are you there")
        elif message == "bye":
            await websocket.close(1000, "bye")
        else:
            await websocket.send(message)


async def server(cert=None, key=None):
    context = None
    if cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
    async with serve(handler, "127.0.0.1", 0, max_size=64, ssl=context) as running:
        print(running.sockets[0].getsockname()[1], flush=True)
        await asyncio.sleep(30)


async def client(port):
    async with connect(f"ws://127.0.0.1:{port}/chat", subprotocols=["chat.v1"], open_timeout=10) as websocket:
        await websocket.send("hello")
        await websocket.send(["in ", "three ", "fragments"])
        async for message in websocket:
            print(message, flush=True)
            if message == "done":
                await websocket.close(1000, "done")
                break


def upgraded_by_hand(receive_buffer=0):
    """The connection of a client whose upgrade this server answered itself, with a receive
    buffer of that size when one is given."""
    listener = socket.socket()
    if receive_buffer:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(10)
    print(listener.getsockname()[1], flush=True)
    connection, _ = listener.accept()
    request = b""
    while b"\r\n\r\n" not in request and len(request) < 16384:
        request += connection.recv(4096)
    key = [line.split(b":", 1)[1].strip() for line in request.split(b"\r\n") if line.lower().startswith(b"sec-websocket-key:")][0]
    accept = base64.b64encode(hashlib.sha1(key + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest())
    connection.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")
    return connection


def raw_server(frames, repeated="", count="0"):
    # A flood's answers, never read, fill a small receive buffer soon.
    connection = upgraded_by_hand(4096 if int(count) > 0 else 0)
    connection.sendall(bytes.fromhex(frames))
    connection.sendall(bytes.fromhex(repeated) * int(count))
    time.sleep(5)


def raw_reader(frames):
    connection = upgraded_by_hand()
    connection.sendall(bytes.fromhex(frames))
    connection.settimeout(5)
    received = b""
    try:
        while chunk := connection.recv(4096):
            received += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    opcodes = []
    # Frames of at most 125 payload bytes, as control frames are: a 2-byte header, a mask.
    while len(received) >= 2:
        length = received[1] & 0x7F
        opcodes.append(str(received[0] & 0x0F))
        received = received[2 + (4 if received[1] & 0x80 else 0) + length:]
    print("received opcodes: " + " ".join(opcodes), flush=True)


if __name__ == "__main__":
    if sys.argv[1] == "server":
        asyncio.run(server(*sys.argv[2:4]))
    elif sys.argv[1] == "raw-server":
        raw_server(*sys.argv[2:5])
    elif sys.argv[1] == "raw-reader":
        raw_reader(sys.argv[2])
    else:
        asyncio.run(client(sys.argv[2]))
