package plugin

// The manifest parser. A plugin is a directory holding
// .synaps-plugin/plugin.json; only manifests with an "extension" object
// spawn a process. Two dialects exist in the wild and both parse:
//
//   - seed dialect (the authoring guide): entry_point, extension_protocol_version,
//     per-hook permissions "hooks.<name>", hooks declared in the initialize
//     response;
//   - SynapsCLI dialect: command + args, protocol_version, runtime, group
//     permissions, hooks and config declared in the manifest.
//
// The parser is a tolerant reader: it accepts every documented spelling, and
// it reports every problem it finds at once, each naming the file, the JSON
// field path and the fix, so a plugin author fixes a manifest in one pass.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/safefile"
)

// Where a plugin's manifest lives, relative to the plugin directory.
const (
	ManifestDir  = ".synaps-plugin"
	ManifestFile = "plugin.json"
	// ClaudeManifestDir holds a Claude Code plugin's manifest, read when
	// there is no .synaps-plugin: such a plugin brings skills, commands,
	// agents, hooks and MCP servers, never an extension process.
	ClaudeManifestDir = ".claude-plugin"
)

// Launch and policy defaults.
const (
	RuntimeProcess      = "process"
	FailurePolicyOpen   = "open"   // a faulting hook lets the call continue (default)
	FailurePolicyClosed = "closed" // a faulting guard blocks the guarded call
)

// MaxManifestSize caps how much of plugin.json LoadManifest reads. A real
// manifest is a few hundred bytes.
const MaxManifestSize = 1 << 20

// ManifestError is one problem in a manifest. Its Error text reads
// "<File>[:<Line>:<Column>]: <Field>: <Problem>. <Fix>".
type ManifestError struct {
	File string
	// Field is the JSON path of the offending value, e.g.
	// `extension.permissions[2]` or `extension.hooks[0].match.input_regex`.
	// It is empty for problems with the file as a whole (missing, unreadable,
	// not JSON, not an object).
	Field   string
	Problem string // what is wrong, without a trailing period
	Fix     string // how to fix it, one or two sentences
	// Line and Column (1-based; column counts characters) locate invalid
	// JSON. Zero when unknown.
	Line, Column int
}

func (e *ManifestError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Problem)
	if e.Fix != "" {
		b.WriteString(". ")
		b.WriteString(e.Fix)
	}
	return b.String()
}

// Manifest is a parsed plugin.json.
type Manifest struct {
	File        string // path of plugin.json, as given
	Name        string
	Version     string
	Description string
	// Author is the string form; an object {"name","email","url"} becomes
	// "name <email> (url)", leaving out the parts that are absent.
	Author string
	// License and Repository are strings; an npm-style repository object
	// {"type","url"} contributes its url.
	License    string
	Repository string
	// Extension is nil when the manifest has no "extension" object: a
	// skills-only plugin, never spawned.
	Extension *ExtensionManifest
	// Format is the layout the plugin was written for (format.go).
	Format Format
	// Claude: the manifest is read as a Claude Code plugin's
	// (.claude-plugin/plugin.json, and Codex's and Open Plugins' of the
	// same shape): no extension process.
	Claude bool
	// Implicit: a Claude Code plugin without a plugin.json, named after
	// its directory (nomanifest.go); File is where it would be.
	Implicit bool
	// ClaudeHooks is the manifest's top-level "hooks" as written: a path
	// to a hooks file (relative to the plugin root) or the hooks object,
	// in Claude Code's format; hooks/hooks.json is read besides.
	ClaudeHooks json.RawMessage
	// ClaudePaths are a Claude Code manifest's extra component paths
	// ("commands", "agents", "skills", "mcpServers"); zero for others.
	ClaudePaths ClaudePaths
	// ContextFiles, ExcludeTools and GeminiSettings are a Gemini CLI
	// extension's contextFileName, excludeTools and settings (gemini.go).
	ContextFiles   []string
	ExcludeTools   []string
	GeminiSettings []GeminiSetting
	// MCPDeny are the deny rules of its servers' excludeTools
	// (mcp__server__tool).
	MCPDeny []string
	// Commands, Help and Keybinds are SynapsCLI's "commands",
	// "help_entries" and "keybinds" (manifest_commands.go).
	Commands []Command
	Help     []HelpEntry
	Keybinds []Keybind
	// Settings and Sidecar are SynapsCLI's "settings" and
	// "provides.sidecar" (manifest_settings.go); Sidecar is nil when
	// there is none.
	Settings []SettingsCategory
	Sidecar  *Sidecar
	// Sandbox is the top-level "sandbox" section (manifest_sandbox.go):
	// what the plugin's processes need; nil when it declares none.
	Sandbox *Sandbox
	// UserConfig, OutputStyles and Dependencies are Claude Code's
	// "userConfig", "outputStyles" and "dependencies" (claudeextras.go).
	UserConfig   []UserConfigOption
	OutputStyles []string
	Dependencies []Dependency
	// Warnings are non-fatal notes, each "<file>: <field>: <note>": unknown
	// keys inside "extension", a defaulted protocol version, duplicated
	// permissions, ...
	Warnings []string
}

