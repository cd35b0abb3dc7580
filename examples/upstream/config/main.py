#!/usr/bin/env python3
"""Shows the model the config synaps resolved for it."""
import json
import sys


def send(obj):
    body = json.dumps(obj).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


def recv():
    length = None
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        line = line.strip()
        if not line and length is not None:
            return json.loads(sys.stdin.buffer.read(length))
        key, _, value = line.partition(b":")
        if key.strip().lower() == b"content-length":
            length = int(value)


def reply(msg, result):
    send({"jsonrpc": "2.0", "id": msg["id"], "result": result})


def main():
    config = {}
    while True:
        msg = recv()
        if msg is None:
            return
        method = msg.get("method")
        if method == "initialize":
            config = msg["params"].get("config") or {}
            reply(msg, {"protocol_version": 1, "capabilities": {"tools": [{
                "name": "show_config", "description": "Show the resolved config",
                "input_schema": {"type": "object", "properties": {}}}]}})
        elif method == "tool.call":
            shown = dict(config)
            if "token" in shown:
                shown["token"] = "<%d chars>" % len(str(shown["token"]))
            reply(msg, {"content": json.dumps(shown, sort_keys=True)})
        elif method == "shutdown":
            reply(msg, None)
            return
        elif "id" in msg:
            send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "unknown method"}})


if __name__ == "__main__":
    main()
