#!/usr/bin/env python3
"""Drive output-redactor over pipes, the way synaps does, without synaps.

    python3 test_redactor.py          (from any directory)

Standard library only. One `python3 main.py` is started per test; requests
are written to its stdin as Content-Length framed JSON-RPC and the framed
answers read from its stdout, with a timeout on every read so a broken
extension fails the test instead of hanging it.

The fake secrets below are assembled from pieces so that secret scanners
do not flag this file.
"""
import json
import os
import queue
import subprocess
import sys
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT = 5.0  # seconds to wait for any one answer

AWS_KEY_ID = "AKIA" + "IOSFODNN7EXAMPLE"  # AWS's documented example key id
GITHUB_CLASSIC = "ghp_" + "x1Y2z3W4" * 4 + "AbCd"
GITHUB_FINE = "github_pat_" + "11AAAAAAA0" + "_abcdefghij" * 3
OPENAI_KEY = "sk-" + "proj-" + "T3BlbkFJ" * 4
ANTHROPIC_KEY = "sk-" + "ant-api03-" + "Qw3rTy-uIoP_" * 3
SLACK_TOKEN = "xox" + "b-1234567890-0987654321-" + "AbCdEfGhIjKlMnOp"
JWT = "eyJ" + "hbGciOiJIUzI1NiJ9" + ".eyJ" + "zdWIiOiIxMjM0NTY3ODkwIn0" + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
BEARER = "4f8c2b1e9d7a6" + "0c3e5b8a1d2f4"
PEM = ("-----BEGIN RSA " + "PRIVATE KEY-----\n"
       "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF0qJ0b2n\n"
       "c2VjcmV0LWtleS1tYXRlcmlhbC1oZXJl\n"
       "-----END RSA " + "PRIVATE KEY-----")


def frame(message):
    """Encode one message exactly as synaps writes it."""
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body


def read_frames(stream, out):
    """Parse frames from the extension's stdout into the queue `out`; None at the end."""
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
                continue
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        body = stream.read(length)
        if len(body) < length:
            out.put(None)
            return
        out.put(json.loads(body))


