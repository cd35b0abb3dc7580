package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/synaps-cli/synaps/internal/safefile"
	"github.com/synaps-cli/synaps/internal/sandbox"
)

// Transport kinds of a server.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http" // streamable HTTP
	TransportSSE   = "sse"
)

// Server is one configured MCP server, as written in its file (variables
// not yet expanded).
type Server struct {
	// Name is the key of the server in its file.
	Name string `json:"-"`
	// Type is "stdio", "http" (streamable HTTP) or "sse"; empty in the
	// file means stdio with a command, http with a url (sse when the url's
	// path ends in /sse, as Cursor guesses).
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// Cwd is the stdio server's working directory; default the project.
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Disabled servers are listed but not started.
	Disabled bool `json:"disabled,omitempty"`
	// StartupTimeoutSec bounds connecting and listing tools (seconds;
	// default 30, or $MCP_TIMEOUT in milliseconds as Claude Code reads it).
	StartupTimeoutSec float64 `json:"startup_timeout_sec,omitempty"`
	// ToolTimeoutSec bounds one tool call (seconds; default 120, or
	// $MCP_TOOL_TIMEOUT in milliseconds).
	ToolTimeoutSec float64 `json:"tool_timeout_sec,omitempty"`

	// Source is where the server was configured.
	Source Source `json:"-"`
	// Line is the line of the server's key in Source.File (0: unknown).
	Line int `json:"-"`
	// Err is why the entry cannot be used (a missing command, both
	// command and url …); such a server is listed as failed.
	Err error `json:"-"`
	// PluginDir is set for a server a plugin's .mcp.json adds:
	// ${CLAUDE_PLUGIN_ROOT} and ${SYNAPS_PLUGIN_ROOT} expand to it, and
	// ${CLAUDE_PLUGIN_DATA} to PluginData, the plugin's data directory.
	PluginDir  string `json:"-"`
	PluginData string `json:"-"`
	// PluginID is the plugin's id, and UserConfig its user options
	// (Claude Code's userConfig, as text): ${user_config.KEY} expands to
	// one, and the server gets each as CLAUDE_PLUGIN_OPTION_<KEY>.
	PluginID   string            `json:"-"`
	UserConfig map[string]string `json:"-"`
}

// Source is one config file.
type Source struct {
	// Kind names the source for people: "synaps user", "claude project" …
	Kind string
	// File is the file's path.
	File string
	// Scope is "user", "project", "local" or "plugin".
	Scope string
	// Key is the JSON path of the servers object inside the file
	// ("mcpServers", "projects[/dir].mcpServers"); empty: the file's
	// top level or its mcpServers.
	Key string
	// Data, when set, is the config itself (a plugin manifest's inline
	// mcpServers; File then names where it was written).
	Data []byte
	// PluginDir is the plugin a plugin-scope source belongs to;
	// PluginID its id and Sandbox its manifest's sandbox section (nil:
	// none), for the policy its servers run under.
	PluginDir string
	PluginID  string
	Sandbox   *sandbox.Declared
	// PluginData is the plugin's data directory (${CLAUDE_PLUGIN_DATA}).
	PluginData string
	// UserConfig are the plugin's user options (Server.UserConfig).
	UserConfig map[string]string
}

func (s Source) String() string { return s.Kind + " (" + s.File + ")" }

// Sources say where to look for config.
type Sources struct {
	// BaseDir is synaps's base directory (mcp.json there: scope user).
	BaseDir string
	// Home is the user's home directory (~/.claude.json,
	// ~/.cursor/mcp.json).
	Home string
	// ProjectDir is the project directory.
	ProjectDir string
	// ProjectTrusted admits the project's files (.synaps/mcp.json,
	// .mcp.json, .cursor/mcp.json), behind the same trust gate as project
	// plugins.
	ProjectTrusted bool
	// NoClaudeUser leaves out ~/.claude.json (config
	// claude.import_user_hooks = false).
	NoClaudeUser bool
	// Plugins are plugin directories whose .mcp.json adds servers.
	Plugins []PluginDir
}

