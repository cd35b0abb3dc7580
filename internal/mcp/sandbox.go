package mcp

import (
	"github.com/synaps-cli/synaps/internal/sandbox"
)

// confine puts a stdio server under its sandbox policy (Options.Policy:
// its plugin's, or the default one for the user's and the project's
// servers) before it starts. What the sandbox refused it is said in the
// server's stderr tail and, when a tool call fails over it, in the tool
// result the model and the user read. Connections the proxy refused are
// said in the tail too.
func (s *server) confine(c Server, t *commandTransport, note func(string)) error {
	if s.m.opts.Policy == nil {
		return nil
	}
	pol := s.m.opts.Policy(c)
	if pol == nil {
		return nil
	}
	release, err := sandbox.Wrap(t.cmd, *pol, note)
	if err != nil {
		return err
	}
	t.release = release
	dir := t.cmd.Dir
	s.mu.Lock()
	s.policy, s.dir = pol, dir
	s.mu.Unlock()
	s.stderr.mu.Lock()
	s.stderr.Explain = func(line string) []string { return pol.Blocked(dir, line) }
	s.stderr.mu.Unlock()
	return nil
}

// refusals are the sandbox's reasons for a failed tool call's output
// ("blocked by the sandbox: read of a credential store: …"), nil when the
// server is not confined or nothing in it was refused.
func (s *server) refusals(output string) []string {
	s.mu.Lock()
	pol, dir := s.policy, s.dir
	s.mu.Unlock()
	if pol == nil {
		return nil
	}
	return pol.Blocked(dir, output)
}
