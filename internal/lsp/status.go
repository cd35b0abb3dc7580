package lsp

// States of a configured server, as listings show them.
const (
	// StateIdle: not started; it starts at the first edit of its files.
	StateIdle = "idle"
	// StateRunning: started and initialized.
	StateRunning = "running"
	// StateFailed: it did not start, or exited more often than it may
	// be restarted; Err says why.
	StateFailed = "failed"
	// StateExited: it exited; the next edit of its files starts it
	// again.
	StateExited = "exited"
)

// Status describes one configured server for listings.
type Status struct {
	Name, PluginID, File string
	Extensions           []string
	State                string
	Err                  string
	// ShadowedBy names the server that serves this one's extensions
	// first ("": none does).
	ShadowedBy string
}

// Statuses describes every configured server, in the order they are
// consulted. It waits for no server (a start in progress shows idle).
func (m *Manager) Statuses() []Status {
	if m == nil {
		return nil
	}
	out := make([]Status, 0, len(m.all))
	for _, e := range m.all {
		st := Status{Name: e.sv.Name, PluginID: e.sv.PluginID, File: e.sv.File, Extensions: e.sv.ExtensionList(), State: StateIdle, ShadowedBy: e.shadowedBy}
		if e.mu.TryLock() {
			switch {
			case e.client != nil:
				st.State = StateRunning
				select {
				case <-e.client.Exited():
					st.State = StateExited
				default:
				}
			case e.err != nil && (e.noStart || e.sv.NoRestart || e.starts > e.sv.MaxRestarts):
				st.State, st.Err = StateFailed, e.err.Error()
			case e.err != nil:
				st.State, st.Err = StateExited, e.err.Error()
			}
			e.mu.Unlock()
		} else {
			st.State = StateRunning // busy with an edit
		}
		out = append(out, st)
	}
	return out
}
