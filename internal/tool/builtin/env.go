package builtin

import (
	"os"
	"slices"
	"strings"
)

// secretMarkers are the name fragments that make an environment variable
// look like a secret (matched case-insensitively anywhere in the name), as
// Codex does: ANTHROPIC_API_KEY, AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN,
// PGPASSWORD. The model decides what bash runs, and whatever it can read
// it can print into the conversation or send anywhere, so it gets none of
// them unless the user allows one by name.
var secretMarkers = []string{"KEY", "SECRET", "TOKEN", "PASSWORD"}

// LooksSecret reports whether an environment variable name holds one of
// the secret markers.
func LooksSecret(name string) bool {
	upper := strings.ToUpper(name)
	for _, m := range secretMarkers {
		if strings.Contains(upper, m) {
			return true
		}
	}
	return false
}

// ScrubEnv returns environ ("NAME=value" entries) without the variables
// whose names look secret, except those named in allow (exact names, as
// config tool_env_allow lists them), and the names it dropped, sorted.
func ScrubEnv(environ, allow []string) (kept, dropped []string) {
	kept = make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if LooksSecret(name) && !slices.Contains(allow, name) {
			dropped = append(dropped, name)
			continue
		}
		kept = append(kept, kv)
	}
	slices.Sort(dropped)
	return kept, slices.Compact(dropped)
}

// env is the environment bash commands get: Options.Env, or synaps's own
// environment scrubbed of secrets.
func (o Options) env() []string {
	if o.Env != nil {
		return o.Env
	}
	kept, _ := ScrubEnv(os.Environ(), nil)
	return kept
}
