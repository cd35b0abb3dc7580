// Package sandbox confines the processes synaps starts — the bash tool's
// commands, extensions, Claude Code hooks, MCP stdio servers — by what
// each is allowed, with the kernel's own boundaries rather than guards
// that match command text.
//
// The mechanism (Linux): Wrap rewrites an exec.Cmd so that it starts
// synaps's own executable in a hidden helper mode (HelperArg), with the
// Policy in the environment. The helper, already inside any namespaces the
// spawn asked for, applies the policy to itself — read-only bind mounts,
// the loopback interface and the proxy bridge, Landlock, no_new_privs and
// seccomp — and then execve's the real command. execve keeps the pid, so
// synaps's supervision (process groups, the lifeline, parent-death
// signals) sees the process it always saw, and every child the command
// forks inherits the confinement: Landlock domains and seccomp filters
// cannot be shed.
//
//   - Files: Landlock. Landlock only grants, so "read everywhere but the
//     credential stores" is granted by enumerating the siblings of each
//     hidden path (see grants). A hidden path inside a writable directory
//     is masked in the process's own mount namespace (mask_linux.go), and
//     the directory granted whole; without a mount namespace it gets
//     write-class rights from its ancestor but no read rights.
//   - System calls: seccomp, EPERM for ptrace, process_vm_readv/writev,
//     mount, namespaces, kernel modules, keyrings, bpf.
//   - Network: a network namespace whose only way out is a proxy synaps
//     runs (proxy.go): plain HTTP and CONNECT, with a host allow/deny list.
//
// Elsewhere (not Linux) nothing is confined and Status says so.
package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Policy is what one process may do. Paths are absolute; Wrap resolves
// symbolic links in them, since the kernel judges the real file.
type Policy struct {
	// Name says whose policy it is in messages: "bash", "plugin acme".
	Name string `json:"name"`
	// Kind is how the policy came about: "bash", "default", "strict",
	// "declared" (the manifest's sandbox section).
	Kind string `json:"kind"`
	// ReadAll grants reading (and executing) everywhere but Hidden.
	ReadAll bool `json:"read_all,omitempty"`
	// Read are more trees that may be read and executed.
	Read []string `json:"read,omitempty"`
	// Write are trees that may be read and written (Hidden paths inside
	// them stay unreadable and, with a mount namespace, unwritable).
	Write []string `json:"write,omitempty"`
	// Hidden are neither readable nor writable: the credential stores.
	Hidden []string `json:"hidden,omitempty"`
	// Reveal are paths inside Hidden that stay readable
	// (~/.ssh/known_hosts, so ssh with an agent still works).
	Reveal []string `json:"reveal,omitempty"`
	// ReadOnly are paths inside Write kept read-only (.git/hooks,
	// .synaps): bind-mounted read-only in a mount namespace of its own.
	ReadOnly []string `json:"read_only,omitempty"`
	// Network restricts the hosts reachable; the zero value allows all.
	Network Network `json:"network"`
	// Required refuses to start what cannot be confined as asked
	// (config sandbox.required = true).
	Required bool `json:"required,omitempty"`
	// Settings name, per kind of refusal, the setting that allows it, for
	// the messages Explain writes.
	Settings Settings `json:"-"`
}

// Network is a host allow/deny list. Restricted false means the process
// uses the network as synaps does; true means its only way out is the
// proxy, which lets through a host that matches Allow (every host when
// Allow is empty) and none that matches Deny. A pattern is a host name,
// "*.example.com" (every name under example.com), or either with ":port".
type Network struct {
	Restricted bool     `json:"restricted,omitempty"`
	Allow      []string `json:"allow,omitempty"`
	Deny       []string `json:"deny,omitempty"`
}

// Settings name the setting a user changes to allow what a policy refused.
type Settings struct {
	Write    string // a write outside the writable directories
	Hidden   string // a read of a credential store
	ReadOnly string // a write to a read-only path inside the project
	Read     string // a read outside the readable directories (strict)
	Network  string // a host not allowed
	Syscall  string // a system call the filter refuses (ptrace)
}

// Allows reports whether host ("name" or "name:port") may be reached.
func (n Network) Allows(host string) bool {
	if !n.Restricted {
		return true
	}
	for _, d := range n.Deny {
		if hostMatches(d, host) {
			return false
		}
	}
	if len(n.Allow) == 0 {
		return true
	}
	for _, a := range n.Allow {
		if hostMatches(a, host) {
			return true
		}
	}
	return false
}

