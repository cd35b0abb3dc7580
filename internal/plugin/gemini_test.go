package plugin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeTree writes files (path → content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestGeminiExtension(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ext")
	writeTree(t, dir, map[string]string{
		"gemini-extension.json": `{"name": "ext", "version": "1.0.0",
			"contextFileName": "CTX.md",
			"excludeTools": ["run_shell_command(rm -rf)", "write_file", "no_such_tool"],
			"settings": [{"name": "Key", "description": "API key", "envVar": "EXT_KEY", "sensitive": true}],
			"mcpServers": {"srv": {"command": "node", "args": ["${extensionPath}${/}server.js"], "env": {"K": "$EXT_KEY"}, "timeout": 5000, "trust": true, "excludeTools": ["delete"]},
			               "web": {"httpUrl": "http://127.0.0.1:1/mcp"}},
			"plan": {"directory": "x"}}`,
		"CTX.md":               "Use /ext:go.",
		"commands/ext/go.toml": "prompt = \"go {{args}}\"",
		"commands/broken.toml": "prompt = \"open",
		"hooks/hooks.json":     `{"hooks": {"BeforeTool": [{"matcher": "write_file|replace", "hooks": [{"name": "g", "type": "command", "command": "${extensionPath}/guard.sh", "timeout": 1500}]}], "BeforeModel": [{"hooks": [{"type": "command", "command": "x"}]}]}}`,
		"policies/p.toml":      "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = [\"git push\"]\ndecision = \"deny\"\n\n[[rule]]\ntoolName = \"write_file\"\ndecision = \"allow\"\n\n[[rule]]\ntoolName = \"replace\"\ndecision = \"ask_user\"\nmodes = [\"plan\"]\n",
	})
	p := LoadPlugin("ext", dir, ScopeUser)
	if p.Err != nil {
		t.Fatal(p.Err)
	}
	m := p.Manifest
	if m.Format != FormatGemini || m.Extension != nil {
		t.Fatalf("format %q, extension %v", m.Format, m.Extension)
	}
	ctx, _ := p.ContextFilePaths()
	if d := cmp.Diff([]string{filepath.Join(dir, "CTX.md")}, ctx); d != "" {
		t.Errorf("context files: %s", d)
	}
	rules, warns := m.DenyRules()
	if d := cmp.Diff([]string{"Bash(rm -rf:*)", "Write", "mcp__srv__delete"}, rules); d != "" {
		t.Errorf("deny rules: %s", d)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], `"no_such_tool" is not a Gemini CLI tool`) {
		t.Errorf("deny warnings: %q", warns)
	}
	var servers map[string]map[string]any
	if err := json.Unmarshal(m.ClaudePaths.MCPInline, &servers); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]any{
		"srv": {"command": "node", "args": []any{"${CLAUDE_PLUGIN_ROOT}/server.js"}, "env": map[string]any{"K": "${EXT_KEY}", "EXT_KEY": "${EXT_KEY:-}"}, "tool_timeout_sec": 5.0},
		"web": {"type": "http", "url": "http://127.0.0.1:1/mcp"},
	}
	if d := cmp.Diff(want, servers); d != "" {
		t.Errorf("mcp servers: %s", d)
	}
	files, err := p.ClaudeHooks()
	if err != nil {
		t.Fatal(err)
	}
	var hooks map[string]any
	if err := json.Unmarshal(files[p.ClaudeHooksFile()], &hooks); err != nil {
		t.Fatal(err)
	}
	wantHooks := map[string]any{"hooks": map[string]any{"PreToolUse": []any{map[string]any{
		"matcher": "Write|Edit", "hooks": []any{map[string]any{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/guard.sh", "timeout": 2.0}},
	}}}}
	if d := cmp.Diff(wantHooks, hooks); d != "" {
		t.Errorf("hooks: %s", d)
	}
	pol := p.GeminiPolicies()
	if d := cmp.Diff([]string{"Bash(git push:*)"}, pol.Deny); d != "" {
		t.Errorf("policy deny: %s", d)
	}
	if len(pol.Ask) != 0 || len(pol.Notes) != 2 || !strings.Contains(pol.Notes[0], `"allow" is refused`) || !strings.Contains(pol.Notes[1], "plan mode") {
		t.Errorf("policy ask %q notes %q", pol.Ask, pol.Notes)
	}
	report := FormatSupport(p.Support())
	for _, want := range []string{
		"mcpServers       degraded",
		"commands         supported 1 TOML command,",
		"commands         refused   " + filepath.Join(dir, "commands", "broken.toml") + ": line 1: the string is not closed",
		"hooks            refused   " + filepath.Join(dir, "hooks", "hooks.json") + ": hooks.BeforeModel is not run",
		"contextFileName  supported CTX.md in the system prompt",
		"excludeTools     supported deny rules: Bash(rm -rf:*), Write, mcp__srv__delete",
		"policies         supported deny: Bash(git push:*); ask: none",
		"settings         degraded  Key: synaps does not prompt for it; its MCP servers get $EXT_KEY",
		"policies         refused   policies/p.toml: rule[1]: decision \"allow\" is refused",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if !strings.Contains(strings.Join(m.Warnings, "\n"), "plan: Gemini CLI's plan has no meaning") {
		t.Errorf("warnings: %q", m.Warnings)
	}
}

func TestGeminiManifestErrors(t *testing.T) {
	tests := []struct{ manifest, want string }{
		{`{"version": "1"}`, `gemini-extension.json: name: missing required field "name"`},
		{`{"name": "x", "mcpServers": []}`, "gemini-extension.json: mcpServers: must be an object of servers"},
		{`{"name": "x", "excludeTools": "write_file"}`, "gemini-extension.json: excludeTools: must be an array"},
		{`{"name": "x",}`, "gemini-extension.json:1:"},
	}
	for _, tt := range tests {
		_, err := ParseManifest("/e/gemini-extension.json", []byte(tt.manifest))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.manifest, err, tt.want)
		}
	}
}

