package mcp

import (
	"fmt"
	"sort"
	"strings"
)

// Expander expands ${VAR}, ${VAR:-default} and Cursor's ${env:VAR} in
// the fields of a server: command, args, env, url, headers and cwd.
type Expander struct {
	// Getenv reads synaps's environment.
	Getenv func(string) string
	// Builtins are names that expand without the environment
	// (workspaceFolder, userHome, CLAUDE_PLUGIN_ROOT …); they win.
	Builtins map[string]string
	// Plugin is the id of the plugin whose server this is, named when
	// one of its ${user_config.KEY} options is not set.
	Plugin string
}

// userConfigPrefix starts a plugin option's name: ${user_config.KEY}.
const userConfigPrefix = "user_config."

// withOptions adds a plugin's user options to a server's environment as
// CLAUDE_PLUGIN_OPTION_<KEY> (upper-cased), as Claude Code passes them;
// a variable the config sets itself wins.
func withOptions(env, opts map[string]string) map[string]string {
	if len(opts) == 0 {
		return env
	}
	out := make(map[string]string, len(env)+len(opts))
	for k, v := range opts {
		out["CLAUDE_PLUGIN_OPTION_"+strings.ToUpper(k)] = v
	}
	for k, v := range env {
		out[k] = v
	}
	return out
}

// Expand returns sv with every variable expanded, or an error naming the
// server, the field and the file.
func (x Expander) Expand(sv Server) (Server, error) {
	out := sv
	where := func(field string) string {
		loc := sv.Source.File
		if sv.Line > 0 {
			loc = fmt.Sprintf("%s:%d", loc, sv.Line)
		}
		return fmt.Sprintf("server %q (%s): %s", sv.Name, loc, field)
	}
	var err error
	if out.Command, err = x.expand(sv.Command, where("command")); err != nil {
		return sv, err
	}
	if out.URL, err = x.expand(sv.URL, where("url")); err != nil {
		return sv, err
	}
	if out.Cwd, err = x.expand(sv.Cwd, where("cwd")); err != nil {
		return sv, err
	}
	if sv.Args != nil {
		out.Args = make([]string, len(sv.Args))
		for i, a := range sv.Args {
			if out.Args[i], err = x.expand(a, where(fmt.Sprintf("args[%d]", i))); err != nil {
				return sv, err
			}
		}
	}
	if out.Env, err = x.expandMap(sv.Env, "env", where); err != nil {
		return sv, err
	}
	if out.Headers, err = x.expandMap(sv.Headers, "headers", where); err != nil {
		return sv, err
	}
	return out, nil
}

func (x Expander) expandMap(m map[string]string, field string, where func(string) string) (map[string]string, error) {
	if m == nil {
		return nil, nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]string, len(m))
	for _, k := range keys {
		v, err := x.expand(m[k], where(field+"."+k))
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, nil
}

// String expands one value; where names it in errors ("server \"x\"
// (file): args[0]"). Language servers' configs (internal/lsp) share it.
func (x Expander) String(s, where string) (string, error) { return x.expand(s, where) }

// expand replaces every ${…} in s. A lone $ or $NAME stays as written
// (Claude Code expands only the braced form).
func (x Expander) expand(s, where string) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return "", fmt.Errorf("%s: %q has ${ without a closing }; write ${NAME}", where, s)
		}
		expr := s[i+2 : i+end]
		s = s[i+end+1:]
		name, def, hasDef := strings.Cut(expr, ":-")
		name = strings.TrimPrefix(name, "env:")
		if opt, ok := strings.CutPrefix(name, userConfigPrefix); ok && validVar(opt) {
			v, set := x.Builtins[name]
			switch {
			case set && v != "":
				b.WriteString(v)
			case hasDef:
				b.WriteString(def)
			case set:
			default:
				plugin := x.Plugin
				if plugin == "" {
					plugin = "PLUGIN"
				}
				return "", fmt.Errorf("%s: ${%s}: the plugin's option %s is not set; set it with `synaps plugins config %s %s=VALUE`", where, name, opt, plugin, opt)
			}
			continue
		}
		if !validVar(name) {
			return "", fmt.Errorf("%s: ${%s} is not a variable reference; write ${NAME}, ${NAME:-default} or ${env:NAME}", where, expr)
		}
		if v, ok := x.Builtins[name]; ok {
			b.WriteString(v)
			continue
		}
		v := ""
		if x.Getenv != nil {
			v = x.Getenv(name)
		}
		switch {
		case v != "":
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			return "", fmt.Errorf("%s: ${%s} is not set; set %s in the environment, or write ${%s:-default}", where, name, name, name)
		}
	}
}

func validVar(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
