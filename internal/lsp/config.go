package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/sandbox"
)

// Server is one configured language server, as a Claude Code plugin
// declares it in .lsp.json or its manifest's lspServers (variables not
// yet expanded).
type Server struct {
	// Name is the server's key in its file ("python", "go").
	Name string
	// Command is the program (required); Args its arguments. Both may
	// hold ${CLAUDE_PLUGIN_ROOT}, ${CLAUDE_PLUGIN_DATA} and ${VAR}.
	Command string
	Args    []string
	// Env is added to the server's environment (the short pass-through
	// list every plugin process gets, then these).
	Env map[string]string
	// Extensions maps a file extension (".py") to the LSP language id
	// ("python"): the files the server is started for (required).
	Extensions map[string]string
	// InitializationOptions are sent in initialize as written; Settings
	// in workspace/didChangeConfiguration after it, and are what the
	// server's workspace/configuration requests are answered from.
	InitializationOptions json.RawMessage
	Settings              json.RawMessage
	// WorkspaceFolder is the folder the server is told to work in;
	// default the project.
	WorkspaceFolder string
	// StartupTimeout bounds starting and initialize; default
	// DefaultStartupTimeout. ShutdownTimeout bounds the shutdown request
	// at the end; default DefaultShutdownTimeout.
	StartupTimeout  time.Duration
	ShutdownTimeout time.Duration
	// NoRestart is restartOnCrash: false. Otherwise a server that
	// exited is started again at the next edit of its files, at most
	// MaxRestarts times (default DefaultMaxRestarts).
	NoRestart   bool
	MaxRestarts int

	// File is where the server was configured: a file, or
	// "<manifest>#lspServers" for the manifest's inline object.
	File string
	// PluginID, PluginDir and PluginData are the plugin that declared
	// the server, its root (${CLAUDE_PLUGIN_ROOT}) and its data
	// directory (${CLAUDE_PLUGIN_DATA}). Sandbox is its manifest's
	// sandbox section (nil: none).
	PluginID, PluginDir, PluginData string
	Sandbox                         *sandbox.Declared
}

// Defaults of a server's optional fields.
const (
	DefaultStartupTimeout  = 30 * time.Second
	DefaultShutdownTimeout = 2 * time.Second
	DefaultMaxRestarts     = 3
)

// rawServer is a server's JSON as Claude Code's plugin reference
// documents it.
type rawServer struct {
	Command               *string           `json:"command"`
	Args                  []string          `json:"args"`
	Transport             string            `json:"transport"`
	Env                   map[string]string `json:"env"`
	ExtensionToLanguage   map[string]string `json:"extensionToLanguage"`
	InitializationOptions json.RawMessage   `json:"initializationOptions"`
	Settings              json.RawMessage   `json:"settings"`
	WorkspaceFolder       string            `json:"workspaceFolder"`
	StartupTimeout        *float64          `json:"startupTimeout"`
	ShutdownTimeout       *float64          `json:"shutdownTimeout"`
	RestartOnCrash        *bool             `json:"restartOnCrash"`
	MaxRestarts           *int              `json:"maxRestarts"`
}

// Parse reads one LSP config: an object of servers by name, or the same
// under "lspServers". Each server that cannot be used is an error naming
// the file, the server and the field, and how to fix it; the others are
// returned, sorted by name.
func Parse(data []byte, file string) ([]Server, []error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, []error{fmt.Errorf("%s: not a JSON object of language servers (%v); write {\"NAME\": {\"command\": …, \"extensionToLanguage\": {\".ext\": \"language\"}}}", file, err)}
	}
	if inner, ok := top["lspServers"]; ok && len(top) == 1 {
		top = nil
		if err := json.Unmarshal(inner, &top); err != nil {
			return nil, []error{fmt.Errorf("%s: lspServers: must be an object of language servers by name: %v", file, err)}
		}
	}
	names := make([]string, 0, len(top))
	for name := range top {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []Server
	var errs []error
	for _, name := range names {
		sv, err := parseServer(name, top[name], file)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, sv)
	}
	return out, errs
}

