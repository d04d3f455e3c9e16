#!/usr/bin/env python3
"""An Autobahn|Testsuite client driver as python `websockets` keeps its own
(compliance/test_client.py): it asks the fuzzing server for the number of cases, runs each
one, echoing every message back until the server closes, then asks it to write its reports.

Usage: autobahn_client_driver.py SERVER_URL AGENT   (SERVER_URL: ws://127.0.0.1:9001)"""
import asyncio
import sys

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException


async def run(server, agent):
    async with connect(f"{server}/getCaseCount") as ws:
        case_count = int(await ws.recv())
    print(f"running {case_count} cases", flush=True)
    for case in range(1, case_count + 1):
        try:
            async with connect(f"{server}/runCase?case={case}&agent={agent}", max_size=2**25, compression=None) as ws:
                async for message in ws:
                    await ws.send(message)
        except WebSocketException:
            pass  # the cases that fail the connection on purpose end here
    async with connect(f"{server}/updateReports?agent={agent}", open_timeout=60):
        pass


asyncio.run(run(sys.argv[1], sys.argv[2]))
