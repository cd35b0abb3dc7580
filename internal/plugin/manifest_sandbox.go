package plugin

import (
	"fmt"
	"slices"
	"strings"
)

// Sandbox is a manifest's top-level "sandbox" section (both dialects):
// what every process of the plugin — its extension, sidecar, Claude
// hooks, MCP stdio servers, command expansions — needs beyond its own
// directories. A plugin that declares it gets exactly that (plus its
// plugin directory to read, its data and a private temp directory to
// write, and the system's libraries and interpreters to read); one that
// does not gets the default policy (docs/sandbox.md).
//
//	"sandbox": {"read": ["~/.config/acme"], "write": ["$PROJECT/out"], "network": ["api.github.com"]}
//
// Paths are absolute, ~/… (the home directory), $PROJECT/… or relative
// (to the project); hosts are names, *.domain, either with :port.
type Sandbox struct {
	Read, Write, Network []string
}

// SandboxKeys are the keys of the "sandbox" object (docs/extensions/contract.json lists them).
var SandboxKeys = []string{"read", "write", "network"}

// parseSandbox reads the top-level "sandbox" object into m.Sandbox.
func (p *manifestParser) parseSandbox(m *Manifest, top *jsonObject) {
	v, ok := top.get("sandbox")
	if !ok {
		return
	}
	const fix = `Write "sandbox" as an object such as {"read": ["~/.config/acme"], "write": ["out"], "network": ["api.github.com"]}`
	obj, ok := p.object("sandbox", v, fix)
	if !ok {
		return
	}
	for _, k := range obj.keys {
		if slices.Contains(SandboxKeys, k) {
			continue
		}
		note := fmt.Sprintf("unknown key %q is ignored", k)
		if s := suggest(k, SandboxKeys); s != "" {
			note += fmt.Sprintf("; did you mean %q?", s)
		} else {
			note += "; known keys are " + strings.Join(SandboxKeys, ", ")
		}
		p.warn("sandbox."+k, note)
	}
	s := &Sandbox{}
	paths := func(key string) []string {
		raw, ok := obj.get(key)
		if !ok {
			return nil
		}
		field := "sandbox." + key
		list := p.stringArray(field, raw, fmt.Sprintf(`Write %q as an array of paths, e.g. ["~/.config/acme", "$PROJECT/out"]`, field))
		var out []string
		for i, path := range list {
			if strings.TrimSpace(path) == "" || strings.ContainsRune(path, 0) {
				p.fail(fmt.Sprintf("%s[%d]", field, i), "an empty path", "Remove it, or write an absolute path, ~/path, $PROJECT/path or a path relative to the project")
				continue
			}
			if path == "/" && key == "write" {
				p.fail(fmt.Sprintf("%s[%d]", field, i), `"/" would let the plugin write everywhere`, "Name the directories it writes")
				continue
			}
			out = append(out, path)
		}
		return out
	}
	s.Read = paths("read")
	s.Write = paths("write")
	if raw, ok := obj.get("network"); ok {
		const nfix = `Write "sandbox.network" as an array of hosts, e.g. ["api.github.com", "*.example.com"]`
		for i, h := range p.stringArray("sandbox.network", raw, nfix) {
			if err := hostPattern(h); err != "" {
				p.fail(fmt.Sprintf("sandbox.network[%d]", i), err, nfix)
				continue
			}
			s.Network = append(s.Network, h)
		}
	}
	m.Sandbox = s
}

// hostPattern checks one host of sandbox.network ("" when good).
func hostPattern(s string) string {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return "an empty host"
	case strings.Contains(s, "://") || strings.ContainsAny(s, "/ "):
		return fmt.Sprintf("%q is not a host name; write only the host, such as api.github.com", s)
	}
	name := s
	if i := strings.LastIndexByte(s, ':'); i >= 0 && !strings.HasPrefix(s, "[") {
		name = s[:i]
		for _, r := range s[i+1:] {
			if r < '0' || r > '9' {
				return fmt.Sprintf("%q: the port must be a number", s)
			}
		}
	}
	if rest, ok := strings.CutPrefix(name, "*."); ok {
		name = rest
	}
	if name == "" || strings.Contains(name, "*") {
		return fmt.Sprintf("%q: a wildcard is only *.domain", s)
	}
	return ""
}
