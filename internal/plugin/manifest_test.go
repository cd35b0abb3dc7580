package plugin

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

// The manifest from Step 1 of the authoring guide, byte for byte.
const seedManifest = `{
  "name": "hello-ext",
  "version": "0.1.0",
  "description": "Hello-world extension",
  "extension": {
    "entry_point": "python3 main.py",
    "extension_protocol_version": 1,
    "permissions": [
      "tools.register",
      "hooks.before_tool_call"
    ]
  }
}`

// A public SynapsCLI-style manifest.
const synapsCLIManifest = `{"name":"rm-rf-guard","version":"1.0.0","author":"Your Name <you@example.com>","license":"MIT",
"extension":{"protocol_version":1,"runtime":"process","command":"python3","args":["main.py"],
"permissions":["tools.intercept"],
"hooks":[{"hook":"before_tool_call","tool":"bash","match":{"input_contains":"rm -rf"}}],
"config":[{"key":"allowed_dir","description":"dir","default":"/tmp"}]}}`

func strPtr(s string) *string { return &s }

// manifestErrors returns every *ManifestError inside err.
func manifestErrors(t *testing.T, err error) []*ManifestError {
	t.Helper()
	var out []*ManifestError
	for _, e := range Errors(err) {
		var me *ManifestError
		if !errors.As(e, &me) {
			t.Fatalf("error %v (%T) is not a *ManifestError", e, e)
		}
		out = append(out, me)
	}
	return out
}

// ext wraps an extension object into a valid manifest.
func ext(body string) string {
	return `{"name":"p","extension":{` + body + `}}`
}

