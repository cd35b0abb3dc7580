package lsp

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
)

// The few LSP messages synaps sends and reads, as the specification
// (3.17) writes them. Only the fields synaps uses are here.

// Diagnostic is one problem a server reports in a file.
type Diagnostic struct {
	Range    Range           `json:"range"`
	Severity int             `json:"severity,omitempty"`
	Code     json.RawMessage `json:"code,omitempty"`
	Source   string          `json:"source,omitempty"`
	Message  string          `json:"message"`
}

// Severities of a diagnostic (a missing one the client may take as an
// error, as editors do).
const (
	SeverityError       = 1
	SeverityWarning     = 2
	SeverityInformation = 3
	SeverityHint        = 4
)

// Range and Position are zero-based, as on the wire.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type publishParams struct {
	URI         string       `json:"uri"`
	Version     *int         `json:"version,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics"`
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type versionedDoc struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

type docID struct {
	URI string `json:"uri"`
}

type wholeText struct {
	Text string `json:"text"`
}

type didChangeParams struct {
	TextDocument   versionedDoc `json:"textDocument"`
	ContentChanges []wholeText  `json:"contentChanges"`
}

type didSaveParams struct {
	TextDocument docID  `json:"textDocument"`
	Text         string `json:"text,omitempty"`
}

type workspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

type initializeParams struct {
	ProcessID             int               `json:"processId"`
	ClientInfo            clientInfo        `json:"clientInfo"`
	RootURI               string            `json:"rootUri"`
	RootPath              string            `json:"rootPath"`
	WorkspaceFolders      []workspaceFolder `json:"workspaceFolders"`
	Capabilities          json.RawMessage   `json:"capabilities"`
	InitializationOptions json.RawMessage   `json:"initializationOptions,omitempty"`
}

type clientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// clientCapabilities says what synaps does with a server: it opens and
// changes whole documents, saves them, reads versioned diagnostics and
// answers workspace/configuration.
var clientCapabilities = json.RawMessage(`{
	"textDocument": {
		"synchronization": {"didSave": true, "dynamicRegistration": false},
		"publishDiagnostics": {"versionSupport": true, "relatedInformation": false}
	},
	"workspace": {"configuration": true, "workspaceFolders": true, "didChangeConfiguration": {"dynamicRegistration": false}},
	"window": {"workDoneProgress": false},
	"general": {"positionEncodings": ["utf-16"]}
}`)

// initializeResult is the part of the server's answer synaps reads:
// whether it wants didSave (textDocumentSync may be a number, the sync
// kind, or an object).
type initializeResult struct {
	Capabilities struct {
		TextDocumentSync json.RawMessage `json:"textDocumentSync"`
	} `json:"capabilities"`
}

// wantsSave reports whether the server asked for didSave notifications.
func (r initializeResult) wantsSave() bool {
	var opts struct {
		Save json.RawMessage `json:"save"`
	}
	if json.Unmarshal(r.Capabilities.TextDocumentSync, &opts) != nil {
		return false
	}
	s := strings.TrimSpace(string(opts.Save))
	return s != "" && s != "false" && s != "null"
}

type configurationParams struct {
	Items []struct {
		Section string `json:"section"`
	} `json:"items"`
}

// fileURI is path as a file: URI.
func fileURI(path string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return u.String()
}
