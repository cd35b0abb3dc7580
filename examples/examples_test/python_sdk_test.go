package examples_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/conformance"
)

// An extension written with the dependency-free Python helper module
// (sdk/python/synaps_ext.py), exactly as its docstring shows, passes the
// checklist and guards and greets through a real host.
func TestPythonHelperModule(t *testing.T) {
	needs(t, "python3")
	dir := filepath.Join(t.TempDir(), "py-guard")
	os.MkdirAll(filepath.Join(dir, ".synaps-plugin"), 0o755)
	module, err := os.ReadFile(filepath.Join(examplesDir, "..", "..", "sdk", "python", "synaps_ext.py"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"synaps_ext.py": string(module),
		".synaps-plugin/plugin.json": `{"name":"py-guard","version":"0.1.0","extension":{"entry_point":"python3 main.py",
			"extension_protocol_version":1,"permissions":["tools.register","hooks.before_tool_call"]}}`,
		"main.py": `from synaps_ext import Extension, block, with_diff

ext = Extension("py-guard", "0.1.0")

@ext.tool("hello", "Greet someone by name",
          {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
def hello(input):
    return "Hello, " + input["name"] + "!"

@ext.tool("save", "Save a note", {"type": "object"})
def save(input):
    return with_diff("saved notes.txt", "notes.txt", "alpha\nbeta\n", "alpha\nBETA\n")

@ext.hook("before_tool_call", tool="bash")
def guard(event):
    command = (event.get("tool_input") or {}).get("command", "")
    if "rm -rf" in command:
        return block("rm -rf is not allowed here")
    return None

ext.run()
`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := conformance.Run(context.Background(), dir, conformance.Options{Getenv: env(nil)})
	for _, c := range rep.Checks {
		if c.Status != conformance.CheckPass {
			t.Errorf("%s: %s: %s", c.Status, c.Name, c.Detail)
		}
	}
	h, _ := startHost(t, map[string]string{"py-guard": dir}, env(nil))
	requireLoaded(t, h, "py-guard")
	if d := h.BeforeToolCall(context.Background(), bashTool, bashInput("rm -rf /"), "s", nil); !d.Blocked || !strings.Contains(d.Reason, "rm -rf is not allowed here") {
		t.Errorf("rm -rf: %+v", d)
	}
	if d := h.BeforeToolCall(context.Background(), readTool, json.RawMessage(`{"path":"rm -rf"}`), "s", nil); d.Blocked {
		t.Errorf("the tool filter let read through to the guard: %+v", d)
	}
	tl, _, ok := h.Registry().Lookup("py-guard_hello")
	if !ok {
		t.Fatal("tool not registered")
	}
	if res, err := tl.Run(context.Background(), json.RawMessage(`{"name":"Ada"}`)); err != nil || res.Output != "Hello, Ada!" {
		t.Errorf("hello = %+v, %v", res, err)
	}
	// with_diff: the model gets the output, the user the diff.
	save, _, ok := h.Registry().Lookup("py-guard_save")
	if !ok {
		t.Fatal("save not registered")
	}
	res, err := save.Run(context.Background(), json.RawMessage(`{}`))
	if err != nil || res.Output != "saved notes.txt" || res.Diff == nil || res.Diff.Path != "notes.txt" || res.Diff.Added != 1 || res.Diff.Removed != 1 {
		t.Errorf("save = %+v (diff %+v), %v", res, res.Diff, err)
	}
}

// A manifest that subscribes with a tool filter (the SynapsCLI dialect) is
// the one source of truth for that hook: @ext.hook only names the handler.
// The helper used to declare the hook again, unfiltered, in initialize,
// and the merged subscriptions sent the guard every tool call.
func TestPythonHelperKeepsManifestToolFilter(t *testing.T) {
	needs(t, "python3")
	module, err := os.ReadFile(filepath.Join(examplesDir, "..", "..", "sdk", "python", "synaps_ext.py"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "py-filter")
	os.MkdirAll(filepath.Join(dir, ".synaps-plugin"), 0o755)
	for name, content := range map[string]string{
		"synaps_ext.py": string(module),
		".synaps-plugin/plugin.json": `{"name":"py-filter","version":"0.1.0","extension":{"entry_point":"python3 main.py",
			"extension_protocol_version":1,"permissions":["hooks.before_tool_call"],
			"hooks":[{"hook":"before_tool_call","tool":"bash"}]}}`,
		"main.py": `from synaps_ext import Extension, block

ext = Extension("py-filter", "0.1.0")

@ext.hook("before_tool_call")
def guard(event):
    return block("guarded " + event["tool_name"])

ext.run()
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, _ := startHost(t, map[string]string{"py-filter": dir}, env(nil))
	requireLoaded(t, h, "py-filter")
	if d := h.BeforeToolCall(context.Background(), bashTool, bashInput("ls"), "s", nil); !d.Blocked || !strings.Contains(d.Reason, "guarded bash") {
		t.Errorf("bash, which the manifest filters for, was not guarded: %+v", d)
	}
	if d := h.BeforeToolCall(context.Background(), readTool, json.RawMessage(`{"path":"x"}`), "s", nil); d.Blocked {
		t.Errorf("the helper widened the manifest's tool filter: read reached the guard: %+v", d)
	}
}

// idempotent=True and read_only=True are declared with the tool; a tool
// without them declares nothing, so synaps never resends it after a crash
// and asks before it runs.
func TestPythonHelperIdempotentTool(t *testing.T) {
	needs(t, "python3")
	cmd := exec.Command("python3", "-c", `import json
from synaps_ext import Extension
ext = Extension("x", "0.1.0")
@ext.tool("lookup", "reads", idempotent=True, read_only=True)
def lookup(input): return ""
@ext.tool("send", "writes")
def send(input): return ""
print(json.dumps([ext._tools[n][0] for n in ("lookup", "send")]))
`)
	cmd.Dir = filepath.Join(examplesDir, "..", "..", "sdk", "python")
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, out)
	}
	var got []map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	obj := map[string]any{"type": "object"}
	want := []map[string]any{
		{"name": "lookup", "description": "reads", "input_schema": obj, "idempotent": true, "read_only": true},
		{"name": "send", "description": "writes", "input_schema": obj},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("declared tools (-want +got):\n%s", d)
	}
}