func TestParseManifestErrors(t *testing.T) {
	const seedExt = `"entry_point":"python3 main.py","extension_protocol_version":1,`
	const cliExt = `"command":"python3","args":["main.py"],"protocol_version":1,`
	tests := []struct {
		name    string
		json    string
		field   string
		problem string // distinctive substring of Problem
	}{
		{"missing name", `{"version":"1.0.0"}`, "name", `missing required field "name"`},
		{"empty name", `{"name":""}`, "name", `"name" is empty`},
		{"name with colon", `{"name":"my:plugin"}`, "name", `must not contain ':'`},
		{"name with slash", `{"name":"a/b"}`, "name", `must not contain '/'`},
		{"name with space", `{"name":"my plugin"}`, "name", `must not contain whitespace`},
		{"name not a string", `{"name":7}`, "name", `must be a string, got a number`},
		{"both launch forms", ext(`"entry_point":"python3 main.py","command":"python3","extension_protocol_version":1`),
			"extension.entry_point", `both "entry_point" and "command" are set`},
		{"neither launch form", ext(`"extension_protocol_version":1,"permissions":[]`),
			"extension.entry_point", `neither "entry_point" nor "command" is set`},
		{"args without command", ext(seedExt + `"args":["--verbose"]`),
			"extension.args", `"args" is only used with "command"`},
		{"args not strings", ext(`"command":"python3","protocol_version":1,"args":["main.py",3]`),
			"extension.args[1]", `must be a string, got a number`},
		{"empty command", ext(`"command":"","protocol_version":1`), "extension.command", `"command" is empty`},
		{"bad entry_point quoting", ext(`"entry_point":"python3 'main.py","extension_protocol_version":1`),
			"extension.entry_point", `cannot parse entry point`},
		{"empty entry_point", ext(`"entry_point":"  ","extension_protocol_version":1`),
			"extension.entry_point", `"entry_point" is empty`},
		{"unknown permission", ext(seedExt + `"permissions":["tools.register","tools.explode"]`),
			"extension.permissions[1]", `unknown permission "tools.explode"`},
		{"reserved tools.override", ext(seedExt + `"permissions":["tools.override"]`),
			"extension.permissions[0]", `permission "tools.override" is reserved`},
		{"permissions not an array", ext(seedExt + `"permissions":"tools.register"`),
			"extension.permissions", `must be an array, got a string`},
		{"permission not a string", ext(seedExt + `"permissions":[{"name":"tools.register"}]`),
			"extension.permissions[0]", `must be a string, got an object`},
		{"hook without permission", ext(cliExt + `"permissions":["tools.register"],"hooks":[{"hook":"before_tool_call","tool":"bash"}]`),
			"extension.hooks[0].hook", `hook "before_tool_call" needs permission "hooks.before_tool_call" or "tools.intercept"`},
		{"hook without permission via name", ext(cliExt + `"hooks":[{"name":"on_session_start"}]`),
			"extension.hooks[0].name", `needs permission "hooks.on_session_start" or "session.lifecycle"`},
		{"unknown hook name", ext(cliExt + `"permissions":["tools.intercept"],"hooks":[{"hook":"before_everything"}]`),
			"extension.hooks[0].hook", `unknown hook "before_everything"`},
		{"unknown matcher key", ext(cliExt + `"permissions":["tools.intercept"],"hooks":[{"hook":"before_tool_call","match":{"input_regex":"rm -rf .*"}}]`),
			"extension.hooks[0].match.input_regex", `unknown matcher key "input_regex" (allowed: input_contains, input_equals)`},
		{"tool filter on before_message", ext(cliExt + `"permissions":["privacy.llm_content"],"hooks":[{"hook":"before_message","tool":"bash"}]`),
			"extension.hooks[0].tool", `hook "before_message" has no tool filter`},
		{"match on on_session_start", ext(cliExt + `"permissions":["session.lifecycle"],"hooks":[{"hook":"on_session_start","match":{"input_contains":"x"}}]`),
			"extension.hooks[0].match", `hook "on_session_start" has no tool filter`},
		{"empty tool", ext(cliExt + `"permissions":["tools.intercept"],"hooks":[{"hook":"before_tool_call","tool":""}]`),
			"extension.hooks[0].tool", `"tool" is empty`},
		{"input_contains not a string", ext(cliExt + `"permissions":["tools.intercept"],"hooks":[{"hook":"before_tool_call","match":{"input_contains":["rm"]}}]`),
			"extension.hooks[0].match.input_contains", `must be a string, got an array`},
		{"input_equals not an object", ext(cliExt + `"permissions":["tools.intercept"],"hooks":[{"hook":"before_tool_call","match":{"input_equals":"ls"}}]`),
			"extension.hooks[0].match.input_equals", `must be a JSON object, got a string`},
		{"hook and name disagree", ext(cliExt + `"permissions":["tools.intercept"],"hooks":[{"hook":"before_tool_call","name":"after_tool_call"}]`),
			"extension.hooks[0].name", `"hook" ("before_tool_call") and "name" ("after_tool_call") disagree`},
		{"subscription without hook", ext(cliExt + `"permissions":["tools.intercept"],"hooks":[{"tool":"bash"}]`),
			"extension.hooks[0]", `neither "hook" nor "name" is set`},
		{"subscription key typo", ext(cliExt + `"permissions":["tools.intercept"],"hooks":[{"hook":"before_tool_call","matcher":{"input_contains":"x"}}]`),
			"extension.hooks[0].matcher", `unknown subscription key "matcher"`},
		{"hooks not an array", ext(cliExt + `"permissions":["tools.intercept"],"hooks":{"hook":"before_tool_call"}`),
			"extension.hooks", `must be an array, got an object`},
		{"wrong protocol version 3", ext(`"entry_point":"python3 main.py","extension_protocol_version":3`),
			"extension.extension_protocol_version", `extension protocol version 3 is not supported: this synaps speaks extension protocols 1 and 2`},
		{"protocol version as string", ext(`"command":"x","protocol_version":"1"`),
			"extension.protocol_version", `must be a number, got a string`},
		{"protocol version not integer", ext(`"command":"x","protocol_version":1.5`),
			"extension.protocol_version", `protocol version 1.5 is not an integer`},
		{"disagreeing protocol versions", ext(`"command":"x","protocol_version":3,"extension_protocol_version":1`),
			"extension.protocol_version", `"protocol_version" (3) disagrees with "extension_protocol_version" (1)`},
		{"runtime wasm", ext(cliExt + `"runtime":"wasm"`), "extension.runtime", `runtime "wasm" is not supported`},
		{"bad config key", ext(cliExt + `"config":[{"key":"my key"}]`), "extension.config[0].key", `config key "my key" is not valid`},
		{"config key with dot", ext(cliExt + `"config":[{"key":"a.b"}]`), "extension.config[0].key", `config key "a.b" is not valid`},
		{"config key missing", ext(cliExt + `"config":[{"description":"d"}]`), "extension.config[0].key", `missing required field "key"`},
		{"duplicate config key", ext(cliExt + `"config":[{"key":"dir"},{"key":"other"},{"key":"DIR"}]`),
			"extension.config[2].key", `config key "DIR" is declared twice (first at extension.config[0]`},
		{"bad config type", ext(cliExt + `"config":[{"key":"n","type":"float"}]`), "extension.config[0].type", `unknown config type "float"`},
		{"required not boolean", ext(cliExt + `"config":[{"key":"n","required":"yes"}]`),
			"extension.config[0].required", `"required" must be true or false, got a string`},
		{"default of wrong type", ext(cliExt + `"config":[{"key":"n","type":"integer","default":1.5}]`),
			"extension.config[0].default", `default 1.5 is not of type "integer"`},
		{"bad secret_env", ext(cliExt + `"config":[{"key":"token","secret_env":"MY TOKEN"}]`),
			"extension.config[0].secret_env", `"MY TOKEN" is not a valid environment variable name`},
		{"config not an array", ext(cliExt + `"config":{"key":"n"}`), "extension.config", `must be an array, got an object`},
		{"bad env name", ext(cliExt + `"env":["GITHUB_TOKEN","MY-VAR"]`), "extension.env[1]", `"MY-VAR" is not a valid environment variable name`},
		{"env as object", ext(cliExt + `"env":{"A":"b"}`), "extension.env", `must be an array, got an object`},
		{"bad failure_policy", ext(cliExt + `"failure_policy":"maybe"`), "extension.failure_policy", `unknown failure policy "maybe"`},
		{"extension not an object", `{"name":"p","extension":"python3 main.py"}`, "extension", `must be an object, got a string`},
		{"invalid JSON", "{\n  \"name\": \"p\",\n}", "", `invalid JSON: invalid character '}'`},
		{"trailing garbage", `{"name":"p"} x`, "", `invalid JSON`},
		{"empty document", "  \n", "", `the manifest is empty`},
		{"top-level array", `[{"name":"p"}]`, "", `the manifest must be a JSON object, got an array`},
		{"top-level string", `"p"`, "", `the manifest must be a JSON object, got a string`},
		{"author of wrong type", `{"name":"p","author":42}`, "author", `"author" must be a string or an object, got a number`},
		{"author email wrong type", `{"name":"p","author":{"name":"A","email":1}}`, "author.email", `must be a string, got a number`},
		{"version wrong type", `{"name":"p","version":1.0}`, "version", `must be a string, got a number`},
	}
	if len(tests) < 25 {
		t.Fatalf("only %d cases", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseManifest("plugins/p/.synaps-plugin/plugin.json", []byte(tt.json))
			if err == nil {
				t.Fatalf("no error; manifest %+v", m)
			}
			var found *ManifestError
			var got []string
			for _, me := range manifestErrors(t, err) {
				got = append(got, me.Error())
				if me.Field == tt.field && strings.Contains(me.Problem, tt.problem) {
					found = me
				}
			}
			if found == nil {
				t.Fatalf("want an error at field %q with problem containing %q; got:\n%s", tt.field, tt.problem, strings.Join(got, "\n"))
			}
			if found.File != "plugins/p/.synaps-plugin/plugin.json" {
				t.Errorf("File = %q", found.File)
			}
			if found.Fix == "" {
				t.Errorf("error %q has no fix", found.Error())
			}
			if !strings.HasPrefix(found.Error(), found.File) || !strings.Contains(found.Error(), found.Fix) {
				t.Errorf("Error() = %q does not name the file and the fix", found.Error())
			}
		})
	}
}