// ExtensionManifest is the "extension" object of a manifest.
type ExtensionManifest struct {
	// EntryPoint (seed dialect) is one shell-style command line, run in the
	// plugin root. Exactly one of EntryPoint and Command is set.
	EntryPoint string
	// Command (SynapsCLI dialect) is the executable: bare names are looked
	// up in PATH, relative paths are taken from the plugin root.
	Command string
	Args    []string
	// ProtocolVersion comes from extension_protocol_version (seed) or
	// protocol_version (SynapsCLI); default 1, and 1 is the only value a
	// valid manifest holds.
	ProtocolVersion int
	Runtime         string               // "process" (default when absent)
	Permissions     contract.Permissions // the set of PermissionList
	PermissionList  []string             // declared order, de-duplicated
	// Hooks are declared in the manifest (SynapsCLI dialect); seed
	// extensions declare theirs in the initialize response instead.
	Hooks  []hook.Subscription
	Config []ConfigEntry
	// Env names environment variables passed through to the child beyond
	// the scrubbed base set (extension.env: array of names).
	Env []string
	// FailurePolicy is "open" (default) or "closed" (extension.failure_policy).
	FailurePolicy string
	// Setup is a script in the plugin (a relative path) that synaps
	// extensions install runs once, with bash, in the plugin directory
	// (SynapsCLI's extension.setup).
	Setup string
	// Prebuilt maps a platform (HostTriple) to its prebuilt binary
	// archive; install verifies and unpacks one found locally.
	Prebuilt map[string]Prebuilt
}

// ConfigEntry declares one configuration value an extension receives in
// initialize params.config.
type ConfigEntry struct {
	Key         string
	Description string
	Required    bool
	Default     json.RawMessage // compact JSON; nil when absent or null
	SecretEnv   string          // name of an env var holding the value
	Type        string          // "", "string", "number", "integer", "boolean", "bool"
	// HostContext names host state that is the value ("project_root":
	// the project directory synaps runs in); nothing else can set it.
	HostContext string
}

var (
	// configKeyRE: letters, digits, '_' and '-' (SynapsCLI's keys have
	// '-'); a key becomes part of an environment variable name, '-' as '_'.
	configKeyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_-]*$`) })
	envNameRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })
	// nonKeyCharsRE finds the runs a suggested config key replaces with '_'.
	nonKeyCharsRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^A-Za-z0-9_-]+`) })
)

// extensionKeys are the keys an "extension" object may hold; others draw a
// warning.
var extensionKeys = []string{
	"entry_point", "command", "args",
	"extension_protocol_version", "protocol_version", "runtime",
	"permissions", "hooks", "config", "env", "failure_policy",
	"setup", "prebuilt",
}