// hostMatches: pattern "example.com" matches host "example.com" on any
// port; "*.example.com" matches "a.example.com" and "a.b.example.com";
// "example.com:443" only that port. Case does not matter.
func hostMatches(pattern, host string) bool {
	pattern, host = strings.ToLower(strings.TrimSpace(pattern)), strings.ToLower(host)
	hname, hport := splitHostPort(host)
	pname, pport := splitHostPort(pattern)
	if pport != "" && pport != hport {
		return false
	}
	if rest, ok := strings.CutPrefix(pname, "*."); ok {
		return strings.HasSuffix(hname, "."+rest)
	}
	return pname == "*" || pname == hname
}

func splitHostPort(s string) (host, port string) {
	if strings.HasPrefix(s, "[") {
		if i := strings.Index(s, "]"); i > 0 {
			return s[1:i], strings.TrimPrefix(s[i+1:], ":")
		}
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 && strings.Count(s, ":") == 1 {
		return s[:i], s[i+1:]
	}
	return s, ""
}

// Explain says why the policy refuses path (read or, when write, written),
// with the setting that allows it, or "" when the policy allows it.
// The path is resolved as the kernel would; relative paths are joined
// to dir.
func (p Policy) Explain(dir, path string, write bool) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	real := realPath(path)
	hint := func(what, setting string) string {
		if setting == "" {
			return what + ": " + path
		}
		return what + ": " + path + " (" + setting + ")"
	}
	if p.readable(real) == false {
		if under(real, p.Hidden) && !under(real, p.Reveal) {
			return hint("read of a credential store", p.Settings.Hidden)
		}
		return hint("read outside what "+p.Name+" may read", p.Settings.Read)
	}
	if !write {
		return ""
	}
	if under(real, p.Hidden) && !under(real, p.Reveal) {
		return hint("write to a credential store", p.Settings.Hidden)
	}
	if under(real, p.ReadOnly) {
		return hint("write to a path kept read-only", p.Settings.ReadOnly)
	}
	if !under(real, p.Write) && !isDevFile(real) {
		what := "write outside the writable directories"
		if p.Kind == "bash" {
			what = "write outside the project"
		}
		return hint(what, p.Settings.Write)
	}
	return ""
}

// readable is the policy's read judgement of a resolved path.
func (p Policy) readable(real string) bool {
	if under(real, p.Reveal) {
		return true
	}
	if under(real, p.Hidden) {
		return false
	}
	return p.ReadAll || under(real, p.Read) || under(real, p.Write) || isDevFile(real)
}

// under reports whether path is one of roots or inside one.
func under(path string, roots []string) bool {
	for _, r := range roots {
		if within(path, realPath(r)) {
			return true
		}
	}
	return false
}

// within reports whether path is root or beneath it.
func within(path, root string) bool {
	if root == "/" {
		return true
	}
	return path == root || strings.HasPrefix(path, root+"/")
}

// realPath resolves the symbolic links of the longest existing prefix of
// path, so that a path that does not exist yet is judged where it would
// be created.
func realPath(path string) string {
	path = filepath.Clean(path)
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	dir, base := filepath.Split(path)
	if dir == "" || dir == path || base == "" {
		return path
	}
	return filepath.Join(realPath(filepath.Clean(dir)), base)
}

// devFiles are device files every confined process may read and write.
var devFiles = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts", "/dev/shm"}

func isDevFile(path string) bool {
	return slices.ContainsFunc(devFiles, func(d string) bool { return within(path, d) })
}

// Home is the home directory credential stores are looked for in.
func Home(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// CredentialStores are the paths under home no confined process reads:
// keys, cloud and cluster credentials, password files, browser profiles.
func CredentialStores(home string) []string {
	rel := []string{
		".ssh", ".aws", ".gnupg", ".config/gcloud", ".kube", ".docker",
		".netrc", ".git-credentials", ".config/gh", ".azure", ".password-store",
		".claude/.credentials.json",
		".mozilla", ".config/google-chrome", ".config/chromium",
		".config/BraveSoftware", ".config/microsoft-edge", "snap/firefox",
		".pki",
	}
	out := make([]string, 0, len(rel))
	for _, r := range rel {
		out = append(out, filepath.Join(home, r))
	}
	return out
}

// sshReveal are the files of ~/.ssh that ssh reads to reach a host with
// the user's agent: no key, only where and whom to trust.
func sshReveal(home string) []string {
	return []string{filepath.Join(home, ".ssh", "known_hosts"), filepath.Join(home, ".ssh", "config")}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
