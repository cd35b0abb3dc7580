#!/usr/bin/env python3
"""The voice fixture's extension: a custom settings editor for "model"
(settings.editor.open/key/commit) and the sidecar's arguments
(sidecar.spawn_args), which carry the configured language."""
import json
import os
import sys

MODELS = ["tiny", "base", "large"]


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


def config(root, key):
    try:
        with open(os.path.join(root, "config")) as f:
            for line in f:
                k, _, v = line.partition("=")
                if k.strip() == key:
                    return v.strip()
    except OSError:
        pass
    return None


def render(cursor):
    return {"rows": [{"label": m, "marker": "*" if i == cursor else "", "data": "model:" + m}
                     for i, m in enumerate(MODELS)],
            "cursor": cursor, "footer": "Up/Down choose, Enter selects"}


def main():
    root, cursor = None, 0
    while True:
        msg = recv()
        if msg is None:
            return
        method, mid = msg.get("method"), msg.get("id")
        if method == "initialize":
            root = msg["params"].get("plugin_root")
            send({"jsonrpc": "2.0", "id": mid, "result": {"protocol_version": 1, "capabilities": []}})
        elif method == "settings.editor.open":
            cursor = 0
            send({"jsonrpc": "2.0", "id": mid, "result": {"render": render(cursor)}})
        elif method == "settings.editor.key":
            key = msg["params"]["key"]
            if key in ("Down", "Up"):
                cursor = (cursor + (1 if key == "Down" else -1)) % len(MODELS)
                send({"jsonrpc": "2.0", "id": mid, "result": {"render": render(cursor)}})
            else:
                send({"jsonrpc": "2.0", "id": mid, "result": {"committed": key == "Enter"}})
        elif method == "settings.editor.commit":
            send({"jsonrpc": "2.0", "id": mid, "result": {"ok": True, "value": msg["params"]["value"]}})
        elif method == "sidecar.spawn_args":
            send({"jsonrpc": "2.0", "id": mid, "result": {"args": ["--lang", config(root, "language") or "en"]}})
        elif method == "shutdown":
            send({"jsonrpc": "2.0", "id": mid, "result": None})
            return
        elif mid is not None:
            send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "method not found: " + str(method)}})


if __name__ == "__main__":
    main()
