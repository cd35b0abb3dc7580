package plugin

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

func TestSubscriptionCheck(t *testing.T) {
	tests := []struct {
		name  string
		sub   hook.Subscription
		perms []string
		want  string // substring of the error; "" for none
	}{
		{"per-hook permission", hook.Subscription{Hook: contract.HookAfterToolCall}, []string{"hooks.after_tool_call"}, ""},
		{"group permission", hook.Subscription{Hook: contract.HookAfterToolCall, Tool: "bash"}, []string{"tools.intercept"}, ""},
		{"other hook's permission", hook.Subscription{Hook: contract.HookAfterToolCall}, []string{"hooks.before_tool_call"},
			`hook "after_tool_call" needs permission "hooks.after_tool_call" or "tools.intercept"`},
		{"nil permissions", hook.Subscription{Hook: contract.HookOnSessionEnd}, nil, `needs permission "hooks.on_session_end" or "session.lifecycle"`},
		{"unknown hook lists known ones", hook.Subscription{Hook: "before_tool"}, []string{"tools.intercept"},
			`unknown hook "before_tool". Did you mean "before_tool_call"? Use one of: before_tool_call, after_tool_call, before_message`},
		{"tool on a hook without filter", hook.Subscription{Hook: contract.HookOnCompaction, Tool: "bash"}, []string{"privacy.llm_content"},
			`"tool" is allowed only on before_tool_call and after_tool_call`},
		{"match on a hook without filter", hook.Subscription{Hook: contract.HookBeforeMessage, Match: &hook.Matcher{}}, []string{"privacy.llm_content"},
			`"match" is allowed only on before_tool_call and after_tool_call`},
		{"input_equals not an object", hook.Subscription{Hook: contract.HookBeforeToolCall, Match: &hook.Matcher{InputEquals: json.RawMessage(`[1]`)}},
			[]string{"tools.intercept"}, `"input_equals" must be a JSON object, got an array`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckSubscription(tt.sub, contract.NewPermissions(tt.perms))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Check = %v, want nil", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("Check = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestDecodeSubscriptions(t *testing.T) {
	const prefix = "initialize result capabilities.hooks"
	subs, err := DecodeSubscriptions("hello-ext", prefix,
		json.RawMessage(`[{"name":"before_tool_call"},{"hook":"after_tool_call","tool":"read","match":{"input_equals":{"path": "a"}}},"on_session_end"]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []hook.Subscription{
		{Hook: "before_tool_call"},
		{Hook: "after_tool_call", Tool: "read", Match: &hook.Matcher{InputEquals: json.RawMessage(`{"path":"a"}`)}},
		{Hook: "on_session_end"},
	}
	if d := cmp.Diff(want, subs); d != "" {
		t.Errorf("subscriptions (-want +got):\n%s", d)
	}

	for _, raw := range []string{``, `null`, `[]`} {
		if subs, err := DecodeSubscriptions("f", prefix, json.RawMessage(raw)); err != nil || len(subs) != 0 {
			t.Errorf("DecodeSubscriptions(%q) = %v, %v", raw, subs, err)
		}
	}

	_, err = DecodeSubscriptions("hello-ext", prefix, json.RawMessage(`[{"name":"before_tool_call","match":{"input_glob":"*"}}]`))
	errs := manifestErrors(t, err)
	if len(errs) != 1 || errs[0].Field != prefix+"[0].match.input_glob" || !strings.Contains(errs[0].Error(), "patterns are not supported") {
		t.Errorf("unknown matcher key: %v", err)
	}

	_, err = DecodeSubscriptions("f", prefix, json.RawMessage(`{"name":`))
	if errs := manifestErrors(t, err); len(errs) != 1 || errs[0].Field != prefix {
		t.Errorf("invalid JSON: %v", err)
	}
}

func TestAcceptSubscriptions(t *testing.T) {
	const prefix = "initialize result capabilities.hooks"
	raw := json.RawMessage(`[{"name":"before_tool_call"},{"name":"before_message"},{"name":"on_nothing"},{"name":"on_session_start","extra":1}]`)
	ok, warns, err := AcceptSubscriptions("hello-ext", prefix, raw, contract.NewPermissions([]string{"hooks.before_tool_call", "session.lifecycle"}))
	if d := cmp.Diff([]hook.Subscription{{Hook: "before_tool_call"}, {Hook: "on_session_start"}}, ok); d != "" {
		t.Errorf("accepted (-want +got):\n%s", d)
	}
	var fields []string
	for _, me := range manifestErrors(t, err) {
		fields = append(fields, me.Field)
	}
	if d := cmp.Diff([]string{prefix + "[1].name", prefix + "[2].name"}, fields); d != "" {
		t.Errorf("refused fields (-want +got):\n%s", d)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], prefix+`[3].extra: unknown subscription key "extra" is ignored`) {
		t.Errorf("warnings = %q", warns)
	}
}

func TestArgv(t *testing.T) {
	env := map[string]string{"HOME": "/home/ada", "PY": "python3", "DATA": "/srv/data", "SPACED": "a b"}
	getenv := func(k string) string { return env[k] }
	sh := func(line string) []string { return []string{"/bin/sh", "-c", line} }
	tests := []struct {
		name      string
		ext       ExtensionManifest
		want      []string
		wantShell bool
		wantErr   string
	}{
		{"plain", ExtensionManifest{EntryPoint: "python3 main.py"}, []string{"python3", "main.py"}, false, ""},
		{"extra spaces", ExtensionManifest{EntryPoint: "  python3   main.py  "}, []string{"python3", "main.py"}, false, ""},
		{"quoted args with spaces", ExtensionManifest{EntryPoint: `python3 "my script.py" --name 'Ada Lovelace' it\'s`},
			[]string{"python3", "my script.py", "--name", "Ada Lovelace", "it's"}, false, ""},
		{"$VAR and ${VAR}", ExtensionManifest{EntryPoint: `$PY main.py --dir ${DATA}/cache "$SPACED"`},
			[]string{"python3", "main.py", "--dir", "/srv/data/cache", "a b"}, false, ""},
		{"unquoted variable splits", ExtensionManifest{EntryPoint: `echo $SPACED`}, []string{"echo", "a", "b"}, false, ""},
		{"unset variable vanishes", ExtensionManifest{EntryPoint: `python3 $NOPE main.py`}, []string{"python3", "main.py"}, false, ""},
		{"default value", ExtensionManifest{EntryPoint: `python3 ${NOPE:-main.py}`}, []string{"python3", "main.py"}, false, ""},
		{"tilde", ExtensionManifest{EntryPoint: `~/bin/ext --config ~/.ext.toml`},
			[]string{"/home/ada/bin/ext", "--config", "/home/ada/.ext.toml"}, false, ""},
		{"quoted tilde stays", ExtensionManifest{EntryPoint: `ext '~/x'`}, []string{"ext", "~/x"}, false, ""},
		{"relative path", ExtensionManifest{EntryPoint: `./bin/ext`}, []string{"./bin/ext"}, false, ""},
		{"quoted glob is literal", ExtensionManifest{EntryPoint: `grep -e '*.py' "a?"`}, []string{"grep", "-e", "*.py", "a?"}, false, ""},

		{"&& needs a shell", ExtensionManifest{EntryPoint: "cd x && python3 main.py"}, sh("cd x && python3 main.py"), true, ""},
		{"pipe", ExtensionManifest{EntryPoint: "python3 main.py | tee log"}, sh("python3 main.py | tee log"), true, ""},
		{"semicolon", ExtensionManifest{EntryPoint: "source venv/bin/activate; python main.py"}, sh("source venv/bin/activate; python main.py"), true, ""},
		{"redirect", ExtensionManifest{EntryPoint: "python3 main.py 2>err.log"}, sh("python3 main.py 2>err.log"), true, ""},
		{"subshell", ExtensionManifest{EntryPoint: "(cd x; ./run)"}, sh("(cd x; ./run)"), true, ""},
		{"command substitution", ExtensionManifest{EntryPoint: "$(which python3) main.py"}, sh("$(which python3) main.py"), true, ""},
		{"assignment prefix", ExtensionManifest{EntryPoint: "PYTHONUNBUFFERED=1 python3 main.py"}, sh("PYTHONUNBUFFERED=1 python3 main.py"), true, ""},
		{"exec builtin", ExtensionManifest{EntryPoint: "exec python3 main.py"}, sh("exec python3 main.py"), true, ""},
		{"unquoted glob", ExtensionManifest{EntryPoint: "python3 *.py"}, sh("python3 *.py"), true, ""},
		{"brace expansion", ExtensionManifest{EntryPoint: "ext {1..99999999}"}, sh("ext {1..99999999}"), true, ""},
		{"background", ExtensionManifest{EntryPoint: "python3 main.py &"}, sh("python3 main.py &"), true, ""},
		{"expansion error falls back to the shell", ExtensionManifest{EntryPoint: "ext ${NOPE:?unset}"}, sh("ext ${NOPE:?unset}"), true, ""},

		{"command and args pass through", ExtensionManifest{Command: "./bin/ext", Args: []string{"--dir", "$HOME", "a b"}},
			[]string{"./bin/ext", "--dir", "$HOME", "a b"}, false, ""},
		{"bare command", ExtensionManifest{Command: "python3"}, []string{"python3"}, false, ""},

		{"unterminated quote", ExtensionManifest{EntryPoint: `python3 "main.py`}, nil, false, "reached EOF without closing quote"},
		{"expands to nothing", ExtensionManifest{EntryPoint: `$NOPE`}, nil, false, "expands to no command"},
		{"no launch form", ExtensionManifest{}, nil, false, "neither"},
		{"both launch forms", ExtensionManifest{EntryPoint: "a", Command: "b"}, nil, false, "both"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			argv, shell, err := tt.ext.Argv(getenv)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Argv = %q, %v, %v; want error containing %q", argv, shell, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, argv); d != "" || shell != tt.wantShell {
				t.Errorf("argv (-want +got):\n%s\nshell = %v, want %v", d, shell, tt.wantShell)
			}
		})
	}

	var nilExt *ExtensionManifest
	if _, _, err := nilExt.Argv(getenv); err == nil {
		t.Error("Argv on nil extension: no error")
	}

	// The seed manifest runs directly.
	m, err := ParseManifest("plugin.json", []byte(seedManifest))
	if err != nil {
		t.Fatal(err)
	}
	if argv, shell, err := m.Extension.Argv(nil); err != nil || shell || !cmp.Equal(argv, []string{"python3", "main.py"}) {
		t.Errorf("seed Argv = %q, %v, %v", argv, shell, err)
	}
}