func TestParseManifestErrorPositionAndText(t *testing.T) {
	_, err := ParseManifest("plugin.json", []byte("{\n  \"name\": \"p\",\n  \"version\": 1.0.0\n}"))
	errs := manifestErrors(t, err)
	if len(errs) != 1 {
		t.Fatalf("got %d errors: %v", len(errs), err)
	}
	if errs[0].Line != 3 || errs[0].Column != 17 {
		t.Errorf("position = %d:%d, want 3:17 (%v)", errs[0].Line, errs[0].Column, err)
	}
	if !strings.HasPrefix(err.Error(), "plugin.json:3:17: invalid JSON: ") {
		t.Errorf("Error() = %q", err.Error())
	}

	// Multi-byte characters count as one column.
	_, err = ParseManifest("plugin.json", []byte(`{"description":"héllo" "name":"p"}`))
	if me := manifestErrors(t, err)[0]; me.Line != 1 || me.Column != 24 {
		t.Errorf("position = %d:%d, want 1:24 (%v)", me.Line, me.Column, err)
	}

	_, err = ParseManifest("x/plugin.json", []byte(`{"name":"p","extension":{"entry_point":"python3 main.py","permissions":["tools.override"]}}`))
	const want = `x/plugin.json: extension.permissions[0]: permission "tools.override" is reserved and never granted. ` +
		`Remove it; to change how a tool behaves, declare "tools.intercept" and handle the before_tool_call hook`
	if err == nil || err.Error() != want {
		t.Errorf("Error() =\n%v\nwant\n%s", err, want)
	}
}

