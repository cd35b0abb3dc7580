package sandbox

import (
	"fmt"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/spelling"
)

// configKeys are every sandbox.* key ReadConfig reads.
var configKeys = []string{
	KeyBash, KeyPlugins, KeyDefault, KeyRequired,
	KeyNetworkAllow, KeyNetworkDeny,
	KeyAllowWrite, KeyAllowRead, KeyDenyRead, KeyDenyWrite,
}

// checkConfig warns about sandbox settings that would silently do
// nothing: a sandbox.* key ReadConfig does not read (the config's own
// check passes every dotted key by, so `sandbox.defualt = strict` was
// ignored without a word), and a network entry that is no host pattern
// (a URL matches no host: an allow list of one leaves bash no network).
// Each warning names the file, the key and the fix.
func checkConfig(f *config.File) []string {
	var out []string
	for _, k := range f.Keys() {
		if !strings.HasPrefix(k, "sandbox.") || slices.Contains(configKeys, k) {
			continue
		}
		fix := "the sandbox keys are " + strings.Join(configKeys, ", ")
		if near := nearestKey(k); near != "" {
			fix = fmt.Sprintf("did you mean %q?", near)
		}
		out = append(out, fmt.Sprintf("%s: unknown key %q, so it does nothing; %s (docs/sandbox.md)", f.Path, k, fix))
	}
	for _, k := range []string{KeyNetworkAllow, KeyNetworkDeny} {
		for _, h := range f.List(k) {
			if err := HostPattern(h); err != nil {
				out = append(out, fmt.Sprintf("%s: %s: %v (as written it matches no host)", f.Path, k, err))
			}
		}
	}
	return out
}

// nearestKey is the sandbox key k is most likely a misspelling of (at
// most three edits, ignoring case and - for _), or "".
func nearestKey(k string) string {
	return spelling.Nearest(strings.ReplaceAll(k, "-", "_"), configKeys, 3)
}
