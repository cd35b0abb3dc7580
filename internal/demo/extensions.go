// Package demo is `synaps demo`: an offline session on an embedded script
// model with three bundled extensions. The extensions are real: separate
// processes (the synaps binary itself, started as `synaps __extension
// NAME`) that speak the extension protocol over pipes, written with the Go
// SDK exactly as an extension author would.
package demo

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/synaps-cli/synaps/sdk/go/synaps"
)

// Extensions are the bundled extensions by plugin id, with the
// permissions their manifests declare.
var Extensions = map[string]struct {
	Permissions []string
	Build       func() *synaps.Extension
}{
	"demo-tools":   {[]string{"tools.register"}, tools},
	"demo-guard":   {[]string{"hooks.before_tool_call"}, guard},
	"demo-context": {[]string{"hooks.before_message"}, contextInjector},
}

// Names lists the bundled extensions in order.
func Names() []string {
	names := make([]string, 0, len(Extensions))
	for n := range Extensions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Run serves the named bundled extension on stdin/stdout.
func Run(name string) error {
	e, ok := Extensions[name]
	if !ok {
		return fmt.Errorf("no bundled extension %q (have %s)", name, strings.Join(Names(), ", "))
	}
	return e.Build().Run()
}

// tools registers hello, the guide's tool.
func tools() *synaps.Extension {
	ext := synaps.New("demo-tools", "0.1.0")
	type helloInput struct {
		Name string `json:"name"`
	}
	ext.Tool("hello", "Greet someone by name", map[string]any{
		"type":       "object",
		"properties": map[string]any{"name": map[string]any{"type": "string", "description": "who to greet"}},
		"required":   []string{"name"},
	}, synaps.Typed(func(_ context.Context, in helloInput) (string, error) {
		return "Hello, " + in.Name + "!", nil
	}))
	return ext
}

// guard blocks destructive shell commands and asks before a push.
func guard() *synaps.Extension {
	ext := synaps.New("demo-guard", "0.1.0")
	ext.Hook(synaps.BeforeToolCall, func(_ context.Context, ev *synaps.Event) synaps.Result {
		if ev.ToolName != "bash" {
			return synaps.Continue()
		}
		var in struct{ Command string }
		_ = ev.Input(&in)
		if strings.Contains(in.Command, "rm -rf") {
			ext.Logf("blocked: %s", in.Command)
			return synaps.Block("rm -rf deletes without asking; remove files one by one or ask the user")
		}
		if strings.Contains(in.Command, "git push") {
			return synaps.Confirm("push to a remote?")
		}
		return synaps.Continue()
	})
	return ext
}

// contextInjector adds project notes to every user message.
func contextInjector() *synaps.Extension {
	ext := synaps.New("demo-context", "0.1.0")
	ext.Hook(synaps.BeforeMessage, func(context.Context, *synaps.Event) synaps.Result {
		return synaps.Inject("Project notes: build/ holds generated files; the release binary is build/app.bin.")
	})
	return ext
}
