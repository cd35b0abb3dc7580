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
}

// Policy judges tool calls. It is safe for concurrent use: the UI changes
// the mode and adds rules while tool calls are judged.
type Policy struct {
	workDir, home string

	mu sync.Mutex
	// mode is the current mode. Guarded by mu.
	mode Mode
	// rules are every rule in force, "always" answers included. Guarded by mu.
	rules Rules
	// bypassOK: the session started in bypassPermissions, so cycling the
	// mode may come back to it (as in Claude Code). Guarded by mu.
	bypassOK bool
}

// New returns a policy. An empty mode is Default.
func New(c Config) *Policy {
	if c.Mode == "" {
		c.Mode = Default
	}
	return &Policy{workDir: filepath.Clean(c.WorkDir), home: c.Home, mode: c.Mode, rules: c.Rules, bypassOK: c.Mode == Bypass}
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

// AddAllow adds an allow rule for the rest of the session (an "always"
// answer).
func (p *Policy) AddAllow(r Rule) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rules.Allow = append(p.rules.Allow, r)
}

// Decide judges a call: deny rules first, then plan mode's refusal of
// anything that changes things, then ask rules, then bypassPermissions,
// allow rules, read-only tools, acceptEdits for files in the project; the
// rest is asked.
func (p *Policy) Decide(c Call) Decision {
	p.mu.Lock()
	mode, rules := p.mode, p.rules
	p.mu.Unlock()

	cmd := c.command()
	subs, substitutes := subcommands(cmd)
	if len(subs) == 0 {
		subs = []string{cmd}
	}
	// any finds a rule covering the call or one of its simple commands.
	any := func(list []Rule) *Rule {
		for i := range list {
			for _, s := range append([]string{cmd}, subs...) {
				if list[i].matches(c, s, p.workDir, p.home) {
					return &list[i]
				}
			}
		}
		return nil
	}
	if r := any(rules.Deny); r != nil {
		return Decision{Verdict: Deny, Rule: r, Why: "deny rule " + r.describe()}
	}
	if mode == Plan && !c.ReadOnly {
		return Decision{Verdict: Deny, Why: "plan mode is read-only"}
	}
	if r := any(rules.Ask); r != nil && mode != Bypass {
		return Decision{Verdict: Ask, Rule: r, Why: "ask rule " + r.describe()}
	}
	if mode == Bypass {
		return Decision{Verdict: Allow, Why: "bypassPermissions mode"}
	}
	if r := p.allowed(c, cmd, subs, substitutes, rules.Allow); r != nil {
		return Decision{Verdict: Allow, Rule: r, Why: "allow rule " + r.describe()}
	}
	if c.ReadOnly {
		return Decision{Verdict: Allow, Why: "read-only tool"}
	}
	if mode == AcceptEdits && c.Builtin && kindOf(c.Name) == kindEdit && p.inProject(c.path(p.workDir, p.home)) {
		return Decision{Verdict: Allow, Why: "acceptEdits mode"}
	}
	return Decision{Verdict: Ask, Why: fmt.Sprintf("%s mode asks before %s", mode, c.Name)}
}

// allowed finds the allow rule that covers the call. A bash command line
// is allowed only when each of its simple commands is, and one that
// substitutes commands only by a rule for every command (Bash) or for
// that exact line.
func (p *Policy) allowed(c Call, cmd string, subs []string, substitutes bool, allow []Rule) *Rule {
	if cmd == "" {
		for i := range allow {
			if allow[i].allows(c, p.workDir, p.home) {
				return &allow[i]
			}
		}
		return nil
	}
	for i := range allow {
		r := &allow[i]
		if r.matchesTool(c) && (r.Spec == "" || r.Spec == cmd) {
			return r
		}
	}
	if substitutes {
		return nil
	}
	var first *Rule
	for _, s := range subs {
		var found *Rule
		for i := range allow {
			if allow[i].matches(c, s, p.workDir, p.home) {
				found = &allow[i]
				break
			}
		}
		if found == nil {
			return nil
		}
		if first == nil {
			first = found
		}
	}
	return first
}

// inProject reports whether path is inside the project directory, links
// resolved: a symlink in the project that points outside it does not make
// an edit there a project edit.
func (p *Policy) inProject(path string) bool {
	within := func(dir, path string) bool {
		rel, err := filepath.Rel(dir, path)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
	}
	if !within(p.workDir, path) {
		return false
	}
	return within(realPath(p.workDir), realPath(path))
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
// status", "go test"), the second too, as a prefix (Bash(git status:*)); the
// exact line when it chains or substitutes commands; for a file tool
// Edit(path) or Read(path) relative to the project; otherwise the
// tool's name.
func Suggest(c Call, workDir string) string {
	if cmd := c.command(); cmd != "" {
		subs, substitutes := subcommands(cmd)
		if substitutes || len(subs) != 1 || strings.ContainsAny(cmd, "()") {
			return "Bash(" + cmd + ")"
		}
		words := strings.Fields(cmd)
		prefix := words[0]
		if len(words) > 1 && subcommanded[prefix] && isWord(words[1]) {
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
