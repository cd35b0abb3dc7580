#!/usr/bin/env python3
"""Drive hello-ext over pipes, the way synaps does, without synaps.

Run it from the extension's directory:

    python3 test_hello_ext.py

Standard library only. Each test starts `python3 main.py`, writes
Content-Length framed JSON-RPC requests to its stdin and reads the framed
answers from its stdout, with a timeout on every read so a broken extension
fails the test instead of hanging it.
"""
import json
import os
import queue
import subprocess
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT = 5.0  # seconds to wait for any one answer


def frame(message):
    """Encode one message exactly as synaps writes it."""
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body


def read_frames(stream, out):
    """Parse frames from the extension's stdout into the queue `out`.

    Header names are compared ignoring case, like synaps does. At end of
    stream None is queued.
    """
    while True:
        length = None
        while True:
            line = stream.readline()
            if not line:
                out.put(None)
                return
            line = line.strip()
            if not line:
                if length is not None:
                    break
                continue  # blank line before any header
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        body = stream.read(length)
        if len(body) < length:
            out.put(None)
            return
        out.put(json.loads(body))


class Extension:
    """One running `python3 main.py`, with helpers to talk to it."""

    def __init__(self):
        self.proc = subprocess.Popen(
            ["python3", "main.py"], cwd=HERE,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages = queue.Queue()
        self.stderr = []
        threading.Thread(target=read_frames, args=(self.proc.stdout, self.messages), daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.next_id = 0

    def _drain_stderr(self):
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", "replace").rstrip("\n"))

    def send(self, message):
        self.proc.stdin.write(frame(message))
        self.proc.stdin.flush()

    def request(self, method, params):
        """Send a request and return its id."""
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def answer(self, want_id):
        """Wait for the response to request `want_id`; return the others seen on the way."""
        others = []
        while True:
            try:
                message = self.messages.get(timeout=TIMEOUT)
            except queue.Empty:
                raise AssertionError(f"no answer to request {want_id} within {TIMEOUT}s; stderr: {self.stderr}")
            if message is None:
                raise AssertionError(f"stdout closed before the answer to request {want_id}; stderr: {self.stderr}")
            if message.get("id") == want_id and "method" not in message:
                return message, others
            others.append(message)

    def call(self, method, params):
        """Send a request and return its result (failing on an error response)."""
        response, _ = self.answer(self.request(method, params))
        if "error" in response:
            raise AssertionError(f"{method} answered with an error: {response['error']}")
        return response.get("result")

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass


# What synaps sends as hook.handle params: every key present, null where it
# does not apply, plus "hook" and "context" for extensions written from the guide.
BEFORE_TOOL_CALL = {
    "kind": "before_tool_call",
    "hook": "before_tool_call",
    "tool_name": "bash",
    "tool_runtime_name": "bash",
    "tool_input": {"command": "ls"},
    "tool_output": None,
    "message": None,
    "session_id": "20261202-130455-k3f9",
    "transcript": None,
    "data": None,
    "context": {
        "tool_name": "bash",
        "tool_runtime_name": "bash",
        "tool_input": {"command": "ls"},
        "session_id": "20261202-130455-k3f9",
    },
}

INITIALIZE = {
    "synaps_version": "0.1.0-dev",
    "extension_protocol_version": 1,
    "plugin_id": "hello-ext",
    "plugin_root": HERE,
    "config": {},
}


class HelloExtTest(unittest.TestCase):

    def setUp(self):
        self.ext = Extension()
        self.addCleanup(self.ext.close)

    def initialize(self):
        return self.ext.call("initialize", INITIALIZE)

    def test_initialize_declares_the_tool_and_the_hook(self):
        result = self.initialize()
        self.assertEqual(result["protocol_version"], 1)
        tools = result["capabilities"]["tools"]
        self.assertEqual([t["name"] for t in tools], ["hello"])
        self.assertTrue(tools[0]["description"])
        self.assertEqual(tools[0]["input_schema"]["type"], "object")
        hooks = result["capabilities"]["hooks"]
        self.assertEqual([h.get("name") or h.get("hook") for h in hooks], ["before_tool_call"])

    def test_tool_call_greets(self):
        self.initialize()
        result = self.ext.call("tool.call", {"name": "hello", "input": {"name": "Ada"}})
        self.assertEqual(result, {"output": "Hello, Ada!"})

    def test_hook_allows(self):
        self.initialize()
        result = self.ext.call("hook.handle", BEFORE_TOOL_CALL)
        self.assertEqual(result, {})

    def test_unknown_method_and_notification_do_not_break_it(self):
        self.initialize()
        unknown = self.ext.request("synaps.no_such_method", {})
        self.ext.send({"jsonrpc": "2.0", "method": "synaps.some_notification", "params": {}})
        # Whatever it did with those two, it must still answer the next request.
        ping = self.ext.request("tool.call", {"name": "hello", "input": {"name": "Ada"}})
        response, others = self.ext.answer(ping)
        self.assertEqual(response.get("result"), {"output": "Hello, Ada!"})
        for message in others:
            # The only thing allowed on the way is an answer to the unknown request.
            self.assertEqual(message.get("id"), unknown, f"unexpected message {message}")
            self.assertTrue("result" in message or "error" in message)
        self.assertIsNone(self.ext.proc.poll(), "the process exited")

    def test_shutdown_answers_and_exits_cleanly(self):
        self.initialize()
        result = self.ext.call("shutdown", None)
        self.assertEqual(result, {})
        self.assertExits("after answering shutdown")

    def test_end_of_input_exits(self):
        # synaps closes stdin if shutdown gets no answer; the loop must end.
        self.initialize()
        self.ext.proc.stdin.close()
        self.assertExits("after its stdin was closed (does recv() stop at end of input?)")

    def assertExits(self, when):
        try:
            code = self.ext.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.fail(f"the process did not exit within 2s {when}")
        self.assertEqual(code, 0, f"exit status {when}; stderr: {self.ext.stderr}")


if __name__ == "__main__":
    unittest.main(verbosity=2)
