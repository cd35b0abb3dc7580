package plugin

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestManifestCommands: each "commands" entry takes the first shape it
// fits (command, tool, skill+prompt, interactive), as in SynapsCLI; an
// entry that fits none, or a bad name, is a warning and the rest load.
func TestManifestCommands(t *testing.T) {
	tests := []struct {
		name, entry string
		want        *Command // nil: skipped
		warn        string
	}{
		{"shell", `{"name":"hi","command":"scripts/hi.sh","args":["-v"],"description":"d"}`,
			&Command{Name: "hi", Description: "d", Kind: CommandShell, Command: "scripts/hi.sh", Args: []string{"-v"}}, ""},
		{"tool", `{"name":"up","tool":"shout","input":{"text":"${args}"}}`,
			&Command{Name: "up", Kind: CommandTool, Tool: "shout", Input: json.RawMessage(`{"text":"${args}"}`)}, ""},
		{"skill prompt", `{"name":"h","skill":"haiku","prompt":"about ${args}"}`,
			&Command{Name: "h", Kind: CommandSkill, Skill: "haiku", Prompt: "about ${args}"}, ""},
		{"interactive", `{"name":"m","interactive":true,"subcommands":[{"name":"list"},"get"]}`,
			&Command{Name: "m", Kind: CommandInteractive, Subcommands: []string{"list", "get"}}, ""},
		{"command wins over tool", `{"name":"x","command":"a","tool":"t"}`,
			&Command{Name: "x", Kind: CommandShell, Command: "a"}, ""},
		{"interactive false is skipped quietly", `{"name":"m","interactive":false}`, nil, ""},
		{"no shape", `{"name":"x"}`, nil, `commands[0]: command "x" has no shape`},
		{"skill without prompt", `{"name":"x","skill":"s"}`, nil, `has no shape`},
		{"absolute program", `{"name":"x","command":"/bin/sh"}`, nil, `commands[0].command: command "/bin/sh" is an absolute path`},
		{"program climbing out", `{"name":"x","command":"../x"}`, nil, `climbs out of the plugin`},
		{"name with a colon", `{"name":"a:b","command":"x"}`, nil, `must not contain ':'`},
		{"not an object", `"x"`, nil, `a command must be an object, got a string`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseManifest("plugin.json", []byte(`{"name":"p","commands":[`+tc.entry+`]}`))
			if err != nil {
				t.Fatal(err)
			}
			var got *Command
			if len(m.Commands) == 1 {
				got = &m.Commands[0]
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("command (-want +got):\n%s", d)
			}
			warns := strings.Join(m.Warnings, "\n")
			if (tc.warn == "") != (warns == "") || !strings.Contains(warns, tc.warn) {
				t.Errorf("warnings %q, want %q", warns, tc.warn)
			}
		})
	}
}

// TestHelpAndKeybinds: help entries need id, command, title and summary;
// keybinds a key and an action with what it needs.
func TestHelpAndKeybinds(t *testing.T) {
	m, err := ParseManifest("plugin.json", []byte(`{"name":"p",
		"help":[{"id":"a","command":"/a","title":"A","summary":"does a","lines":["l1"],"examples":[{"command":"/a x","description":"an x"}]},{"id":"b","command":"/b"}],
		"keybinds":[{"key":"C-y","action":"slash_command","command":"a"},{"key":"F8","action":"nope"},{"action":"inject_prompt","prompt":"x"},{"key":"A-s","action":"run_script","script":"../x.sh"},{"key":"A-p","action":"inject_prompt"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	wantHelp := []HelpEntry{{ID: "a", Command: "/a", Title: "A", Summary: "does a", Lines: []string{"l1"}, Examples: []HelpExample{{"/a x", "an x"}}}}
	if d := cmp.Diff(wantHelp, m.Help); d != "" {
		t.Errorf("help (-want +got):\n%s", d)
	}
	wantKeys := []Keybind{{Key: "C-y", Action: "slash_command", Command: "a"}}
	if d := cmp.Diff(wantKeys, m.Keybinds); d != "" {
		t.Errorf("keybinds (-want +got):\n%s", d)
	}
	for _, w := range []string{`help[1]: a help entry needs "id", "command", "title" and "summary"; "title" is missing`,
		`keybinds[1].action: unknown keybind action "nope"`, `keybinds[2]: a keybind needs a "key"`,
		`keybinds[3].script: script "../x.sh" climbs out`, `keybinds[4]: a inject_prompt keybind needs "prompt"`} {
		if !strings.Contains(strings.Join(m.Warnings, "\n"), w) {
			t.Errorf("warnings %q lack %q", m.Warnings, w)
		}
	}
}
