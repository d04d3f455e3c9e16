#!/usr/bin/env python3
"""An echo server on python `websockets`, as its own Autobahn|Testsuite server is written
(compliance/test_server.py in its repository): each message back as it came, no compression,
messages up to 16 MiB. Usage: echo_server.py PORT, or echo_server.py 0 FILE to take a free port
and write it to FILE."""
import asyncio
import os
import sys

from websockets.asyncio.server import serve


async def echo(websocket):
    try:
        async for message in websocket:
            await websocket.send(message)
    except Exception:
        pass  # a connection the suite fails on purpose ends here


async def main(port):
    async with serve(echo, "127.0.0.1", port, max_size=16 * 2**20, compression=None) as server:
        if len(sys.argv) > 2:
            with open(sys.argv[2] + ".tmp", "w") as out:
                out.write(str(server.sockets[0].getsockname()[1]))
            os.rename(sys.argv[2] + ".tmp", sys.argv[2])
        await server.serve_forever()


asyncio.run(main(int(sys.argv[1])))
