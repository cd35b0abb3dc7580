// Package lsptest is a fake language server in Go, for the tests of
// synaps's LSP client: a test binary re-runs itself as the server (the
// re-exec pattern), so the tests need no language toolchain.
//
// The fake's diagnostics come from the text it is given: each line that
// holds "error: MESSAGE" is an error at that line and column, each
// "warning: MESSAGE" a warning. Its mode (the first argument) changes
// how it behaves:
//
//	ok         publish diagnostics, with the document's version, at each
//	           didOpen and didChange (the default)
//	noversion  the same, without a version
//	onsave     advertise save and publish only at didSave
//	late       hold the first publish until the next document
//	           notification (a server slower than synaps's wait)
//	silent     never publish
//	crash      exit 3 at the first didChange
//	noinit     never answer initialize
//	fail       write a line to stderr and exit 2 at once
//
// With $FAKE_LSP_LOG set, it appends one JSON line per message it
// receives ({"method", "params"}) and one for the answer to its own
// workspace/configuration request ({"method":"configuration","params":
// answer}), and the value of $FAKE_LSP_ECHO in its initialize log line's
// "env" field, so tests can see what reached it.
package lsptest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/synaps-cli/synaps/internal/jsonrpc"
)

// EnvMode, when set in a test binary's environment, makes Main run the
// fake (its value the mode) instead of the tests.
const EnvMode = "SYNAPS_FAKE_LSP"

// Main runs the fake and exits when the test binary is to be the fake;
// otherwise it returns. Call it first in TestMain.
func Main() {
	if mode := os.Getenv(EnvMode); mode != "" {
		os.Exit(Run(mode))
	}
}

type fake struct {
	mode string
	conn *jsonrpc.Conn
	done chan struct{}
	once sync.Once

	logMu sync.Mutex
	log   *os.File
	// held is late mode's publish held back (then a no-op); used by
	// the notification worker only.
	held func()
}

// Run serves one client on stdin and stdout until exit, and returns the
// exit code.
func Run(mode string) int {
	if mode == "fail" {
		fmt.Fprintln(os.Stderr, "fake-lsp: cannot find the project's interpreter")
		return 2
	}
	f := &fake{mode: mode, done: make(chan struct{})}
	if p := os.Getenv("FAKE_LSP_LOG"); p != "" {
		if lf, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
			f.log = lf
		}
	}
	// Notifications are handled in order off the read loop, so the
	// fake may call synaps (workspace/configuration) between them.
	queue := make(chan [2]any, 1024)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		for n := range queue {
			f.notify(n[0].(string), n[1].(json.RawMessage))
		}
	}()
	f.conn = jsonrpc.NewConn(os.Stdin, os.Stdout, jsonrpc.Options{Handler: f.request, OnNotify: func(method string, params json.RawMessage) {
		queue <- [2]any{method, append(json.RawMessage(nil), params...)}
	}})
	select {
	case <-f.done:
	case <-f.conn.Done():
		// stdin closed: what came before it is handled first.
		close(queue)
		<-drained
	}
	return 0
}

func (f *fake) record(method string, params any) {
	if f.log == nil {
		return
	}
	f.logMu.Lock()
	defer f.logMu.Unlock()
	b, _ := json.Marshal(map[string]any{"method": method, "params": params})
	f.log.Write(append(b, '\n'))
}

func (f *fake) request(ctx context.Context, method string, params json.RawMessage) (any, error) {
	f.record(method, params)
	switch method {
	case "initialize":
		if f.mode == "noinit" {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		f.record("env", os.Getenv("FAKE_LSP_ECHO"))
		sync := any(1) // full
		if f.mode == "onsave" {
			sync = map[string]any{"openClose": true, "change": 1, "save": map[string]bool{"includeText": false}}
		}
		return map[string]any{
			"capabilities": map[string]any{"textDocumentSync": sync},
			"serverInfo":   map[string]string{"name": "fake-lsp", "version": "1"},
		}, nil
	case "shutdown":
		return nil, nil
	}
	return nil, jsonrpc.MethodNotFound(method)
}

type docParams struct {
	TextDocument struct {
		URI     string `json:"uri"`
		Version int    `json:"version"`
		Text    string `json:"text"`
	} `json:"textDocument"`
	ContentChanges []struct {
		Text string `json:"text"`
	} `json:"contentChanges"`
}

func (f *fake) notify(method string, params json.RawMessage) {
	f.record(method, params)
	var p docParams
	_ = json.Unmarshal(params, &p)
	switch method {
	case "initialized":
		// Ask for the settings, as pyright and gopls do.
		res, err := f.conn.Call(context.Background(), "workspace/configuration", map[string]any{"items": []map[string]string{{"section": "fake"}, {"section": "fake.deep"}, {"section": "absent"}}})
		if err != nil {
			f.record("configuration-error", err.Error())
			return
		}
		f.record("configuration", res)
	case "exit":
		f.once.Do(func() { close(f.done) })
	case "textDocument/didOpen":
		if f.mode != "onsave" {
			f.publish(p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text)
		}
	case "textDocument/didChange":
		if f.mode == "crash" {
			fmt.Fprintln(os.Stderr, "fake-lsp: crashed on purpose")
			os.Exit(3)
		}
		if f.mode != "onsave" && len(p.ContentChanges) > 0 {
			f.publish(p.TextDocument.URI, p.TextDocument.Version, p.ContentChanges[len(p.ContentChanges)-1].Text)
		}
	case "textDocument/didSave":
		if f.mode == "onsave" {
			text, _ := os.ReadFile(strings.TrimPrefix(p.TextDocument.URI, "file://"))
			f.publish(p.TextDocument.URI, -1, string(text))
		}
	}
}

// publish sends the diagnostics of text; version < 0 sends none.
func (f *fake) publish(uri string, version int, text string) {
	if f.mode == "silent" {
		return
	}
	if f.mode == "late" {
		if f.held == nil {
			f.held = func() { f.send(uri, version, text) }
			return
		}
		if f.held != nil {
			f.held()
			f.held = func() {}
		}
	}
	f.send(uri, version, text)
}

func (f *fake) send(uri string, version int, text string) {
	diags := []map[string]any{}
	for i, line := range strings.Split(text, "\n") {
		for _, sev := range []struct {
			word string
			n    int
		}{{"error:", 1}, {"warning:", 2}} {
			if col := strings.Index(line, sev.word); col >= 0 {
				diags = append(diags, map[string]any{
					"range":    map[string]any{"start": map[string]int{"line": i, "character": col}, "end": map[string]int{"line": i, "character": len(line)}},
					"severity": sev.n, "source": "fake", "code": "F" + fmt.Sprint(sev.n),
					"message": strings.TrimSpace(line[col+len(sev.word):]),
				})
			}
		}
	}
	p := map[string]any{"uri": uri, "diagnostics": diags}
	if version >= 0 && f.mode != "noversion" {
		p["version"] = version
	}
	_ = f.conn.Notify("textDocument/publishDiagnostics", p)
}
