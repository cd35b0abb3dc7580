package permission

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
)

// Mode is a permission mode, spelt as Claude Code spells it.
type Mode string

// The permission modes.
const (
	// Default asks before every tool that changes things: bash, write,
	// edit and extension tools not declared read-only.
	Default Mode = "default"
	// AcceptEdits runs write and edit on files inside the project without
	// asking; the rest is as in Default.
	AcceptEdits Mode = "acceptEdits"
	// Plan is read-only: tools that change things are refused (not
	// asked), so the model can look and plan but not act.
	Plan Mode = "plan"
	// Bypass runs everything without asking (deny rules and extension
	// guards still refuse).
	Bypass Mode = "bypassPermissions"
)

// Modes lists every mode in the order Shift+Tab cycles through them.
var Modes = []Mode{Default, AcceptEdits, Plan, Bypass}

// ParseMode reads a mode name. Case and - or _ are forgiven
// ("accept-edits", "bypass_permissions"); "bypass" means bypassPermissions.
func ParseMode(s string) (Mode, error) {
	norm := strings.ToLower(strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.TrimSpace(s)))
	for _, m := range Modes {
		if strings.ToLower(string(m)) == norm {
			return m, nil
		}
	}
	if norm == "bypass" {
		return Bypass, nil
	}
	return "", fmt.Errorf("unknown permission mode %q; use default, acceptEdits, plan or bypassPermissions", s)
}

// Describe says in a few words what the mode does, for a status line.
func (m Mode) Describe() string {
	switch m {
	case AcceptEdits:
		return "edits run without asking"
	case Plan:
		return "read-only, nothing is changed"
	case Bypass:
		return "nothing is asked"
	}
	return "asks before bash, write, edit"
}

// Verdict is what a policy says about a call.
type Verdict int

// Verdicts.
const (
	Allow Verdict = iota // run it
	Ask                  // ask the user first
	Deny                 // refuse it
)

// Decision is a policy's verdict on one call and why.
type Decision struct {
	Verdict Verdict
	// Rule is the rule that decided, nil when the mode did.
	Rule *Rule
	// Why says what decided, for the user and the model: "deny rule
	// Bash(rm:*) (config permissions.deny)", "default mode asks before
	// bash".
	Why string
}

// Rules are the rules of one place (a config file, a flag).
type Rules struct {
	Allow, Ask, Deny []Rule
}

// Config makes a Policy.
type Config struct {
	Mode Mode
	Rules
	// WorkDir is the project directory: relative path patterns and the
	// files acceptEdits accepts are inside it.
	WorkDir string
	// Home resolves ~ in path patterns and paths.
	Home string
	// AddDirs are further directories the session works in (--add-dir,
	// as Claude Code's): acceptEdits accepts edits inside them as inside
	// the project.
	AddDirs []string
}

// Policy judges tool calls. It is safe for concurrent use: the UI changes
// the mode and adds rules while tool calls are judged.
type Policy struct {
	workDir, home string
	addDirs       []string

	mu sync.Mutex
	// mode is the current mode. Guarded by mu.
	mode Mode
	// rules are every rule in force, "always" answers included. Guarded by mu.
	rules Rules
	// bypassOK: the session started in bypassPermissions, so cycling the
	// mode may come back to it (as in Claude Code). Guarded by mu.
	bypassOK bool
	// sandboxed: bash commands run confined by the bash sandbox and
	// permissions.auto_allow_sandboxed is on, so they need no question
	// (SetSandboxed). Guarded by mu.
	sandboxed bool
}

// SetSandboxed says that the bash tool's commands run inside the bash
// sandbox and the user chose to let the sandbox stand for the question
// (permissions.auto_allow_sandboxed, Claude Code's
// autoAllowBashIfSandboxed): default and acceptEdits run them without
// asking. Deny and ask rules still apply; plan mode still refuses.
func (p *Policy) SetSandboxed(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sandboxed = on
}

// New returns a policy. An empty mode is Default.
func New(c Config) *Policy {
	if c.Mode == "" {
		c.Mode = Default
	}
	return &Policy{workDir: filepath.Clean(c.WorkDir), home: c.Home, addDirs: c.AddDirs, mode: c.Mode, rules: c.Rules, bypassOK: c.Mode == Bypass}
}

// Mode is the current mode.
func (p *Policy) Mode() Mode {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.mode
}

// SetMode switches the mode.
func (p *Policy) SetMode(m Mode) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.mode = m
	if m == Bypass {
		p.bypassOK = true
	}
}

// Cycle switches to the next mode (Shift+Tab): default, acceptEdits,
// plan, and bypassPermissions only when the session has been in it
// before (started with it or set to it by name), so a stray key press
// never turns every question off.
func (p *Policy) Cycle() Mode {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch p.mode {
	case Default:
		p.mode = AcceptEdits
	case AcceptEdits:
		p.mode = Plan
	case Plan:
		if p.bypassOK {
			p.mode = Bypass
		} else {
			p.mode = Default
		}
	default:
		p.mode = Default
	}
	return p.mode
}

