package extension

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/plugin"
)

func TestScriptArg(t *testing.T) {
	for argv, want := range map[string]string{
		"python3 main.py":                 "main.py",
		"python3 -u main.py --verbose":    "main.py",
		"python3 -W ignore main.py":       "main.py", // "ignore" is an option's value, not a file
		"python3.12 ./bin/ext":            "./bin/ext",
		"python3 -m my_ext":               "",
		"node dist/index.js":              "dist/index.js",
		"node --enable-source-maps x.mjs": "x.mjs",
		"node -e 1":                       "",
		"deno run --allow-read main.ts":   "main.ts",
		"bash run":                        "", // no extension, no slash: not guessed
		"sh -c 'exec x'":                  "",
		"go run .":                        "", // not an interpreter of files
		"/usr/bin/python3 main.py":        "main.py",
		"./bash-guard":                    "",
	} {
		if got := scriptArg(strings.Fields(argv)); got != want {
			t.Errorf("scriptArg(%q) = %q, want %q", argv, got, want)
		}
	}
}

func TestCheckLaunch(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.py"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		ext  plugin.ExtensionManifest
		want string // "" for no error; else a substring
	}{
		{"script present", plugin.ExtensionManifest{EntryPoint: "sh main.py"}, ""},
		{"script missing", plugin.ExtensionManifest{EntryPoint: "sh mian.py"}, "extension.entry_point: sh would run mian.py, which does not exist"},
		{"interpreter missing", plugin.ExtensionManifest{EntryPoint: "no-such-interpreter-x main.py"}, `extension.entry_point: command "no-such-interpreter-x" was not found on PATH`},
		{"relative command missing", plugin.ExtensionManifest{Command: "./bin/ext"}, "extension.command: command " + filepath.Join(dir, "bin/ext") + " does not exist"},
		{"shell line: only the shell is looked for", plugin.ExtensionManifest{EntryPoint: "cd sub && python3 nothere.py"}, ""},
		{"$VAR expands from the child's environment", plugin.ExtensionManifest{EntryPoint: "sh $SYNAPS_PLUGIN_ROOT/main.py"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ext := tc.ext
			p := &plugin.Plugin{ID: "p", Dir: dir, Manifest: &plugin.Manifest{File: filepath.Join(dir, ".synaps-plugin", "plugin.json"), Extension: &ext}}
			err := CheckLaunch(p, nil)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("CheckLaunch = %q, want %q", got, tc.want)
			}
		})
	}
}
