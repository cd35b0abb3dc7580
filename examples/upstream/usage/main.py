#!/usr/bin/env python3
"""A protocol 2 extension: it hears on_usage after every model response and
appends what it heard to usage.jsonl in its plugin root."""
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
            reply(msg, {"protocol_version": 2, "capabilities": {}})
        elif method == "hook.handle":
            event = msg["params"]
            if event.get("kind") == "on_usage":
                with open("usage.jsonl", "a") as f:
                    f.write(json.dumps(event, sort_keys=True) + "\n")
            reply(msg, {"action": "continue"})
        elif method == "shutdown":
            reply(msg, None)
            return


if __name__ == "__main__":
    main()