func parseServer(name string, data json.RawMessage, file string) (Server, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: language server %q: %s", file, name, fmt.Sprintf(format, args...))
	}
	var r rawServer
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&r); err != nil {
		return Server{}, bad("not a server object (%v); write {\"command\": \"PROGRAM\", \"args\": […], \"extensionToLanguage\": {\".ext\": \"language\"}}", err)
	}
	if r.Command == nil || strings.TrimSpace(*r.Command) == "" {
		return Server{}, bad(`"command" is required: the program that runs the server, such as "pyright-langserver"`)
	}
	switch r.Transport {
	case "", "stdio":
	case "socket":
		return Server{}, bad(`"transport": "socket" is not supported by synaps; use a server that speaks LSP on stdin/stdout ("transport": "stdio")`)
	default:
		return Server{}, bad(`"transport" is %q; the only transport is "stdio"`, r.Transport)
	}
	if len(r.ExtensionToLanguage) == 0 {
		return Server{}, bad(`"extensionToLanguage" is required: the files it serves, such as {".py": "python"}`)
	}
	exts := make(map[string]string, len(r.ExtensionToLanguage))
	for ext, lang := range r.ExtensionToLanguage {
		if !strings.HasPrefix(ext, ".") || len(ext) < 2 || strings.ContainsAny(ext, "/\\") {
			return Server{}, bad(`extensionToLanguage: %q is not a file extension; write it with its dot, such as ".py"`, ext)
		}
		if lang == "" {
			return Server{}, bad(`extensionToLanguage: %q has no language id; write one, such as "python"`, ext)
		}
		exts[strings.ToLower(ext)] = lang
	}
	sv := Server{
		Name: name, Command: *r.Command, Args: r.Args, Env: r.Env, Extensions: exts,
		InitializationOptions: nonNull(r.InitializationOptions), Settings: nonNull(r.Settings),
		WorkspaceFolder: r.WorkspaceFolder, File: file,
	}
	var err error
	if sv.StartupTimeout, err = millis(r.StartupTimeout); err != nil {
		return Server{}, bad("startupTimeout: %v", err)
	}
	if sv.ShutdownTimeout, err = millis(r.ShutdownTimeout); err != nil {
		return Server{}, bad("shutdownTimeout: %v", err)
	}
	if r.RestartOnCrash != nil && !*r.RestartOnCrash {
		sv.NoRestart = true
	}
	if r.MaxRestarts != nil {
		if *r.MaxRestarts < 0 {
			return Server{}, bad("maxRestarts is %d; write 0 or more", *r.MaxRestarts)
		}
		sv.MaxRestarts = *r.MaxRestarts
	} else {
		sv.MaxRestarts = DefaultMaxRestarts
	}
	return sv, nil
}

// millis is a timeout written in milliseconds; nil is 0 (the default).
func millis(v *float64) (time.Duration, error) {
	if v == nil {
		return 0, nil
	}
	if *v <= 0 {
		return 0, fmt.Errorf("%v is not a number of milliseconds above 0", *v)
	}
	return time.Duration(*v * float64(time.Millisecond)), nil
}

func nonNull(m json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(m)) == 0 || string(bytes.TrimSpace(m)) == "null" {
		return nil
	}
	return m
}

// Language is the language id sv gives a file of extension ext (with
// its dot), or "" when sv does not serve it.
func (sv Server) Language(ext string) string {
	return sv.Extensions[strings.ToLower(ext)]
}

// ExtensionList is sv's extensions, sorted (".py,.pyi").
func (sv Server) ExtensionList() []string {
	out := make([]string, 0, len(sv.Extensions))
	for ext := range sv.Extensions {
		out = append(out, ext)
	}
	sort.Strings(out)
	return out
}
