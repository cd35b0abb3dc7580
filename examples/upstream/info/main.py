#!/usr/bin/env python3
"""Answers info.get, as voice plugins do, and shows a widget."""
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
    while True:
        msg = recv()
        if msg is None:
            return
        method = msg.get("method")
        if method == "initialize":
            reply(msg, {"protocol_version": 1, "capabilities": {"tools": [{
                "name": "ping", "description": "Answer pong",
                "input_schema": {"type": "object", "properties": {}}}]}})
            send({"jsonrpc": "2.0", "method": "widget.upsert",
                  "params": {"id": "status", "lines": ["info ready"], "position": "top_right"}})
        elif method == "info.get":
            reply(msg, {"build": {"backend": "cpu"}, "models": [{"id": "tiny"}],
                        "capabilities": ["ping"]})
        elif method == "tool.call":
            reply(msg, {"content": "pong"})
        elif method == "shutdown":
            reply(msg, None)
            return


if __name__ == "__main__":
    main()
