"""A page for h2spec's cases: every request answered 200 with a small HTML body."""
BODY = b"<!DOCTYPE html><html><head><title>tcpprobe</title></head><body><p>The h2spec suite's page.</p></body></html>"

async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    while True:
        message = await receive()
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/html"), (b"content-length", str(len(BODY)).encode())]})
    await send({"type": "http.response.body", "body": BODY})
