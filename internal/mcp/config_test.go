package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// row is what the tests compare of a loaded server.
type row struct {
	Name, Type, Command, URL, Kind string
	Line                           int
	Err                            string // a substring of the error; "" for none
}

func rows(t *testing.T, servers []Server) []row {
	t.Helper()
	var out []row
	for _, s := range servers {
		r := row{Name: s.Name, Type: s.Type, Command: s.Command, URL: s.URL, Kind: s.Source.Kind, Line: s.Line}
		if s.Err != nil {
			r.Err = s.Err.Error()
		}
		out = append(out, r)
	}
	return out
}

// sameRows compares rows, an expected Err being a substring of the real.
func sameRows(t *testing.T, got, want []row) {
	t.Helper()
	for i := range want {
		if i < len(got) && want[i].Err != "" && strings.Contains(got[i].Err, want[i].Err) {
			got[i].Err = want[i].Err
		}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("servers (-want +got):\n%s", d)
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestParseFileShapes(t *testing.T) {
	src := Source{Kind: "test", File: "/x/mcp.json"}
	tests := []struct {
		name string
		key  string
		data string
		want []row
	}{
		{
			name: "mcpServers wrapper",
			data: `{"mcpServers": {
  "fs": {"command": "npx", "args": ["-y", "server-filesystem"]}
}}`,
			want: []row{{Name: "fs", Type: "stdio", Command: "npx", Kind: "test", Line: 2}},
		},
		{
			name: "flat map",
			data: `{
  "a": {"command": "a-server"},
  "b": {"url": "https://example.com/mcp"}
}`,
			want: []row{
				{Name: "a", Type: "stdio", Command: "a-server", Kind: "test", Line: 2},
				{Name: "b", Type: "http", URL: "https://example.com/mcp", Kind: "test", Line: 3},
			},
		},
		{
			name: "vs code servers",
			data: `{"servers": {"v": {"type": "stdio", "command": "v"}}}`,
			want: []row{{Name: "v", Type: "stdio", Command: "v", Kind: "test", Line: 1}},
		},
		{
			name: "cursor sse guessed from the url",
			data: `{"mcpServers": {"s": {"url": "http://localhost:8000/sse"}}}`,
			want: []row{{Name: "s", Type: "sse", URL: "http://localhost:8000/sse", Kind: "test", Line: 1}},
		},
		{
			name: "claude types",
			data: `{"mcpServers": {
 "h": {"type": "http", "url": "https://h/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
 "s": {"type": "sse", "url": "https://s/events"},
 "g": {"httpUrl": "https://g/mcp"}
}}`,
			want: []row{
				{Name: "h", Type: "http", URL: "https://h/mcp", Kind: "test", Line: 2},
				{Name: "s", Type: "sse", URL: "https://s/events", Kind: "test", Line: 3},
				{Name: "g", Type: "http", URL: "https://g/mcp", Kind: "test", Line: 4},
			},
		},
		{
			name: "missing command",
			data: `{"mcpServers": {
  "x": {"type": "stdio", "args": ["a"]}
}}`,
			want: []row{{Name: "x", Type: "stdio", Kind: "test", Line: 2, Err: `/x/mcp.json:2: server "x": type stdio needs a command`}},
		},
		{
			name: "neither command nor url",
			data: `{"x": {"args": ["a"]}}`,
			want: []row{{Name: "x", Kind: "test", Line: 1, Err: "has neither command nor url"}},
		},
		{
			name: "both url and command",
			data: `{"mcpServers": {"x": {"command": "a", "url": "https://b"}}}`,
			want: []row{{Name: "x", Command: "a", URL: "https://b", Kind: "test", Line: 1, Err: `/x/mcp.json:1: server "x": has both command and url`}},
		},
		{
			name: "unknown type",
			data: `{"x": {"type": "websocket", "url": "ws://b"}}`,
			want: []row{{Name: "x", Type: "websocket", URL: "ws://b", Kind: "test", Line: 1, Err: `type "websocket" is not one synaps knows`}},
		},
		{
			name: "args not a list",
			data: `{"x": {"command": "a", "args": "-y"}}`,
			want: []row{{Name: "x", Command: "a", Kind: "test", Line: 1, Err: `field args must be a list of strings, not a JSON string`}},
		},
		{
			name: "claude.json user servers",
			key:  "mcpServers",
			data: `{"numStartups": 3, "mcpServers": {"u": {"command": "u"}}, "projects": {}}`,
			want: []row{{Name: "u", Type: "stdio", Command: "u", Kind: "test", Line: 1}},
		},
		{
			name: "claude.json local servers",
			key:  "projects[/p].mcpServers",
			data: `{"mcpServers": {"u": {"command": "u"}},
"projects": {"/q": {"mcpServers": {"q": {"command": "q"}}},
  "/p": {"allowedTools": [],
    "mcpServers": {"l": {"command": "l"}}}}}`,
			want: []row{{Name: "l", Type: "stdio", Command: "l", Kind: "test", Line: 4}},
		},
		{
			name: "claude.json without servers",
			key:  "mcpServers",
			data: `{"numStartups": 3}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := src
			s.Key = tt.key
			got, err := ParseFile(s, []byte(tt.data), "/p")
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, rows(t, got), tt.want)
		})
	}
}

func TestParseFileBadJSON(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"trailing comma", "{\"mcpServers\": {\n  \"a\": {\"command\": \"a\"},\n}\n}", "/x/.mcp.json:3: not valid JSON"},
		{"cut short", "{\"mcpServers\": {\n  \"a\": {\"command\": ", "/x/.mcp.json:2: not valid JSON"},
		{"empty", "", "/x/.mcp.json:1: not valid JSON"},
		{"a list", "[1]", "/x/.mcp.json:1: not valid JSON"},
		{"servers not an object", "{\n\"mcpServers\": [1]}", "/x/.mcp.json:2: mcpServers is not an object"},
		{"server not an object", "{\"mcpServers\": {\n\"a\": 1}}", `/x/.mcp.json:2: server "a": must be an object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			servers, err := ParseFile(Source{File: "/x/.mcp.json"}, []byte(tt.data), "")
			if err == nil && len(servers) == 1 {
				err = servers[0].Err
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestLoadMergesEverySource(t *testing.T) {
	home, base, proj, plug := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(plug, ".mcp.json"), `{"p": {"command": "plugin-p"}, "shared": {"command": "from-plugin"}}`)
	write(t, filepath.Join(home, ".cursor", "mcp.json"), `{"mcpServers": {"cu": {"url": "https://cu/mcp"}, "shared": {"command": "from-cursor-user"}}}`)
	write(t, filepath.Join(home, ".claude.json"), `{"mcpServers": {"cl": {"command": "cl"}, "shared": {"command": "from-claude-user"}},
"projects": {"`+proj+`": {"mcpServers": {"local": {"command": "local"}}}}}`)
	write(t, filepath.Join(base, "mcp.json"), `{"mcpServers": {"mine": {"command": "mine"}, "shared": {"command": "from-synaps-user"}}}`)
	write(t, filepath.Join(proj, ".cursor", "mcp.json"), `{"mcpServers": {"cp": {"command": "cp"}}}`)
	write(t, filepath.Join(proj, ".mcp.json"), `{"mcpServers": {"pr": {"command": "pr"}, "shared": {"command": "from-claude-project"}}}`)
	write(t, filepath.Join(proj, ".synaps", "mcp.json"), `{"mcpServers": {"sp": {"command": "sp"}}}`)

	src := Sources{BaseDir: base, Home: home, ProjectDir: proj, Plugins: []PluginDir{{ID: "plug", Dir: plug}}}
	t.Run("untrusted project", func(t *testing.T) {
		cfg := Load(src)
		if len(cfg.Errors) > 0 {
			t.Fatal(cfg.Errors)
		}
		sameRows(t, rows(t, cfg.Servers), []row{
			{Name: "cl", Type: "stdio", Command: "cl", Kind: "claude user", Line: 1},
			{Name: "cu", Type: "http", URL: "https://cu/mcp", Kind: "cursor user", Line: 1},
			{Name: "local", Type: "stdio", Command: "local", Kind: "claude local", Line: 2},
			{Name: "mine", Type: "stdio", Command: "mine", Kind: "synaps user", Line: 1},
			{Name: "p", Type: "stdio", Command: "plugin-p", Kind: "plugin plug", Line: 1},
			{Name: "shared", Type: "stdio", Command: "from-synaps-user", Kind: "synaps user", Line: 1},
		})
		want := []string{filepath.Join(proj, ".cursor", "mcp.json"), filepath.Join(proj, ".mcp.json"), filepath.Join(proj, ".synaps", "mcp.json")}
		if d := cmp.Diff(want, src.UntrustedProjectFiles()); d != "" {
			t.Errorf("untrusted files (-want +got):\n%s", d)
		}
	})
	t.Run("trusted project", func(t *testing.T) {
		src := src
		src.ProjectTrusted = true
		cfg := Load(src)
		var names, kinds []string
		for _, s := range cfg.Servers {
			names = append(names, s.Name)
			kinds = append(kinds, s.Source.Kind)
		}
		if d := cmp.Diff([]string{"cl", "cp", "cu", "local", "mine", "p", "pr", "shared", "sp"}, names); d != "" {
			t.Errorf("names (-want +got):\n%s", d)
		}
		for _, s := range cfg.Servers {
			if s.Name == "shared" && s.Command != "from-claude-project" {
				t.Errorf("shared comes from %s, want the claude project file (a project's entry wins over a user's)", s.Source)
			}
			if s.Name == "p" && s.PluginDir != plug {
				t.Errorf("plugin server's PluginDir = %q, want %q", s.PluginDir, plug)
			}
		}
		var over []string
		for _, s := range cfg.Overridden["shared"] {
			over = append(over, s.Kind)
		}
		if d := cmp.Diff([]string{"plugin plug", "cursor user", "claude user", "synaps user"}, over); d != "" {
			t.Errorf("overridden (-want +got):\n%s", d)
		}
	})
	t.Run("a bad file names itself and the others still load", func(t *testing.T) {
		write(t, filepath.Join(base, "mcp.json"), "{\n\"mcpServers\": {\n\"mine\": {\"command\": \"mine\"}\n\n")
		cfg := Load(src)
		if len(cfg.Errors) != 1 || !strings.Contains(cfg.Errors[0].Error(), filepath.Join(base, "mcp.json")+":5: not valid JSON") {
			t.Fatalf("errors %v, want one naming %s line 5", cfg.Errors, filepath.Join(base, "mcp.json"))
		}
		if len(cfg.Servers) != 5 {
			t.Errorf("got %d servers, want the 5 of the other files", len(cfg.Servers))
		}
	})
}

func TestExpand(t *testing.T) {
	env := map[string]string{"TOKEN": "t0k", "HOME": "/home/u", "EMPTY": ""}
	x := Expander{Getenv: func(k string) string { return env[k] }, Builtins: map[string]string{"workspaceFolder": "/proj"}}
	tests := []struct {
		name string
		in   Server
		want Server
		err  string
	}{
		{
			name: "every field and form",
			in: Server{Name: "s", Command: "${HOME}/bin/srv", Args: []string{"--dir=${workspaceFolder}", "${MISSING:-fallback}", "$NOT_BRACED"},
				Env: map[string]string{"API": "${env:TOKEN}"}, URL: "https://h/${TOKEN}", Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}, Cwd: "${HOME}"},
			want: Server{Name: "s", Command: "/home/u/bin/srv", Args: []string{"--dir=/proj", "fallback", "$NOT_BRACED"},
				Env: map[string]string{"API": "t0k"}, URL: "https://h/t0k", Headers: map[string]string{"Authorization": "Bearer t0k"}, Cwd: "/home/u"},
		},
		{
			name: "an empty variable takes the default",
			in:   Server{Name: "s", Args: []string{"${EMPTY:-d}"}},
			want: Server{Name: "s", Args: []string{"d"}},
		},
		{
			name: "missing in args",
			in:   Server{Name: "s", Args: []string{"ok", "${NOPE}"}, Source: Source{File: "/f/.mcp.json"}, Line: 3},
			err:  `server "s" (/f/.mcp.json:3): args[1]: ${NOPE} is not set; set NOPE in the environment, or write ${NOPE:-default}`,
		},
		{
			name: "missing in a header",
			in:   Server{Name: "h", Headers: map[string]string{"X-Key": "${env:KEY}"}, Source: Source{File: "/f"}},
			err:  `server "h" (/f): headers.X-Key: ${KEY} is not set`,
		},
		{
			name: "missing in env",
			in:   Server{Name: "e", Env: map[string]string{"A": "${B}"}, Source: Source{File: "/f"}},
			err:  `server "e" (/f): env.A: ${B} is not set`,
		},
		{
			name: "unclosed",
			in:   Server{Name: "u", URL: "https://${HOST", Source: Source{File: "/f"}},
			err:  `url: "https://${HOST" has ${ without a closing }`,
		},
		{
			name: "not a name",
			in:   Server{Name: "n", Command: "${1X}", Source: Source{File: "/f"}},
			err:  `command: ${1X} is not a variable reference`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := x.Expand(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want it to contain %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got, cmp.AllowUnexported(Server{})); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestToolName(t *testing.T) {
	long := strings.Repeat("x", 70)
	tests := []struct {
		server, tool, want string
	}{
		{"everything", "echo", "mcp__everything__echo"},
		{"my.server", "get sum", "mcp__my_server__get_sum"},
		{"s", "ünï", "mcp__s____n__"},
		{"s", long, ("mcp__s__" + long)[:55] + "_" + hashOf("s", long)},
	}
	for _, tt := range tests {
		got := ToolName(tt.server, tt.tool)
		if got != tt.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", tt.server, tt.tool, got, tt.want)
		}
		if len(got) > 64 {
			t.Errorf("ToolName(%q, %q) has %d characters", tt.server, tt.tool, len(got))
		}
	}
	var n namer
	a, b := n.name("my.server", "t"), n.name("my_server", "t")
	if a != "mcp__my_server__t" || b == a || !strings.HasPrefix(b, "mcp__my_server__t_") || len(b) != len(a)+9 {
		t.Errorf("colliding names %q and %q, want the second one hashed", a, b)
	}
	if again := n.name("my.server", "t"); again != a {
		t.Errorf("the same tool named again: %q, want %q", again, a)
	}
}

func hashOf(server, tool string) string {
	h := hashed("", server, tool)
	return h[1:]
}
