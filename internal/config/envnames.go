package config

import (
	"fmt"
	"strings"
)

// ToolEnvAllow is the key that lists environment variables the built-in
// tools get although their names look secret (built-in tools run without
// any variable whose name holds KEY, SECRET, TOKEN or PASSWORD):
//
//	tool_env_allow = GITHUB_TOKEN, NPM_TOKEN
const ToolEnvAllow = "tool_env_allow"

// EnvNames reads key as a comma-separated list of environment variable
// names. The bracketed form other tools use (`["GITHUB_TOKEN"]`) means
// the same. An entry that is not a variable name is left out, with a
// warning naming the file, the key and the fix, so a typo never silently
// allows nothing.
func (f *File) EnvNames(key string) (names, warnings []string) {
	v, ok := f.Get(key)
	if !ok {
		return nil, nil
	}
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		v = v[1 : len(v)-1]
	}
	for _, item := range strings.Split(v, ",") {
		item = unquote(strings.TrimSpace(item))
		if item == "" {
			continue
		}
		if !isEnvName(item) {
			warnings = append(warnings, fmt.Sprintf("%s: %s: %q is not an environment variable name (letters, digits and _, not starting with a digit), so it is ignored; list names separated by commas, e.g. `%s = GITHUB_TOKEN, NPM_TOKEN`", f.Path, key, item, key))
			continue
		}
		names = append(names, item)
	}
	return names, warnings
}

func isEnvName(s string) bool {
	for i, r := range s {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}
