package plugin

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// A Gemini CLI extension is a directory with gemini-extension.json:
// name, version, mcpServers, contextFileName, excludeTools and settings,
// beside commands/*.toml, hooks/hooks.json (Gemini's events), skills/ and
// policies/*.toml. Each part becomes what synaps has:
//
//   - mcpServers: the plugin's MCP servers, Gemini's spellings (httpUrl,
//     url as SSE, timeout in ms, ${extensionPath}) written as synaps's;
//   - contextFileName (default GEMINI.md): context files in the system
//     prompt (ContextFiles);
//   - excludeTools: deny rules (DenyRules), Gemini's tool names as
//     synaps's;
//   - commands/*.toml: slash commands (internal/command);
//   - hooks/hooks.json: Claude-style hooks where the events map
//     (gemini_hooks.go);
//   - policies/*.toml: deny and ask rules only (gemini_policy.go): an
//     extension's policy may restrict, never approve.

// GeminiSetting is one of an extension's "settings": a value Gemini CLI
// asks for at install and hands its MCP servers in EnvVar.
type GeminiSetting struct {
	Name, Description, EnvVar string
	Sensitive                 bool
}

// geminiKeys are the keys of gemini-extension.json synaps knows; others
// draw a warning.
var geminiKeys = []string{"name", "version", "description", "mcpServers", "contextFileName", "excludeTools", "settings", "plan", "themes", "migratedTo", "$schema"}

// geminiTools maps Gemini CLI's built-in tool names to synaps's
// Claude-style rule names (permission rules read both spellings).
var geminiTools = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"run_shell_command":   "Bash",
		"ShellTool":           "Bash",
		"write_file":          "Write",
		"WriteFileTool":       "Write",
		"replace":             "Edit",
		"EditTool":            "Edit",
		"read_file":           "Read",
		"ReadFileTool":        "Read",
		"read_many_files":     "Read",
		"glob":                "Glob",
		"GlobTool":            "Glob",
		"search_file_content": "Grep",
		"grep_search":         "Grep",
		"list_directory":      "LS",
		"web_fetch":           "WebFetch",
		"google_web_search":   "WebSearch",
		"write_todos":         "TodoWrite",
	}
})

// GeminiToolName is synaps's rule name for a Gemini CLI tool name, and
// whether it is one synaps has.
func GeminiToolName(name string) (string, bool) {
	n, ok := geminiTools()[name]
	return n, ok
}

// parseGemini reads gemini-extension.json's fields into m.
func (p *manifestParser) parseGemini(m *Manifest, top *jsonObject) {
	p.parseMeta(m, top)
	for _, k := range top.keys {
		switch {
		case k == "plan" || k == "themes" || k == "migratedTo":
			p.warn(k, "Gemini CLI's "+k+" has no meaning in synaps; ignored")
		case !slices.Contains(geminiKeys, k):
			note := fmt.Sprintf("unknown key %q is ignored", k)
			if s := suggest(k, geminiKeys); s != "" {
				note += fmt.Sprintf("; did you mean %q?", s)
			}
			p.warn(k, note)
		}
	}
	if v, ok := top.get("contextFileName"); ok {
		var one string
		if json.Unmarshal(v, &one) == nil {
			m.ContextFiles = []string{one}
		} else {
			m.ContextFiles = p.stringArray("contextFileName", v, `Write "contextFileName": "GEMINI.md" or an array of file names`)
		}
	}
	if v, ok := top.get("excludeTools"); ok {
		m.ExcludeTools = p.stringArray("excludeTools", v, `Write "excludeTools": ["run_shell_command(rm -rf)"]`)
	}
	if v, ok := top.get("settings"); ok {
		m.GeminiSettings = p.geminiSettings(v)
	}
	if v, ok := top.get("mcpServers"); ok {
		m.ClaudePaths.MCPInline = p.geminiMCP(v, m.GeminiSettings, &m.MCPDeny)
	}
}

func (p *manifestParser) geminiSettings(v json.RawMessage) []GeminiSetting {
	var raw []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		EnvVar      string `json:"envVar"`
		Sensitive   bool   `json:"sensitive"`
	}
	if err := json.Unmarshal(v, &raw); err != nil {
		p.warn("settings", `must be an array of {"name", "description", "envVar", "sensitive"}; ignored`)
		return nil
	}
	var out []GeminiSetting
	for i, s := range raw {
		if s.EnvVar == "" || !envNameRE().MatchString(s.EnvVar) {
			p.warn(fmt.Sprintf("settings[%d].envVar", i), fmt.Sprintf("%q is not an environment variable name; the setting is ignored", s.EnvVar))
			continue
		}
		out = append(out, GeminiSetting(s))
	}
	return out
}

