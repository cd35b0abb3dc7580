package main

// The rules. Each is a row of the Rules table: a name (shown to the model
// and the user, and used by rules_test.go to prove every row is tested), a
// verdict, the reason given, and a match over the analysed command line
// (see shell.go). Block rules win over confirm rules; several confirm rules
// that match are asked about together.

import (
	"path"
	"regexp"
	"strings"
)

// Verdict is what bash-guard answers for a command.
type Verdict int

const (
	Allow   Verdict = iota // run it
	Confirm                // ask the user first
	Block                  // never run it
)

func (v Verdict) String() string {
	switch v {
	case Confirm:
		return "confirm"
	case Block:
		return "block"
	}
	return "allow"
}

// Rule is one row of the table.
type Rule struct {
	Name    string
	Verdict Verdict
	Reason  string
	Match   func(*Script) bool
}

// Rules is the table, block rules first.
var Rules = []Rule{
	{"rm-root-home-parent", Block,
		"recursive rm of /, a system directory, your home directory or a parent directory deletes far more than a project",
		anyCall(rmDangerous)},
	{"mkfs", Block,
		"mkfs formats a device and destroys everything on it",
		anyCall(func(c Call) bool { return c.Name == "mkfs" || strings.HasPrefix(c.Name, "mkfs.") || c.Name == "mke2fs" })},
	{"dd-to-device", Block,
		"dd of=/dev/… overwrites a disk or partition",
		anyCall(ddToDevice)},
	{"chmod-777-root", Block,
		"chmod -R 777 on /, a system directory or your home directory makes every file in it writable by everyone",
		anyCall(chmodWorldWritable)},
	{"fork-bomb", Block,
		"a fork bomb starts copies of itself until the machine stops responding",
		func(s *Script) bool { return len(s.ForkBombs) > 0 }},
	{"write-to-disk-device", Block,
		"writing into a raw disk device (> /dev/sd…) overwrites the disk",
		writesDisk},
	{"force-push-main", Block,
		"a force push to main or master rewrites the shared history of the main branch",
		anyCall(forcePushMain)},

	{"git-push", Confirm,
		"git push publishes commits to a remote",
		anyCall(func(c Call) bool { p, ok := gitPush(c); return ok && !p.dryRun })},
	{"rm-recursive", Confirm,
		"rm -r deletes a whole directory tree",
		anyCall(func(c Call) bool { r, _, _ := rmArgs(c); return r })},
	{"pipe-to-shell", Confirm,
		"it runs a script straight from the network (curl … | sh) without anyone reading it",
		anyCall(func(c Call) bool { return shells[c.Name] && c.FromDownload })},
	{"sudo", Confirm,
		"sudo runs the command as root",
		anyCall(func(c Call) bool {
			for _, w := range c.Wrappers {
				if w == "sudo" || w == "doas" {
					return true
				}
			}
			return false
		})},
}

// Finding is the outcome of Check: the verdict and the rules behind it.
type Finding struct {
	Verdict Verdict
	Rules   []Rule
}

// Check judges one bash command line.
func Check(command string) Finding {
	s := Analyze(command)
	var f Finding
	for _, r := range Rules {
		if r.Verdict < f.Verdict || !r.Match(s) {
			continue
		}
		if r.Verdict > f.Verdict {
			f = Finding{Verdict: r.Verdict}
		}
		f.Rules = append(f.Rules, r)
	}
	return f
}

// Reason joins the reasons of the rules, naming each rule.
func (f Finding) Reason() string {
	parts := make([]string, len(f.Rules))
	for i, r := range f.Rules {
		parts[i] = r.Reason + " [rule " + r.Name + "]"
	}
	return strings.Join(parts, "; ")
}

func anyCall(match func(Call) bool) func(*Script) bool {
	return func(s *Script) bool {
		for _, c := range s.Calls {
			if match(c) {
				return true
			}
		}
		return false
	}
}

// rmArgs reads an rm call: whether it is recursive, whether it has
// --no-preserve-root and its operands. GNU rm takes options after operands
// too, so only "--" ends them.
func rmArgs(c Call) (recursive, noPreserveRoot bool, targets []string) {
	if c.Name != "rm" {
		return false, false, nil
	}
	opts := true
	for _, a := range c.Args {
		switch {
		case opts && a == "--":
			opts = false
		case opts && strings.HasPrefix(a, "--"):
			recursive = recursive || a == "--recursive"
			noPreserveRoot = noPreserveRoot || a == "--no-preserve-root"
		case opts && len(a) > 1 && a[0] == '-':
			recursive = recursive || strings.ContainsAny(a[1:], "rR")
		default:
			targets = append(targets, a)
		}
	}
	return recursive, noPreserveRoot, targets
}

func rmDangerous(c Call) bool {
	recursive, noPreserveRoot, targets := rmArgs(c)
	if noPreserveRoot {
		return true // it exists only to delete /
	}
	if !recursive {
		return false
	}
	for _, t := range targets {
		if dangerousTarget(t) {
			return true
		}
	}
	return false
}

