#!/usr/bin/env python3
"""The reference protocol (docs/reference-protocol.md) over Python's asyncio streams, written
from that page alone, so the tests can show a stranger's adapter passes the line suites.

  chat.py serve HOST PORT [--heartbeat SECONDS]
  chat.py connect HOST PORT NAME
"""
import asyncio
import os
import sys
import threading

MAX_LINE = 1024


class Lines:
    """Splits a byte stream into lines ended by CR LF (a bare LF taken too), refusing a line
    that passes MAX_LINE bytes; what is left unended at the end is dropped."""

    def __init__(self):
        self.partial = bytearray()
        self.too_long = False

    def feed(self, data):
        """The whole lines `data` ends; it stops at a line that passes MAX_LINE, setting too_long."""
        lines = []
        for byte in data:
            if byte == 10:
                if self.partial.endswith(b"\r"):
                    del self.partial[-1]
                lines.append(bytes(self.partial))
                self.partial.clear()
            else:
                self.partial.append(byte)
                pending = len(self.partial) - (1 if self.partial.endswith(b"\r") else 0)
                if pending > MAX_LINE:
                    self.too_long = True
                    break
        return lines


class Server:
    def __init__(self, heartbeat):
        self.members = set()
        self.heartbeat = heartbeat

    async def handle(self, reader, writer):
        member = Member(writer)
        self.members.add(member)
        beating = asyncio.ensure_future(self.beat(member)) if self.heartbeat else None
        lines = Lines()
        try:
            while not member.closing:
                data = await reader.read(65536)
                if not data:
                    await member.close()  # the client's half-close: answered all, now FIN
                    break
                for line in lines.feed(data):
                    await self.answer(member, line)
                    if member.closing:
                        break
                if lines.too_long:
                    member.send(b"ERR line too long")
                    await member.close()
        finally:
            self.members.discard(member)
            if beating:
                beating.cancel()

    async def answer(self, member, line):
        if line.startswith(b"iam:"):
            if len(line) == 4:
                member.send(b"ERR empty name")
            else:
                member.name = line[4:]
                self.broadcast(member.name + b" has joined")
        elif line.startswith(b"msg:"):
            if member.name is None:
                member.send(b"ERR say iam:NAME first")
            else:
                self.broadcast(member.name + b": " + line[4:])
        elif line == b"ping":
            member.send(b"pong")
        elif line == b"pong":
            member.answered = True
        elif line == b"quit":
            member.send(b"bye")
            await member.close()
        else:
            member.send(b"ERR unknown command")

    def broadcast(self, text):
        for other in list(self.members):
            other.send(text)

    async def beat(self, member):
        while not member.closing:
            await asyncio.sleep(self.heartbeat)
            if member.pinged and not member.answered:
                member.send(b"ERR ping timeout")
                await member.close()
                return
            member.send(b"ping")
            member.pinged, member.answered = True, False


class Member:
    def __init__(self, writer):
        self.writer = writer
        self.name = None
        self.closing = False
        self.pinged = False
        self.answered = False

    def send(self, text):
        if not self.closing:
            self.writer.write(text + b"\r\n")  # one write a line

    async def close(self):
        if self.closing:
            return
        self.closing = True
        try:
            await self.writer.drain()
        except ConnectionError:
            pass
        self.writer.close()


async def serve(host, port, heartbeat):
    server = Server(heartbeat)
    listener = await asyncio.start_server(server.handle, host, port)
    async with listener:
        await listener.serve_forever()


async def connect(host, port, name):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(b"iam:" + name.encode() + b"\r\n")
    loop = asyncio.get_running_loop()
    input_ended = asyncio.Event()

    def read_stdin():
        for line in sys.stdin.buffer:
            loop.call_soon_threadsafe(writer.write, line.rstrip(b"\n") + b"\r\n")
        loop.call_soon_threadsafe(input_ended.set)

    threading.Thread(target=read_stdin, daemon=True).start()
    lines = Lines()

    async def read_server():
        while True:
            data = await reader.read(65536)
            if not data:
                return 0
            for line in lines.feed(data):
                sys.stdout.buffer.write(line + b"\n")
            sys.stdout.flush()
            if lines.too_long:
                sys.stderr.write("chat.py: line too long (more than %d bytes)\n" % MAX_LINE)
                writer.transport.abort()
                return 1

    reading = asyncio.ensure_future(read_server())
    ending = asyncio.ensure_future(input_ended.wait())
    done, _ = await asyncio.wait({reading, ending}, return_when=asyncio.FIRST_COMPLETED)
    if reading in done:
        return reading.result()
    await writer.drain()
    writer.close()
    return 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "serve":
        heartbeat = float(argv[5]) if len(argv) == 6 and argv[4] == "--heartbeat" else None
        asyncio.run(serve(argv[2], int(argv[3]), heartbeat))
        return 0
    if len(argv) == 5 and argv[1] == "connect":
        status = asyncio.run(connect(argv[2], int(argv[3]), argv[4]))
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)  # the stdin thread may be blocked in a read: do not wait for it
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