func TestParseManifestReportsAllProblems(t *testing.T) {
	data := `{"name":"a:b","extension":{"entry_point":"x","command":"y","protocol_version":7,"runtime":"wasm",
		"permissions":["tools.bogus","tools.override"],"failure_policy":"never","env":["1X"]}}`
	m, err := ParseManifest("plugin.json", []byte(data))
	var fields []string
	for _, me := range manifestErrors(t, err) {
		fields = append(fields, me.Field)
	}
	want := []string{"name", "extension.entry_point", "extension.protocol_version", "extension.runtime",
		"extension.permissions[0]", "extension.permissions[1]", "extension.env[0]", "extension.failure_policy"}
	if d := cmp.Diff(want, fields); d != "" {
		t.Errorf("fields (-want +got):\n%s", d)
	}
	if m == nil || m.Name != "a:b" || m.Extension == nil || m.Extension.Command != "y" {
		t.Errorf("partial manifest not returned: %+v", m)
	}
}

func TestParseManifestDialects(t *testing.T) {
	const file = "plugin.json"
	open := contract.Permissions{}
	tests := []struct {
		name string
		json string
		want *Manifest
	}{
		{"seed authoring guide", seedManifest, &Manifest{
			File: file, Name: "hello-ext", Version: "0.1.0", Description: "Hello-world extension",
			Extension: &ExtensionManifest{
				EntryPoint: "python3 main.py", ProtocolVersion: 1, Runtime: "process",
				Permissions:    contract.Permissions{"tools.register": true, "hooks.before_tool_call": true},
				PermissionList: []string{"tools.register", "hooks.before_tool_call"},
				FailurePolicy:  "open",
			},
		}},
		{"SynapsCLI", synapsCLIManifest, &Manifest{
			File: file, Name: "rm-rf-guard", Version: "1.0.0", Author: "Your Name <you@example.com>", License: "MIT",
			Extension: &ExtensionManifest{
				Command: "python3", Args: []string{"main.py"}, ProtocolVersion: 1, Runtime: "process",
				Permissions:    contract.Permissions{"tools.intercept": true},
				PermissionList: []string{"tools.intercept"},
				Hooks:          []hook.Subscription{{Hook: "before_tool_call", Tool: "bash", Match: &hook.Matcher{InputContains: strPtr("rm -rf")}}},
				Config:         []ConfigEntry{{Key: "allowed_dir", Description: "dir", Default: json.RawMessage(`"/tmp"`)}},
				FailurePolicy:  "open",
			},
		}},
		{"skills-only plugin", `{"name":"docs-only","version":"1.2.0","repository":{"type":"git","url":"https://example.com/r.git"},"compatibility":{"synaps":">=0.1"},"keywords":["x"]}`,
			&Manifest{File: file, Name: "docs-only", Version: "1.2.0", Repository: "https://example.com/r.git"}},
		{"author object", `{"name":"p","author":{"name":"Ada","email":"ada@example.com"},"extension":{"entry_point":"./run","extension_protocol_version":1}}`,
			&Manifest{File: file, Name: "p", Author: "Ada <ada@example.com>", Extension: &ExtensionManifest{
				EntryPoint: "./run", ProtocolVersion: 1, Runtime: "process", Permissions: open, FailurePolicy: "open"}}},
		{"author object with url only", `{"name":"p","author":{"name":"Ada","url":"https://ada.dev"}}`,
			&Manifest{File: file, Name: "p", Author: "Ada (https://ada.dev)"}},
		{"hooks under name, per-hook permission", ext(`"command":"node","args":["x.js"],"protocol_version":1,
			"permissions":["hooks.after_tool_call"],"hooks":[{"name":"after_tool_call","tool":"read"}]`),
			&Manifest{File: file, Name: "p", Extension: &ExtensionManifest{
				Command: "node", Args: []string{"x.js"}, ProtocolVersion: 1, Runtime: "process",
				Permissions:    contract.Permissions{"hooks.after_tool_call": true},
				PermissionList: []string{"hooks.after_tool_call"},
				Hooks:          []hook.Subscription{{Hook: "after_tool_call", Tool: "read"}},
				FailurePolicy:  "open"}}},
		{"group permission unlocks hook", ext(`"command":"node","protocol_version":1,
			"permissions":["tools.intercept","tools.transform_output"],"hooks":[{"hook":"after_tool_call"},"before_tool_call"]`),
			&Manifest{File: file, Name: "p", Extension: &ExtensionManifest{
				Command: "node", ProtocolVersion: 1, Runtime: "process",
				Permissions:    contract.Permissions{"tools.intercept": true, "tools.transform_output": true},
				PermissionList: []string{"tools.intercept", "tools.transform_output"},
				Hooks:          []hook.Subscription{{Hook: "after_tool_call"}, {Hook: "before_tool_call"}},
				FailurePolicy:  "open"}}},
		{"both protocol spellings agreeing, everything set", ext(`"command":"./bin/guard","protocol_version":1,"extension_protocol_version":1,
			"runtime":"process","permissions":["privacy.llm_content","session.lifecycle","tools.intercept"],
			"hooks":[{"hook":"before_message"},{"hook":"before_tool_call","tool":"bash","match":{"input_contains":"git push","input_equals":{ "command" : "git push" }}}],
			"config":[{"key":"token","required":true,"secret_env":"GUARD_TOKEN","type":"string"},{"key":"limit","type":"integer","default":10}],
			"env":["HTTPS_PROXY","GITHUB_TOKEN"],"failure_policy":"closed"`),
			&Manifest{File: file, Name: "p", Extension: &ExtensionManifest{
				Command: "./bin/guard", ProtocolVersion: 1, Runtime: "process",
				Permissions:    contract.Permissions{"privacy.llm_content": true, "session.lifecycle": true, "tools.intercept": true},
				PermissionList: []string{"privacy.llm_content", "session.lifecycle", "tools.intercept"},
				Hooks: []hook.Subscription{{Hook: "before_message"}, {Hook: "before_tool_call", Tool: "bash",
					Match: &hook.Matcher{InputContains: strPtr("git push"), InputEquals: json.RawMessage(`{"command":"git push"}`)}}},
				Config: []ConfigEntry{
					{Key: "token", Required: true, SecretEnv: "GUARD_TOKEN", Type: "string"},
					{Key: "limit", Type: "integer", Default: json.RawMessage(`10`)},
				},
				Env:           []string{"HTTPS_PROXY", "GITHUB_TOKEN"},
				FailurePolicy: "closed"}}},
		{"null members count as absent", `{"name":"p","version":null,"extension":{"entry_point":"x","extension_protocol_version":1,"args":null,"permissions":null,"hooks":null}}`,
			&Manifest{File: file, Name: "p", Extension: &ExtensionManifest{
				EntryPoint: "x", ProtocolVersion: 1, Runtime: "process", Permissions: open, FailurePolicy: "open"}}},
		{"byte order mark", "\xef\xbb\xbf" + `{"name":"bom"}`, &Manifest{File: file, Name: "bom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseManifest(file, []byte(tt.json))
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Format = FormatSynaps
			if d := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("manifest (-want +got):\n%s", d)
			}
		})
	}
}

