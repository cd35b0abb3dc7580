package extension

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/synaps-cli/synaps/internal/jsonrpc"
	"github.com/synaps-cli/synaps/internal/plugin"
)

// Child is one extension process started exactly as a session starts it
// (argv from the manifest, the scrubbed environment, its own process
// group, stderr read line by line) for a caller that speaks the protocol
// itself: the conformance harness behind `synaps extensions test`. It is
// not supervised: no restarts, no hook chain, no tools registered.
type Child struct {
	p *process
}

// ChildOptions configure StartChild.
type ChildOptions struct {
	// Getenv reads the user's environment; nil: os.Getenv.
	Getenv func(string) string
	// Stderr hears every stderr line, in order, from another goroutine.
	Stderr func(line string)
	// OnNoise hears what the connection drops or repairs
	// (jsonrpc.Options.OnNoise), from another goroutine.
	OnNoise func(kind, detail string)
}

// StartChild starts p's extension. SYNAPS_BASE_DIR is a scratch directory
// under the system temp dir, so the child cannot touch the user's data.
func StartChild(p *plugin.Plugin, o ChildOptions) (*Child, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	env := childEnv(getenv, p, filepath.Join(os.TempDir(), "synaps-extension-test"))
	argv, _, err := p.Manifest.Extension.Argv(envLookup(env))
	if err != nil {
		return nil, err
	}
	proc, err := spawn(spawnSpec{argv: argv, dir: p.Dir, env: env, stderr: o.Stderr,
		connOpt: jsonrpc.Options{OnNoise: o.OnNoise}})
	if err != nil {
		return nil, err
	}
	return &Child{p: proc}, nil
}

// Argv is the command line the child runs.
func (c *Child) Argv() []string { return c.p.cmd.Args }

// Call sends one request and waits for its answer or ctx.
func (c *Child) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return c.p.conn.Call(ctx, method, params)
}

// WriteFrame writes raw bytes to the child's stdin, outside the
// connection (nothing else may be in flight). A child that stopped
// reading with its stdin pipe full cannot block it longer than timeout.
func (c *Child) WriteFrame(frame string, timeout time.Duration) error {
	_ = c.p.stdin.SetWriteDeadline(time.Now().Add(timeout))
	defer c.p.stdin.SetWriteDeadline(time.Time{})
	_, err := c.p.stdin.WriteString(frame)
	return err
}

// Alive reports whether the process is still running.
func (c *Child) Alive() bool { return c.p.alive() }

// WaitExit waits up to d for the process to exit and reports whether it
// did.
func (c *Child) WaitExit(d time.Duration) bool { return c.p.waitExit(d) }

// ExitDescription says how the process ended ("exited with status 4").
func (c *Child) ExitDescription() string { return c.p.exitDescription() }

// Close ends a child that has answered shutdown: stdin closed, then
// signals after short waits; it does not send shutdown again.
func (c *Child) Close() {
	c.p.stop(stopTimeouts{reply: 10 * time.Millisecond, exit: 500 * time.Millisecond}, false)
}

// CloseStdin closes the child's stdin without a shutdown, as when synaps
// is killed or crashes: an extension must then exit by itself.
func (c *Child) CloseStdin() error { return c.p.stdin.Close() }

// Kill kills the process group and reaps it.
func (c *Child) Kill() { c.p.kill() }

// ResolveConfig resolves the values p's extension receives in initialize
// params.config as a session would (environment, plugin config file,
// defaults), without the global config.
func ResolveConfig(p *plugin.Plugin, getenv func(string) string) (map[string]any, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	cfg, _, err := resolveConfig(configSources{getenv: getenv}, p)
	return cfg, err
}
