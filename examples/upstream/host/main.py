#!/usr/bin/env python3
"""An upstream-shaped extension that talks back to synaps.

Its tools let a test (or a curious user) send any request to the host and
wait for its notifications:
  host   {method, params?, string_id?}  send a request, return the reply
  await  {method}                       wait up to 5 s for a notification
  emit   {method, params?}              send a notification
Right after initialize it subscribes to config changes with a string id,
as the published axel plugin does.
"""
import json
import os
import select
import sys

_buf = bytearray()
_queue = []   # requests from synaps read while waiting for a reply
_notes = []   # notifications from synaps not awaited yet
_next = [0]


def send(obj):
    body = json.dumps(obj).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


def recv(timeout=None):
    while True:
        end = _buf.find(b"\r\n\r\n")
        if end >= 0:
            length = None
            for line in bytes(_buf[:end]).decode().split("\r\n"):
                key, _, value = line.partition(":")
                if key.strip().lower() == "content-length":
                    length = int(value)
            if len(_buf) >= end + 4 + length:
                body = bytes(_buf[end + 4:end + 4 + length])
                del _buf[:end + 4 + length]
                return json.loads(body)
        if timeout is not None and not select.select([0], [], [], timeout)[0]:
            return None
        chunk = os.read(0, 65536)
        if not chunk:
            sys.exit(0)
        _buf.extend(chunk)


def sort(msg):
    """Files a message that is not the one being waited for."""
    if "method" in msg and "id" in msg:
        _queue.append(msg)
    elif "method" in msg:
        _notes.append(msg)


def request(method, params, string_id=False):
    _next[0] += 1
    rid = "host-%d" % _next[0] if string_id else 1000 + _next[0]
    send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
    while True:
        msg = recv()
        if "method" not in msg and msg.get("id") == rid:
            msg.pop("jsonrpc", None)
            return msg
        sort(msg)


def await_note(method, timeout=5.0):
    while True:
        for i, note in enumerate(_notes):
            if note["method"] == method:
                return _notes.pop(i).get("params")
        msg = recv(timeout)
        if msg is None:
            return "no %s notification within %gs" % (method, timeout)
        sort(msg)


TOOLS = [
    {"name": "host", "description": "Send a request to synaps and return its reply",
     "input_schema": {"type": "object", "properties": {
         "method": {"type": "string"}, "params": {}, "string_id": {"type": "boolean"}},
         "required": ["method"]}},
    {"name": "await", "description": "Wait for a notification from synaps",
     "input_schema": {"type": "object", "properties": {"method": {"type": "string"}},
                      "required": ["method"]}},
    {"name": "emit", "description": "Send a notification to synaps",
     "input_schema": {"type": "object", "properties": {"method": {"type": "string"}, "params": {}},
                      "required": ["method"]}},
]


def tool(name, args):
    if name == "host":
        reply = request(args["method"], args.get("params"), bool(args.get("string_id")))
        return json.dumps(reply, sort_keys=True)
    if name == "await":
        got = await_note(args["method"])
        return got if isinstance(got, str) else json.dumps(got, sort_keys=True)
    if name == "emit":
        send({"jsonrpc": "2.0", "method": args["method"], "params": args.get("params")})
        return "sent " + args["method"]
    raise KeyError(name)


def handle(msg):
    method, rid = msg.get("method"), msg.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": rid, "result": {
            "protocol_version": 1, "capabilities": {"tools": TOOLS}}})
        send({"jsonrpc": "2.0", "id": "axel.config-subscribe", "method": "config.subscribe",
              "params": {"keys": ["greeting"]}})
    elif method == "tool.call":
        try:
            out = tool(msg["params"]["name"], msg["params"].get("input") or {})
            send({"jsonrpc": "2.0", "id": rid, "result": {"content": out}})
        except Exception as exc:  # an error reply, never a crash
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32000, "message": repr(exc)}})
    elif method == "shutdown":
        send({"jsonrpc": "2.0", "id": rid, "result": None})
        sys.exit(0)
    elif rid is not None:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "unknown method: %s" % method}})


def main():
    while True:
        msg = _queue.pop(0) if _queue else recv()
        if "method" in msg and "id" not in msg:
            _notes.append(msg)
            continue
        if "method" in msg:
            handle(msg)


if __name__ == "__main__":
    main()
