package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/synaps-cli/synaps/internal/spelling"
)

// dottedKeys are the keys of the families permissions.*, claude.*,
// plugins.* and tui.* that synaps reads (the constants live with their
// readers: internal/app, internal/tui; TestDottedKeysAreRead in
// internal/app keeps the lists in step). Check passes other dotted keys
// by — sandbox.* is checked by the sandbox, price.* where prices are
// read, extension.<id>.* belongs to the plugin — but a key of these
// families that synaps does not read does nothing, and a typo there
// (`permissions.alow`) used to be ignored without a word.
var dottedKeys = []string{
	KeyPermissionsAllow, KeyPermissionsAsk, KeyPermissionsDeny, "permissions.auto_allow_sandboxed",
	"claude.import_user_hooks", "claude.fail_closed", "claude.small_fast_model",
	KeyPluginsVerify,
	"tui.status_command",
}

// DottedKeys returns a copy of dottedKeys, for the test that checks them
// against their readers.
func DottedKeys() []string { return slices.Clone(dottedKeys) }

// checkDotted is the warning for dotted key k, or "": a key of a checked
// family that synaps does not read, with the nearest known key of it or
// else the family's keys.
func (f *File) checkDotted(k string) string {
	family, _, _ := strings.Cut(k, ".")
	var known []string
	for _, d := range dottedKeys {
		if strings.HasPrefix(d, family+".") {
			known = append(known, d)
		}
	}
	if len(known) == 0 || slices.Contains(known, k) {
		return ""
	}
	if best := spelling.Nearest(strings.ReplaceAll(k, "-", "_"), known, 3); best != "" {
		return fmt.Sprintf("%s: unknown key %q, so it does nothing; did you mean %q?", f.Path, k, best)
	}
	return fmt.Sprintf("%s: unknown key %q, so it does nothing; the %s.* keys are %s", f.Path, k, family, strings.Join(known, ", "))
}
