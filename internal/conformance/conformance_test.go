package conformance

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension/exttest"
)

const unknownCheckName = "unknown methods tolerated (no crash)"

// findCheck returns the check called name, or nil.
func findCheck(r *Report, name string) *Check {
	for i := range r.Checks {
		if r.Checks[i].Name == name {
			return &r.Checks[i]
		}
	}
	return nil
}

// The guide says "Tolerate unknown methods — return result: {} or ignore
// them; never crash". The check passes an extension that answers or stays
// silent and fails only one that dies or stops answering afterwards.
func TestConformanceUnknownMethod(t *testing.T) {
	withTool := json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"hello","description":"Greet","input_schema":{"type":"object"}}]}}`)
	withHook := json.RawMessage(`{"protocol_version":1,"capabilities":{"hooks":[{"name":"before_tool_call"}]}}`)
	nothing := json.RawMessage(`{"protocol_version":1,"capabilities":{}}`)
	for _, tc := range []struct {
		name    string
		init    json.RawMessage
		perms   []string
		mode    string        // the fake's mode for the unknown method
		timeout time.Duration // only where the extension is meant to hang
		status  string
		detail  string
	}{
		{"answers with a result", withTool, []string{"tools.register"}, "", 0, CheckPass, "answered the unknown method with a result"},
		{"answers -32601", withTool, []string{"tools.register"}, "error", 0, CheckPass, "-32601"},
		{"silent, then answers the tool", withTool, []string{"tools.register"}, "silent", 0, CheckPass, "no answer to the unknown method (allowed); tool.call hello was answered after it"},
		{"silent, then answers the hook", withHook, []string{"hooks.before_tool_call"}, "silent", 0, CheckPass, "hook.handle before_tool_call was answered after it"},
		{"silent, then answers shutdown", nothing, nil, "silent", 0, CheckPass, "shutdown was answered after it"},
		{"crashes", withTool, []string{"tools.register"}, "crash", 0, CheckFail, "the process crashed (exited with status 4)"},
		{"crashes, nothing else to call", nothing, nil, "crash", 0, CheckFail, "after an unknown method, shutdown failed"},
		{"stops answering", withTool, []string{"tools.register"}, "deaf", 2 * time.Second, CheckFail, "tool.call hello failed: no answer within 2s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := exttest.Spec{Init: tc.init, Modes: map[string]string{"synaps.test/unknown_method": tc.mode}}
			dir := exttest.Plugin(t, t.TempDir(), "probe", map[string]any{"permissions": tc.perms}, spec)
			rep := Run(context.Background(), dir, Options{Timeout: tc.timeout})
			got := findCheck(rep, unknownCheckName)
			if got == nil {
				t.Fatalf("no %q check in %+v", unknownCheckName, rep.Checks)
			}
			if got.Status != tc.status || !strings.Contains(got.Detail, tc.detail) {
				t.Errorf("check = %s %q, want %s containing %q", got.Status, got.Detail, tc.status, tc.detail)
			}
			if tc.status == CheckPass && !rep.Passed {
				t.Errorf("report failed: %+v", rep.Checks)
			}
			if c := findCheck(rep, "stdout carries only frames"); c != nil {
				t.Errorf("the probe's answer was taken for noise: %s", c.Detail)
			}
		})
	}
}

// An initialize that goes unanswered is explained by how the extension
// starts: `go run` (a compile on a cold build cache) gets the advice to
// build a binary, not the framing hint that sent authors the wrong way.
func TestConformanceInitTimeoutReason(t *testing.T) {
	for _, tc := range []struct {
		name, entry   string
		want, notWant string
	}{
		{"go run", "./go run .", "no initialize response within 1s: `go run` builds the program before it starts", `\r\n\r\n`},
		{"a silent process", "./go", "no initialize response within 1s: the process is running but sent no response; check that it flushes stdout after each write and ends each header with \\r\\n\\r\\n", "builds the program"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			// A stand-in named go that never answers: exec keeps one
			// process, which the harness kills.
			if err := os.WriteFile(filepath.Join(dir, "go"), []byte("#!/bin/sh\nexec sleep 60\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(dir, ".synaps-plugin"), 0o755); err != nil {
				t.Fatal(err)
			}
			exttest.WriteJSON(t, filepath.Join(dir, ".synaps-plugin", "plugin.json"), map[string]any{"name": "slow", "extension": map[string]any{"entry_point": tc.entry, "permissions": []string{}}})
			rep := Run(context.Background(), dir, Options{Timeout: time.Second})
			got := findCheck(rep, "initialize answered")
			if got == nil || got.Status != CheckFail || !strings.Contains(got.Detail, tc.want) || strings.Contains(got.Detail, tc.notWant) {
				t.Errorf("initialize check = %+v, want a failure saying %q and not %q", got, tc.want, tc.notWant)
			}
		})
	}
}

// `extensions test` waits for the shutdown reply exactly as long as synaps
// does (MethodDeadlines, the figure in the docs and contract.json); it
// used to wait 5 s while the runtime waits 2 s.
func TestConformanceShutdownDeadlineIsTheRuntimes(t *testing.T) {
	withTool := json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"hello","description":"Greet","input_schema":{"type":"object"}}]}}`)
	dir := exttest.Plugin(t, t.TempDir(), "deafshutdown", map[string]any{"permissions": []string{"tools.register"}}, exttest.Spec{Init: withTool, Shutdown: "ignore"})
	rep := Run(context.Background(), dir, Options{})
	got := findCheck(rep, "shutdown response sent before exit")
	want := "no reply to shutdown within " + contract.MethodDeadlines[contract.MethodShutdown].String() + " (synaps waits as long"
	if got == nil || got.Status != CheckFail || !strings.Contains(got.Detail, want) {
		t.Errorf("shutdown check = %+v, want a failure saying %q", got, want)
	}
	// The host's own wait is held to the same figure by
	// extension.TestHostShutdownWaitIsTheContracts.
}

// A tool answer the runtime cannot read (no "output", say a misspelt
// key) is a warning: the model would get the raw JSON.
func TestConformanceToolResultShape(t *testing.T) {
	init := json.RawMessage(`{"protocol_version":1,"capabilities":{"tools":[{"name":"hello","description":"Greet","input_schema":{"type":"object"}}]}}`)
	for _, tc := range []struct {
		name, result, status, detail string
	}{
		{"output", `{"output":"hi"}`, CheckPass, "→ hi"},
		{"content blocks", `{"content":[{"type":"text","text":"hi"}]}`, CheckPass, "→ hi"},
		{"misspelt", `{"outptu":"hi"}`, CheckWarn, `the answer has no "output" (it has "outptu")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := exttest.Spec{Init: init, Results: map[string]json.RawMessage{"tool:hello": json.RawMessage(tc.result)}}
			dir := exttest.Plugin(t, t.TempDir(), "shape", map[string]any{"permissions": []string{"tools.register"}}, spec)
			rep := Run(context.Background(), dir, Options{})
			got := findCheck(rep, "tool hello answers tool.call")
			if got == nil || got.Status != tc.status || !strings.Contains(got.Detail, tc.detail) {
				t.Errorf("check = %+v, want %s containing %q", got, tc.status, tc.detail)
			}
		})
	}
}