// PluginDir is one MCP config of an enabled, trusted plugin: its
// .mcp.json (File empty), another file its manifest names, or (Data set)
// the servers object written inline in its manifest.
type PluginDir struct {
	ID  string
	Dir string
	// File is the config file; empty means Dir/.mcp.json.
	File string
	// Data is an inline config; File then names where it was written.
	Data []byte
	// Sandbox is the plugin's manifest sandbox section (nil: none).
	Sandbox *sandbox.Declared
	// DataDir is the plugin's data directory, ${CLAUDE_PLUGIN_DATA}.
	DataDir string
	// UserConfig are the plugin's user options (Server.UserConfig).
	UserConfig map[string]string
}

// UserFile is synaps's own user-scope MCP config file.
func UserFile(baseDir string) string { return filepath.Join(baseDir, "mcp.json") }

// ProjectFile is synaps's own project-scope MCP config file.
func ProjectFile(projectDir string) string {
	return filepath.Join(projectDir, ".synaps", "mcp.json")
}

// Files lists the sources in merge order: later wins for a server name.
// Plugins come first, so a user's own entry of the same name wins; then
// the user's files (Cursor, Claude, synaps), then the project's (same
// order), so a project's server overrides a user's and synaps's own file
// overrides the other tools' at each level. The project's files are listed
// only when it is trusted; see UntrustedProjectFiles.
func (s Sources) Files() []Source {
	var out []Source
	for _, p := range s.Plugins {
		file := p.File
		if file == "" {
			file = filepath.Join(p.Dir, ".mcp.json")
		}
		out = append(out, Source{Kind: "plugin " + p.ID, File: file, Scope: "plugin", Data: p.Data, PluginDir: p.Dir, PluginID: p.ID, Sandbox: p.Sandbox, PluginData: p.DataDir, UserConfig: p.UserConfig})
	}
	if s.Home != "" {
		claude := filepath.Join(s.Home, ".claude.json")
		out = append(out, Source{Kind: "cursor user", File: filepath.Join(s.Home, ".cursor", "mcp.json"), Scope: "user"})
		if !s.NoClaudeUser {
			out = append(out, Source{Kind: "claude user", File: claude, Scope: "user", Key: "mcpServers"})
		}
		if s.ProjectDir != "" && !s.NoClaudeUser {
			out = append(out, Source{Kind: "claude local", File: claude, Scope: "local", Key: "projects[" + s.ProjectDir + "].mcpServers"})
		}
	}
	if s.BaseDir != "" {
		out = append(out, Source{Kind: "synaps user", File: UserFile(s.BaseDir), Scope: "user"})
	}
	if s.ProjectDir != "" && s.ProjectTrusted {
		out = append(out, s.projectFiles()...)
	}
	return out
}

func (s Sources) projectFiles() []Source {
	return []Source{
		{Kind: "cursor project", File: filepath.Join(s.ProjectDir, ".cursor", "mcp.json"), Scope: "project"},
		{Kind: "claude project", File: filepath.Join(s.ProjectDir, ".mcp.json"), Scope: "project"},
		{Kind: "synaps project", File: ProjectFile(s.ProjectDir), Scope: "project"},
	}
}

// UntrustedProjectFiles lists the project's config files that exist but
// were not read because the project is not trusted.
func (s Sources) UntrustedProjectFiles() []string {
	if s.ProjectDir == "" || s.ProjectTrusted {
		return nil
	}
	var out []string
	for _, src := range s.projectFiles() {
		if _, err := os.Stat(src.File); err == nil {
			out = append(out, src.File)
		}
	}
	return out
}

// Config is the merged result of every source.
type Config struct {
	// Servers are the effective servers, sorted by name.
	Servers []Server
	// Errors are files that could not be read (bad JSON …); their
	// servers are missing from Servers.
	Errors []error
	// Overridden lists, per server name, the earlier sources a later one
	// replaced.
	Overridden map[string][]Source
}

// maxConfigFile bounds an .mcp.json or settings file read for servers.
const maxConfigFile = 1 << 20