func TestFormatDetection(t *testing.T) {
	tests := []struct {
		files map[string]string
		want  Format
	}{
		{map[string]string{".codex-plugin/plugin.json": `{"name":"c","skills":"./skills/","interface":{}}`}, FormatCodex},
		{map[string]string{".plugin/plugin.json": `{"name":"o"}`, "skills/s/SKILL.md": "---\nname: s\ndescription: d\n---\n"}, FormatOpen},
		{map[string]string{".claude-plugin/plugin.json": `{"name":"c"}`, ".codex-plugin/plugin.json": `{"name":"c"}`, "gemini-extension.json": `{"name":"c"}`}, FormatClaude},
		{map[string]string{"gemini-extension.json": `{"name":"g"}`, "GEMINI.md": "x"}, FormatGemini},
		{map[string]string{"commands/x.md": "x"}, FormatClaude},
		{map[string]string{"plugin.json": `{"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", "name": "ap", "extensions": {}}`, "mcp.json": `{"mcpServers": {"s": {"command": "x"}}}`}, FormatOpen},
	}
	for _, tt := range tests {
		dir := filepath.Join(t.TempDir(), "p")
		writeTree(t, dir, tt.files)
		p := LoadPlugin("p", dir, ScopeUser)
		if p.Err != nil {
			t.Fatal(p.Err)
		}
		if p.Manifest.Format != tt.want {
			t.Errorf("%v: format %q, want %q", tt.files, p.Manifest.Format, tt.want)
		}
	}
}

func TestGeminiPayload(t *testing.T) {
	got := string(GeminiPayload([]byte(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`)))
	want := `{"hook_event_name":"BeforeTool","session_id":"s","tool_input":{"command":"ls"},"tool_name":"run_shell_command"}`
	if got != want {
		t.Errorf("GeminiPayload = %s, want %s", got, want)
	}
	for claude, gemini := range map[string]string{"Write": "write_file", "Edit": "replace", "Read": "read_file", "mcp__x__y": "mcp__x__y"} {
		out := string(GeminiPayload([]byte(`{"tool_name":"` + claude + `"}`)))
		if out != `{"tool_name":"`+gemini+`"}` {
			t.Errorf("%s: %s", claude, out)
		}
	}
	if got := string(GeminiPayload([]byte("not json"))); got != "not json" {
		t.Errorf("bad payload rewritten: %s", got)
	}
}

// BenchmarkLoadGeminiPlugin: discovery reads every plugin's manifest at
// each session start and reload; a Gemini extension's is read and its
// MCP servers translated each time.
func BenchmarkLoadGeminiPlugin(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "ext")
	for rel, body := range map[string]string{
		"gemini-extension.json": `{"name": "ext", "version": "1.0.0", "contextFileName": "GEMINI.md", "excludeTools": ["run_shell_command(rm -rf)"],
			"mcpServers": {"srv": {"command": "node", "args": ["${extensionPath}${/}server.js"], "env": {"K": "$KEY"}}}}`,
		"GEMINI.md":         "context",
		"commands/a/b.toml": "prompt = \"x\"",
	} {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if p := LoadPlugin("ext", dir, ScopeUser); p.Err != nil {
			b.Fatal(p.Err)
		}
	}
}