// Rules are the rules in force.
func (p *Policy) Rules() Rules {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Rules{Allow: append([]Rule(nil), p.rules.Allow...), Ask: append([]Rule(nil), p.rules.Ask...), Deny: append([]Rule(nil), p.rules.Deny...)}
}

// AddAllow adds an allow rule for the rest of the session (an "always"
// answer).
func (p *Policy) AddAllow(r Rule) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules.Allow = append(p.rules.Allow, r)
}

// Decide judges a call: deny rules first, then plan mode's refusal of
// anything that changes things, then ask rules, then bypassPermissions,
// allow rules, read-only tools and bash lines, bash confined by the
// sandbox (SetSandboxed), acceptEdits for files in the project; the rest
// is asked.
func (p *Policy) Decide(c Call) Decision {
	p.mu.Lock()
	mode, rules, sandboxed := p.mode, p.rules, p.sandboxed
	p.mu.Unlock()

	cmd := c.command()
	var line *shellLine
	if cmd != "" {
		line = parsedShell(cmd)
	}
	// A bash line that only looks (readonly.go) is judged as a read-only
	// tool: it needs no question, and plan mode runs it.
	readOnly := c.ReadOnly || readOnlyBash(cmd, line) && readsAllowed(line, p.DenyReads(), p.workDir, p.home)
	// any finds a rule covering the call: for bash, any command the line
	// runs, or a file it redirects output into.
	any := func(list []Rule) (*Rule, string) {
		for i := range list {
			if cmd == "" {
				if list[i].matches(c, "", p.workDir, p.home) {
					return &list[i], ""
				}
				continue
			}
			if ok, why := list[i].namesLine(c, cmd, line); ok {
				return &list[i], why
			}
			if why := p.namesWrite(list[i], line); why != "" {
				return &list[i], why
			}
		}
		return nil, ""
	}
	if r, why := any(rules.Deny); r != nil {
		return Decision{Verdict: Deny, Rule: r, Why: "deny rule " + r.describe() + because(why)}
	}
	if mode == Plan && !readOnly {
		return Decision{Verdict: Deny, Why: "plan mode is read-only"}
	}
	if r, why := any(rules.Ask); r != nil && mode != Bypass {
		return Decision{Verdict: Ask, Rule: r, Why: "ask rule " + r.describe() + because(why)}
	}
	if mode == Bypass {
		return Decision{Verdict: Allow, Why: "bypassPermissions mode"}
	}
	if cmd == "" {
		for i := range rules.Allow {
			if rules.Allow[i].allows(c, p.workDir, p.home) {
				return Decision{Verdict: Allow, Rule: &rules.Allow[i], Why: "allow rule " + rules.Allow[i].describe()}
			}
		}
	} else if r, exact := allowsLine(rules.Allow, c, cmd, line); r != nil && (exact || p.writesAllowed(mode, line, rules.Allow)) {
		return Decision{Verdict: Allow, Rule: r, Why: "allow rule " + r.describe()}
	}
	if c.ReadOnly {
		return Decision{Verdict: Allow, Why: "read-only tool"}
	}
	if readOnly {
		return Decision{Verdict: Allow, Why: "read-only command"}
	}
	if cmd != "" && sandboxed && mode != Plan {
		return Decision{Verdict: Allow, Why: "the bash sandbox confines it (permissions.auto_allow_sandboxed)"}
	}
	if mode == AcceptEdits && c.Builtin && kindOf(c.Name) == kindEdit && p.inProject(c.path(p.workDir, p.home)) {
		return Decision{Verdict: Allow, Why: "acceptEdits mode"}
	}
	why := fmt.Sprintf("%s mode asks before %s", mode, c.Name)
	if line != nil && line.unknown != "" {
		why += because("the line runs " + line.unknown + ", which cannot be judged before it runs")
	}
	return Decision{Verdict: Ask, Why: why}
}

func because(why string) string {
	if why == "" {
		return ""
	}
	return ": " + why
}

// namesWrite says how a bash line writes a file a deny or ask rule names
// ("the line writes ~/.bashrc"), "" when it writes none: a redirection
// is judged as a write tool call of its file, and one whose file cannot
// be resolved is taken to be any file.
func (p *Policy) namesWrite(r Rule, l *shellLine) string {
	if l == nil {
		return ""
	}
	for _, w := range l.writes {
		if r.matches(writeCall(w), "", p.workDir, p.home) {
			return "the line writes " + w
		}
	}
	if l.unknownWrite != "" && r.matchesTool(writeCall("")) {
		return "the line has " + l.unknownWrite + ", which cannot be judged before it runs"
	}
	return ""
}

// writesAllowed: every file the line redirects output into may be
// written as the write tool may write it (an allow rule, or acceptEdits
// in the project).
func (p *Policy) writesAllowed(mode Mode, l *shellLine, allow []Rule) bool {
	if l.unknownWrite != "" {
		return false
	}
next:
	for _, w := range l.writes {
		wc := writeCall(w)
		for i := range allow {
			if allow[i].allows(wc, p.workDir, p.home) {
				continue next
			}
		}
		if mode == AcceptEdits && p.inProject(wc.path(p.workDir, p.home)) {
			continue
		}
		return false
	}
	return true
}

