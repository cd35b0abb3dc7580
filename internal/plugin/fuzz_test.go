package plugin

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/contract"
)

// FuzzParseManifest checks that no manifest text panics the parser, that
// every error is a located *ManifestError, and that an accepted extension
// is runnable: exactly one launch form, protocol 1 or 2, a known runtime and
// policy, hooks that pass Check, and an Argv that does not panic.
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte(seedManifest))
	f.Add([]byte(synapsCLIManifest))
	f.Add([]byte(`{"name":"p","extension":{"entry_point":"cd x && python3 \"$HOME/main.py\" ~/y","extension_protocol_version":1}}`))
	getenv := func(k string) string {
		switch k {
		case "HOME":
			return "/home/fuzz"
		case "A":
			return "a b"
		}
		return ""
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest("plugin.json", data)
		if err != nil {
			for _, e := range Errors(err) {
				var me *ManifestError
				if !errors.As(e, &me) {
					t.Fatalf("error %v (%T) is not a *ManifestError", e, e)
				}
				if me.File != "plugin.json" || me.Problem == "" {
					t.Fatalf("error without file or problem: %#v", me)
				}
				_ = me.Error()
			}
			return
		}
		if m == nil {
			t.Fatal("nil manifest without error")
		}
		if m.Name == "" || strings.ContainsAny(m.Name, ":/") {
			t.Fatalf("accepted bad name %q", m.Name)
		}
		e := m.Extension
		if e == nil {
			return
		}
		if (e.EntryPoint != "") == (e.Command != "") {
			t.Fatalf("launch forms: entry_point %q, command %q", e.EntryPoint, e.Command)
		}
		if !slices.Contains(contract.ProtocolVersions, e.ProtocolVersion) {
			t.Fatalf("ProtocolVersion = %d", e.ProtocolVersion)
		}
		if e.Runtime != RuntimeProcess || (e.FailurePolicy != FailurePolicyOpen && e.FailurePolicy != FailurePolicyClosed) {
			t.Fatalf("runtime %q, failure policy %q", e.Runtime, e.FailurePolicy)
		}
		if len(e.Permissions) != len(e.PermissionList) {
			t.Fatalf("permission set %v vs list %v", e.Permissions, e.PermissionList)
		}
		for _, p := range e.PermissionList {
			if !contract.KnownPermission(p) {
				t.Fatalf("accepted unknown permission %q", p)
			}
		}
		for _, s := range e.Hooks {
			if err := CheckSubscription(s, e.Permissions); err != nil {
				t.Fatalf("accepted hook fails Check: %v", err)
			}
			_ = s.Matches("bash", "bash", []byte(`{"command":"rm -rf /"}`))
		}
		argv, shell, err := e.Argv(getenv)
		if err == nil && len(argv) == 0 {
			t.Fatalf("Argv = empty argv, shell %v, no error", shell)
		}
	})
}