func TestParseManifestWarnings(t *testing.T) {
	tests := []struct {
		name string
		json string
		want []string // substrings, one per warning, in order
	}{
		{"typo of entry_point", ext(`"entry_point":"x","extension_protocol_version":1,"entrypoint":"y"`),
			[]string{`plugin.json: extension.entrypoint: unknown key "entrypoint" is ignored; did you mean "entry_point"?`}},
		{"unrelated unknown key", ext(`"entry_point":"x","extension_protocol_version":1,"widgets":[]`),
			[]string{`extension.widgets: unknown key "widgets" is ignored; known keys are entry_point, command`}},
		{"missing protocol version is protocol 1 without a warning", ext(`"command":"x"`), nil},
		{"duplicate permission", ext(`"command":"x","protocol_version":1,"permissions":["tools.register","tools.register"]`),
			[]string{`extension.permissions[1]: permission "tools.register" is listed more than once`}},
		{"command with spaces", ext(`"command":"python3 main.py","protocol_version":1`),
			[]string{`extension.command: "python3 main.py" is run as one executable name`}},
		{"unknown subscription key", ext(`"command":"x","protocol_version":1,"permissions":["tools.intercept"],"hooks":[{"hook":"before_tool_call","description":"guard"}]`),
			[]string{`extension.hooks[0].description: unknown subscription key "description" is ignored`}},
		{"unknown config key", ext(`"command":"x","protocol_version":1,"config":[{"key":"k","secret":"X"}]`),
			[]string{`extension.config[0].secret: unknown key "secret" is ignored; did you mean "secret_env"?`}},
		{"duplicate JSON key", `{"name":"a","name":"b"}`, []string{`plugin.json: name: key appears more than once; the last value is used`}},
		{"duplicate env name", ext(`"command":"x","protocol_version":1,"env":["A","A"]`), []string{`extension.env[1]: "A" is listed more than once`}},
		// The guide says "`hook.*` permission required per hook type".
		{"hook.<name> as the guide words it", ext(`"command":"x","protocol_version":1,"permissions":["hook.before_tool_call"],"hooks":[{"hook":"before_tool_call"}]`),
			[]string{`extension.permissions[0]: permission "hook.before_tool_call" is read as "hooks.before_tool_call", the name synaps and SynapsCLI use; write "hooks.before_tool_call"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseManifest("plugin.json", []byte(tt.json))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(tt.json, `"hook.`) && !m.Extension.Permissions.Has("hooks.before_tool_call") {
				t.Errorf("permissions = %v, want hooks.before_tool_call granted", m.Extension.Permissions)
			}
			if len(m.Warnings) != len(tt.want) {
				t.Fatalf("warnings = %q, want %d", m.Warnings, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(m.Warnings[i], w) {
					t.Errorf("warning %d = %q, want it to contain %q", i, m.Warnings[i], w)
				}
			}
		})
	}
	// The two reference manifests are clean.
	for _, data := range []string{seedManifest, synapsCLIManifest} {
		m, err := ParseManifest("plugin.json", []byte(data))
		if err != nil || len(m.Warnings) != 0 {
			t.Errorf("ParseManifest(%.40s…) = %v, warnings %q", data, err, m.Warnings)
		}
	}
}

