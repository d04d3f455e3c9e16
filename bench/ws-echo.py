"""WebSocket echo peers for bench/websocket, on the Python websockets library.

server: listens on 127.0.0.1 (prints its port) and echoes every message.
client PORT COUNT: COUNT text round trips ("ping i", awaiting each echo) over one connection.
"""
import asyncio
import sys

from websockets.asyncio.client import connect
from websockets.asyncio.server import serve


async def echo(websocket):
    async for message in websocket:
        await websocket.send(message)


async def server():
    async with serve(echo, "127.0.0.1", 0, compression=None) as running:
        print(running.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()


async def client(port, count):
    async with connect(f"ws://127.0.0.1:{port}/", compression=None) as websocket:
        for i in range(count):
            await websocket.send(f"ping {i}")
            if await websocket.recv() != f"ping {i}":
                sys.exit("wrong echo")


if __name__ == "__main__":
    if sys.argv[1] == "server":
        asyncio.run(server())
    else:
        asyncio.run(client(int(sys.argv[2]), int(sys.argv[3])))
