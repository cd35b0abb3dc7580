package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/synaps-cli/synaps/internal/config"
)

// Keys of the synaps config the sandbox reads.
const (
	// KeyBash: on (the default) confines the bash tool; off runs its
	// commands as the user.
	KeyBash = "sandbox.bash"
	// KeyPlugins: on (the default) confines plugin processes (extensions,
	// hooks, MCP stdio servers, command expansions); off does not.
	KeyPlugins = "sandbox.plugins"
	// KeyDefault: default or strict, the policy of a plugin that declared
	// no sandbox section.
	KeyDefault = "sandbox.default"
	// KeyRequired: true refuses to start what the kernel cannot confine.
	KeyRequired = "sandbox.required"
	// KeyNetworkAllow and KeyNetworkDeny restrict the hosts the bash
	// tool reaches (through synaps's proxy).
	KeyNetworkAllow = "sandbox.network.allow"
	KeyNetworkDeny  = "sandbox.network.deny"
	// KeyAllowWrite, KeyAllowRead, KeyDenyRead and KeyDenyWrite change the
	// bash tool's file rules: more writable paths, credential stores made
	// readable, more hidden paths, more read-only paths.
	KeyAllowWrite = "sandbox.filesystem.allow_write"
	KeyAllowRead  = "sandbox.filesystem.allow_read"
	KeyDenyRead   = "sandbox.filesystem.deny_read"
	KeyDenyWrite  = "sandbox.filesystem.deny_write"
)

// Config is the sandbox's part of the synaps config, merged with Claude
// Code's `sandbox` settings of the project and the user.
type Config struct {
	Bash     bool
	Plugins  bool
	Default  string // "default" or "strict"
	Required bool

	NetAllow, NetDeny                          []string
	AllowWrite, AllowRead, DenyRead, DenyWrite []string
	// Warnings are settings that could not be used, each naming its
	// file, key and fix.
	Warnings []string
}

// DefaultConfig is the config with nothing set.
func DefaultConfig() Config {
	return Config{Bash: true, Plugins: true, Default: "default"}
}

// Network is the bash tool's network rule: restricted when an allow or
// deny list is set.
func (c Config) Network() Network {
	if len(c.NetAllow) == 0 && len(c.NetDeny) == 0 {
		return Network{}
	}
	return Network{Restricted: true, Allow: c.NetAllow, Deny: c.NetDeny}
}

// ReadConfig reads the sandbox keys of the synaps config f and Claude
// Code's settings (.claude/settings.json and settings.local.json of the
// project, ~/.claude/settings.json): sandbox.network.allowedDomains and
// deniedDomains, sandbox.filesystem.allowWrite, denyRead and denyWrite,
// so Claude Code users keep their rules. The project's own files are read
// only when the project is trusted: an untrusted project must not widen
// what its commands may do.
func ReadConfig(f *config.File, project, home string, projectTrusted bool) Config {
	c := DefaultConfig()
	c.Warnings = append(c.Warnings, checkConfig(f)...)
	onOff := func(key string, dst *bool) {
		v, ok := f.Get(key)
		if !ok {
			return
		}
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "on", "true", "yes", "1":
			*dst = true
		case "off", "false", "no", "0":
			*dst = false
		default:
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %s = %q is neither on nor off, so the default is used; write `%s = on` or `%s = off`", f.Path, key, v, key, key))
		}
	}
	onOff(KeyBash, &c.Bash)
	onOff(KeyPlugins, &c.Plugins)
	onOff(KeyRequired, &c.Required)
	if v, ok := f.Get(KeyDefault); ok {
		switch v = strings.ToLower(strings.TrimSpace(v)); v {
		case "default", "strict":
			c.Default = v
		default:
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %s = %q is neither default nor strict, so default is used; write `%s = strict` to confine undeclared plugins to the minimum", f.Path, KeyDefault, v, KeyDefault))
		}
	}
	c.NetAllow = f.List(KeyNetworkAllow)
	c.NetDeny = f.List(KeyNetworkDeny)
	abs := func(key string) []string {
		var out []string
		for _, p := range f.List(key) {
			if q, ok := absPath(p, project, home); ok {
				out = append(out, q)
			} else {
				c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %s: %q is not a path; write an absolute path, ~/path or a path relative to the project", f.Path, key, p))
			}
		}
		return out
	}
	c.AllowWrite = abs(KeyAllowWrite)
	c.AllowRead = abs(KeyAllowRead)
	c.DenyRead = abs(KeyDenyRead)
	c.DenyWrite = abs(KeyDenyWrite)
	files := []string{filepath.Join(home, ".claude", "settings.json")}
	if projectTrusted {
		files = append(files, filepath.Join(project, ".claude", "settings.json"), filepath.Join(project, ".claude", "settings.local.json"))
	}
	for _, file := range files {
		c.readClaude(file, project, home)
	}
	return c
}

// claudeSandbox is the part of Claude Code's settings read here.
type claudeSandbox struct {
	Sandbox *struct {
		Network *struct {
			AllowedDomains []string `json:"allowedDomains"`
			DeniedDomains  []string `json:"deniedDomains"`
		} `json:"network"`
		Filesystem *struct {
			AllowWrite []string `json:"allowWrite"`
			AllowRead  []string `json:"allowRead"`
			DenyRead   []string `json:"denyRead"`
			DenyWrite  []string `json:"denyWrite"`
		} `json:"filesystem"`
	} `json:"sandbox"`
}

func (c *Config) readClaude(file, project, home string) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %v; its sandbox settings are not used", file, err))
		return
	}
	var s claudeSandbox
	if err := json.Unmarshal(data, &s); err != nil {
		// Whoever reads the rest of the file says what is wrong with it;
		// here only a sandbox section of the wrong shape is named.
		if strings.Contains(string(data), `"sandbox"`) {
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s: its sandbox section cannot be read (%v), so it is not used", file, err))
		}
		return
	}
	if s.Sandbox == nil {
		return
	}
	if n := s.Sandbox.Network; n != nil {
		c.NetAllow = append(c.NetAllow, n.AllowedDomains...)
		c.NetDeny = append(c.NetDeny, n.DeniedDomains...)
	}
	if fsys := s.Sandbox.Filesystem; fsys != nil {
		add := func(dst *[]string, paths []string) {
			for _, p := range paths {
				if q, ok := absPath(p, project, home); ok {
					*dst = append(*dst, q)
				}
			}
		}
		add(&c.AllowWrite, fsys.AllowWrite)
		add(&c.AllowRead, fsys.AllowRead)
		add(&c.DenyRead, fsys.DenyRead)
		add(&c.DenyWrite, fsys.DenyWrite)
	}
}

// absPath makes p absolute: ~/ under home, relative under project;
// Claude Code's "//abs" is read as the absolute path /abs.
func absPath(p, project, home string) (string, bool) {
	p = strings.TrimSpace(p)
	switch {
	case p == "":
		return "", false
	case p == "~" || strings.HasPrefix(p, "~/"):
		return filepath.Join(home, strings.TrimPrefix(p, "~")), true
	case strings.HasPrefix(p, "//"):
		return filepath.Clean(p[1:]), true
	case filepath.IsAbs(p):
		return filepath.Clean(p), true
	default:
		return filepath.Join(project, p), true
	}
}