// upstreamExtensionKeys are keys of SynapsCLI's extension object that
// synaps reads no meaning from, with the warning each draws ("" for none:
// SynapsCLI ignores them too, so they mean nothing anywhere).
var upstreamExtensionKeys = map[string]string{
	"name":         "",
	"assets":       "",
	"providers":    "",
	"theme_tokens": "synaps's terminal UI has no extension theme tokens; they are ignored",
	"deferred":     "synaps starts every extension when it loads (no deferred activation); the declarations are ignored and tools, providers and hooks come from initialize",
	"activation":   "synaps starts every extension when it loads (no deferred activation); the key is ignored",
	"tools":        "tools are declared in the initialize result; extension.tools (SynapsCLI's deferred tools) is ignored",
}

// LoadManifest reads and parses pluginDir/.synaps-plugin/plugin.json.
func LoadManifest(pluginDir string) (*Manifest, error) {
	file, format := findManifest(pluginDir)
	// Without blocking, at most MaxManifestSize+1 bytes, regular files
	// only: a cloned project's manifest may be a FIFO or /dev/zero.
	data, _, err := safefile.Read(file, MaxManifestSize+1)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) && hasClaudeDefaultParts(pluginDir) {
			return implicitClaudeManifest(pluginDir), nil
		}
		if errors.Is(err, os.ErrNotExist) {
			return nil, &ManifestError{
				File:    file,
				Problem: "plugin manifest not found",
				Fix: fmt.Sprintf("Create %s with at least {\"name\": %q}; add an \"extension\" object to run a process",
					file, filepath.Base(pluginDir)),
			}
		}
		fix := "Check the file's permissions"
		if errors.Is(err, safefile.ErrNotRegular) {
			fix = "Make it a regular file holding the plugin's JSON"
		}
		return nil, &ManifestError{File: file, Problem: "cannot read plugin manifest: " + err.Error(), Fix: fix}
	}
	if len(data) > MaxManifestSize {
		return nil, &ManifestError{File: file, Problem: fmt.Sprintf("plugin manifest is larger than %d bytes", MaxManifestSize),
			Fix: "A manifest holds metadata only; move data into other files"}
	}
	return parseManifest(file, data, format)
}

// ParseManifest parses the bytes of a plugin.json. It is pure. It returns
// every problem found, joined with errors.Join; each is a *ManifestError, so
// errors.As finds them. When the text is a JSON object but has problems, the
// returned manifest holds what could be read (for listings); it is nil only
// when the text is not a JSON object.
func ParseManifest(file string, data []byte) (*Manifest, error) {
	return parseManifest(file, data, formatOf(file))
}

// parseManifest is ParseManifest for a manifest of a known format (a
// root plugin.json cannot be told by its place).
func parseManifest(file string, data []byte, format Format) (*Manifest, error) {
	p := &manifestParser{file: file}
	// Editors on some systems write a UTF-8 byte order mark; JSON forbids
	// it but a tolerant reader skips it.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, p.jsonError(data, err)
	}
	top, ok := p.object("", raw, "")
	if !ok {
		return nil, &ManifestError{File: file,
			Problem: fmt.Sprintf("the manifest must be a JSON object, got %s", kindOf(raw)),
			Fix:     `Write an object such as {"name": "my-plugin", "version": "0.1.0"}`}
	}
	m := &Manifest{File: file, Format: format, Claude: format.claudeLike()}
	if format == FormatGemini {
		p.parseGemini(m, top)
		m.Warnings = p.warns
		return m, errors.Join(p.errs...)
	}
	p.parseMeta(m, top)
	p.checkTopKeys(m, top)
	if v, ok := top.get("extension"); ok {
		m.Extension = p.parseExtension(v)
		if m.Claude && m.Extension != nil {
			p.warn("extension", "a "+format.Title()+"'s manifest starts no extension; put it in .synaps-plugin/plugin.json")
			m.Extension = nil
		}
	}
	p.parseSandbox(m, top)
	p.parseClaudeExtras(m, top)
	if v, ok := top.get("hooks"); ok {
		m.ClaudeHooks = v // Claude Code's: a path or the hooks object itself
	}
	if m.Claude {
		p.parseClaudePaths(m, top)
	} else {
		p.parseUserParts(m, top)
		p.parseProvided(m, top)
	}
	m.Warnings = p.warns
	if len(p.errs) > 0 {
		return m, errors.Join(p.errs...)
	}
	return m, nil
}

