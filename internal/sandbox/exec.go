package sandbox

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
)

// The hidden first arguments of synaps's executable run in the sandbox's
// helper modes. They are handled in this package's init, before any other
// set-up of synaps, so that a confined spawn pays for as little as
// possible — and so that any binary importing the package (the test
// binaries included) can be re-run as the helper.
const (
	// HelperArg: apply the policy of the environment, then execve the
	// command after "--".
	HelperArg = "__sandbox-exec"
	// bridgeArg: inside a network namespace, forward the loopback
	// listener on fd 3 to the proxy's unix socket.
	bridgeArg = "__sandbox-bridge"
	// probeArg: exit 0 at once; Features starts it in the namespaces to
	// learn whether the kernel and the user may create them.
	probeArg = "__sandbox-probe"
)

// specEnv carries the helper's spec (JSON) from synaps to the helper,
// which removes it before execve.
const specEnv = "SYNAPS_SANDBOX_SPEC"

// spec is what the helper applies.
type spec struct {
	Policy Policy `json:"policy"`
	// Landlock, Seccomp: apply them. MountNS: the helper runs in a mount
	// namespace of its own and mounts Policy.ReadOnly (and the hidden
	// paths inside Write) read-only. NetNS: it runs in a network
	// namespace of its own and bridges loopback to ProxySocket.
	Landlock    bool   `json:"landlock,omitempty"`
	Seccomp     bool   `json:"seccomp,omitempty"`
	MountNS     bool   `json:"mountns,omitempty"`
	NetNS       bool   `json:"netns,omitempty"`
	ProxySocket string `json:"proxy_socket,omitempty"`
	// ReadOnly are the paths the helper mounts read-only (existing ones,
	// computed by synaps).
	ReadOnly []string `json:"read_only_mounts,omitempty"`
	// Masks hide the credential stores inside writable trees (with
	// MountNS; mask_linux.go).
	Masks []mask `json:"masks,omitempty"`
	// Around are the hidden paths Landlock grants read around (see
	// Policy.grants).
	Around []string `json:"around,omitempty"`
}

// grants are the Landlock rules of the spec.
func (s spec) grants() []grant { return s.Policy.grants(s.Around) }

// Warn is where the sandbox says, once per session for each missing
// kernel feature, that it runs without it. cmd/synaps leaves it writing
// to stderr; the terminal UI may redirect it.
var Warn = func(msg string) { fmt.Fprintln(os.Stderr, "synaps: warning: sandbox:", msg) }

var warned sync.Map

// warnOnce calls Warn the first time key is seen in this process.
func warnOnce(key, msg string) {
	if _, loaded := warned.LoadOrStore(key, true); !loaded {
		Warn(msg)
	}
}

// RefusedError is Wrap's error when sandbox.required is set and the
// kernel lacks what the policy needs.
type RefusedError struct {
	Name, Missing string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("sandbox.required = true and the kernel lacks %s, so %s is not started unconfined; set sandbox.required = false in the synaps config to run it without", e.Missing, e.Name)
}

// notStarted ends cmd as a failed start would, for a refusal before the
// fork (sandbox.required, a proxy that could not start): the pipes its
// caller made (StdinPipe, StdoutPipe) are closed, not left open for
// every refused start. It returns err.
func notStarted(cmd *exec.Cmd, err error) error {
	if cmd.Process == nil {
		cmd.Err = err
		_ = cmd.Start() // closes the descriptors and reports cmd.Err
	}
	return err
}
