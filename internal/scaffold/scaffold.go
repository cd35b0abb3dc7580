// Package scaffold writes a new extension (`synaps extensions new`) in
// Python, Node.js or Go: a manifest in the guide's dialect and a
// dependency-free program with one tool and/or hooks, ready to pass
// `synaps extensions test` unchanged.
package scaffold

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/synaps-cli/synaps/internal/contract"
)

//go:embed templates
var templates embed.FS

// Langs are the languages a scaffold can be written in.
var Langs = []string{"python", "node", "go"}

// Options describe the extension to write.
type Options struct {
	Name string
	Lang string
	// Tool adds a "hello" tool (the default when there are no hooks).
	Tool bool
	// Hooks subscribes to these hooks.
	Hooks []string
}

var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9-]*$`) })

// ErrExists is Write's error when the directory is there already: not a
// usage mistake, so the command exits 1, not 2.
var ErrExists = errors.New("already exists")

// Write creates dir (which must not exist) with the extension.
func Write(dir string, o Options) ([]string, error) {
	if !nameRE().MatchString(o.Name) {
		return nil, fmt.Errorf("name %q: use lowercase letters, digits and dashes, starting with a letter (it becomes the plugin id)", o.Name)
	}
	if !slices.Contains(Langs, o.Lang) {
		return nil, fmt.Errorf("--lang %q: choose python, node or go", o.Lang)
	}
	for _, h := range o.Hooks {
		if _, ok := contract.LookupHook(h); !ok {
			return nil, fmt.Errorf("--hook %q is not a hook; choose one of %s", h, strings.Join(contract.HookNames(), ", "))
		}
	}
	if !o.Tool && len(o.Hooks) == 0 {
		o.Tool = true
	}
	if _, err := os.Stat(dir); err == nil {
		return nil, fmt.Errorf("%s %w; choose another name or remove it", dir, ErrExists)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	perms := []string{}
	if o.Tool {
		perms = append(perms, contract.PermToolsRegister)
	}
	for _, h := range o.Hooks {
		perms = append(perms, contract.HookPermissionPrefix+h)
	}
	// A Go extension runs as a binary built here, not with `go run`: that
	// compiles at every start, and on a cold build cache the first start
	// takes longer than synaps waits for initialize.
	entry := map[string]string{"python": "python3 main.py", "node": "node main.js", "go": "./" + o.Name}[o.Lang]
	ext := map[string]any{"entry_point": entry, "extension_protocol_version": 1, "permissions": perms}
	manifest, _ := json.MarshalIndent(map[string]any{
		"name": o.Name, "version": "0.1.0", "description": "A synaps extension", "extension": ext,
	}, "", "  ")
	data := templateData(o, entry)
	files := map[string][]byte{filepath.Join(".synaps-plugin", "plugin.json"): append(manifest, '\n')}
	for src, dst := range map[string]string{
		"python": "main.py", "node": "main.js", "go": "main.go", "readme": "README.md",
	} {
		if src != o.Lang && src != "readme" {
			continue
		}
		b, err := render("templates/"+src+".tmpl", data)
		if err != nil {
			return nil, err
		}
		files[dst] = b
	}
	if o.Lang == "go" {
		files["go.mod"] = []byte("module " + o.Name + "\n\ngo 1.22\n")
		files[".gitignore"] = []byte("/" + o.Name + "\n")
	}
	var written []string
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		mode := os.FileMode(0o644)
		if name == "main.py" || name == "main.js" {
			mode = 0o755
		}
		if err := os.WriteFile(path, content, mode); err != nil {
			return nil, err
		}
		written = append(written, path)
	}
	if o.Lang == "go" {
		if err := build(dir, o); err != nil {
			return written, err
		}
		written = append(written, filepath.Join(dir, o.Name))
	}
	slices.Sort(written)
	return written, nil
}

// buildCommand is how the author rebuilds after an edit ("" for languages
// that run their source).
func buildCommand(o Options) string {
	if o.Lang == "go" {
		return "go build -o " + o.Name + " ."
	}
	return ""
}

// build compiles a Go scaffold into dir/<name>, the binary its manifest
// starts. It uses the author's own Go environment (cache, proxy, flags).
func build(dir string, o Options) error {
	if _, err := exec.LookPath("go"); err != nil {
		return fmt.Errorf("wrote the Go extension to %s, but building it needs the go command, which is not on PATH; install Go, then run `%s` in %s", dir, buildCommand(o), dir)
	}
	cmd := exec.Command("go", "build", "-o", o.Name, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("wrote the Go extension to %s, but `%s` failed (%v):\n%s\nfix that, then run `%s` in %s", dir, buildCommand(o), err, bytes.TrimSpace(out), buildCommand(o), dir)
	}
	return nil
}

// templateData are the values the templates refer to. Tool is "true" or
// "" so that {{if .Tool}} reads as it would with a bool.
func templateData(o Options, entry string) map[string]string {
	hooksJSON, _ := json.Marshal(append([]string{}, o.Hooks...))
	tool := ""
	if o.Tool {
		tool = "true"
	}
	return map[string]string{
		"Name": o.Name, "Tool": tool, "Entry": entry, "Build": buildCommand(o),
		"HooksJSON":   string(hooksJSON),
		"HooksQuoted": strconv.Quote(string(hooksJSON)), // a Go string literal
	}
}

func render(name string, data map[string]string) ([]byte, error) {
	src, err := templates.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return expand(name, src, data)
}
