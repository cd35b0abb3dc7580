#!/usr/bin/env python3
"""Serves the commands fixture: the tool "shout" (used by /shout) and the
interactive command "models" (command.invoke), whose output streams as
command.output notifications matched by request_id, with task.*
progress for a download."""
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


def notify(method, params):
    send({"jsonrpc": "2.0", "method": method, "params": params})


def output(request_id, **event):
    notify("command.output", {"request_id": request_id, "event": event})


def models(msg):
    p = msg["params"]
    rid, args = p["request_id"], p.get("args", [])
    if not args or args[0] == "list":
        output(rid, kind="table", headers=["MODEL", "SIZE"], rows=[["tiny", "75M"], ["base", "142M"]])
        output(rid, kind="done")
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"ok": True}})
    elif args[0] == "download" and len(args) > 1:
        name = args[1]
        notify("task.start", {"id": "dl", "label": "download " + name, "kind": "download"})
        for done in (50, 100):
            notify("task.update", {"id": "dl", "current": done, "total": 100})
        notify("task.log", {"id": "dl", "line": "verified " + name})
        notify("task.done", {"id": "dl", "error": None})
        output(rid, kind="text", content="downloaded " + name)
        # Flat form, as some plugins write it.
        notify("command.output", {"request_id": rid, "kind": "system", "content": "saved to models/" + name})
        output(rid, kind="done")
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"ok": True}})
    else:
        output(rid, kind="error", content="unknown subcommand: " + " ".join(args))
        send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32602, "message": "usage: /models [list|download NAME]"}})


def main():
    while True:
        msg = recv()
        if msg is None:
            return
        method = msg.get("method")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": msg["id"], "result": {"protocol_version": 1, "capabilities": {"tools": [{
                "name": "shout", "description": "Upper-case text",
                "input_schema": {"type": "object", "properties": {"text": {"type": "string"}}}}]}}})
        elif method == "tool.call":
            send({"jsonrpc": "2.0", "id": msg["id"], "result": {"content": msg["params"]["input"].get("text", "").upper() + "!"}})
        elif method == "command.invoke":
            if msg["params"].get("command") == "models":
                models(msg)
            else:
                send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "unknown command"}})
        elif method == "shutdown":
            send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
            return


if __name__ == "__main__":
    main()
