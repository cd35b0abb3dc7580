package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hookIDsHome is a directory with hooks of every source: an extension
// guard, a Claude plugin with two PreToolUse commands (one blocks
// "danger", one matches Write only), the project's settings.json and
// settings.local.json, the user's Claude settings, and a deny and an allow rule.
func hookIDsHome(t *testing.T) (home, work string) {
	t.Helper()
	root := t.TempDir()
	home, work = filepath.Join(root, "home"), filepath.Join(root, "work")
	plugins := filepath.Join(home, ".synaps-cli", "plugins")
	writeFile(t, filepath.Join(plugins, "a-guard", ".synaps-plugin", "plugin.json"), `{"name":"a-guard","version":"0.0.1","extension":{"command":"fake-extension","protocol_version":1,"permissions":["tools.intercept"],"hooks":[{"hook":"before_tool_call","tool":"bash"}]}}`)
	writeFile(t, filepath.Join(plugins, "a-guard", "fake.json"), `{"rules":[{"hook":"before_tool_call","input_contains":"rm -rf","result":{"action":"block","reason":"no rm -rf"}}]}`)
	writeFile(t, filepath.Join(plugins, "cc-guard", ".claude-plugin", "plugin.json"), `{"name":"cc-guard","version":"1.0.0"}`)
	writeFile(t, filepath.Join(plugins, "cc-guard", "hooks", "hooks.json"), `{"hooks":{"PreToolUse":[
		{"matcher":"Bash","hooks":[{"type":"command","command":"case \"$(cat)\" in *danger*) echo 'no danger here' >&2; exit 2;; esac"}]},
		{"matcher":"Write","hooks":[{"type":"command","command":"true"}]}]}}`)
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}`)
	writeFile(t, filepath.Join(work, ".claude", "settings.json"), `{"hooks":{"PreToolUse":[{"matcher":"Edit|Write","hooks":[{"type":"command","command":"true"}]}]}}`)
	writeFile(t, filepath.Join(work, ".claude", "settings.local.json"), `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"true"}]}]}}`)
	writeFile(t, filepath.Join(home, ".synaps-cli", "config"), "permissions.deny = Bash(curl:*)\npermissions.allow = Bash\n")
	return home, work
}

type listedHook struct {
	ID, Event, Kind, Status string
}

type reportOf struct {
	Links []struct {
		ID, State, Action string
	} `json:"links"`
	Verdict, By string
}

// TestHookIDsAgree: the ids `synaps hooks --json` lists are the ids a
// report names — `synaps hooks test --json` and the coverage of a real
// `-p` run of the same call: every link a report names is a listed hook
// (a Claude hook by its own command, a rule or the mode as listed), every
// running before_tool_call hook has its entry, and a Claude hook's block
// is by the command that blocked. So `hooks disable X`,
// `required_guards = X` and `synaps why` all speak of the same X.
func TestHookIDsAgree(t *testing.T) {
	home, work := hookIDsHome(t)
	for _, trusted := range []bool{true, false} {
		var flags []string
		name := "untrusted"
		if trusted {
			flags, name = []string{"--trust-project"}, "trusted"
		}
		t.Run(name, func(t *testing.T) {
			out, stderr, code := runSynaps(t, home, work, append([]string{"hooks", "--json"}, flags...)...)
			var list struct{ Hooks []listedHook }
			if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 {
				t.Fatalf("hooks --json: %v (exit %d)\n%s\n%s", err, code, out, stderr)
			}
			listed := map[string]listedHook{}
			var running []string
			for _, h := range list.Hooks {
				if h.Event != "before_tool_call" {
					continue
				}
				listed[h.ID] = h
				if h.Kind != "permission" && h.Status == "running" {
					running = append(running, h.ID)
				}
			}
			for _, want := range []string{"plugin:cc-guard/PreToolUse/0", "plugin:cc-guard/PreToolUse/1", "claude:project/PreToolUse/0", "claude:local/PreToolUse/0", "claude:user/PreToolUse/0", "rule:Bash(curl:*)", "rule:Bash", "mode:default"} {
				if _, ok := listed[want]; !ok {
					t.Errorf("hooks --json lists no %s: %s", want, out)
				}
			}
			calls := []struct {
				tool, input, by string
			}{
				{"Bash", `{"command":"echo danger"}`, "plugin:cc-guard/PreToolUse/0"},
				{"Bash", `{"command":"rm -rf build"}`, "ext:a-guard/before_tool_call"},
				{"Bash", `{"command":"curl x"}`, "rule:Bash(curl:*)"},
				{"Bash", `{"command":"echo hi"}`, "rule:Bash"},
				{"Write", `{"file_path":"n.md","content":"x"}`, "mode:default"},
			}
			for _, c := range calls {
				out, stderr, _ := runSynaps(t, home, work, append([]string{"hooks", "test", c.tool, c.input, "--json"}, flags...)...)
				var rep reportOf
				if err := json.Unmarshal([]byte(out), &rep); err != nil {
					t.Fatalf("hooks test %s %s: %v\n%s\n%s", c.tool, c.input, err, out, stderr)
				}
				checkReportIDs(t, "hooks test "+c.input, rep, listed, running)
				if rep.By != c.by {
					t.Errorf("hooks test %s: decided by %q, want %q", c.input, rep.By, c.by)
				}
			}
			// A real run's coverage names the same ids.
			script := filepath.Join(work, "danger-"+name+".jsonl")
			writeFile(t, script, `{"text":"go","tool_calls":[{"name":"bash","input":{"command":"echo danger"}}]}`+"\n"+`{"text":"ok"}`+"\n")
			out, stderr, _ = runSynaps(t, home, work, append([]string{"-p", "go", "--model", "script:" + script, "--output-format", "json"}, flags...)...)
			var res struct {
				ToolCalls []struct {
					Coverage *reportOf `json:"coverage"`
				} `json:"tool_calls"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.ToolCalls) != 1 || res.ToolCalls[0].Coverage == nil {
				t.Fatalf("-p gave no coverage (%v):\n%s\n%s", err, out, stderr)
			}
			checkReportIDs(t, "-p coverage", *res.ToolCalls[0].Coverage, listed, running)
		})
	}
}

// checkReportIDs: every link of rep is listed, every running hook is in rep.
func checkReportIDs(t *testing.T, what string, rep reportOf, listed map[string]listedHook, running []string) {
	t.Helper()
	var ids []string
	for _, l := range rep.Links {
		ids = append(ids, l.ID)
		if _, ok := listed[l.ID]; !ok && !strings.HasPrefix(l.ID, "required:") {
			t.Errorf("%s: link %s (%s) is not an id `synaps hooks` lists", what, l.ID, l.State)
		}
	}
	for _, id := range running {
		if !slices.Contains(ids, id) {
			t.Errorf("%s: no entry for listed hook %s; links %v", what, id, ids)
		}
	}
}
