"""synaps_ext: a small, dependency-free helper for synaps extensions in Python.

Copy this file next to your main.py (or put it on PYTHONPATH) and write:

    from synaps_ext import Extension, block, confirm, modify, inject, replace

    ext = Extension("my-guard", "0.1.0")

    @ext.tool("hello", "Greet someone by name",
              {"type": "object", "properties": {"name": {"type": "string"}},
               "required": ["name"]})
    def hello(input):
        return "Hello, " + input["name"] + "!"

    @ext.hook("before_tool_call")
    def guard(event):
        command = (event.get("tool_input") or {}).get("command", "")
        if "rm -rf" in command:
            return block("rm -rf is not allowed here")
        return None  # let it through

    ext.run()

The manifest (.synaps-plugin/plugin.json) must list the permissions used:
"tools.register" for tools, "hooks.<name>" (or the group permission) for
hooks. Everything is standard library; frames are
"Content-Length: N\\r\\n\\r\\n" + N bytes of JSON, flushed after each write.
Write logs with ext.log(...): they go to stderr, which synaps keeps in
~/.synaps-cli/extensions/logs/<id>.log.
"""
import json
import os
import sys
import traceback

__all__ = ["Extension", "block", "confirm", "modify", "replace", "inject", "with_diff"]


def block(reason):
    """Stop a tool call (before_tool_call); the model sees the reason."""
    return {"action": "block", "reason": reason}


def confirm(message):
    """Ask the user before a tool call runs (before_tool_call)."""
    return {"action": "confirm", "message": message}


def modify(new_input):
    """Replace a tool call's input, a dict (before_tool_call)."""
    return {"action": "modify", "input": new_input}


def replace(output):
    """Replace a tool's output (after_tool_call; needs tools.transform_output)."""
    return {"action": "replace", "output": output}


def inject(content):
    """Add context (before_message, on_session_start)."""
    return {"action": "inject", "content": content}


def with_diff(output, path, before, after):
    """A tool result that also shows the user what the call changed in a
    file, as a diff under the call (as the built-in edit does). before is
    the file's text before the call, None for a file it created; after is
    its text now. The model sees only output."""
    return {"output": output, "diff": {"path": path, "before": before, "after": after}}


class Extension:
    """One extension: register tools and hooks, then run()."""

    def __init__(self, name, version="0.1.0"):
        self.name = name
        self.version = version
        self.config = {}
        self._tools = {}
        self._hooks = {}
        self._on_init = None

    def tool(self, name, description, input_schema=None, idempotent=False, read_only=False):
        """Decorator: fn(input: dict) -> str (or a dict result) is a tool.

        idempotent=True declares that running it twice with the same input
        does no more than once: synaps then resends a call the extension
        crashed during; otherwise such a call is reported, not retried.
        read_only=True declares that it changes nothing: synaps's default
        permission mode runs it without asking, and plan mode runs it.
        """
        schema = input_schema or {"type": "object"}

        def register(fn):
            decl = {"name": name, "description": description, "input_schema": schema}
            if idempotent:
                decl["idempotent"] = True
            if read_only:
                decl["read_only"] = True
            self._tools[name] = (decl, fn)
            return fn
        return register

    def hook(self, name, tool=None):
        """Decorator: fn(event: dict) -> action dict or None (= continue).

        tool limits before_tool_call/after_tool_call to one tool. When the
        manifest subscribes to the hook itself (extension.hooks, with its
        tool and match filters), the manifest is the one source of truth:
        fn handles those events and nothing is declared again, so the
        manifest's filter is never widened."""
        def register(fn):
            self._hooks[name] = (tool, fn)
            return fn
        return register

    def on_init(self, fn):
        """Decorator: fn(config: dict) runs at initialize (and after restarts)."""
        self._on_init = fn
        return fn

    def log(self, *parts):
        print(*parts, file=sys.stderr, flush=True)

    # -- the protocol --------------------------------------------------

    @staticmethod
    def _send(message):
        body = json.dumps(message).encode("utf-8")
        out = sys.stdout.buffer
        out.write(b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        out.flush()

    @staticmethod
    def _recv():
        length = None
        while True:
            line = sys.stdin.buffer.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                if length is not None:
                    break
                continue
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        return json.loads(sys.stdin.buffer.read(length))

    def _manifest_hooks(self, params):
        """The hooks the manifest subscribes to (extension.hooks), read from
        the plugin root synaps passes in initialize."""
        root = (params or {}).get("plugin_root") or os.environ.get("SYNAPS_PLUGIN_ROOT")
        if not root:
            return set()
        try:
            with open(os.path.join(root, ".synaps-plugin", "plugin.json"), encoding="utf-8") as f:
                manifest = json.load(f)
            subs = (manifest.get("extension") or {}).get("hooks") or []
        except (OSError, ValueError, AttributeError):
            return set()
        names = set()
        for sub in subs if isinstance(subs, list) else []:
            if isinstance(sub, str):
                names.add(sub)
            elif isinstance(sub, dict):
                names.add(sub.get("hook") or sub.get("name"))
        return names

    def _initialize(self, params):
        self.config = (params or {}).get("config") or {}
        if self._on_init:
            self._on_init(self.config)
        in_manifest = self._manifest_hooks(params)
        hooks = []
        for name, (tool, _) in self._hooks.items():
            if name in in_manifest:
                if tool:
                    self.log("synaps_ext: @ext.hook(%r, tool=%r): the manifest subscribes to %s, "
                             "so its filter applies and tool= is ignored" % (name, tool, name))
                continue
            sub = {"name": name}
            if tool:
                sub["tool"] = tool
            hooks.append(sub)
        return {
            "name": self.name, "version": self.version, "protocol_version": 1,
            "capabilities": {"tools": [decl for decl, _ in self._tools.values()], "hooks": hooks},
        }

    def _tool_call(self, params):
        entry = self._tools.get(params.get("name"))
        if entry is None:
            return {"output": "unknown tool %s" % params.get("name"), "is_error": True}
        try:
            result = entry[1](params.get("input") or {})
        except Exception as e:  # a failing tool is reported to the model
            self.log(traceback.format_exc())
            return {"output": "%s: %s" % (type(e).__name__, e), "is_error": True}
        return result if isinstance(result, dict) else {"output": str(result)}

    def _hook(self, params):
        entry = self._hooks.get(params.get("kind") or params.get("hook"))
        if entry is None:
            return {}
        try:
            return entry[1](params) or {}
        except Exception:
            self.log(traceback.format_exc())
            raise

    def run(self):
        """Serve requests until shutdown or end of input."""
        handlers = {"initialize": self._initialize, "tool.call": self._tool_call, "hook.handle": self._hook}
        while True:
            request = self._recv()
            if request is None:
                return
            method, rid = request.get("method"), request.get("id")
            if method == "shutdown":
                self._send({"jsonrpc": "2.0", "id": rid, "result": {}})
                return
            handler = handlers.get(method)
            if rid is None:
                continue  # a notification: nothing to answer
            try:
                result = handler(request.get("params")) if handler else {}
                self._send({"jsonrpc": "2.0", "id": rid, "result": result})
            except Exception as e:
                self._send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32603, "message": str(e)}})
