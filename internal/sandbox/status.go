package sandbox

import (
	"fmt"
	"strings"
	"sync"
)

// Features are what the kernel (and this user) offers the sandbox.
type Features struct {
	// Supported is false where synaps has no sandbox (not Linux).
	Supported bool
	// LandlockABI is the Landlock ABI version, 0 without Landlock.
	LandlockABI int
	Seccomp     bool
	// MountNS and NetNS: a spawn can get a mount / network namespace of
	// its own (as root, or through a user namespace).
	MountNS, NetNS bool
	// UserNS says a user namespace is used for them (synaps is not root).
	UserNS bool
	// Reason says why a namespace is not available.
	Reason string
}

var (
	detectOnce sync.Once
	detected   Features
)

// Detect returns the features, probed once per process.
func Detect() Features {
	detectOnce.Do(func() { detected = detect() })
	return detected
}

// Lines describes the features for `synaps sandbox status`.
func (f Features) Lines() []string {
	if !f.Supported {
		return []string{"sandbox: not supported on this system (Linux only): nothing synaps starts is confined"}
	}
	yes := func(b bool, what, without string) string {
		if b {
			return "yes"
		}
		return "no — " + without
	}
	ll := "no — files are not confined"
	if f.LandlockABI > 0 {
		ll = fmt.Sprintf("yes (ABI %d)", f.LandlockABI)
	}
	ns := func(b bool, without string) string {
		s := yes(b, "", without)
		if b && f.UserNS {
			s += " (through a user namespace)"
		}
		if !b && f.Reason != "" {
			s += " (" + f.Reason + ")"
		}
		return s
	}
	return []string{
		"landlock: " + ll,
		"seccomp: " + yes(f.Seccomp, "", "system calls are not filtered"),
		"mount namespaces: " + ns(f.MountNS, ".git/hooks and .synaps stay writable for bash"),
		"network namespaces: " + ns(f.NetNS, "network allow/deny lists are not enforced"),
	}
}

// Describe renders a policy for status and info, one line per aspect.
func (p Policy) Describe() []string {
	var out []string
	switch {
	case p.ReadAll:
		out = append(out, "read: everywhere but "+strings.Join(dedupe(p.Hidden), ", "))
	default:
		out = append(out, "read: "+strings.Join(dedupe(p.Read), ", "))
	}
	if len(p.Reveal) > 0 {
		out = append(out, "readable still: "+strings.Join(dedupe(p.Reveal), ", "))
	}
	out = append(out, "write: "+strings.Join(dedupe(p.Write), ", "))
	if len(p.ReadOnly) > 0 {
		out = append(out, "read-only inside: "+strings.Join(p.ReadOnly, ", "))
	}
	switch n := p.Network; {
	case !n.Restricted:
		out = append(out, "network: any host")
	case len(n.Allow) == 1 && n.Allow[0] == "none.invalid":
		out = append(out, "network: none")
	default:
		s := "network: through synaps's proxy, to "
		if len(n.Allow) == 0 {
			s += "any host"
		} else {
			s += strings.Join(n.Allow, ", ")
		}
		if len(n.Deny) > 0 {
			s += "; never " + strings.Join(n.Deny, ", ")
		}
		out = append(out, s)
	}
	return out
}

// dedupe drops repeated paths, keeping the first of each.
func dedupe(paths []string) []string {
	var out []string
	for _, p := range paths {
		if !containsPath(out, p) {
			out = append(out, p)
		}
	}
	return out
}
