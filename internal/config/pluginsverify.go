package config

import (
	"fmt"
	"strings"
)

// KeyPluginsVerify says what a user plugin whose files changed since it
// was installed does: "warn" (the default) lists it as modified;
// "strict" also keeps it from starting until `synaps plugins approve`.
const KeyPluginsVerify = "plugins.verify"

// PluginsVerify is plugins.verify: "strict" or "warn". A value that is
// neither reads as "warn", and warning (when set) names the file, the key
// and the fix.
func (f *File) PluginsVerify() (mode, warning string) {
	if f == nil {
		return "warn", ""
	}
	v, ok := f.Get(KeyPluginsVerify)
	if !ok {
		return "warn", ""
	}
	switch m := strings.ToLower(strings.TrimSpace(v)); m {
	case "strict", "warn":
		return m, ""
	}
	return "warn", fmt.Sprintf("%s: %s = %q is not \"strict\" or \"warn\", so modified plugins still start; write `%s = strict` to hold them until approved", f.Path, KeyPluginsVerify, v, KeyPluginsVerify)
}
