#!/usr/bin/env python3
"""An echo client on one of python's WebSocket libraries, written as each library's own
Autobahn|Testsuite client driver runs a case (websockets: compliance/test_client.py; aiohttp:
tests/autobahn/client/client.py; tornado, which keeps none, as its documentation's client
loop): it connects to URL and sends each message back as it came until the connection closes.
No compression, messages up to 16 MiB.

Usage: echo_client.py LIBRARY URL; LIBRARY is websockets, aiohttp or tornado."""
import asyncio
import sys

MAX_SIZE = 16 * 2**20


async def with_websockets(url):
    from websockets.asyncio.client import connect

    async with connect(url, max_size=MAX_SIZE, compression=None) as websocket:
        try:
            async for message in websocket:
                await websocket.send(message)
        except Exception:
            pass  # a connection the suite fails on purpose ends here


async def with_aiohttp(url):
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(url, max_msg_size=MAX_SIZE) as ws:
            async for message in ws:
                if message.type == aiohttp.WSMsgType.TEXT:
                    await ws.send_str(message.data)
                elif message.type == aiohttp.WSMsgType.BINARY:
                    await ws.send_bytes(message.data)
                else:
                    break


async def with_tornado(url):
    from tornado.websocket import websocket_connect

    connection = await websocket_connect(url, max_message_size=MAX_SIZE)
    while True:
        message = await connection.read_message()
        if message is None:
            break
        await connection.write_message(message, binary=isinstance(message, bytes))


LIBRARIES = {"websockets": with_websockets, "aiohttp": with_aiohttp, "tornado": with_tornado}
asyncio.run(LIBRARIES[sys.argv[1]](sys.argv[2]))
