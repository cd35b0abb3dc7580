package sandbox

import (
	"os"
	"path/filepath"
	"strings"
)

// Env is where a policy is built: the project, the home directory, the
// temp directory, the environment.
type Env struct {
	Project string
	Home    string
	Temp    string
	Getenv  func(string) string
}

// NewEnv is the Env of this process for project.
func NewEnv(project string) Env {
	return Env{Project: project, Home: Home(os.Getenv), Temp: os.TempDir(), Getenv: os.Getenv}
}

// BashPolicy is the bash tool's: read everywhere but the credential
// stores; write the project (but .git/hooks and .synaps), the temp
// directory and the build caches under the home directory (go, npm, cargo,
// pip…); the network as config restricts it.
func BashPolicy(e Env, c Config) Policy {
	p := Policy{
		Name:    "bash",
		Kind:    "bash",
		ReadAll: true,
		Write:   append(append([]string{e.Project}, tempDirs(e)...), cacheDirs(e)...),
		Hidden:  CredentialStores(e.Home),
		Reveal:  sshReveal(e.Home),
		ReadOnly: []string{
			filepath.Join(e.Project, ".git", "hooks"),
			filepath.Join(e.Project, ".synaps"),
		},
		Required: c.Required,
		Settings: Settings{
			Write:    "sandbox.filesystem.allow_write in the synaps config allows it",
			Hidden:   "sandbox.filesystem.allow_read in the synaps config allows it",
			ReadOnly: "kept read-only so a command cannot plant hooks; sandbox.bash = off in the synaps config allows it",
			Network:  "sandbox.network.allow in the synaps config allows it",
			Syscall:  "sandbox.bash = off in the synaps config allows it",
		},
	}
	if sec := secretFiles(e); len(sec) > 0 {
		p.Hidden = append(p.Hidden, sec...)
	}
	p.Write = append(p.Write, c.AllowWrite...)
	p.Hidden = removeAll(append(p.Hidden, c.DenyRead...), c.AllowRead)
	p.Reveal = append(p.Reveal, c.AllowRead...)
	p.ReadOnly = append(p.ReadOnly, c.DenyWrite...)
	p.Network = c.Network()
	return p
}

// tempDirs are the directories for temporary files: $TMPDIR (/tmp when
// it is not set) and /dev/shm.
func tempDirs(e Env) []string {
	t := e.Temp
	if t == "" {
		t = "/tmp"
	}
	return []string{t, "/dev/shm"}
}