class Extension:
    """One running `python3 main.py`."""

    def __init__(self):
        self.proc = subprocess.Popen(
            [sys.executable, "main.py"], cwd=HERE,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages = queue.Queue()
        self.stderr = []
        threading.Thread(target=read_frames, args=(self.proc.stdout, self.messages), daemon=True).start()
        self._stderr_reader = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_reader.start()
        self.next_id = 0

    def _drain_stderr(self):
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", "replace").rstrip("\n"))

    def wait_exit(self, timeout):
        """Wait for the process to exit and for its stderr to be read to the end."""
        self.proc.wait(timeout=timeout)
        self._stderr_reader.join(timeout=timeout)

    def send(self, message):
        self.proc.stdin.write(frame(message))
        self.proc.stdin.flush()

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def answer(self, want_id):
        """The response to request `want_id`, and the other messages seen on the way."""
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


def after_tool_call(output, tool="bash", seed_only=False):
    """The hook.handle params synaps sends for after_tool_call.

    seed_only leaves the top-level tool_output null and puts it only in
    "context", as an extension written strictly from the guide reads it.
    """
    tool_input = {"command": "cat .env"}
    return {
        "kind": "after_tool_call",
        "hook": "after_tool_call",
        "tool_name": tool,
        "tool_runtime_name": tool,
        "tool_input": tool_input,
        "tool_output": None if seed_only else output,
        "message": None,
        "session_id": "20261202-130455-k3f9",
        "transcript": None,
        "data": None,
        "context": {"tool_name": tool, "tool_runtime_name": tool, "tool_input": tool_input,
                    "tool_output": output, "session_id": "20261202-130455-k3f9"},
    }


# (name, output, secrets that must disappear, markers that must appear)
REDACTED = [
    ("aws access key id", f"aws_access_key_id = {AWS_KEY_ID}\n",
     [AWS_KEY_ID], ["[REDACTED:aws-access-key-id]"]),
    ("github classic token", f"GITHUB_TOKEN={GITHUB_CLASSIC}\nok\n",
     [GITHUB_CLASSIC], ["GITHUB_TOKEN=[REDACTED:github-token]", "ok"]),
    ("github fine-grained token", f"remote: using {GITHUB_FINE} for push",
     [GITHUB_FINE], ["[REDACTED:github-token]"]),
    ("openai key", f"OPENAI_API_KEY={OPENAI_KEY}",
     [OPENAI_KEY], ["[REDACTED:api-key]"]),
    ("anthropic key", f'client = Anthropic(api_key="{ANTHROPIC_KEY}")',
     [ANTHROPIC_KEY], ["[REDACTED:api-key]"]),
    ("slack token", f"slack: {SLACK_TOKEN}",
     [SLACK_TOKEN], ["[REDACTED:slack-token]"]),
    ("private key block", f"$ cat id_rsa\n{PEM}\n$ echo done\ndone\n",
     ["MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn", "c2VjcmV0LWtleS1tYXRlcmlhbC1oZXJl"],
     ["-----BEGIN RSA PRIVATE KEY-----\n[REDACTED:private-key]\n-----END RSA PRIVATE KEY-----", "done"]),
    ("truncated private key", "-----BEGIN " + "PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
     ["MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"], ["[REDACTED:private-key]"]),
    ("bearer token", f"> Authorization: Bearer {BEARER}\n< HTTP/1.1 200 OK",
     [BEARER], ["Authorization: Bearer [REDACTED:bearer-token]", "200 OK"]),
    ("jwt", f"token cookie: {JWT}", [JWT], ["[REDACTED:jwt]"]),
    ("env-style assignments",
     'export DB_PASSWORD="hunter2"\nAPI_SECRET=s3cr3t-value\nsession_token=abc123def\nHOME=/home/me\n',
     ["hunter2", "s3cr3t-value", "abc123def"],
     ['export DB_PASSWORD="[REDACTED:secret]"', "API_SECRET=[REDACTED:secret]",
      "session_token=[REDACTED:secret]", "HOME=/home/me"]),
    ("query string", "GET https://api.example.com/v1/items?token=q7w8e9r0t1&page=2",
     ["q7w8e9r0t1"], ["token=[REDACTED:secret]&page=2"]),
    ("json password", '{"user": "bob", "password": "correct horse"}',
     ["correct horse"], ['"password": "[REDACTED:secret]"', '"user": "bob"']),
]

# Output that must come back untouched: {} (no replace).
CLEAN = [
    "total 8\ndrwxr-xr-x 2 me me 4096 Dec  2 13:59 .\n-rw-r--r-- 1 me me  269 Dec  2 13:59 main.py\n",
    "ok  \tgithub.com/synaps-cli/synaps/internal/extension\t1.234s\n",
    "max_tokens=1024\nTOKENIZERS_PARALLELISM=false\nPASSWORD=$DB_PASSWORD\nPWD=/home/me/project\n",
    "The bearer of this message is the task runner.\nsk-short is not a key\n",
    "Hello, world! ünïcödé ✓",
]


class RedactorTest(unittest.TestCase):

    def setUp(self):
        self.ext = Extension()
        self.addCleanup(self.ext.close)
        self.init = self.ext.call("initialize", {
            "synaps_version": "test", "extension_protocol_version": 1,
            "plugin_id": "output-redactor", "plugin_root": HERE, "config": {}})

    def test_initialize_declares_after_tool_call(self):
        self.assertEqual(self.init["protocol_version"], 1)
        self.assertEqual(self.init["capabilities"].get("tools", []), [])
        hooks = [h.get("name") or h.get("hook") for h in self.init["capabilities"]["hooks"]]
        self.assertEqual(hooks, ["after_tool_call"])

    def test_redacts_each_kind_of_secret(self):
        for name, output, secrets, markers in REDACTED:
            with self.subTest(name):
                result = self.ext.call("hook.handle", after_tool_call(output))
                self.assertEqual(result.get("action"), "replace", f"nothing replaced in {output!r}")
                redacted = result["output"]
                for secret in secrets:
                    self.assertNotIn(secret, redacted)
                for marker in markers:
                    self.assertIn(marker, redacted)

    def test_leaves_clean_output_untouched(self):
        for output in CLEAN:
            with self.subTest(output=output):
                self.assertEqual(self.ext.call("hook.handle", after_tool_call(output)), {})

    def test_reads_seed_dialect_context(self):
        result = self.ext.call("hook.handle", after_tool_call(f"key={AWS_KEY_ID}", seed_only=True))
        self.assertEqual(result, {"action": "replace", "output": "key=[REDACTED:aws-access-key-id]"})

    def test_ignores_events_without_output(self):
        self.assertEqual(self.ext.call("hook.handle", after_tool_call(None)), {})
        self.assertEqual(self.ext.call("hook.handle", {
            "kind": "on_message_complete", "hook": "on_message_complete", "message": f"see {AWS_KEY_ID}",
            "context": {"message": f"see {AWS_KEY_ID}"}}), {})

    def test_log_names_kinds_not_secrets(self):
        self.ext.call("hook.handle", after_tool_call(f"GITHUB_TOKEN={GITHUB_CLASSIC}"))
        self.ext.call("shutdown", None)
        self.ext.wait_exit(timeout=TIMEOUT)
        log = "\n".join(self.ext.stderr)
        self.assertIn("github-token", log)
        self.assertNotIn(GITHUB_CLASSIC, log)

    def test_unknown_method_and_notification_do_not_break_it(self):
        unknown = self.ext.request("synaps.no_such_method", {})
        self.ext.send({"jsonrpc": "2.0", "method": "synaps.some_notification", "params": {}})
        ping = self.ext.request("hook.handle", after_tool_call("clean"))
        response, others = self.ext.answer(ping)
        self.assertEqual(response.get("result"), {})
        for message in others:
            self.assertEqual(message.get("id"), unknown, f"unexpected message {message}")

    def test_shutdown_answers_and_exits(self):
        self.assertEqual(self.ext.call("shutdown", None), {})
        self.assertEqual(self.ext.proc.wait(timeout=TIMEOUT), 0)

    def test_end_of_input_exits(self):
        self.ext.proc.stdin.close()
        self.assertEqual(self.ext.proc.wait(timeout=TIMEOUT), 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
