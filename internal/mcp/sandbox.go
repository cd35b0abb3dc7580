package mcp

// confine puts a stdio server under its sandbox policy (Options.Policy:
// its plugin's, or the default one for the user's and the project's
// servers) before it starts. What the sandbox refused it is said in the
// server's stderr tail and, when a tool call fails over it, in the tool
// result the model and the user read. Connections the proxy refused are
// said in the tail too.
func (s *server) confine(c Server, t *commandTransport, note func(string)) {
	if s.m.opts.Policy == nil {
		return
	}
	pol := s.m.opts.Policy(c)
	if pol == nil {
		return
	}
	// Applied when the transport starts the server (sandbox.Start: on a
	// confined thread of synaps where it can, not a helper re-run of
	// synaps per server).
	t.policy, t.note = pol, note
	dir := t.cmd.Dir
	s.mu.Lock()
	s.policy, s.dir = pol, dir
	s.mu.Unlock()
	s.stderr.mu.Lock()
	s.stderr.Explain = func(line string) []string { return pol.Blocked(dir, line) }
	s.stderr.mu.Unlock()
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
