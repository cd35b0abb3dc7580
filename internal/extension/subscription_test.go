package extension

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/contract"
)

func TestSubscriptionMatches(t *testing.T) {
	contains := func(s string) *Matcher { return &Matcher{InputContains: &s} }
	equals := func(s string) *Matcher { return &Matcher{InputEquals: json.RawMessage(s)} }
	const model, runtime = "hello-ext_hello", "hello-ext:hello"
	tests := []struct {
		name  string
		sub   Subscription
		model string
		rt    string
		input string
		want  bool
	}{
		{"no filter matches every tool", Subscription{Hook: contract.HookBeforeToolCall}, "bash", "bash", `{"command":"ls"}`, true},
		{"tool by model name", Subscription{Hook: contract.HookBeforeToolCall, Tool: model}, model, runtime, `{}`, true},
		{"tool by runtime name", Subscription{Hook: contract.HookBeforeToolCall, Tool: runtime}, model, runtime, `{}`, true},
		{"other tool", Subscription{Hook: contract.HookBeforeToolCall, Tool: "bash"}, model, runtime, `{}`, false},
		{"tool name is case-sensitive", Subscription{Hook: contract.HookBeforeToolCall, Tool: "Bash"}, "bash", "bash", `{}`, false},

		{"contains in compact text", Subscription{Hook: contract.HookBeforeToolCall, Tool: "bash", Match: contains("rm -rf")},
			"bash", "bash", `{"command": "sudo rm -rf /"}`, true},
		{"contains absent", Subscription{Hook: contract.HookBeforeToolCall, Match: contains("rm -rf")},
			"bash", "bash", `{"command":"ls -la"}`, false},
		{"contains spans key and value of compact text", Subscription{Hook: contract.HookBeforeToolCall, Match: contains(`"command":"ls`)},
			"bash", "bash", "{\n  \"command\" :  \"ls -la\"\n}", true},
		{"contains sees unescaped HTML characters", Subscription{Hook: contract.HookBeforeToolCall, Match: contains(`a > b && c`)},
			"bash", "bash", `{"command":"a \u003e b \u0026\u0026 c"}`, true},
		{"contains sees escaped quotes as JSON text", Subscription{Hook: contract.HookBeforeToolCall, Match: contains(`echo \"hi\"`)},
			"bash", "bash", `{"command":"echo \"hi\""}`, true},
		{"contains sees non-ASCII plainly", Subscription{Hook: contract.HookBeforeToolCall, Match: contains(`café`)},
			"bash", "bash", `{"command":"echo caf\u00e9"}`, true},
		{"contains on wrong tool", Subscription{Hook: contract.HookBeforeToolCall, Tool: "write", Match: contains("rm")},
			"bash", "bash", `{"command":"rm x"}`, false},

		{"equals exact", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"command":"ls"}`)},
			"bash", "bash", `{"command":"ls"}`, true},
		{"equals with reordered keys and nested values", Subscription{Hook: contract.HookBeforeToolCall,
			Match: equals(`{"a":1,"b":{"y":[1,2,{"k":true}],"x":null},"c":"s"}`)},
			"t", "t", `{ "c" : "s", "b": {"x": null, "y": [1.0, 2e0, {"k": true}]}, "a": 1 }`, true},
		{"equals: array order matters", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"a":[1,2]}`)},
			"t", "t", `{"a":[2,1]}`, false},
		{"equals: extra key", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"command":"ls"}`)},
			"bash", "bash", `{"command":"ls","timeout":5}`, false},
		{"equals: different value", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"command":"ls"}`)},
			"bash", "bash", `{"command":"ls -la"}`, false},
		{"equals: string is not number", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"n":1}`)},
			"t", "t", `{"n":"1"}`, false},
		{"equals: large integers compared exactly", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"n":9007199254740993}`)},
			"t", "t", `{"n":9007199254740992}`, false},
		{"equals: invalid input", Subscription{Hook: contract.HookBeforeToolCall, Match: equals(`{"n":1}`)},
			"t", "t", `{"n":`, false},

		{"combined: all match", Subscription{Hook: contract.HookBeforeToolCall, Tool: "bash",
			Match: &Matcher{InputContains: strPtr("push"), InputEquals: json.RawMessage(`{"command":"git push"}`)}},
			"bash", "bash", `{"command":"git push"}`, true},
		{"combined: contains fails", Subscription{Hook: contract.HookBeforeToolCall, Tool: "bash",
			Match: &Matcher{InputContains: strPtr("pull"), InputEquals: json.RawMessage(`{"command":"git push"}`)}},
			"bash", "bash", `{"command":"git push"}`, false},
		{"combined: equals fails", Subscription{Hook: contract.HookBeforeToolCall, Tool: "bash",
			Match: &Matcher{InputContains: strPtr("push"), InputEquals: json.RawMessage(`{"command":"git push -f"}`)}},
			"bash", "bash", `{"command":"git push"}`, false},
		{"combined: tool fails", Subscription{Hook: contract.HookBeforeToolCall, Tool: "write",
			Match: &Matcher{InputContains: strPtr("push")}},
			"bash", "bash", `{"command":"git push"}`, false},
		{"empty matcher matches", Subscription{Hook: contract.HookBeforeToolCall, Match: &Matcher{}}, "bash", "bash", `{}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.sub.Matches(tt.model, tt.rt, json.RawMessage(tt.input)); got != tt.want {
				t.Errorf("Matches(%q, %q, %s) = %v, want %v", tt.model, tt.rt, tt.input, got, tt.want)
			}
		})
	}
}

func TestMatchText(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{ "a" : [1, 2] }`, `{"a":[1,2]}`},
		{`{"c":"a \u003c b"}`, `{"c":"a < b"}`},
		{`{"c":"\/path\ttab \"q\" \\ \u0001"}`, `{"c":"/path\ttab \"q\" \\ \u0001"}`},
		{`{"\u006bey":"v"}`, `{"key":"v"}`},
		{`not json`, `not json`},
	}
	for _, tt := range tests {
		if got := string(matchText(json.RawMessage(tt.in))); got != tt.want {
			t.Errorf("matchText(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestSubscriptionCheck(t *testing.T) {
	tests := []struct {
		name  string
		sub   Subscription
		perms []string
		want  string // substring of the error; "" for none
	}{
		{"per-hook permission", Subscription{Hook: contract.HookAfterToolCall}, []string{"hooks.after_tool_call"}, ""},
		{"group permission", Subscription{Hook: contract.HookAfterToolCall, Tool: "bash"}, []string{"tools.intercept"}, ""},
		{"other hook's permission", Subscription{Hook: contract.HookAfterToolCall}, []string{"hooks.before_tool_call"},
			`hook "after_tool_call" needs permission "hooks.after_tool_call" or "tools.intercept"`},
		{"nil permissions", Subscription{Hook: contract.HookOnSessionEnd}, nil, `needs permission "hooks.on_session_end" or "session.lifecycle"`},
		{"unknown hook lists known ones", Subscription{Hook: "before_tool"}, []string{"tools.intercept"},
			`unknown hook "before_tool". Did you mean "before_tool_call"? Use one of: before_tool_call, after_tool_call, before_message`},
		{"tool on a hook without filter", Subscription{Hook: contract.HookOnCompaction, Tool: "bash"}, []string{"privacy.llm_content"},
			`"tool" is allowed only on before_tool_call and after_tool_call`},
		{"match on a hook without filter", Subscription{Hook: contract.HookBeforeMessage, Match: &Matcher{}}, []string{"privacy.llm_content"},
			`"match" is allowed only on before_tool_call and after_tool_call`},
		{"input_equals not an object", Subscription{Hook: contract.HookBeforeToolCall, Match: &Matcher{InputEquals: json.RawMessage(`[1]`)}},
			[]string{"tools.intercept"}, `"input_equals" must be a JSON object, got an array`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.sub.Check(contract.NewPermissions(tt.perms))
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
	want := []Subscription{
		{Hook: "before_tool_call"},
		{Hook: "after_tool_call", Tool: "read", Match: &Matcher{InputEquals: json.RawMessage(`{"path":"a"}`)}},
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
	if d := cmp.Diff([]Subscription{{Hook: "before_tool_call"}, {Hook: "on_session_start"}}, ok); d != "" {
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