// Load reads and merges every source. A missing file is not an error.
func Load(s Sources) *Config {
	cfg := &Config{Overridden: map[string][]Source{}}
	byName := map[string]Server{}
	cache := map[string][]byte{}
	for _, src := range s.Files() {
		data, ok := cache[src.File]
		if src.Data != nil {
			data, ok = src.Data, true
		}
		if !ok {
			var err error
			data, err = safefile.ReadAll(src.File, maxConfigFile)
			if err != nil {
				if !errors.Is(err, fs.ErrNotExist) {
					cfg.Errors = append(cfg.Errors, err)
				}
				cache[src.File] = nil
				continue
			}
			cache[src.File] = data
		}
		if data == nil {
			continue
		}
		servers, err := ParseFile(src, data, s.ProjectDir)
		if err != nil {
			cfg.Errors = append(cfg.Errors, err)
			continue
		}
		for _, sv := range servers {
			if src.Scope == "plugin" {
				sv.PluginDir, sv.PluginData = src.PluginDir, src.PluginData
				sv.PluginID, sv.UserConfig = src.PluginID, src.UserConfig
			}
			if old, dup := byName[sv.Name]; dup {
				cfg.Overridden[sv.Name] = append(cfg.Overridden[sv.Name], old.Source)
			}
			byName[sv.Name] = sv
		}
	}
	for _, sv := range byName {
		cfg.Servers = append(cfg.Servers, sv)
	}
	sort.Slice(cfg.Servers, func(i, j int) bool { return cfg.Servers[i].Name < cfg.Servers[j].Name })
	return cfg
}

// ParseFile reads the servers of one file. Accepted shapes:
// {"mcpServers": {name: {...}}}, VS Code's {"servers": {...}}, and a flat
// {name: {...}} map; for ~/.claude.json, src.Key picks the object. A
// syntax error names the file and line; an entry that cannot be used is
// returned with Err set, so it is listed rather than dropped.
func ParseFile(src Source, data []byte, projectDir string) ([]Server, error) {
	top, err := members(data, 0)
	if err != nil {
		return nil, syntaxError(src.File, data, err)
	}
	var servers []member
	switch {
	case strings.HasPrefix(src.Key, "projects["):
		dir := strings.TrimSuffix(strings.TrimPrefix(src.Key, "projects["), "].mcpServers")
		projects, ok := find(top, "projects")
		if !ok {
			return nil, nil
		}
		ps, err := members(projects.raw, projects.rawOff)
		if err != nil {
			return nil, nil // not an object: not ours to judge
		}
		p, ok := find(ps, dir)
		if !ok {
			return nil, nil
		}
		pm, err := members(p.raw, p.rawOff)
		if err != nil {
			return nil, nil
		}
		m, ok := find(pm, "mcpServers")
		if !ok {
			return nil, nil
		}
		if servers, err = members(m.raw, m.rawOff); err != nil {
			return nil, fmt.Errorf("%s:%d: %s is not an object; write {\"name\": {\"command\": …}}", src.File, lineAt(data, m.off), src.Key)
		}
	case src.Key == "mcpServers":
		m, ok := find(top, "mcpServers")
		if !ok {
			return nil, nil
		}
		if servers, err = members(m.raw, m.rawOff); err != nil {
			return nil, fmt.Errorf("%s:%d: mcpServers is not an object; write \"mcpServers\": {\"name\": {\"command\": …}}", src.File, lineAt(data, m.off))
		}
	default:
		servers = top
		for _, key := range []string{"mcpServers", "servers"} {
			if m, ok := find(top, key); ok {
				if servers, err = members(m.raw, m.rawOff); err != nil {
					return nil, fmt.Errorf("%s:%d: %s is not an object; write \"%s\": {\"name\": {\"command\": …}}", src.File, lineAt(data, m.off), key, key)
				}
				break
			}
		}
	}
	var out []Server
	for _, m := range servers {
		sv := Server{Name: m.key, Source: src, Line: lineAt(data, m.off)}
		where := fmt.Sprintf("%s:%d: server %q", src.File, sv.Line, m.key)
		dec := json.NewDecoder(bytes.NewReader(m.raw))
		if err := dec.Decode(&sv); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) && te.Field != "" {
				sv.Err = fmt.Errorf("%s: field %s must be %s, not a JSON %s", where, te.Field, jsonKind(te.Type.String()), te.Value)
			} else {
				sv.Err = fmt.Errorf("%s: must be an object such as {\"command\": \"npx\", \"args\": [\"-y\", \"some-server\"]} or {\"url\": \"https://…\"}", where)
			}
			sv.Name, sv.Source = m.key, src
			out = append(out, sv)
			continue
		}
		sv.Name, sv.Source, sv.Line = m.key, src, lineAt(data, m.off)
		// Gemini's httpUrl is a streamable HTTP url.
		var extra struct {
			HTTPURL string `json:"httpUrl"`
		}
		_ = json.Unmarshal(m.raw, &extra)
		if sv.URL == "" && extra.HTTPURL != "" {
			sv.URL = extra.HTTPURL
			if sv.Type == "" {
				sv.Type = TransportHTTP
			}
		}
		sv.Err = sv.check(where)
		out = append(out, sv)
	}
	return out, nil
}

