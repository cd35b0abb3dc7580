#!/usr/bin/env python3
"""hello-ext: the finished reference extension of the synaps tutorial.

One tool (`hello`) and one hook (`before_tool_call`, which allows every
call). Standard library only. synaps starts this process, writes JSON-RPC
2.0 requests to its stdin and reads the answers from its stdout, each
framed as `Content-Length: N\r\n\r\n` followed by N bytes of JSON.
"""
import json
import sys

NAME = "hello-ext"
VERSION = "0.1.0"


def send(message):
    """Write one frame and flush, so synaps sees it at once."""
    body = json.dumps(message).encode("utf-8")
    out = sys.stdout.buffer
    out.write(b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    out.flush()


def recv():
    """Read one frame; None when synaps closed our stdin."""
    header = b""
    while not header.endswith(b"\r\n\r\n"):
        byte = sys.stdin.buffer.read(1)
        if not byte:
            return None
        header += byte
    length = int(header.split(b"Content-Length:")[1].strip().split()[0])
    return json.loads(sys.stdin.buffer.read(length))


def reply(request, result):
    send({"jsonrpc": "2.0", "id": request["id"], "result": result})


def handle_initialize(request):
    reply(request, {
        "name": NAME,
        "version": VERSION,
        "protocol_version": 1,
        "capabilities": {
            "tools": [{
                "name": "hello",
                "description": "Greet someone by name",
                "input_schema": {
                    "type": "object",
                    "properties": {"name": {"type": "string"}},
                    "required": ["name"],
                },
            }],
            "hooks": [{"name": "before_tool_call"}],
        },
    })


def handle_tool_call(request):
    who = request["params"]["input"].get("name", "world")
    reply(request, {"output": f"Hello, {who}!"})


def handle_hook(request):
    params = request["params"]
    # Logs go to stderr: synaps keeps them in extensions/logs/hello-ext.log.
    print(f"hello-ext saw {params['hook']} for {params['context'].get('tool_name')}",
          file=sys.stderr, flush=True)
    reply(request, {})  # {} means: allow


def main():
    while True:
        request = recv()
        if request is None:
            break
        method = request.get("method", "")
        if method == "initialize":
            handle_initialize(request)
        elif method == "tool.call":
            handle_tool_call(request)
        elif method == "hook.handle":
            handle_hook(request)
        elif method == "shutdown":
            reply(request, {})
            break
        elif "id" in request:
            reply(request, {})  # unknown request: answer, never crash


if __name__ == "__main__":
    main()
