#!/usr/bin/env python3
"""An echo server on one of python's WebSocket libraries, written as each library writes its
own Autobahn|Testsuite server (websockets: compliance/test_server.py; aiohttp:
tests/autobahn/server/server.py; tornado: maint/test/websocket/server.py): each message back as
it came, no compression, messages up to 16 MiB.

Usage: echo_server.py LIBRARY PORT, or echo_server.py LIBRARY 0 FILE to take a free port and
write it to FILE once listening; LIBRARY is websockets, aiohttp or tornado."""
import asyncio
import os
import socket
import sys

MAX_SIZE = 16 * 2**20


def listening_socket(port):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def announce(sock):
    if len(sys.argv) > 3:
        with open(sys.argv[3] + ".tmp", "w") as out:
            out.write(str(sock.getsockname()[1]))
        os.rename(sys.argv[3] + ".tmp", sys.argv[3])


async def with_websockets(sock):
    from websockets.asyncio.server import serve

    async def echo(websocket):
        try:
            async for message in websocket:
                await websocket.send(message)
        except Exception:
            pass  # a connection the suite fails on purpose ends here

    async with serve(echo, sock=sock, max_size=MAX_SIZE, compression=None) as server:
        announce(sock)
        await server.serve_forever()


async def with_aiohttp(sock):
    from aiohttp import web

    async def echo(request):
        ws = web.WebSocketResponse(autoclose=False, max_msg_size=MAX_SIZE)
        await ws.prepare(request)
        while True:
            message = await ws.receive()
            if message.type == web.WSMsgType.TEXT:
                await ws.send_str(message.data)
            elif message.type == web.WSMsgType.BINARY:
                await ws.send_bytes(message.data)
            elif message.type == web.WSMsgType.CLOSE:
                await ws.close()
                break
            else:
                break
        return ws

    app = web.Application()
    app.router.add_route("GET", "/", echo)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.SockSite(runner, sock).start()
    announce(sock)
    await asyncio.Event().wait()


async def with_tornado(sock):
    from tornado.httpserver import HTTPServer
    from tornado.web import Application
    from tornado.websocket import WebSocketHandler

    class Echo(WebSocketHandler):
        def on_message(self, message):
            self.write_message(message, binary=isinstance(message, bytes))

    server = HTTPServer(Application([("/", Echo)], websocket_max_message_size=MAX_SIZE))
    server.add_sockets([sock])
    announce(sock)
    await asyncio.Event().wait()


LIBRARIES = {"websockets": with_websockets, "aiohttp": with_aiohttp, "tornado": with_tornado}
asyncio.run(LIBRARIES[sys.argv[1]](listening_socket(int(sys.argv[2]))))