func jsonKind(goType string) string {
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "a list of strings"
	case strings.HasPrefix(goType, "map["):
		return "an object of strings"
	case goType == "bool":
		return "true or false"
	case goType == "float64":
		return "a number"
	default:
		return "a string"
	}
}

// check validates the entry and settles its transport.
func (sv *Server) check(where string) error {
	if sv.Name == "" {
		return fmt.Errorf("%s: the server name is empty; give it a name", where)
	}
	switch strings.ToLower(sv.Type) {
	case "":
	case "stdio":
		sv.Type = TransportStdio
	case "http", "streamable-http", "streamable_http", "streamablehttp":
		sv.Type = TransportHTTP
	case "sse":
		sv.Type = TransportSSE
	default:
		return fmt.Errorf("%s: type %q is not one synaps knows; use \"stdio\" (with command), \"http\" or \"sse\" (with url)", where, sv.Type)
	}
	switch {
	case sv.Command != "" && sv.URL != "":
		return fmt.Errorf("%s: has both command and url; keep command for a local server started by synaps, or url for a remote one", where)
	case sv.Type == TransportStdio && sv.Command == "":
		return fmt.Errorf("%s: type stdio needs a command, e.g. \"command\": \"npx\", \"args\": [\"-y\", \"some-server\"]", where)
	case (sv.Type == TransportHTTP || sv.Type == TransportSSE) && sv.URL == "":
		return fmt.Errorf("%s: type %s needs a url, e.g. \"url\": \"https://example.com/mcp\"", where, sv.Type)
	case sv.Command == "" && sv.URL == "":
		return fmt.Errorf("%s: has neither command nor url; add \"command\" (and \"args\") to start a local server, or \"url\" for a remote one", where)
	}
	if sv.Type == "" {
		if sv.Command != "" {
			sv.Type = TransportStdio
		} else if strings.HasSuffix(strings.TrimRight(urlPath(sv.URL), "/"), "/sse") {
			sv.Type = TransportSSE
		} else {
			sv.Type = TransportHTTP
		}
	}
	if sv.StartupTimeoutSec < 0 || sv.ToolTimeoutSec < 0 {
		return fmt.Errorf("%s: timeouts are seconds and cannot be negative", where)
	}
	return nil
}

func urlPath(u string) string {
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if i := strings.IndexByte(u, '/'); i >= 0 {
		return u[i:]
	}
	return ""
}

// member is one key of a JSON object, with the byte offset of its key.
type member struct {
	key string
	raw json.RawMessage
	// off is the offset of the key, rawOff of the value.
	off, rawOff int
}

func find(ms []member, key string) (member, bool) {
	for _, m := range ms {
		if m.key == key {
			return m, true
		}
	}
	return member{}, false
}

// members splits a JSON object into its members; base is data's offset in
// the file, so offsets are the file's.
func members(data []byte, base int) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, &json.SyntaxError{Offset: dec.InputOffset()}
	}
	var out []member
	for dec.More() {
		keyStart := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		// keyStart is just after the previous value (or '{'): skip to
		// the key's quote so its line is the key's own.
		off := int(keyStart)
		for off < len(data) && data[off] != '"' {
			off++
		}
		rawOff := int(dec.InputOffset()) - len(raw)
		out = append(out, member{key: key, raw: raw, off: base + off, rawOff: base + rawOff})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, &json.SyntaxError{Offset: dec.InputOffset()}
	}
	return out, nil
}

func syntaxError(file string, data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// The offset may stop short of the offending character, before
		// the white space that leads to it.
		off := int(se.Offset)
		for off < len(data) && strings.ContainsRune(" \t\r\n", rune(data[off])) {
			off++
		}
		return fmt.Errorf("%s:%d: not valid JSON (%v); fix the file or remove it", file, lineAt(data, off), se)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("%s:%d: not valid JSON (the file ends early); it should hold {\"mcpServers\": {…}}", file, lineAt(data, len(data)))
	}
	return fmt.Errorf("%s: not valid JSON (%v); it should hold {\"mcpServers\": {…}}", file, err)
}

// lineAt is the 1-based line of byte offset off.
func lineAt(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}