// cacheDirs are the build and package caches under the home directory
// that everyday commands (go build, npm install, cargo build, pip install)
// write, wherever the environment moves them.
func cacheDirs(e Env) []string {
	h := e.Home
	out := []string{
		filepath.Join(h, ".cache"), filepath.Join(h, "go"), filepath.Join(h, ".npm"),
		filepath.Join(h, ".yarn"), filepath.Join(h, ".pnpm-store"), filepath.Join(h, ".cargo"),
		filepath.Join(h, ".rustup"), filepath.Join(h, ".m2"), filepath.Join(h, ".gradle"),
		filepath.Join(h, ".bun"), filepath.Join(h, ".local", "share", "pnpm"),
		filepath.Join(h, ".local", "state"),
	}
	if e.Getenv != nil {
		for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "XDG_CACHE_HOME", "npm_config_cache", "CARGO_HOME", "PIP_CACHE_DIR"} {
			for _, v := range filepath.SplitList(e.Getenv(k)) {
				if filepath.IsAbs(v) && v != h && v != "/" {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// secretFiles are synaps's own files holding secrets: the config (API
// keys) in the base directory.
func secretFiles(e Env) []string {
	base := ""
	if e.Getenv != nil {
		base = e.Getenv("SYNAPS_BASE_DIR")
	}
	if base == "" {
		base = filepath.Join(e.Home, ".synaps-cli")
	}
	return []string{filepath.Join(base, "config")}
}

// PluginSpec is what a plugin's policy is built from.
type PluginSpec struct {
	ID string
	// Dir is the plugin's own directory (read); DataDir its data
	// directory (write); TempDir its private temp directory (write).
	Dir, DataDir, TempDir string
	// PluginsRoot holds every plugin's directory, DataRoot every
	// plugin's data: the others' are hidden from this one.
	PluginsRoot, DataRoot string
	// Declared is the manifest's sandbox section (nil: none).
	Declared *Declared
}

// Declared is a manifest's "sandbox" section: what the plugin needs.
type Declared struct {
	Read    []string `json:"read,omitempty"`
	Write   []string `json:"write,omitempty"`
	Network []string `json:"network,omitempty"`
}

// PluginPolicy is a plugin process's policy. A plugin that declared a
// sandbox section gets exactly that, plus its directory (read), its data
// and temp directories (write) and the system's libraries and
// interpreters (read), with the network limited to the hosts it named.
// One that declared nothing gets the default policy — read everywhere but
// the credential stores and the other plugins' data, write the project,
// its data and the temp directories, any network — or, with
// sandbox.default = strict, the declared policy of an empty declaration.
func PluginPolicy(e Env, s PluginSpec, c Config) Policy {
	hidden := append(CredentialStores(e.Home), secretFiles(e)...)
	hidden = append(hidden, others(s.DataRoot, s.DataDir)...)
	hidden = append(hidden, othersConfig(s.PluginsRoot, s.Dir)...)
	p := Policy{
		Name:     "plugin " + s.ID,
		Hidden:   hidden,
		Reveal:   sshReveal(e.Home),
		Required: c.Required,
		Settings: Settings{
			Write: "declare it in the manifest's sandbox.write",
			Read:  "declare it in the manifest's sandbox.read",
			// Hidden wins over a declaration: naming ~/.ssh in
			// sandbox.read reads nothing more, so that is no fix to give.
			Hidden:  "hidden from every plugin, whatever its manifest declares; sandbox.plugins = off in the synaps config allows it",
			Network: "declare the host in the manifest's sandbox.network",
			Syscall: "sandbox.plugins = off in the synaps config allows it",
		},
	}
	own := nonEmpty(s.DataDir, s.TempDir)
	d := s.Declared
	if d == nil && c.Default != "strict" {
		p.Kind = "default"
		p.ReadAll = true
		p.Write = append(append(nonEmpty(e.Project), own...), tempDirs(e)...)
		p.Write = append(p.Write, cacheDirs(e)...)
		p.Settings.Write = "declare it in the manifest's sandbox.write"
		return p
	}
	p.Kind = "declared"
	if d == nil {
		p.Kind = "strict"
		d = &Declared{}
		p.Settings.Read += " (sandbox.default = strict in the synaps config confines undeclared plugins)"
	}
	p.Read = append(append(nonEmpty(s.Dir), systemDirs(e)...), expand(e, d.Read)...)
	p.Write = append(own, expand(e, d.Write)...)
	p.Network = Network{Restricted: true, Allow: d.Network}
	if len(d.Network) == 0 {
		p.Network.Allow = []string{"none.invalid"} // nothing: no host is named so
	}
	return p
}

// expand makes declared paths absolute: "~/x" under home, "$PROJECT/x"
// or a relative path under the project.
func expand(e Env, paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		switch {
		case p == "~" || strings.HasPrefix(p, "~/"):
			p = filepath.Join(e.Home, strings.TrimPrefix(p, "~"))
		case p == "$PROJECT" || strings.HasPrefix(p, "$PROJECT/"):
			p = filepath.Join(e.Project, strings.TrimPrefix(p, "$PROJECT"))
		case !filepath.IsAbs(p):
			p = filepath.Join(e.Project, p)
		}
		out = append(out, filepath.Clean(p))
	}
	return out
}

// systemDirs are the system's libraries, programs and interpreters, and
// the language managers' under the home directory, all readable.
func systemDirs(e Env) []string {
	out := []string{"/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin", "/sbin", "/etc", "/opt",
		"/proc", "/sys", "/dev", "/run", "/nix", "/snap"}
	h := e.Home
	for _, d := range []string{".pyenv", ".nvm", ".rbenv", ".local", ".cargo", ".rustup", ".bun", ".deno",
		"go", "sdk", ".volta", ".asdf", ".sdkman"} {
		out = append(out, filepath.Join(h, d))
	}
	if e.Getenv != nil {
		for _, d := range filepath.SplitList(e.Getenv("PATH")) {
			if filepath.IsAbs(d) && d != "/" && d != h && !within(h, d) {
				out = append(out, d)
			}
		}
		if g := e.Getenv("GOROOT"); g != "" {
			out = append(out, g)
		}
	}
	if exe, err := os.Executable(); err == nil {
		out = append(out, filepath.Dir(exe))
	}
	return out
}

// others lists root's entries but own: the other plugins' directories.
func others(root, own string) []string {
	if root == "" {
		return nil
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		p := filepath.Join(root, e.Name())
		if p != filepath.Clean(own) {
			out = append(out, p)
		}
	}
	return out
}

// othersConfig lists the config files of the other plugins under root
// (plugins/<id>/config, where their settings, secrets among them, live).
func othersConfig(root, own string) []string {
	var out []string
	for _, d := range others(root, own) {
		out = append(out, filepath.Join(d, "config"))
	}
	return out
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func containsPath(list []string, p string) bool {
	for _, l := range list {
		if filepath.Clean(l) == filepath.Clean(p) {
			return true
		}
	}
	return false
}

// removeAll drops from list every path equal to or inside one of drop.
func removeAll(list, drop []string) []string {
	var out []string
	for _, l := range list {
		keep := true
		for _, d := range drop {
			if within(filepath.Clean(l), filepath.Clean(d)) {
				keep = false
			}
		}
		if keep {
			out = append(out, l)
		}
	}
	return out
}

// ForPlugin is the policy of a plugin's processes, as every spawner
// builds it: its data directory is baseDir/plugin-data/ID (created), its
// private temp directory is in it, and the other plugins' data and config
// under baseDir are hidden.
func ForPlugin(c Config, baseDir, project, id, dir string, declared *Declared, getenv func(string) string) Policy {
	data := filepath.Join(baseDir, "plugin-data", id)
	tmp := filepath.Join(data, "tmp")
	_ = os.MkdirAll(tmp, 0o700)
	e := Env{Project: project, Home: Home(getenv), Temp: getenv("TMPDIR"), Getenv: getenv}
	if e.Temp == "" {
		e.Temp = os.TempDir()
	}
	return PluginPolicy(e, PluginSpec{
		ID: id, Dir: dir, DataDir: data, TempDir: tmp,
		PluginsRoot: filepath.Join(baseDir, "plugins"), DataRoot: filepath.Join(baseDir, "plugin-data"),
		Declared: declared,
	}, c)
}

// ForSetup is the policy of a plugin's setup script, which `synaps
// plugins install` runs once: the plugin's own (ForPlugin), plus writing
// the plugin's directory, where setup scripts build (bin/, node_modules,
// a virtualenv), and the build and package caches under the home
// directory a build fills (go, npm, cargo, pip…). Its network is the
// plugin's: a declared plugin names the registries its build reaches.
func ForSetup(c Config, baseDir, project, id, dir string, declared *Declared, getenv func(string) string) Policy {
	p := ForPlugin(c, baseDir, project, id, dir, declared, getenv)
	p.Name = "the setup script of plugin " + id
	p.Write = append(append(p.Write, dir), cacheDirs(Env{Home: Home(getenv), Getenv: getenv})...)
	return p
}

// ForUnowned is the policy of a process no plugin owns — a Claude Code
// hook of a settings file, an MCP stdio server of the user's or the
// project's config — as every spawner builds it: the default policy (or
// the strict one, with sandbox.default = strict) with no directories of
// its own, so every plugin's data and config stay hidden from it. name
// says whose policy it is in messages ("Claude hooks of claude-project").
func ForUnowned(c Config, baseDir, project, name string, getenv func(string) string) Policy {
	e := Env{Project: project, Home: Home(getenv), Temp: getenv("TMPDIR"), Getenv: getenv}
	if e.Temp == "" {
		e.Temp = os.TempDir()
	}
	p := PluginPolicy(e, PluginSpec{
		ID:          name,
		PluginsRoot: filepath.Join(baseDir, "plugins"), DataRoot: filepath.Join(baseDir, "plugin-data"),
	}, c)
	p.Name = name
	// It has no manifest to declare more in: the only way to more is off.
	off := "sandbox.plugins = off in the synaps config runs it unconfined"
	p.Settings = Settings{Write: off, Hidden: off, ReadOnly: off, Read: off, Network: off, Syscall: off}
	return p
}
