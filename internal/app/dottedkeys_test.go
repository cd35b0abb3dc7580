package app_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/app"
	"github.com/synaps-cli/synaps/internal/config"
	"github.com/synaps-cli/synaps/internal/tui"
)

// Every dotted config key of a checked family that synaps reads is one
// config.Check knows: a key added to a reader but not to config's list
// would be warned about as one that does nothing.
func TestDottedKeysAreRead(t *testing.T) {
	known := config.DottedKeys()
	for _, k := range []string{
		app.KeyAutoAllowSandboxed, app.KeyClaudeUserHooks, app.KeyClaudeFailClosed, app.KeyClaudeSmallFastModel,
		config.KeyPermissionsAllow, config.KeyPermissionsAsk, config.KeyPermissionsDeny, config.KeyPluginsVerify,
		tui.KeyStatusCommand,
	} {
		if !slices.Contains(known, k) {
			t.Errorf("config key %q is read but config.DottedKeys lacks it: config.Check would call it unknown", k)
		}
		f, err := config.Parse("cfg", []byte(k+" = x\n"))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range f.Check() {
			if strings.Contains(w, "unknown key") {
				t.Errorf("%s: %s", k, w)
			}
		}
	}
}