// manifestParser collects problems while walking one manifest.
type manifestParser struct {
	file  string
	errs  []error
	warns []string
}

func (p *manifestParser) fail(field, problem, fix string) {
	p.errs = append(p.errs, &ManifestError{File: p.file, Field: field, Problem: problem, Fix: fix})
}

func (p *manifestParser) warn(field, note string) {
	p.warns = append(p.warns, p.file+": "+field+": "+note)
}

// jsonError turns a decoding error into a ManifestError with a position.
func (p *manifestParser) jsonError(data []byte, err error) error {
	e := &ManifestError{File: p.file, Fix: "Fix the JSON syntax (a trailing comma, a missing quote or brace are the usual causes)"}
	var off int64 = -1
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
		e.Problem = "invalid JSON: " + syn.Error()
	case errors.As(err, &typ):
		off = typ.Offset
		e.Problem = "invalid JSON: " + typ.Error()
	default:
		e.Problem = "invalid JSON: " + err.Error()
	}
	if len(bytes.TrimSpace(data)) == 0 {
		e.Problem = "the manifest is empty"
		e.Fix = `Write a JSON object such as {"name": "my-plugin", "version": "0.1.0"}`
		return e
	}
	if off >= 0 {
		e.Line, e.Column = lineCol(data, off)
	}
	return e
}

// lineCol converts the byte offset reported by encoding/json ("after
// reading off bytes") into the 1-based line and character column of the
// offending byte.
func lineCol(data []byte, off int64) (line, col int) {
	pos := int(off) - 1
	if pos < 0 {
		pos = 0
	}
	if pos > len(data) {
		pos = len(data)
	}
	before := data[:pos]
	line = 1 + bytes.Count(before, []byte("\n"))
	start := bytes.LastIndexByte(before, '\n') + 1
	col = 1 + utf8.RuneCount(before[start:])
	return line, col
}

// parseExtension reads the "extension" object. It returns nil when the value
// is not an object (after recording the error).
func (p *manifestParser) parseExtension(v json.RawMessage) *ExtensionManifest {
	obj, ok := p.object("extension", v,
		`Write "extension" as an object, e.g. {"entry_point": "python3 main.py", "extension_protocol_version": 1, "permissions": ["tools.register"]}; remove it for a skills-only plugin`)
	if !ok {
		return nil
	}
	p.warnDuplicateKeys("extension", obj)
	e := &ExtensionManifest{ProtocolVersion: contract.ProtocolVersion, Runtime: RuntimeProcess, FailurePolicy: FailurePolicyOpen}

	for _, k := range obj.keys {
		if slices.Contains(extensionKeys, k) {
			continue
		}
		if note, ok := upstreamExtensionKeys[k]; ok {
			if note != "" {
				p.warn("extension."+k, note)
			}
			continue
		}
		note := fmt.Sprintf("unknown key %q is ignored", k)
		if top := belongsAtTop(k); top != "" {
			note += "; " + top
		} else if s := suggest(k, extensionKeys); s != "" {
			note += fmt.Sprintf(`; did you mean %q?`, s)
		} else {
			note += "; known keys are " + strings.Join(extensionKeys, ", ")
		}
		p.warn("extension."+k, note)
	}

	p.parseLaunch(e, obj)
	p.parseProtocol(e, obj)

	p.parseRuntime(e, obj)
	p.parsePermissions(e, obj)

	// Hooks after permissions: each subscription is checked against them.
	p.parseHooks(e, obj)
	p.checkDoesSomething(e)
	p.parseConfig(e, obj)
	p.parseEnv(e, obj)

	p.parseFailurePolicy(e, obj)
	p.parseInstall(e, obj)
	return e
}

func (p *manifestParser) warnDuplicateKeys(field string, obj *jsonObject) {
	for _, k := range obj.dups {
		path := k
		if field != "" {
			path = field + "." + k
		}
		p.warn(path, "key appears more than once; the last value is used")
	}
}

// --- typed access helpers -------------------------------------------------
