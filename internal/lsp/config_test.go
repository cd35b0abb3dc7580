package lsp

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		want    []Server
		wantErr []string
	}{
		{"claude's example", `{"python":{"command":"pyright-langserver","args":["--stdio"],"extensionToLanguage":{".py":"python",".PYI":"python"}}}`,
			[]Server{{Name: "python", Command: "pyright-langserver", Args: []string{"--stdio"}, Extensions: map[string]string{".py": "python", ".pyi": "python"}, MaxRestarts: 3, File: "f"}}, nil},
		{"under lspServers, every field", `{"lspServers":{"go":{"command":"gopls","transport":"stdio","env":{"A":"b"},"extensionToLanguage":{".go":"go"},
			"initializationOptions":{"x":1},"settings":{"gopls":{"y":true}},"workspaceFolder":"sub","startupTimeout":1500,"shutdownTimeout":200,"restartOnCrash":false,"maxRestarts":1}}}`,
			[]Server{{Name: "go", Command: "gopls", Env: map[string]string{"A": "b"}, Extensions: map[string]string{".go": "go"},
				InitializationOptions: json.RawMessage(`{"x":1}`), Settings: json.RawMessage(`{"gopls":{"y":true}}`), WorkspaceFolder: "sub",
				StartupTimeout: 1500 * time.Millisecond, ShutdownTimeout: 200 * time.Millisecond, NoRestart: true, MaxRestarts: 1, File: "f"}}, nil},
		{"a bad server leaves the good one", `{"a":{"args":[]},"b":{"command":"x","extensionToLanguage":{".b":"b"}}}`,
			[]Server{{Name: "b", Command: "x", Extensions: map[string]string{".b": "b"}, MaxRestarts: 3, File: "f"}},
			[]string{`f: language server "a": "command" is required`}},
		{"no extensions", `{"a":{"command":"x"}}`, nil, []string{`"extensionToLanguage" is required`}},
		{"extension without its dot", `{"a":{"command":"x","extensionToLanguage":{"py":"python"}}}`, nil, []string{`"py" is not a file extension; write it with its dot`}},
		{"socket", `{"a":{"command":"x","transport":"socket","extensionToLanguage":{".a":"a"}}}`, nil, []string{`"transport": "socket" is not supported`}},
		{"bad timeout", `{"a":{"command":"x","startupTimeout":0,"extensionToLanguage":{".a":"a"}}}`, nil, []string{`startupTimeout: 0 is not a number of milliseconds`}},
		{"not an object", `[1]`, nil, []string{`f: not a JSON object of language servers`}},
		{"wrong type", `{"a":{"command":3}}`, nil, []string{`language server "a": not a server object`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := Parse([]byte(tt.data), "f")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("servers (-want +got):\n%s", diff)
			}
			if len(errs) != len(tt.wantErr) {
				t.Fatalf("errors %v, want %d", errs, len(tt.wantErr))
			}
			for i, e := range errs {
				if !strings.Contains(e.Error(), tt.wantErr[i]) {
					t.Errorf("error %q lacks %q", e, tt.wantErr[i])
				}
			}
		})
	}
}

func TestNewErrors(t *testing.T) {
	e := func(line int, msg string) Diagnostic {
		return Diagnostic{Severity: SeverityError, Message: msg, Range: Range{Start: Position{Line: line}}}
	}
	warn := Diagnostic{Severity: SeverityWarning, Message: "w"}
	tests := []struct {
		name          string
		before, after []Diagnostic
		want          []Diagnostic
	}{
		{"all new", nil, []Diagnostic{e(0, "a"), warn}, []Diagnostic{e(0, "a")}},
		{"moved is not new", []Diagnostic{e(0, "a")}, []Diagnostic{e(5, "a")}, nil},
		{"a second one is new", []Diagnostic{e(0, "a")}, []Diagnostic{e(0, "a"), e(3, "a")}, []Diagnostic{e(3, "a")}},
		{"fixed", []Diagnostic{e(0, "a")}, nil, nil},
		{"no severity is an error", nil, []Diagnostic{{Message: "m"}}, []Diagnostic{{Message: "m"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, newErrors(tt.before, tt.after)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestReportText(t *testing.T) {
	r := &Report{Server: "python (plugin pyright)", Path: "a.py", Errors: 3, New: []Diagnostic{
		{Severity: 1, Message: "Type \"str\" is not assignable\n  to \"int\"", Source: "Pyright", Code: json.RawMessage(`"reportAssignmentType"`), Range: Range{Start: Position{Line: 2, Character: 8}}},
	}}
	want := "Language server python (plugin pyright) reports 1 new error in a.py (2 more it had before):\n" +
		"  a.py:3:9: Type \"str\" is not assignable\n      to \"int\" (Pyright reportAssignmentType)"
	if diff := cmp.Diff(want, r.Text()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	many := &Report{Server: "s", Path: "p"}
	for i := range MaxShown + 3 {
		many.New = append(many.New, Diagnostic{Severity: 1, Message: strings.Repeat("x", 1000), Range: Range{Start: Position{Line: i}}})
	}
	many.Errors = len(many.New)
	txt := many.Text()
	if !strings.HasSuffix(txt, "… and 3 more") || strings.Count(txt, "\n") != MaxShown+1 || len(txt) > MaxShown*(maxMessage+40)+200 {
		t.Errorf("not bounded (%d bytes):\n%s", len(txt), txt)
	}
	if (&Report{}).Text() != "" || (*Report)(nil).Text() != "" {
		t.Error("a report without new errors has text")
	}
}
