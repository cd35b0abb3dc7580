package extension

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
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

// Where a plugin's manifest lives, relative to the plugin directory.
const (
	ManifestDir  = ".synaps-plugin"
	ManifestFile = "plugin.json"
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
}

// ConfigEntry declares one configuration value an extension receives in
// initialize params.config.
type ConfigEntry struct {
	Key         string
	Description string
	Required    bool
	Default     json.RawMessage // compact JSON; nil when absent or null
	SecretEnv   string          // name of an env var holding the value
	Type        string          // "", "string", "number", "integer", "boolean"
}

// ConfigTypes are the values "type" may take in a config entry.
var ConfigTypes = []string{"string", "number", "integer", "boolean"}

var (
	configKeyRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
	envNameRE   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// nonKeyCharsRE finds the runs a suggested config key replaces with '_'.
	nonKeyCharsRE = regexp.MustCompile(`[^A-Za-z0-9_]+`)
)

// extensionKeys are the keys an "extension" object may hold; others draw a
// warning.
var extensionKeys = []string{
	"entry_point", "command", "args",
	"extension_protocol_version", "protocol_version", "runtime",
	"permissions", "hooks", "config", "env", "failure_policy",
}

var configEntryKeys = []string{"key", "description", "required", "default", "secret_env", "type"}

// LoadManifest reads and parses pluginDir/.synaps-plugin/plugin.json.
func LoadManifest(pluginDir string) (*Manifest, error) {
	file := filepath.Join(pluginDir, ManifestDir, ManifestFile)
	f, err := os.Open(file)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, &ManifestError{
				File:    file,
				Problem: "plugin manifest not found",
				Fix: fmt.Sprintf("Create %s with at least {\"name\": %q}; add an \"extension\" object to run a process",
					file, filepath.Base(pluginDir)),
			}
		}
		return nil, &ManifestError{File: file, Problem: "cannot read plugin manifest: " + err.Error(),
			Fix: "Check the file's permissions"}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxManifestSize+1))
	if err != nil {
		return nil, &ManifestError{File: file, Problem: "cannot read plugin manifest: " + err.Error(),
			Fix: "Check that the path is a regular, readable file"}
	}
	if len(data) > MaxManifestSize {
		return nil, &ManifestError{File: file, Problem: fmt.Sprintf("plugin manifest is larger than %d bytes", MaxManifestSize),
			Fix: "A manifest holds metadata only; move data into other files"}
	}
	return ParseManifest(file, data)
}

