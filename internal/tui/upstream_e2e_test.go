package tui

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTUIUpstreamPlugins drives the TUI with two SynapsCLI-shaped
// fixtures (examples/upstream/commands and voice): an interactive
// command's output and task progress appear as they stream, a plugin
// keybind runs its slash command, another puts its prompt in the input,
// and a sidecar's dictated text lands in the input.
func TestTUIUpstreamPlugins(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries and drives tmux")
	}
	tmuxPath, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed")
	}
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("the fixtures are Python")
	}
	root := repoRoot(t)
	tmp := t.TempDir()
	argv := tuiCommand(t, root, tmp)
	base := filepath.Join(tmp, "base")
	work := filepath.Join(tmp, "work")
	writeFile(t, filepath.Join(work, "README"), "x")
	for _, fx := range []string{"commands", "voice"} {
		dst := filepath.Join(base, "plugins", fx)
		writeFile(t, filepath.Join(dst, ".keep"), "")
		if out, err := exec.Command("cp", "-r", filepath.Join(root, "examples", "upstream", fx)+"/.", dst).CombinedOutput(); err != nil {
			t.Fatalf("cp: %v %s", err, out)
		}
	}
	script := filepath.Join(tmp, "script.jsonl")
	writeFile(t, script, `{"text":"ok"}`+"\n")
	tm := startTmux(t, tmuxPath, tmp, work, []string{
		"HOME=" + filepath.Join(tmp, "home"),
		"SYNAPS_BASE_DIR=" + base,
		"TERM=xterm-256color",
	}, append(argv, "script:"+script))
	tm.waitFor("the extensions up", contains("ext 2 ok"))

	// Completion offers the commands, their subcommands and the
	// sidecar's lifecycle word.
	tm.keys("-l", "/models ")
	tm.waitFor("the subcommands offered", contains("/models list"), contains("/models download"))
	tm.keys("C-c")
	tm.keys("-l", "/dict")
	tm.waitFor("the lifecycle word offered", contains("/dictate"), contains("toggle Dictation (sidecar of plugin voice)"))
	tm.keys("C-c")

	tm.send("/models download tiny")
	tm.waitFor("the streamed output and task progress",
		contains("[task download tiny] started"), contains("[task download tiny] 50/100 (50%)"),
		contains("[task download tiny] done"), contains("downloaded tiny"), contains("saved to models/tiny"))

	tm.keys("C-y") // keybind: slash_command "models list"
	tm.waitFor("the keybind's command ran", matches(`(?m)^› /models list\s*$`), contains("MODEL  SIZE"), contains("base  142M"))

	tm.keys("M-h") // keybind: inject_prompt
	tm.waitFor("the keybind's prompt in the input", matches(`(?m)Write a haiku about\s*$`))
	tm.keys("C-c") // clear it

	tm.send("/dictate")
	tm.waitFor("the sidecar on, its text in the input",
		contains("Dictation: on, active (lang en)"), matches(`(?m)hello in en\s*$`))
	tm.keys("C-c")

	// The settings screen: a cycler changes in place and is saved; a
	// custom field opens the extension's editor, which takes the keys.
	tm.keys("F8") // the sidecar's toggle key (settings_category adds it)
	tm.waitFor("the toggle key toggled it off", contains("Dictation: off, idle"))

	tm.send("/settings")
	tm.waitFor("the settings screen", contains("Voice (plugin voice)"), contains("▸ Toggle key for Dictation: F8 (default)  ‹F8|F2|F12|C-V|C-G›"),
		contains("  Language: en (default)  ‹en|de|fr›"), contains("Model: [enter opens its editor]"))
	tm.keys("Enter")
	tm.waitFor("the toggle key rebound", contains("set _lifecycle_toggle_key = F2 in "))
	tm.keys("Down", "Enter")
	tm.waitFor("the cycler saved", contains("▸ Language: de"), contains("set language = de in "))
	tm.keys("Down", "Down", "Down", "Enter")
	tm.waitFor("the custom editor", matches(`(?m)^> \* tiny\s*$`), contains("Up/Down choose, Enter selects"))
	tm.keys("Down")
	tm.waitFor("the editor re-rendered", matches(`(?m)^> \* base\s*$`))
	tm.keys("Enter")
	tm.waitFor("the editor committed", contains("set model = base in "), contains("Model: base [enter opens its editor]"))
	tm.keys("Up", "Enter")
	tm.waitFor("a text field asks for its value", matches(`(?m)/settings voice greeting\s*$`))
	tm.keys("-l", "hi there")
	tm.keys("Enter")
	tm.waitFor("the text setting saved", contains("set greeting = hi there in "))
	tm.keys("F2")
	tm.waitFor("the new toggle key toggles it", matches(`(?s)set greeting = hi there in .*› /dictate\s*\n.*Dictation: on, active \(lang en\)`))
}
