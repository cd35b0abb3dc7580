#!/usr/bin/env python3
"""Answers info.get, as voice plugins do, shows a widget, and serves a
model two ways: echo:tiny streams its answer (provider.stream with
provider.stream.event notifications), echo:whole answers at once
(provider.complete)."""
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
                "input_schema": {"type": "object", "properties": {}}}],
                "providers": [{"id": "echo", "display_name": "Echo", "description": "Says pong",
                               "models": [{"id": "tiny", "capabilities": {"streaming": True}},
                                          {"id": "whole"}]}]}})
            send({"jsonrpc": "2.0", "method": "widget.upsert",
                  "params": {"id": "status", "lines": ["info ready"], "position": "top_right"}})
        elif method == "info.get":
            reply(msg, {"build": {"backend": "cpu"}, "models": [{"id": "tiny"}],
                        "capabilities": ["ping"]})
        elif method == "provider.stream":
            for piece in ["pong ", "from ", "the stream"]:
                send({"jsonrpc": "2.0", "method": "provider.stream.event",
                      "params": {"event": {"type": "text", "delta": piece}}})
            send({"jsonrpc": "2.0", "method": "provider.stream.event",
                  "params": {"type": "usage", "input_tokens": 12, "output_tokens": 3}})
            send({"jsonrpc": "2.0", "method": "provider.stream.event", "params": {"type": "done"}})
            reply(msg, {"content": [], "stop_reason": "end_turn"})
        elif method == "provider.complete":
            reply(msg, {"content": [{"type": "text", "text": "pong whole"}],
                        "usage": {"input_tokens": 12, "output_tokens": 2}})
        elif method == "tool.call":
            reply(msg, {"content": "pong"})
        elif method == "shutdown":
            reply(msg, None)
            return


if __name__ == "__main__":
    main()
