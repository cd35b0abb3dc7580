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
			why := p.Explain(dir, path, false)
			if why == "" {
				why = p.Explain(dir, path, true)
			}
			if why != "" {
				seen[path] = true
				out = append(out, "blocked by the sandbox: "+why)
			}
		}
	}
	return out
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