// ParseManifest parses the bytes of a plugin.json. It is pure. It returns
// every problem found, joined with errors.Join; each is a *ManifestError, so
// errors.As finds them. When the text is a JSON object but has problems, the
// returned manifest holds what could be read (for listings); it is nil only
// when the text is not a JSON object.
func ParseManifest(file string, data []byte) (*Manifest, error) {
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
	m := &Manifest{File: file}
	p.parseMeta(m, top)
	if v, ok := top.get("extension"); ok {
		m.Extension = p.parseExtension(v)
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

// parseMeta reads the top-level descriptive fields.
func (p *manifestParser) parseMeta(m *Manifest, top *jsonObject) {
	p.warnDuplicateKeys("", top)
	if v, ok := top.get("name"); !ok {
		p.fail("name", `missing required field "name"`,
			`Add "name": "my-plugin" (no ':', '/' or spaces; it is shown in /extensions list)`)
	} else if s, ok := p.str("name", v, `Write the name as a string, e.g. "name": "my-plugin"`); ok {
		m.Name = s
		p.checkName(s)
	}
	m.Version, _ = p.optStr(top, "version", `Write the version as a string, e.g. "version": "0.1.0"`)
	m.Description, _ = p.optStr(top, "description", `Write the description as a string`)
	m.License, _ = p.optStr(top, "license", `Write the license as an SPDX string, e.g. "license": "MIT"`)
	if v, ok := top.get("author"); ok {
		m.Author = p.author(v)
	}
	if v, ok := top.get("repository"); ok {
		m.Repository = p.repository(v)
	}
}

func (p *manifestParser) checkName(s string) {
	const fix = "Rename it without ':', '/', '\\' or whitespace, e.g. %q: runtime tool ids are \"<plugin>:<tool>\""
	switch {
	case s == "":
		p.fail("name", `"name" is empty`, `Set "name" to a non-empty identifier such as "my-plugin"`)
	case strings.ContainsAny(s, ":/"):
		bad := ":"
		if !strings.Contains(s, ":") {
			bad = "/"
		}
		p.fail("name", fmt.Sprintf("name %q must not contain '%s'", s, bad), fmt.Sprintf(fix, sanitizeName(s)))
	case strings.IndexFunc(s, unicode.IsSpace) >= 0:
		p.fail("name", fmt.Sprintf("name %q must not contain whitespace", s), fmt.Sprintf(fix, sanitizeName(s)))
	case strings.IndexFunc(s, unicode.IsControl) >= 0 || strings.Contains(s, `\`):
		p.fail("name", fmt.Sprintf("name %q must not contain control characters or '\\'", s), fmt.Sprintf(fix, sanitizeName(s)))
	}
}

// sanitizeName suggests a valid plugin name for a bad one.
func sanitizeName(s string) string {
	out := strings.Map(func(r rune) rune {
		if r == ':' || r == '/' || r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r) {
			return '-'
		}
		return r
	}, s)
	if strings.Trim(out, "-") == "" {
		return "my-plugin"
	}
	return out
}

func (p *manifestParser) author(v json.RawMessage) string {
	const fix = `Write "author" as a string ("Name <email>") or an object {"name": ..., "email": ..., "url": ...}`
	switch v[0] {
	case '"':
		s, _ := p.str("author", v, fix)
		return s
	case '{':
		obj, _ := p.object("author", v, fix)
		name, _ := p.optStrAt(obj, "author", "name", fix)
		email, _ := p.optStrAt(obj, "author", "email", fix)
		url, _ := p.optStrAt(obj, "author", "url", fix)
		var parts []string
		if name != "" {
			parts = append(parts, name)
		}
		if email != "" {
			parts = append(parts, "<"+email+">")
		}
		if url != "" {
			parts = append(parts, "("+url+")")
		}
		return strings.Join(parts, " ")
	}
	p.fail("author", fmt.Sprintf(`"author" must be a string or an object, got %s`, kindOf(v)), fix)
	return ""
}

func (p *manifestParser) repository(v json.RawMessage) string {
	const fix = `Write "repository" as a URL string, or an object {"type": "git", "url": ...}`
	if v[0] == '{' {
		obj, _ := p.object("repository", v, fix)
		s, _ := p.optStrAt(obj, "repository", "url", fix)
		return s
	}
	if v[0] != '"' {
		p.fail("repository", fmt.Sprintf(`"repository" must be a string or an object, got %s`, kindOf(v)), fix)
		return ""
	}
	s, _ := p.str("repository", v, fix)
	return s
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
		note := fmt.Sprintf("unknown key %q is ignored", k)
		if s := suggest(k, extensionKeys); s != "" {
			note += fmt.Sprintf(`; did you mean %q?`, s)
		} else {
			note += "; known keys are " + strings.Join(extensionKeys, ", ")
		}
		p.warn("extension."+k, note)
	}

	p.parseLaunch(e, obj)
	p.parseProtocol(e, obj)

	if v, ok := obj.get("runtime"); ok {
		const fix = `Set "runtime": "process" or remove the key; this synaps runs extensions as child processes only`
		if s, ok := p.str("extension.runtime", v, fix); ok && s != RuntimeProcess {
			p.fail("extension.runtime", fmt.Sprintf("runtime %q is not supported", s), fix)
			e.Runtime = s
		}
	}

	p.parsePermissions(e, obj)

	if v, ok := obj.get("hooks"); ok {
		decoded, warns, err := decodeSubscriptions(p.file, "extension.hooks", v)
		p.warns = append(p.warns, warns...)
		if err != nil {
			p.errs = append(p.errs, unjoin(err)...)
		}
		for _, d := range decoded {
			if !d.bad {
				e.Hooks = append(e.Hooks, d.sub)
			}
			if d.sub.Hook == "" {
				continue // already reported as empty
			}
			if err := CheckSubscription(d.sub, e.Permissions); err != nil {
				p.errs = append(p.errs, subscriptionManifestError(p.file, fmt.Sprintf("extension.hooks[%d]", d.index), d.hookKey, err))
			}
		}
	}

	p.parseConfig(e, obj)

	if v, ok := obj.get("env"); ok {
		e.Env = p.envNames(v)
	}

	if v, ok := obj.get("failure_policy"); ok {
		const fix = `Set "failure_policy" to "open" (a faulting hook lets the call continue; the default) or "closed" (a faulting guard blocks the call)`
		if s, ok := p.str("extension.failure_policy", v, fix); ok {
			if s != FailurePolicyOpen && s != FailurePolicyClosed {
				p.fail("extension.failure_policy", fmt.Sprintf("unknown failure policy %q", s), fix)
			}
			e.FailurePolicy = s
		}
	}
	return e
}

func (p *manifestParser) parseLaunch(e *ExtensionManifest, obj *jsonObject) {
	epRaw, hasEP := obj.get("entry_point")
	cmdRaw, hasCmd := obj.get("command")
	argsRaw, hasArgs := obj.get("args")
	switch {
	case hasEP && hasCmd:
		p.fail("extension.entry_point", `both "entry_point" and "command" are set`,
			`Keep exactly one: "entry_point": "python3 main.py" (one shell-style line) or "command": "python3" with "args": ["main.py"]`)
	case !hasEP && !hasCmd:
		p.fail("extension.entry_point", `missing how to start the extension: neither "entry_point" nor "command" is set`,
			`Add "entry_point": "python3 main.py", or "command": "python3" with "args": ["main.py"]; a plugin without a process has no "extension" object`)
	}
	if hasEP {
		const fix = `Write one command line run in the plugin root, e.g. "entry_point": "python3 main.py"`
		if s, ok := p.str("extension.entry_point", epRaw, fix); ok {
			e.EntryPoint = s
			if strings.TrimSpace(s) == "" {
				p.fail("extension.entry_point", `"entry_point" is empty`, fix)
			} else if _, err := parseEntryPoint(s); err != nil {
				p.fail("extension.entry_point", fmt.Sprintf("cannot parse entry point %q: %v", s, err),
					`Close every quote (or escape it with a backslash); entry_point follows shell quoting rules, e.g. "python3 'my script.py'"`)
			}
		}
	}
	if hasCmd {
		const fix = `Write the executable as a string, e.g. "command": "python3", and put its arguments in "args"`
		if s, ok := p.str("extension.command", cmdRaw, fix); ok {
			e.Command = s
			switch {
			case strings.TrimSpace(s) == "":
				p.fail("extension.command", `"command" is empty`, fix)
			case strings.ContainsAny(s, " \t"):
				p.warn("extension.command", fmt.Sprintf(`%q is run as one executable name and is not split on spaces; put arguments in "args" (or use "entry_point" for a command line)`, s))
			}
		}
	}
	if hasArgs {
		if !hasCmd {
			p.fail("extension.args", `"args" is only used with "command"`,
				`Put the arguments into "entry_point" (e.g. "python3 main.py --flag") or replace "entry_point" with "command" + "args"`)
		}
		e.Args = p.stringArray("extension.args", argsRaw, `Write "args" as an array of strings, e.g. ["main.py", "--verbose"]`)
	}
}

func (p *manifestParser) parseProtocol(e *ExtensionManifest, obj *jsonObject) {
	seedRaw, hasSeed := obj.get("extension_protocol_version")
	cliRaw, hasCLI := obj.get("protocol_version")
	seed, seedOK := 0, false
	cli, cliOK := 0, false
	if hasSeed {
		seed, seedOK = p.version("extension.extension_protocol_version", "extension_protocol_version", seedRaw)
	}
	if hasCLI {
		cli, cliOK = p.version("extension.protocol_version", "protocol_version", cliRaw)
	}
	switch {
	case seedOK && cliOK && seed != cli:
		p.fail("extension.protocol_version",
			fmt.Sprintf(`"protocol_version" (%d) disagrees with "extension_protocol_version" (%d)`, cli, seed),
			`Keep one of the two keys, set to 1; this synaps speaks extension protocol 1`)
		e.ProtocolVersion = cli
	case seedOK:
		e.ProtocolVersion = seed
	case cliOK:
		e.ProtocolVersion = cli
	}
	// Neither key: protocol 1, the SynapsCLI default. Not worth a warning
	// on every load; `synaps extensions test` points it out to authors.
}

// version reads a protocol version number; it reports (and returns ok=false
// for) anything but an integer, and reports a version other than 1.
func (p *manifestParser) version(field, key string, v json.RawMessage) (int, bool) {
	fix := fmt.Sprintf(`Set %q: 1; this synaps speaks extension protocol 1`, key)
	if kindOf(v) != "a number" {
		p.fail(field, fmt.Sprintf("the protocol version must be a number, got %s", kindOf(v)), fix)
		return 0, false
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		p.fail(field, fmt.Sprintf("protocol version %s is not an integer", v), fix)
		return 0, false
	}
	n := int(f)
	if n != contract.ProtocolVersion {
		p.fail(field, fmt.Sprintf("extension protocol version %d is not supported: this synaps speaks extension protocol %d", n, contract.ProtocolVersion),
			fmt.Sprintf(`Set %q: 1, or install a synaps that speaks protocol %d`, key, n))
	}
	return n, true
}

func (p *manifestParser) parsePermissions(e *ExtensionManifest, obj *jsonObject) {
	e.Permissions = contract.Permissions{}
	v, ok := obj.get("permissions")
	if !ok {
		return
	}
	const fix = `Write "permissions" as an array of strings, e.g. ["tools.register", "hooks.before_tool_call"]`
	items, ok := p.array("extension.permissions", v, fix)
	if !ok {
		return
	}
	for i, it := range items {
		field := fmt.Sprintf("extension.permissions[%d]", i)
		s, ok := p.str(field, it, fix)
		if !ok {
			continue
		}
		switch {
		case slices.Contains(contract.ReservedPermissions, s):
			p.fail(field, fmt.Sprintf("permission %q is reserved and never granted", s),
				`Remove it; to change how a tool behaves, declare "tools.intercept" and handle the before_tool_call hook`)
			continue
		case !contract.KnownPermission(s):
			fix := "Use one of: " + strings.Join(knownPermissionList(), ", ")
			if sug := suggest(s, allPermissions()); sug != "" {
				fix = fmt.Sprintf("Did you mean %q? ", sug) + fix
			}
			p.fail(field, fmt.Sprintf("unknown permission %q", s), fix)
			continue
		}
		if e.Permissions[s] {
			p.warn(field, fmt.Sprintf("permission %q is listed more than once", s))
			continue
		}
		e.Permissions[s] = true
		e.PermissionList = append(e.PermissionList, s)
	}
}

// knownPermissionList lists the declarable permissions for error messages,
// the per-hook ones as hooks.<hook_name>.
func knownPermissionList() []string {
	return append(slices.Clone(contract.GroupPermissions), contract.HookPermissionPrefix+"<hook_name> (hook_name: "+strings.Join(contract.HookNames(), ", ")+")")
}

// allPermissions lists every declarable permission, spelled out.
func allPermissions() []string {
	all := slices.Clone(contract.GroupPermissions)
	for _, h := range contract.HookNames() {
		all = append(all, contract.HookPermissionPrefix+h)
	}
	return all
}

func (p *manifestParser) parseConfig(e *ExtensionManifest, obj *jsonObject) {
	v, ok := obj.get("config")
	if !ok {
		return
	}
	const fix = `Write "config" as an array of objects, e.g. [{"key": "allowed_dir", "description": "...", "default": "/tmp"}]`
	items, ok := p.array("extension.config", v, fix)
	if !ok {
		return
	}
	seen := map[string]int{} // upper-cased key -> index of first use
	for i, it := range items {
		base := fmt.Sprintf("extension.config[%d]", i)
		entry, ok := p.object(base, it, fix)
		if !ok {
			continue
		}
		for _, k := range entry.keys {
			if !slices.Contains(configEntryKeys, k) {
				note := fmt.Sprintf("unknown key %q is ignored", k)
				if s := suggest(k, configEntryKeys); s != "" {
					note += fmt.Sprintf("; did you mean %q?", s)
				} else {
					note += "; known keys are " + strings.Join(configEntryKeys, ", ")
				}
				p.warn(base+"."+k, note)
			}
		}
		var c ConfigEntry
		keyOK := false
		if kv, ok := entry.get("key"); !ok {
			p.fail(base+".key", `missing required field "key"`, `Add "key": "my_setting" (letters, digits and '_', starting with a letter)`)
		} else if s, ok := p.str(base+".key", kv, `Write the key as a string such as "allowed_dir"`); ok {
			c.Key = s
			if !configKeyRE.MatchString(s) {
				sug := strings.Trim(nonKeyCharsRE.ReplaceAllString(s, "_"), "_")
				if sug == "" || !configKeyRE.MatchString(sug) {
					sug = "my_setting"
				}
				p.fail(base+".key", fmt.Sprintf("config key %q is not valid", s),
					fmt.Sprintf(`Use letters, digits and '_', starting with a letter (e.g. %q): the key becomes part of the environment variable SYNAPS_EXTENSION_<ID>__<KEY>`, sug))
			} else {
				keyOK = true
			}
		}
		if keyOK {
			up := strings.ToUpper(c.Key)
			if j, dup := seen[up]; dup {
				p.fail(base+".key", fmt.Sprintf("config key %q is declared twice (first at extension.config[%d]; keys are compared ignoring case because they name environment variables)", c.Key, j),
					"Remove one of the entries or rename it")
			} else {
				seen[up] = i
			}
		}
		c.Description, _ = p.optStrAt(entry, base, "description", `Write "description" as a string`)
		if rv, ok := entry.get("required"); ok {
			if string(rv) == "true" || string(rv) == "false" {
				c.Required = string(rv) == "true"
			} else {
				p.fail(base+".required", fmt.Sprintf(`"required" must be true or false, got %s`, kindOf(rv)),
					`Write "required": true or "required": false (without quotes)`)
			}
		}
		if tv, ok := entry.get("type"); ok {
			fix := `Set "type" to one of "` + strings.Join(ConfigTypes, `", "`) + `", or remove it`
			if s, ok := p.str(base+".type", tv, fix); ok {
				if !slices.Contains(ConfigTypes, s) {
					p.fail(base+".type", fmt.Sprintf("unknown config type %q", s), fix)
				} else {
					c.Type = s
				}
			}
		}
		if dv, ok := entry.get("default"); ok {
			var buf bytes.Buffer
			_ = json.Compact(&buf, dv) // dv is valid JSON: it came out of a decoded document
			c.Default = json.RawMessage(buf.Bytes())
			if c.Type != "" && !defaultFits(c.Type, dv) {
				p.fail(base+".default", fmt.Sprintf("default %s is not of type %q", abbreviate(string(c.Default)), c.Type),
					fmt.Sprintf(`Give a default of type %s, or change "type"`, c.Type))
			}
		}
		if sv, ok := entry.get("secret_env"); ok {
			const fix = `Name an environment variable: letters, digits and '_', not starting with a digit, e.g. "MY_PLUGIN_TOKEN"`
			if s, ok := p.str(base+".secret_env", sv, fix); ok {
				if !envNameRE.MatchString(s) {
					p.fail(base+".secret_env", fmt.Sprintf("%q is not a valid environment variable name", s), fix)
				}
				c.SecretEnv = s
			}
		}
		e.Config = append(e.Config, c)
	}
}

// defaultFits reports whether a default value matches a declared type.
func defaultFits(typ string, v json.RawMessage) bool {
	switch typ {
	case "string":
		return v[0] == '"'
	case "boolean":
		return string(v) == "true" || string(v) == "false"
	case "number":
		return kindOf(v) == "a number"
	case "integer":
		if kindOf(v) != "a number" {
			return false
		}
		f, err := strconv.ParseFloat(string(v), 64)
		return err == nil && f == math.Trunc(f)
	}
	return true
}

func (p *manifestParser) envNames(v json.RawMessage) []string {
	const fix = `Write "env" as an array of environment variable names, e.g. ["GITHUB_TOKEN", "HTTPS_PROXY"]`
	items, ok := p.array("extension.env", v, fix)
	if !ok {
		return nil
	}
	var names []string
	for i, it := range items {
		field := fmt.Sprintf("extension.env[%d]", i)
		s, ok := p.str(field, it, fix)
		if !ok {
			continue
		}
		if !envNameRE.MatchString(s) {
			p.fail(field, fmt.Sprintf("%q is not a valid environment variable name", s),
				`Use letters, digits and '_', not starting with a digit; list names only, values come from the user's environment`)
			continue
		}
		if slices.Contains(names, s) {
			p.warn(field, fmt.Sprintf("%q is listed more than once", s))
			continue
		}
		names = append(names, s)
	}
	return names
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
