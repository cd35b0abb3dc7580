package sandbox

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/config"
)

func TestReadConfigWarnsAboutSettingsThatDoNothing(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		want         []string
	}{
		{"known keys", "sandbox.bash = off\nsandbox.default = strict\nsandbox.network.allow = api.github.com, *.example.com:443\nsandbox.filesystem.allow_write = /tmp/x\n", nil},
		{"other dotted keys are not the sandbox's", "permissions.allow = Bash\nprice.x = input=1 output=1\n", nil},
		{"misspelt key", "sandbox.defualt = strict\n",
			[]string{`cfg: unknown key "sandbox.defualt", so it does nothing; did you mean "sandbox.default"? (docs/sandbox.md)`}},
		{"dash for underscore", "sandbox.filesystem.allow-write = /tmp/x\n",
			[]string{`cfg: unknown key "sandbox.filesystem.allow-write", so it does nothing; did you mean "sandbox.filesystem.allow_write"? (docs/sandbox.md)`}},
		{"Claude Code's name is not the config's", "sandbox.network.allowedDomains = x.com\n",
			[]string{`cfg: unknown key "sandbox.network.allowedDomains", so it does nothing; the sandbox keys are sandbox.bash, sandbox.plugins, sandbox.default, sandbox.required, sandbox.network.allow, sandbox.network.deny, sandbox.filesystem.allow_write, sandbox.filesystem.allow_read, sandbox.filesystem.deny_read, sandbox.filesystem.deny_write (docs/sandbox.md)`}},
		{"a URL is no host", "sandbox.network.allow = https://x.com\nsandbox.network.deny = *bad*\n",
			[]string{
				`cfg: sandbox.network.allow: "https://x.com" is not a host name; write only the host, such as api.github.com or *.example.com (as written it matches no host)`,
				`cfg: sandbox.network.deny: "*bad*": a wildcard is only *.domain (as written it matches no host)`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := config.Parse("cfg", []byte(tc.config))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			got := ReadConfig(f, dir, dir, false).Warnings
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}
