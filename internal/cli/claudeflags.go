package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/claude"
	"github.com/synaps-cli/synaps/internal/mcp"
	"github.com/synaps-cli/synaps/internal/tool"
)

// The `claude -p` flags scripts pass, with Claude Code's meaning, so a
// script written for `claude -p` runs against synaps unchanged (see
// docs/headless.md, "Flags from claude -p").

// claudeFlags are those flags' values.
type claudeFlags struct {
	partial      bool     // --include-partial-messages
	mcpConfig    []string // --mcp-config FILE|JSON (repeatable)
	strictMCP    bool     // --strict-mcp-config
	systemPrompt string   // --system-prompt
	sessionID    string   // --session-id UUID
	tools        setString
	jsonSchema   string   // --json-schema SCHEMA
	addDirs      []string // --add-dir DIR (repeatable)
	settings     string   // --settings FILE|JSON

	// notes are what apply could not use, for stderr.
	notes []string

	// schema is --json-schema compiled by apply.
	schema *tool.Schema
}

// setString is a string flag that knows whether it was given: --tools ""
// (no built-in tool) is not --tools left out (all of them).
type setString struct {
	v   string
	set bool
}

func (s *setString) String() string     { return s.v }
func (s *setString) Set(v string) error { s.v, s.set = v, true; return nil }
func (s *setString) Type() string       { return "string" }

func (c *claudeFlags) add(fs *pflag.FlagSet) {
	fs.BoolVar(&c.partial, "include-partial-messages", false, "with -p --output-format stream-json: also write the model's text as it streams, as Claude Code's stream_event lines")
	fs.StringArrayVar(&c.mcpConfig, "mcp-config", nil, "with -p: MCP servers for this run from a `FILE` or a JSON string ({\"mcpServers\":{…}}, Claude Code's shape; repeatable)")
	fs.BoolVar(&c.strictMCP, "strict-mcp-config", false, "with -p: start only the --mcp-config servers, none of the configured ones")
	fs.StringVar(&c.systemPrompt, "system-prompt", "", "with -p: replace synaps's system prompt with `TEXT` (--append-system-prompt still adds to it)")
	fs.StringVar(&c.sessionID, "session-id", "", "with -p: give the new session this `UUID` (it must not exist yet)")
	fs.Var(&c.tools, "tools", "with -p: the built-in `TOOLS` offered, Claude names (\"Bash,Edit,Read\"); \"\" none, \"default\" all")
	fs.StringArrayVar(&c.addDirs, "add-dir", nil, "with -p: a further `DIR` the tools work in, as in the project: acceptEdits edits there, the bash sandbox writes there (repeatable)")
	fs.StringVar(&c.settings, "settings", "", "with -p: Claude Code settings for this run from a `FILE` or a JSON string: their hooks, permissions and env")
	fs.StringVar(&c.jsonSchema, "json-schema", "", "with -p: the final answer must be JSON valid against `SCHEMA`; json output carries it as structured_output")
}

// printOnlyFlags are the flags above that only -p reads.
var printOnlyFlags = []string{"include-partial-messages", "mcp-config", "strict-mcp-config", "system-prompt", "session-id", "tools", "json-schema", "add-dir", "settings"}

// printOnly refuses those flags without -p: the terminal UI does not
// read them, and must not seem to.
func printOnly(fs *pflag.FlagSet) error {
	for _, name := range printOnlyFlags {
		if fs.Changed(name) {
			return usageError{fmt.Errorf("--%s is read with -p only; run synaps -p PROMPT --%s …", name, name)}
		}
	}
	return nil
}

// uuidShape is a UUID as Claude Code's --session-id takes it.
var uuidShape = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
})

