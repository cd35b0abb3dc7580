package sandbox

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// refusalWords are what a program prints when the kernel refused a file
// with EACCES, EPERM or EROFS, in the spellings of libc's strerror, Go
// and Python.
var refusalWords = []string{"permission denied", "operation not permitted", "read-only file system"}

// maskedWords are what a program prints for a credential store a mask
// hides (mask_linux.go): an empty directory stands in its place. They
// count only for a store that exists.
const maskedWords = "no such file or directory"

// pathToken finds the path-like words of a line: absolute, ./ ../ ~/ or
// with a slash, without the quotes and colons around them.
var pathToken = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s'"‘“(\[=:])((?:/|\./|\.\./|~/|[\w.-]+/)[^\s'"’”:,)\]]*)`)
})

// beforeError is the word just before ": Permission denied" and the like.
var beforeError = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(?:^|[\s'"])([^\s'":]+)['"]?: (?:permission denied|operation not permitted|read-only file system|no such file or directory)`)
})

// Blocked reads a confined process's output and returns, for each file
// the process was refused that the policy refuses too, a line the user
// and the model read: "blocked by the sandbox: write outside the project:
// /etc/x (sandbox.filesystem.allow_write in the synaps config allows
// it)". dir is the process's working directory, for relative paths.
// Lines a program printed for a refusal of its own (a file mode) say
// nothing, as the policy allows the path.
func (p Policy) Blocked(dir, output string) []string {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(output, "\n") {
		low := strings.ToLower(line)
		refused := false
		for _, w := range refusalWords {
			if strings.Contains(low, w) {
				refused = true
			}
		}
		if refused {
			if why := p.syscallRefused(low); why != "" {
				if !seen[why] {
					seen[why] = true
					out = append(out, why)
				}
				continue // the call was refused, not a file
			}
		}
		if why := p.connectRefused(line, low); why != "" {
			if !seen[why] {
				seen[why] = true
				out = append(out, why)
			}
			continue
		}
		masked := !refused && strings.Contains(low, maskedWords)
		if !refused && !masked {
			continue
		}
		matches := pathToken().FindAllStringSubmatchIndex(line, -1)
		// "cat: link: Permission denied": a bare name before the error.
		matches = append(matches, beforeError().FindAllStringSubmatchIndex(line, -1)...)
		for _, m := range matches {
			path := strings.TrimRight(line[m[2]:m[3]], ".")
			if path == "" || seen[path] || isProgramName(line, m[2], m[3]) {
				continue
			}
			if strings.HasPrefix(path, "~/") {
				continue // a shell's own spelling; the expanded path follows
			}
			if masked && !p.hiddenStore(dir, path) {
				continue // a path that is not there, not one hidden
			}
			if why := p.explainEither(dir, path); why != "" {
				seen[path] = true
				out = append(out, "blocked by the sandbox: "+why)
			}
		}
	}
	return out
}

// explainEither is Explain for a line that does not say whether path
// was read or written. A path the policy neither reads nor writes (a
// declared plugin's, outside what it named) names both fixes: "declare
// it in the manifest's sandbox.read" was the whole hint for a refused
// write, and declaring a path to read does not let a write go.
func (p Policy) explainEither(dir, path string) string {
	why := p.Explain(dir, path, false)
	if why == "" {
		return p.Explain(dir, path, true)
	}
	if p.ReadAll || p.Settings.Write == "" || !strings.HasPrefix(why, "read outside ") {
		return why
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return "outside what " + p.Name + " may read or write: " + path + " (to read it, " + p.Settings.Read + "; to write it, " + p.Settings.Write + ")"
}

// isProgramName reports whether the path at line[start:end] is the
// program that printed the line ("/bin/sh: 1: cannot create x: …"): it
// opens the line, a colon follows, and it is an executable file.
func isProgramName(line string, start, end int) bool {
	if strings.TrimSpace(line[:start]) != "" || !strings.HasPrefix(line[end:], ":") {
		return false
	}
	fi, err := os.Stat(line[start:end])
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// hiddenStore reports whether path is a credential store the policy
// hides and that exists (for synaps, outside the sandbox).
func (p Policy) hiddenStore(dir, path string) bool {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	real := realPath(path)
	if !under(real, p.Hidden) || under(real, p.Reveal) {
		return false
	}
	_, err := os.Lstat(real)
	return err == nil
}

// syscallRefused explains a refusal of the system-call filter that the
// line names: ptrace, as strace ("attach: ptrace(PTRACE_SEIZE, 42):
// Operation not permitted"), gdb ("ptrace: Operation not permitted") and
// programs that name the call print it. seccomp answers EPERM without a
// trace of its own, so the program's words are all there is to read.
func (p Policy) syscallRefused(low string) string {
	if !strings.Contains(low, "operation not permitted") {
		return ""
	}
	for _, call := range []string{"ptrace", "process_vm_readv", "process_vm_writev"} {
		if strings.Contains(low, call) {
			msg := "blocked by the sandbox: " + call + " (reading or steering another process) is refused to " + p.Name
			if p.Settings.Syscall != "" {
				msg += " (" + p.Settings.Syscall + ")"
			}
			return msg
		}
	}
	return ""
}

// hostPort finds an address with a port in a line ("dial tcp
// 127.0.0.1:9: connect: connection refused", "connect to 10.0.0.1 port
// 443 failed: Network is unreachable").
var hostPort = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s'"(/])((?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+\.[A-Za-z]{2,}|localhost):\d+|(?:\d{1,3}(?:\.\d{1,3}){3}|localhost|[A-Za-z0-9.-]+\.[A-Za-z]{2,}) port \d+)`)
})

// connectRefused explains a connection that ignored the proxy of a
// restricted network: inside its namespace nothing answers (loopback
// refuses, everything else is unreachable), so a refused or unreachable
// connection there is the sandbox's doing. The proxy's own refusals it
// says itself; a line of the proxy's ("cannot reach") is the host's.
func (p Policy) connectRefused(line, low string) string {
	if !p.Network.Restricted || strings.Contains(low, "cannot reach") {
		return ""
	}
	if !strings.Contains(low, "connection refused") && !strings.Contains(low, "network is unreachable") {
		return ""
	}
	m := hostPort().FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	host := strings.Replace(m[1], " port ", ":", 1)
	if !p.Network.Allows(host) {
		msg := "blocked by the sandbox: connection to " + host + ", a host not allowed"
		if p.Settings.Network != "" {
			msg += " (" + p.Settings.Network + ")"
		}
		return msg
	}
	return "blocked by the sandbox: connection to " + host + " outside synaps's proxy: the network of " + p.Name + " is reached only through the proxy HTTPS_PROXY and HTTP_PROXY name"
}
