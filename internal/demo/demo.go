package demo

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Script is the scripted model: one assistant turn a line.
//
//go:embed demo.jsonl
var Script []byte

// Prompts are what the demo's user types, in order.
var Prompts = []string{
	"Say hello to Ada with the hello tool, then clean out the build directory.",
	"What do you know about this project?",
}

// Setup lays out a demo in dir: a base dir whose plugins start the bundled
// extensions through self (the running synaps binary), a small project to
// work in, and the script. It returns the base dir, the project dir and the
// script path.
func Setup(dir, self string) (base, work, script string, err error) {
	base = filepath.Join(dir, "synaps-home")
	work = filepath.Join(dir, "project")
	for _, id := range Names() {
		p := filepath.Join(base, "plugins", id, ".synaps-plugin")
		if err := os.MkdirAll(p, 0o755); err != nil {
			return "", "", "", err
		}
		m, _ := json.MarshalIndent(map[string]any{
			"name": id, "version": "0.1.0", "description": "bundled with synaps demo",
			"extension": map[string]any{
				"command": self, "args": []string{"__extension", id},
				"permissions": Extensions[id].Permissions,
			},
		}, "", "  ")
		if err := os.WriteFile(filepath.Join(p, "plugin.json"), m, 0o644); err != nil {
			return "", "", "", err
		}
	}
	files := map[string]string{
		"build/app.bin":     "binary",
		"build/cache/obj.o": "object",
		"README.md":         "# demo project\n",
		"AGENTS.md":         "Keep answers short.\n",
	}
	for name, content := range files {
		path := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return "", "", "", err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return "", "", "", err
		}
	}
	script = filepath.Join(dir, "demo.jsonl")
	if err := os.WriteFile(script, Script, 0o644); err != nil {
		return "", "", "", fmt.Errorf("writing the demo script: %w", err)
	}
	return base, work, script, nil
}