// apply checks the flags and sets what they ask for in o; format is
// --output-format. Every mistake is a usage error naming the flag.
func (c *claudeFlags) apply(o *app.Options, g *globals, format string) error {
	if c.partial && format != "stream-json" {
		return usageError{errors.New("--include-partial-messages needs --output-format stream-json (the partial messages are stream lines)")}
	}
	if c.sessionID != "" {
		if !uuidShape().MatchString(c.sessionID) {
			return usageError{fmt.Errorf("--session-id %q: give a UUID such as 4f3c2a1e-8b7d-4e6f-9a0b-1c2d3e4f5a6b (uuidgen makes one)", c.sessionID)}
		}
		if g.cont || g.resume != "" {
			return usageError{errors.New("--session-id names a new session; it cannot be given with --continue or --resume")}
		}
		o.SessionID = strings.ToLower(c.sessionID)
	}
	o.SystemPrompt = c.systemPrompt
	if c.tools.set {
		names, err := builtinToolNames(c.tools.v)
		if err != nil {
			return err
		}
		if names != nil {
			o.LimitTools, o.BuiltinTools = true, names
		}
	}
	for _, v := range c.mcpConfig {
		servers, err := mcpConfigServers(v, o.WorkDir)
		if err != nil {
			return err
		}
		o.MCPServers = append(o.MCPServers, servers...)
	}
	for _, d := range c.addDirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return usageError{fmt.Errorf("--add-dir %s: %v", d, err)}
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return usageError{fmt.Errorf("--add-dir %s: not an existing directory; give a directory the tools may work in", d)}
		}
		o.AddDirs = append(o.AddDirs, abs)
	}
	if c.settings != "" {
		notes, err := applySettings(c.settings, o)
		if err != nil {
			return err
		}
		c.notes = notes
	}
	if c.strictMCP {
		o.StrictMCP = true
	}
	if c.jsonSchema != "" {
		s, err := tool.CompileSchema("--json-schema", json.RawMessage(c.jsonSchema))
		if err != nil {
			return usageError{fmt.Errorf("--json-schema: %v", err)}
		}
		c.schema = s
		// The model is told what its answer must be; the answer is
		// checked against the schema when the run ends.
		o.AppendSystemPrompt = strings.TrimSpace(o.AppendSystemPrompt + "\n\nYour final answer must be one JSON value, with nothing before or after it, valid against this JSON Schema:\n" + c.jsonSchema)
	}
	return nil
}

// builtinToolNames reads --tools: Claude tool names separated by commas
// or spaces, as synaps names; nil for "default" (every built-in).
func builtinToolNames(v string) ([]string, error) {
	if strings.TrimSpace(v) == "default" {
		return nil, nil
	}
	names := []string{}
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		if f == "Skill" { // Claude's skill tool is synaps's load_skill
			names = append(names, "load_skill")
			continue
		}
		n := claude.SynapsName(f)
		if n == f && claude.ClaudeName(f) == f {
			return nil, usageError{fmt.Errorf("--tools: %q is not a built-in tool; use Claude's names: Bash, Read, Write, Edit, Glob, Grep, LS, Agent, Skill (or \"\" for none, \"default\" for all)", f)}
		}
		names = append(names, n)
	}
	return names, nil
}

// mcpConfigServers reads one --mcp-config value: a JSON object when it
// starts with "{", else a file holding one.
func mcpConfigServers(v, workDir string) ([]mcp.Server, error) {
	src := mcp.Source{Kind: "--mcp-config", File: v, Scope: "user"}
	data := []byte(v)
	if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
		var err error
		if data, err = os.ReadFile(v); err != nil {
			return nil, usageError{fmt.Errorf("--mcp-config %s: %v (give a file or a JSON object such as {\"mcpServers\":{\"name\":{\"command\":\"…\"}}})", v, err)}
		}
	} else {
		src.File = "--mcp-config JSON"
	}
	servers, err := mcp.ParseFile(src, data, workDir)
	if err != nil {
		return nil, usageError{fmt.Errorf("--mcp-config: %v", err)}
	}
	for _, sv := range servers {
		if sv.Err != nil {
			return nil, usageError{fmt.Errorf("--mcp-config: %v", sv.Err)}
		}
	}
	return servers, nil
}

// structuredOutput checks the final answer against --json-schema: the
// answer (a ```json fence around it is allowed) parsed as JSON, or why
// it is not valid.
func (c *claudeFlags) structuredOutput(answer string) (any, error) {
	text := strings.TrimSpace(answer)
	if strings.HasPrefix(text, "```") && strings.HasSuffix(text, "```") {
		text = strings.TrimSuffix(text, "```")
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			text = text[i+1:]
		}
		text = strings.TrimSpace(text)
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return nil, fmt.Errorf("--json-schema: the final answer is not JSON (%v)", err)
	}
	// The validator reads objects; anything else is wrapped and checked
	// as a property of one.
	if _, ok := v.(map[string]any); ok {
		if err := c.schema.Validate(json.RawMessage(text)); err != nil {
			return nil, fmt.Errorf("--json-schema: the final answer does not match the schema: %v", err)
		}
		return v, nil
	}
	return nil, errors.New("--json-schema: the final answer must be a JSON object")
}

// errStructuredOutput marks a final answer --json-schema refused: its
// result's subtype is Claude Code's error_max_structured_output_retries.
type errStructuredOutput struct{ error }
