#!/usr/bin/env python3
"""The voice fixture's sidecar, in SynapsCLI's line protocol: hello
(protocol 2, ready after init), then status and, when pressed, the text
it "heard", which names the language it was started with."""
import json
import sys

lang = sys.argv[sys.argv.index("--lang") + 1] if "--lang" in sys.argv else "?"


def say(**msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


say(type="hello", protocol_version=2, extension="voice", capabilities=["ready_after_init"])
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "init":
        say(type="status", state="loading", label="loading model")
        say(type="status", state="ready")
    elif msg["type"] == "trigger" and msg["name"] == "press":
        say(type="status", state="listening", label="lang " + lang)
        say(type="insert_text", text="partial", mode="append")
        say(type="insert_text", text="  hello in " + lang + "  ", mode="final")
    elif msg["type"] == "trigger" and msg["name"] == "release":
        say(type="status", state="idle")
    elif msg["type"] == "shutdown":
        break
