"""A server that counts its clients' source addresses: python3 address_counter.py PORT

A client that sends "hello" is answered with its own address and counted; one that sends
"stats" is answered "N connections from M addresses, A to B each".
"""
import asyncio
import collections
import sys

counts = collections.Counter()


async def handle(reader, writer):
    line = await reader.readline()
    if line.strip() == b"stats":
        values = counts.values() or [0]
        answer = f"{sum(values)} connections from {len(counts)} addresses, {min(values)} to {max(values)} each"
    else:
        host = writer.get_extra_info("peername")[0]
        counts[host] += 1
        answer = host
    writer.write(answer.encode() + b"\r\n")
    await writer.drain()
    writer.close()


async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", int(sys.argv[1]), backlog=8192)
    async with server:
        await server.serve_forever()


asyncio.run(main())
