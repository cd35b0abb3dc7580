package agent

// SetSystem replaces the system prompt of every later request (an output
// style chosen with /output-style). Like SetModel, it is called between
// turns, from the goroutine that sends them.
func (a *Agent) SetSystem(system string) {
	a.cfg.System = system
	a.prefix.Reset()
}