// inProject reports whether path is inside the project directory or a
// directory added with --add-dir, links resolved: a symlink in the
// project that points outside it does not make an edit there a project
// edit.
func (p *Policy) inProject(path string) bool {
	within := func(dir, path string) bool {
		rel, err := filepath.Rel(dir, path)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
	}
	for _, dir := range append([]string{p.workDir}, p.addDirs...) {
		if within(dir, path) && within(realPath(dir), realPath(path)) {
			return true
		}
	}
	return false
}

// Sourced returns rules with Source set, for messages.
func Sourced(rules []Rule, source string) []Rule {
	out := make([]Rule, len(rules))
	for i, r := range rules {
		r.Source = source
		out[i] = r
	}
	return out
}

func (r Rule) describe() string {
	if r.Source == "" {
		return r.Text
	}
	return r.Text + " (" + r.Source + ")"
}

// Suggest is the rule an "always" answer saves for a call: for bash its
// command's first word and, for commands with subcommands ("git
// status", "go test"), the second too, as a prefix (Bash(git status:*)),
// but the exact line when a prefix would also allow what this line does
// not do: when it runs more than one command or one that cannot be
// resolved, redirects output into a file, or runs a program whose other
// arguments delete, overwrite or run other commands (find -delete, find
// -exec, sed -i, rm); for a file tool Edit(path) or Read(path) relative
// to the project; otherwise the tool's name.
func Suggest(c Call, workDir string) string {
	if cmd := c.command(); cmd != "" {
		exact := "Bash(" + cmd + ")"
		l := parsedShell(cmd)
		if l.unknown != "" || l.unknownWrite != "" || len(l.writes) > 0 || len(l.cmds) != 1 || strings.ContainsAny(cmd, "()") {
			return exact
		}
		words := l.cmds[0].words
		prefix := words[0]
		if riskyArgs[progName(prefix)] || strings.ContainsAny(prefix, " \t*:") {
			return exact
		}
		if subcommanded[prefix] {
			if len(words) < 2 || !isWord(words[1]) {
				return exact
			}
			prefix += " " + words[1]
		}
		return "Bash(" + prefix + ":*)"
	}
	if c.Builtin {
		switch kindOf(c.Name) {
		case kindEdit, kindRead:
			path := c.path(workDir, "")
			if rel, err := filepath.Rel(workDir, path); err == nil && !strings.HasPrefix(rel, "..") {
				path = rel
			} else {
				path = "/" + path // "//abs" in rule syntax
			}
			name := "Edit"
			if kindOf(c.Name) == kindRead {
				name = "Read"
			}
			if strings.ContainsAny(path, "()") {
				return name
			}
			return name + "(" + path + ")"
		}
	}
	return c.Name
}

// subcommanded are commands whose second word is a subcommand, which an
// "always" keeps in the rule (Bash(git status:*), not Bash(git:*)).
var subcommanded = map[string]bool{
	"git": true, "go": true, "npm": true, "pnpm": true, "yarn": true, "bun": true, "deno": true, "cargo": true,
	"docker": true, "podman": true, "kubectl": true, "helm": true, "terraform": true, "gh": true, "pip": true,
	"uv": true, "poetry": true, "brew": true, "apt": true, "systemctl": true, "make": true, "dotnet": true, "mvn": true, "gradle": true,
}

// riskyArgs are programs that, given other arguments, delete or
// overwrite files or run other programs or code: an "always" for one
// line of them allows that line only, never Bash(find:*), which would
// allow find -delete too.
var riskyArgs = map[string]bool{
	"find": true, "xargs": true, "sed": true, "awk": true, "gawk": true, "mawk": true, "perl": true, "python": true,
	"python3": true, "ruby": true, "node": true, "rm": true, "rmdir": true, "mv": true, "cp": true, "dd": true,
	"ln": true, "chmod": true, "chown": true, "chgrp": true, "truncate": true, "shred": true, "tee": true,
	"install": true, "rsync": true, "tar": true, "unzip": true, "curl": true, "wget": true, "kill": true,
	"pkill": true, "killall": true, "sudo": true, "doas": true, "eval": true, "source": true, ".": true,
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "exec": true, "trap": true,
}

// isWord: a subcommand-like word (letters, digits, - and _, not a flag).
func isWord(s string) bool {
	if s == "" || s[0] == '-' {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Suggest is Suggest for the policy's project directory.
func (p *Policy) Suggest(c Call) string { return Suggest(c, p.workDir) }

// AllowForNow adds allow rules until undo is called: a command's
// allowed-tools hold for its turn only.
func (p *Policy) AllowForNow(rules []Rule) (undo func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules.Allow = append(p.rules.Allow, rules...)
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		// Remove those rules, whatever was added since.
		for _, r := range rules {
			for i := len(p.rules.Allow) - 1; i >= 0; i-- {
				if p.rules.Allow[i].Text == r.Text && p.rules.Allow[i].Source == r.Source {
					p.rules.Allow = append(p.rules.Allow[:i], p.rules.Allow[i+1:]...)
					break
				}
			}
		}
	}
}
