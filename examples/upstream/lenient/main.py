#!/usr/bin/env python3
"""Answers initialize the loose way published plugins do: capabilities is
an empty list, and keys synaps does not use ride along. A file named
"answer" in the plugin root, when present, replaces the whole initialize
result (the tests use it for the answers synaps must refuse)."""
import os
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


def initialize_result():
    if os.path.exists("answer"):
        with open("answer") as f:
            return json.load(f)
    return {
        "protocol_version": 1,
        "capabilities": [],
        "name": "lenient",
        "version": "0.1.0",
        "extension": {"kind": "guard"},
        "commands": [],
        "settings_methods": ["ignored"],
    }


def main():
    while True:
        msg = recv()
        if msg is None:
            return
        method = msg.get("method")
        if method == "initialize":
            reply(msg, initialize_result())
        elif method == "hook.handle":
            command = ((msg["params"].get("tool_input") or {}).get("command")) or ""
            if "forbidden" in command:
                reply(msg, {"action": "block", "reason": "lenient blocks forbidden commands"})
            else:
                reply(msg, {"action": "continue"})
        elif method == "shutdown":
            reply(msg, None)
            return


if __name__ == "__main__":
    main()
