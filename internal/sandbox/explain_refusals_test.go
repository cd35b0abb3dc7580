package sandbox

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A refused ptrace and a connection around the proxy of a restricted
// network are said too, from the program's own words.
func TestBlockedSyscallsAndConnections(t *testing.T) {
	restricted := Policy{Name: "plugin acme", Network: Network{Restricted: true, Allow: []string{"localhost"}},
		Settings: Settings{Network: "declare the host in the manifest's sandbox.network", Syscall: "sandbox.plugins = off in the synaps config allows it"}}
	open := Policy{Name: "bash", Settings: Settings{Syscall: "sandbox.bash = off in the synaps config allows it"}}
	tests := []struct {
		name   string
		p      Policy
		output string
		want   []string
	}{
		{"strace", open, "strace: attach: ptrace(PTRACE_SEIZE, 42): Operation not permitted",
			[]string{"blocked by the sandbox: ptrace (reading or steering another process) is refused to bash (sandbox.bash = off in the synaps config allows it)"}},
		{"gdb", restricted, "ptrace: Operation not permitted.",
			[]string{"blocked by the sandbox: ptrace (reading or steering another process) is refused to plugin acme (sandbox.plugins = off in the synaps config allows it)"}},
		{"ptrace said once", open, "ptrace: Operation not permitted.\nptrace: Operation not permitted.",
			[]string{"blocked by the sandbox: ptrace (reading or steering another process) is refused to bash (sandbox.bash = off in the synaps config allows it)"}},
		{"a word, not a refusal", open, "ptrace is how strace works", nil},
		{"go dial, host not allowed", restricted, "probe connect:127.0.0.1:9: dial tcp 127.0.0.1:9: connect: connection refused",
			[]string{"blocked by the sandbox: connection to 127.0.0.1:9, a host not allowed (declare the host in the manifest's sandbox.network)"}},
		{"curl, unreachable", restricted, "curl: (7) Failed to connect to 10.1.2.3 port 443 after 0 ms: Network is unreachable",
			[]string{"blocked by the sandbox: connection to 10.1.2.3:443, a host not allowed (declare the host in the manifest's sandbox.network)"}},
		{"allowed host around the proxy", restricted, "dial tcp localhost:8080: connect: connection refused",
			[]string{"blocked by the sandbox: connection to localhost:8080 outside synaps's proxy: the network of plugin acme is reached only through the proxy HTTPS_PROXY and HTTP_PROXY name"}},
		{"the proxy could not reach it", restricted, "cannot reach localhost:8080: dial tcp 127.0.0.1:8080: connect: connection refused", nil},
		{"an open network", open, "dial tcp 127.0.0.1:9: connect: connection refused", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, tc.p.Blocked("/", tc.output)); d != "" {
				t.Errorf("Blocked(%q) (-want +got):\n%s", tc.output, d)
			}
		})
	}
}

// A declared plugin's process refused a path outside what it named: the
// line ("open /x: permission denied") does not say whether it read or
// wrote, so the hint names both fixes, not sandbox.read alone, which
// would not let a write go.
func TestBlockedOutsideDeclared(t *testing.T) {
	declared := PluginPolicy(Env{Project: "/proj", Home: "/home/u", Temp: "/tmp"},
		PluginSpec{ID: "acme", Dir: "/plugins/acme", DataDir: "/data/acme", Declared: &Declared{Read: []string{"/srv/ro"}}}, Config{})
	tests := []struct {
		name, output string
		want         []string
	}{
		{"a path outside both", "probe write:/elsewhere/x: open /elsewhere/x: permission denied",
			[]string{"blocked by the sandbox: outside what plugin acme may read or write: /elsewhere/x (to read it, declare it in the manifest's sandbox.read; to write it, declare it in the manifest's sandbox.write)"}},
		{"a path declared to read, written", "open /srv/ro/x: permission denied",
			[]string{"blocked by the sandbox: write outside the writable directories: /srv/ro/x (declare it in the manifest's sandbox.write)"}},
		{"a credential store", "open /home/u/.ssh/id_rsa: permission denied",
			[]string{"blocked by the sandbox: read of a credential store: /home/u/.ssh/id_rsa (hidden from every plugin, whatever its manifest declares; sandbox.plugins = off in the synaps config allows it)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, declared.Blocked("/proj", tc.output)); d != "" {
				t.Errorf("Blocked(%q) (-want +got):\n%s", tc.output, d)
			}
		})
	}
}