// systemDirs are the top-level directories nothing should delete or open
// up recursively.
var systemDirs = map[string]bool{
	"/bin": true, "/boot": true, "/dev": true, "/etc": true, "/home": true, "/lib": true, "/lib64": true,
	"/opt": true, "/proc": true, "/root": true, "/sbin": true, "/sys": true, "/usr": true, "/var": true,
	"/Users": true, "/System": true, "/Library": true, "/Applications": true,
}

// dangerousTarget reports whether a path operand is /, a system
// directory, the home directory or a parent directory (.., ../..), or
// everything in one of them (/*, ~/*).
func dangerousTarget(t string) bool {
	t = strings.TrimRight(t, "*")
	if t == "" {
		return false
	}
	for _, home := range []string{"~", "$HOME"} {
		if t == home || strings.HasPrefix(t, home+"/") {
			return path.Clean("/"+strings.TrimPrefix(t, home)) == "/"
		}
	}
	c := path.Clean(t)
	if c == "/" || systemDirs[c] {
		return true
	}
	for _, seg := range strings.Split(c, "/") {
		if seg != ".." {
			return false
		}
	}
	return true
}

// diskDevice matches block devices of disks and partitions.
var diskDevice = regexp.MustCompile(`^/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme[0-9]|mmcblk[0-9]|r?disk[0-9]|md[0-9]|dm-[0-9]|loop[0-9]|mapper/)`)

// harmlessDevices are the /dev files that are fine to write to.
var harmlessDevices = regexp.MustCompile(`^/dev/(null|zero|full|random|urandom|stdout|stderr|tty[0-9]*|pts/.*|fd/.*|shm/.*)$`)

func ddToDevice(c Call) bool {
	if c.Name != "dd" {
		return false
	}
	for _, a := range c.Args {
		if dev, ok := strings.CutPrefix(a, "of="); ok && strings.HasPrefix(dev, "/dev/") && !harmlessDevices.MatchString(dev) {
			return true
		}
	}
	return false
}

// worldWritable are chmod modes that give everyone write access to
// everything.
var worldWritable = regexp.MustCompile(`^(0?[0-7]?777|[ugoa]*[+=]rwx|[ugoa]*o[ugoa]*\+w|a\+w)$`)

func chmodWorldWritable(c Call) bool {
	if c.Name != "chmod" {
		return false
	}
	recursive, mode := false, ""
	var targets []string
	for _, a := range c.Args {
		switch {
		case a == "--recursive" || (len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'R')):
			recursive = true
		case len(a) > 1 && a[0] == '-' && !worldWritable.MatchString(a):
			// another option
		case mode == "":
			mode = a
		default:
			targets = append(targets, a)
		}
	}
	if !recursive || !worldWritable.MatchString(mode) {
		return false
	}
	for _, t := range targets {
		if dangerousTarget(t) {
			return true
		}
	}
	return false
}

func writesDisk(s *Script) bool {
	for _, w := range s.Writes {
		if diskDevice.MatchString(w) {
			return true
		}
	}
	return anyCall(func(c Call) bool {
		if c.Name != "tee" {
			return false
		}
		for _, a := range c.Args {
			if diskDevice.MatchString(a) {
				return true
			}
		}
		return false
	})(s)
}

// push is a parsed `git push`.
type push struct {
	force, dryRun, all bool
	refspecs           []string // after the remote
}

// gitPush reads a git push call, skipping git's global options
// (git -C dir push …).
func gitPush(c Call) (push, bool) {
	var p push
	if c.Name != "git" {
		return p, false
	}
	args := c.Args
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env":
			args = args[1:]
		}
		if len(args) > 0 {
			args = args[1:]
		}
	}
	if len(args) == 0 || args[0] != "push" {
		return p, false
	}
	var positional []string
	opts := true
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case opts && a == "--":
			opts = false
		case opts && (a == "--force" || strings.HasPrefix(a, "--force-with-lease")):
			p.force = true
		case opts && a == "--dry-run":
			p.dryRun = true
		case opts && (a == "--all" || a == "--mirror" || a == "--branches"):
			p.all = true
		case opts && (a == "-o" || a == "--push-option" || a == "--repo" || a == "--receive-pack" || a == "--exec"):
			i++
		case opts && strings.HasPrefix(a, "--"):
		case opts && len(a) > 1 && a[0] == '-':
			p.force = p.force || strings.ContainsRune(a, 'f')
			p.dryRun = p.dryRun || strings.ContainsRune(a, 'n')
		default:
			positional = append(positional, a)
		}
	}
	if len(positional) > 1 {
		p.refspecs = positional[1:]
	}
	return p, true
}

func forcePushMain(c Call) bool {
	p, ok := gitPush(c)
	if !ok || p.dryRun {
		return false
	}
	if p.force && p.all {
		return true
	}
	for _, r := range p.refspecs {
		forced := p.force || strings.HasPrefix(r, "+")
		dst := strings.TrimPrefix(r, "+")
		if i := strings.LastIndexByte(dst, ':'); i >= 0 {
			dst = dst[i+1:]
		}
		dst = strings.TrimPrefix(dst, "refs/heads/")
		if forced && (dst == "main" || dst == "master") {
			return true
		}
	}
	return false
}
