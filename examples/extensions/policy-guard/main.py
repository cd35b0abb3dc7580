#!/usr/bin/env python3
"""policy-guard: a fail-closed synaps extension that enforces a small tool policy.

On every before_tool_call:

- write and edit run only on paths inside the project: relative paths
  without a `..` component. Absolute paths, `~` and `..` are blocked.
- any other tool runs only if it is listed in the `allowed_tools` setting
  (comma separated; default "read,ls,grep,find,bash"; `*` allows every
  tool). A tool may be listed by its model-facing name (`hello-ext_hello`)
  or its runtime name (`hello-ext:hello`).

Its manifest sets "failure_policy": "closed": if this process crashes,
hangs or cannot start, synaps blocks the tool calls it guards instead of
letting them through. In the same spirit the extension itself refuses to
start on an invalid `allowed_tools` (initialize answers an error), and
blocks a write or edit whose path it cannot read.

Standard library only. synaps starts this process in the plugin root and
speaks JSON-RPC 2.0 over stdin/stdout, each message framed as
`Content-Length: N\r\n\r\n` + N bytes of JSON. Logs go to stderr, which
synaps keeps in ~/.synaps-cli/extensions/logs/policy-guard.log.
"""
import json
import re
import sys

NAME = "policy-guard"
VERSION = "0.1.0"
DEFAULT_ALLOWED = "read,ls,grep,find,bash"
PATH_TOOLS = ("write", "edit")  # judged by their path, not by allowed_tools
TOOL_NAME = re.compile(r"^(?:\*|[A-Za-z0-9_-]+(?::[A-Za-z0-9_-]+)?)$")

allowed = set()  # settled by initialize


class ConfigError(Exception):
    pass


def parse_allowed(value):
    """The allowed_tools setting as a set of names; ConfigError when invalid."""
    if value is None:
        value = DEFAULT_ALLOWED
    if not isinstance(value, str):
        raise ConfigError(f"allowed_tools must be a comma-separated string, got {json.dumps(value)}")
    names = set()
    for item in value.split(","):
        name = item.strip()
        if not name:
            continue
        if not TOOL_NAME.match(name):
            raise ConfigError(
                f"allowed_tools: {name!r} is not a tool name (use letters, digits, '_' and '-', "
                f"plugin:tool for an extension tool, or * for every tool); the value was {value!r}")
        names.add(name)
    return names


def path_problem(path):
    """Why a write/edit path leaves the project; None when it stays inside."""
    if not isinstance(path, str) or not path.strip():
        return "it has no path"
    if "\x00" in path:
        return "its path contains a NUL byte"
    if path.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", path):
        return f"the path {path!r} is absolute; use a path relative to the project"
    if path.startswith("~"):
        return f"the path {path!r} is in a home directory, outside the project"
    if ".." in re.split(r"[/\\]+", path):
        return f"the path {path!r} goes up with '..' and may leave the project"
    return None


def judge(event):
    """None to allow the call, else the reason to block it."""
    name = event.get("tool_name") or ""
    runtime = event.get("tool_runtime_name") or name
    if name in PATH_TOOLS or runtime in PATH_TOOLS:
        tool_input = event.get("tool_input")
        if not isinstance(tool_input, dict):
            return f"{name} is only allowed on project paths, and its input is not an object"
        path = tool_input.get("path", tool_input.get("file_path"))
        problem = path_problem(path)
        if problem:
            return f"{name} is only allowed inside the project, but {problem}"
        return None
    if "*" in allowed or name in allowed or runtime in allowed:
        return None
    listed = ", ".join(sorted(allowed)) or "none"
    return (f"tool {name} is not in allowed_tools ({listed}); the user can allow it by adding it to "
            f"extension.policy-guard.allowed_tools")


# ---- protocol ---------------------------------------------------------------

def send(message):
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
    length = None
    for line in header.split(b"\r\n"):
        key, _, value = line.partition(b":")
        if key.strip().lower() == b"content-length":
            length = int(value.strip())
    if length is None:
        return {}  # a header without a body length: skip it
    body = sys.stdin.buffer.read(length)
    try:
        return json.loads(body)
    except ValueError:
        print(f"{NAME}: skipping a body that is not JSON", file=sys.stderr, flush=True)
        return {}


def reply(request, result):
    send({"jsonrpc": "2.0", "id": request["id"], "result": result})


def reply_error(request, message):
    send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32602, "message": message}})


def handle_initialize(request):
    global allowed
    config = (request.get("params") or {}).get("config") or {}
    try:
        allowed = parse_allowed(config.get("allowed_tools"))
    except ConfigError as err:
        # Refuse to start: with failure_policy closed, synaps then blocks
        # every tool call this guard would have judged.
        print(f"{NAME}: {err}", file=sys.stderr, flush=True)
        reply_error(request, str(err))
        return
    print(f"{NAME}: allowed tools: {', '.join(sorted(allowed)) or 'none'} (+ write/edit inside the project)",
          file=sys.stderr, flush=True)
    reply(request, {
        "name": NAME,
        "version": VERSION,
        "protocol_version": 1,
        "capabilities": {"hooks": [{"name": "before_tool_call"}]},
    })


def handle_hook(request):
    event = request.get("params") or {}
    if event.get("kind", event.get("hook")) != "before_tool_call":
        reply(request, {})
        return
    reason = judge(event)
    if reason is None:
        reply(request, {})
        return
    print(f"{NAME}: blocked {event.get('tool_name')}: {reason}", file=sys.stderr, flush=True)
    reply(request, {"action": "block", "reason": reason})


def main():
    while True:
        request = recv()
        if request is None:
            break
        method = request.get("method", "")
        try:
            if method == "initialize":
                handle_initialize(request)
            elif method == "hook.handle":
                handle_hook(request)
            elif method == "shutdown":
                reply(request, {})
                break
            elif "id" in request:
                reply(request, {})  # unknown request: answer, never crash
        except Exception as err:  # a bug: fail closed, but stay up
            print(f"{NAME}: {method} failed: {err!r}", file=sys.stderr, flush=True)
            if "id" not in request:
                continue
            if method == "hook.handle":
                reply(request, {"action": "block", "reason": f"policy-guard could not judge this call ({err!r})"})
            else:
                send({"jsonrpc": "2.0", "id": request["id"], "error": {"code": -32603, "message": str(err)}})


if __name__ == "__main__":
    main()
