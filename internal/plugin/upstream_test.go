package plugin

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestUpstreamManifests: manifests as SynapsCLI's later runtime accepts
// them load here, with a warning for each capability synaps lacks; what
// upstream refuses for a reason synaps shares is still an error naming the
// field.
func TestUpstreamManifests(t *testing.T) {
	tests := []struct {
		name string
		body string // the extension object's body
		// errField is the field of the one expected error ("" = loads).
		errField, errText string
		// warns are substrings, one per expected warning, in order.
		warns []string
	}{
		{
			name: "every upstream permission, no hooks",
			body: `"command":"x","permissions":["tools.register","tools.intercept","tools.transform_output","privacy.llm_content","session.lifecycle","providers.register","context_providers.register","memory.read","memory.write","config.write","config.subscribe","audio.input","audio.output","session.drive"]`,
			warns: []string{
				`extension.permissions[6]: permission "context_providers.register": synaps does not run context providers`,
				`extension.permissions[11]: permission "audio.input": synaps has no audio input`,
				`extension.permissions[12]: permission "audio.output": synaps has no audio output`,
				`extension.permissions[13]: permission "session.drive": synaps has no session drivers`,
			},
		},
		{
			name: "a registration permission alone is enough",
			body: `"command":"x","permissions":["config.subscribe"]`,
		},
		{
			name:  "no hook and no registration permission",
			body:  `"command":"x","permissions":["tools.transform_output"]`,
			warns: []string{`extension: the extension subscribes to no hook and holds no registration permission`},
		},
		{
			name: "no permissions at all: a stub, left alone",
			body: `"command":"x"`,
		},
		{
			name: "seed extensions declare hooks at initialize: no warning",
			body: `"entry_point":"python3 main.py","permissions":["hooks.before_tool_call"]`,
		},
		{
			name: "protocol 2 with on_usage",
			body: `"command":"x","protocol_version":2,"permissions":["privacy.llm_content"],"hooks":[{"hook":"on_usage"}]`,
		},
		{
			name:     "on_usage needs protocol 2",
			body:     `"command":"x","protocol_version":1,"permissions":["privacy.llm_content"],"hooks":[{"hook":"on_usage"}]`,
			errField: "extension.hooks[0].hook",
			errText:  `hook "on_usage" needs extension protocol 2, but the manifest declares 1. Set "protocol_version": 2`,
		},
		{
			name:     "on_usage needs its permission",
			body:     `"command":"x","protocol_version":2,"permissions":["session.lifecycle"],"hooks":[{"hook":"on_usage"}]`,
			errField: "extension.hooks[0].hook",
			errText:  `needs permission "hooks.on_usage" or "privacy.llm_content"`,
		},
		{
			name:     "protocol 3 is not spoken",
			body:     `"command":"x","protocol_version":3,"permissions":["tools.register"]`,
			errField: "extension.protocol_version",
			errText:  "extension protocol version 3 is not supported: this synaps speaks extension protocols 1 and 2",
		},
		{
			name: "config entries of every upstream type, keys with '-'",
			body: `"command":"x","permissions":["tools.register"],"config":[
				{"key":"api-base","type":"string","default":"u"},
				{"key":"verbose","type":"bool","default":false},
				{"key":"max-items","type":"number","default":3},
				{"key":"token","secret_env":"T","required":true},
				{"key":"root","host_context":"project_root"}]`,
		},
		{
			name:     "bool default must be a boolean",
			body:     `"command":"x","permissions":["tools.register"],"config":[{"key":"verbose","type":"bool","default":"yes"}]`,
			errField: "extension.config[0].default",
			errText:  `default "yes" is not of type "bool"`,
		},
		{
			name:     "keys that differ only by '-' and '_' name one variable",
			body:     `"command":"x","permissions":["tools.register"],"config":[{"key":"max-items"},{"key":"max_items"}]`,
			errField: "extension.config[1].key",
			errText:  `config key "max_items" is declared twice`,
		},
		{
			name:     "keys may not hold '.', '/' or spaces",
			body:     `"command":"x","permissions":["tools.register"],"config":[{"key":"a.b"}]`,
			errField: "extension.config[0].key",
			errText:  `config key "a.b" is not valid`,
		},
		{
			name:     "unknown host_context",
			body:     `"command":"x","permissions":["tools.register"],"config":[{"key":"root","host_context":"cwd"}]`,
			errField: "extension.config[0].host_context",
			errText:  `unknown host_context "cwd"`,
		},
		{
			name: "keys SynapsCLI ignores too draw no warning",
			body: `"command":"x","permissions":["tools.register"],"name":"n","assets":[],"providers":[]`,
		},
		{
			name: "keys of capabilities synaps lacks draw one that says so",
			body: `"command":"x","permissions":["tools.register"],"theme_tokens":{"accent":"#fff"},"deferred":{"tools":[]}`,
			warns: []string{
				`extension.theme_tokens: synaps's terminal UI has no extension theme tokens`,
				`extension.deferred: synaps starts every extension when it loads (no deferred activation)`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseManifest("plugin.json", []byte(ext(tt.body)))
			if tt.errField == "" {
				if err != nil {
					t.Fatalf("ParseManifest: %v", err)
				}
			} else {
				errs := manifestErrors(t, err)
				if len(errs) != 1 || errs[0].Field != tt.errField || !strings.Contains(errs[0].Error(), tt.errText) {
					t.Fatalf("errors %v; want one at %s containing %q", errs, tt.errField, tt.errText)
				}
				return
			}
			var got []string
			for i, w := range m.Warnings {
				if i < len(tt.warns) && strings.Contains(w, tt.warns[i]) {
					got = append(got, tt.warns[i])
				} else {
					got = append(got, w)
				}
			}
			if diff := cmp.Diff(tt.warns, got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}
