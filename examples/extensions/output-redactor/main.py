#!/usr/bin/env python3
"""output-redactor: a synaps extension that removes secrets from tool output.

On every after_tool_call it scans the tool's output for credentials — AWS
access key ids, GitHub tokens, OpenAI/Anthropic-style sk-… keys, Slack
tokens, JWTs, Bearer tokens, PEM private key blocks and
password=/token=/secret= assignments — and, only when it found one, answers
{"action": "replace", "output": <the output with each secret replaced by
[REDACTED:<kind>]>}. Clean output gets {} and passes through untouched.
Replacing output needs the tools.transform_output permission.

Standard library only. synaps starts this process in the plugin root and
speaks JSON-RPC 2.0 over stdin/stdout, each message framed as
`Content-Length: N\r\n\r\n` + N bytes of JSON. Logs go to stderr, which
synaps keeps in ~/.synaps-cli/extensions/logs/output-redactor.log; they
name the kinds of secret found, never the secrets.
"""
import json
import re
import sys

NAME = "output-redactor"
VERSION = "0.1.0"


def mark(kind):
    return "[REDACTED:" + kind + "]"


# Words that make an assignment's value a secret: DB_PASSWORD=…, token=…,
# client-secret=…, API_KEY=…. The word must stand alone in the key (between
# separators), so max_tokens=100 and TOKENIZERS_PARALLELISM=false are left be.
_SECRET_WORD = r"(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)"
_KEY = r"(?:[A-Za-z0-9_.-]*[_.-])?" + _SECRET_WORD + r"(?:[_.-][A-Za-z0-9_.-]*)?"
# Values that are not secrets themselves: references and placeholders.
_NOT_A_SECRET = re.compile(r"^(?:\$.*|\[REDACTED.*|\*+|true|false|null|none|yes|no)$", re.IGNORECASE)


def _assignment(match):
    value = match.group("value")
    quote = value[0] if value[:1] in ("'", '"') else ""
    inner = value[1:-1] if quote and len(value) >= 2 and value.endswith(quote) else value
    if inner == "" or _NOT_A_SECRET.match(inner):
        return match.group(0)
    return match.group("lead") + quote + mark("secret") + quote


# (kind, pattern, replacement). Applied in order: the specific shapes first,
# so GITHUB_TOKEN=ghp_… reads GITHUB_TOKEN=[REDACTED:github-token], then the
# generic assignments, which skip values already redacted.
PATTERNS = [
    ("private-key",
     re.compile(r"-----BEGIN (?P<kind>[A-Z0-9 ]*?)PRIVATE KEY(?P<block> BLOCK|)-----"
                r".*?(?:-----END (?P=kind)PRIVATE KEY(?P=block)-----|\Z)", re.DOTALL),
     lambda m: "-----BEGIN {0}PRIVATE KEY{1}-----\n{2}\n-----END {0}PRIVATE KEY{1}-----".format(
         m.group("kind"), m.group("block"), mark("private-key"))),
    ("aws-access-key-id",
     re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b"),
     lambda m: mark("aws-access-key-id")),
    ("github-token",
     re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b"),
     lambda m: mark("github-token")),
    ("api-key",  # OpenAI (sk-…, sk-proj-…), Anthropic (sk-ant-…) and alike
     re.compile(r"\bsk-[A-Za-z0-9_-]{20,}"),
     lambda m: mark("api-key")),
    ("slack-token",
     re.compile(r"\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}"),
     lambda m: mark("slack-token")),
    ("jwt",
     re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
     lambda m: mark("jwt")),
    ("bearer-token",
     re.compile(r"(?i)\b(?P<scheme>bearer)(?P<space>\s+)(?!\[REDACTED)[A-Za-z0-9._~+/-]{12,}=*"),
     lambda m: m.group("scheme") + m.group("space") + mark("bearer-token")),
    ("secret",  # env-like assignments: export DB_PASSWORD="…", ?token=…&
     re.compile(r"(?i)(?<![A-Za-z0-9_])(?P<lead>(?:export\s+)?" + _KEY + r"\s*=\s*)"
                r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s\"'&;,#]+)"),
     _assignment),
    ("secret",  # JSON: "password": "…"
     re.compile(r"(?i)(?P<lead>\"" + _KEY + r"\"\s*:\s*)(?P<value>\"(?:[^\"\\\n]|\\.)*\")"),
     _assignment),
]


def redact(text):
    """Return the text with secrets replaced, and the kinds found."""
    found = []
    for kind, pattern, replace in PATTERNS:
        def counted(match, replace=replace, kind=kind):
            new = replace(match)
            if new != match.group(0):
                found.append(kind)
            return new
        text = pattern.sub(counted, text)
    return text, found


# ---- protocol ---------------------------------------------------------------

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
    length = None
    for line in header.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    if length is None:
        return {}  # a header without a body length: skip it
    body = sys.stdin.buffer.read(length)
    try:
        return json.loads(body)
    except ValueError:
        print(NAME + ": skipping a body that is not JSON", file=sys.stderr, flush=True)
        return {}


def reply(request, result):
    send({"jsonrpc": "2.0", "id": request["id"], "result": result})


def handle_initialize(request):
    reply(request, {
        "name": NAME,
        "version": VERSION,
        "protocol_version": 1,
        "capabilities": {"hooks": [{"name": "after_tool_call"}]},
    })


def handle_hook(request):
    event = request.get("params") or {}
    if event.get("kind", event.get("hook")) != "after_tool_call":
        reply(request, {})
        return
    output = event.get("tool_output")
    if output is None:
        output = (event.get("context") or {}).get("tool_output")
    if not isinstance(output, str) or not output:
        reply(request, {})
        return
    redacted, found = redact(output)
    if redacted == output:
        reply(request, {})  # nothing found: leave the output alone
        return
    print("{}: redacted {} secret(s) ({}) from {} output".format(
        NAME, len(found), ", ".join(sorted(set(found))), event.get("tool_name")), file=sys.stderr, flush=True)
    reply(request, {"action": "replace", "output": redacted})


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
        except Exception as err:  # a bug must not take the extension down
            print("{}: {} failed: {!r}".format(NAME, method, err), file=sys.stderr, flush=True)
            if "id" in request:
                send({"jsonrpc": "2.0", "id": request["id"],
                      "error": {"code": -32603, "message": str(err)}})


if __name__ == "__main__":
    main()