// geminiMCPServer is one server of gemini-extension.json's mcpServers.
type geminiMCPServer struct {
	Command      string            `json:"command"`
	Args         []string          `json:"args"`
	Env          map[string]string `json:"env"`
	Cwd          string            `json:"cwd"`
	URL          string            `json:"url"`
	HTTPURL      string            `json:"httpUrl"`
	Headers      map[string]string `json:"headers"`
	Timeout      float64           `json:"timeout"`
	Trust        bool              `json:"trust"`
	IncludeTools []string          `json:"includeTools"`
	ExcludeTools []string          `json:"excludeTools"`
}

// geminiVar is Gemini's ${extensionPath}, ${workspacePath}, ${/} and
// ${pathSeparator}; shellVar is $VAR in an env value (Gemini expands it,
// synaps only ${VAR}).
var (
	geminiVar = sync.OnceValue(func() *strings.Replacer {
		return strings.NewReplacer("${extensionPath}", "${CLAUDE_PLUGIN_ROOT}", "${workspacePath}", "${workspaceFolder}", "${/}", "/", "${pathSeparator}", "/")
	})
	shellVar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)`) })
)

// geminiMCP writes Gemini's mcpServers as the servers object synaps's
// MCP config reads.
//
// Gemini CLI hands an extension's settings to its servers as environment
// variables; synaps's servers get a scrubbed environment, so each
// setting's envVar is passed on from synaps's (empty when unset).
func (p *manifestParser) geminiMCP(v json.RawMessage, settings []GeminiSetting, mcpDeny *[]string) json.RawMessage {
	var servers map[string]geminiMCPServer
	if err := json.Unmarshal(v, &servers); err != nil {
		p.fail("mcpServers", fmt.Sprintf("must be an object of servers: %v", err), `Write "mcpServers": {"name": {"command": "node", "args": ["${extensionPath}/server.js"]}}`)
		return nil
	}
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	sort.Strings(names)
	out := map[string]map[string]any{}
	x := geminiVar()
	for _, n := range names {
		g := servers[n]
		sv := map[string]any{}
		field := "mcpServers." + n
		switch {
		case g.HTTPURL != "":
			sv["type"], sv["url"] = "http", x.Replace(g.HTTPURL)
		case g.URL != "":
			sv["type"], sv["url"] = "sse", x.Replace(g.URL)
		}
		if g.Command != "" {
			sv["command"] = x.Replace(g.Command)
		}
		if len(g.Args) > 0 {
			args := make([]string, len(g.Args))
			for i, a := range g.Args {
				args[i] = x.Replace(a)
			}
			sv["args"] = args
		}
		env := map[string]string{}
		if g.Command != "" {
			for _, st := range settings {
				env[st.EnvVar] = "${" + st.EnvVar + ":-}"
			}
		}
		for k, v := range g.Env {
			env[k] = shellVar().ReplaceAllString(x.Replace(v), "$${$1}")
		}
		if len(env) > 0 {
			sv["env"] = env
		}
		if g.Cwd != "" {
			sv["cwd"] = x.Replace(g.Cwd)
		}
		if len(g.Headers) > 0 {
			sv["headers"] = g.Headers
		}
		if g.Timeout > 0 {
			sv["tool_timeout_sec"] = g.Timeout / 1000
		}
		if g.Trust {
			p.warn(field+".trust", "synaps does not let a server skip the permission rules; its calls are judged like any other")
		}
		if len(g.IncludeTools) > 0 {
			p.warn(field+".includeTools", "not applied: every tool of the server is offered (its excludeTools are, as deny rules; deny others with mcp__"+n+"__TOOL)")
		}
		for _, t := range g.ExcludeTools {
			// A server's excluded tools are deny rules, as the
			// extension's own excludeTools are.
			*mcpDeny = append(*mcpDeny, "mcp__"+n+"__"+t)
		}
		out[n] = sv
	}
	b, _ := json.Marshal(out)
	return b
}

// DenyRules are the permission rules (Claude Code's syntax) that
// Gemini's excludeTools (the extension's and its servers') stand for: "run_shell_command(rm -rf)" denies
// bash commands that start with "rm -rf", a bare tool name every call.
// A name synaps has no tool for is a warning.
func (m *Manifest) DenyRules() (rules, warnings []string) {
	defer func() { rules = append(rules, m.MCPDeny...) }()
	for _, t := range m.ExcludeTools {
		rule, err := geminiRule(t)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s: excludeTools: %v", m.File, err))
			continue
		}
		rules = append(rules, rule)
	}
	return rules, warnings
}

// geminiRule writes one of Gemini's tool patterns as a rule.
func geminiRule(t string) (string, error) {
	name, arg, hasArg := strings.Cut(strings.TrimSpace(t), "(")
	tool, ok := GeminiToolName(name)
	if !ok {
		if strings.HasPrefix(name, "mcp__") || strings.Contains(name, "__") {
			tool = name
		} else {
			return "", fmt.Errorf("%q is not a Gemini CLI tool synaps has; the exclusion is not applied", t)
		}
	}
	if !hasArg {
		return tool, nil
	}
	arg = strings.TrimSuffix(arg, ")")
	if tool == "Bash" {
		return "Bash(" + arg + ":*)", nil
	}
	return tool + "(" + arg + ")", nil
}