func TestLoadManifest(t *testing.T) {
	dir := t.TempDir()
	plugin := filepath.Join(dir, "hello-ext")
	if err := os.MkdirAll(filepath.Join(plugin, ManifestDir), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(plugin, ManifestDir, ManifestFile)
	if err := os.WriteFile(file, []byte(seedManifest), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := LoadManifest(plugin)
	if err != nil {
		t.Fatal(err)
	}
	if m.File != file || m.Name != "hello-ext" || m.Extension == nil || m.Extension.EntryPoint != "python3 main.py" {
		t.Errorf("LoadManifest = %+v", m)
	}

	// Symlinked plugin directories (dev mode) load the same.
	link := filepath.Join(dir, "linked")
	if err := os.Symlink(plugin, link); err != nil {
		t.Fatal(err)
	}
	if m, err := LoadManifest(link); err != nil || m.Name != "hello-ext" {
		t.Errorf("LoadManifest(symlink) = %+v, %v", m, err)
	}

	missing := filepath.Join(dir, "empty")
	_, err = LoadManifest(missing)
	var me *ManifestError
	if !errors.As(err, &me) {
		t.Fatalf("missing manifest: %v is not a *ManifestError", err)
	}
	wantFile := filepath.Join(missing, ".synaps-plugin", "plugin.json")
	if me.File != wantFile || !strings.Contains(me.Problem, "not found") || !strings.Contains(me.Fix, wantFile) {
		t.Errorf("missing manifest error = %+v", me)
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct {
		in         string
		candidates []string
		want       string
	}{
		{"entrypoint", extensionKeys, "entry_point"},
		{"entryPoint", extensionKeys, "entry_point"},
		{"permission", extensionKeys, "permissions"},
		{"failurePolicy", extensionKeys, "failure_policy"},
		{"protocolVersion", extensionKeys, "protocol_version"},
		{"tools", extensionKeys, ""},
		{"cmd", extensionKeys, ""},
		{"hook.before_tool_call", allPermissions(), "hooks.before_tool_call"},
		{"tool.register", allPermissions(), "tools.register"},
		{"matcher", subscriptionKeys, "match"},
		{"description", subscriptionKeys, ""},
		{"before_tool", contract.HookNames(), "before_tool_call"},
		{"BeforeToolCall", contract.HookNames(), "before_tool_call"},
		{"input_contain", contract.MatcherKeys, "input_contains"},
		{"input_regex", contract.MatcherKeys, ""},
	}
	for _, tt := range tests {
		if got := suggest(tt.in, tt.candidates); got != tt.want {
			t.Errorf("suggest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
