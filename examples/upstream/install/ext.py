"""The extension setup.sh turns into bin/install-ext. Its tool says the
plugin id synaps gave it (initialize's plugin_id, SYNAPS_PLUGIN_ID),
which is the manifest name whatever the directory is called."""
import json
import os
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


def main():
    plugin_id = None
    while True:
        msg = recv()
        if msg is None:
            return
        method = msg.get("method")
        if method == "initialize":
            plugin_id = msg["params"].get("plugin_id")
            send({"jsonrpc": "2.0", "id": msg["id"], "result": {"protocol_version": 1, "capabilities": {"tools": [{
                "name": "whoami", "description": "Say the plugin id",
                "input_schema": {"type": "object", "properties": {}}}]}}})
        elif method == "tool.call":
            text = "plugin_id=%s env=%s" % (plugin_id, os.environ.get("SYNAPS_PLUGIN_ID"))
            send({"jsonrpc": "2.0", "id": msg["id"], "result": {"content": text}})
        elif method == "shutdown":
            send({"jsonrpc": "2.0", "id": msg["id"], "result": None})
            return


if __name__ == "__main__":
    main()
