package extension

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/hook"
)

// TraceEnv turns on hook tracing: 1, true, yes or on.
const TraceEnv = "SYNAPS_EXTENSIONS_TRACE"

// traceOn reads a boolean-ish environment value.
func traceOn(v string) bool {
	switch v {
	case "1", "true", "TRUE", "True", "yes", "YES", "on", "ON":
		return true
	}
	return false
}

// tracer writes one JSON line per hook call: hook, extension, action,
// duration, timeout, health and restarts. Never payloads. A nil tracer
// does nothing.
type tracer struct {
	mu sync.Mutex
	// w receives the records (Options.Trace); when nil they are appended
	// to the file at path, opened for each record so that a host never
	// holds a file open past its life. Both guarded by mu.
	w    io.Writer
	path string
}

type traceRecord struct {
	Time       string  `json:"time"`
	Hook       string  `json:"hook"`
	Extension  string  `json:"extension"`
	Action     string  `json:"action"`
	DurationMS float64 `json:"duration_ms"`
	Timeout    bool    `json:"timeout"`
	Health     State   `json:"health"`
	Restarts   int     `json:"restarts"`
	Error      string  `json:"error,omitempty"`
}

func (t *tracer) hook(hook string, e *Extension, action string, d time.Duration, timeout bool, err error) {
	if t == nil {
		return
	}
	state, _, _, restarts, _ := e.snapshot()
	rec := traceRecord{
		Time: time.Now().UTC().Format(time.RFC3339Nano), Hook: hook, Extension: e.ID(), Action: action,
		DurationMS: float64(d.Microseconds()) / 1000, Timeout: timeout, Health: state, Restarts: restarts,
	}
	if err != nil {
		rec.Error = err.Error()
	}
	b, _ := json.Marshal(rec)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w != nil {
		_, _ = t.w.Write(append(b, '\n'))
		return
	}
	appendLine(t.path, b)
}

// interceptLog appends a metadata-only record of every block, modify and
// replace to extensions/intercept.jsonl, so a user can audit what
// extensions changed without the log itself holding the secrets a
// redactor removed. A nil log does nothing.
type interceptLog struct {
	mu   sync.Mutex
	path string // guarded by mu
}

type interceptRecord struct {
	Time        string          `json:"time"`
	SessionID   string          `json:"session_id,omitempty"`
	Hook        string          `json:"hook"`
	Extension   string          `json:"extension"`
	Action      contract.Action `json:"action"`
	Tool        string          `json:"tool,omitempty"`
	OutputBytes *int            `json:"original_output_bytes,omitempty"`
	NewBytes    *int            `json:"new_output_bytes,omitempty"`
}

func (l *interceptLog) record(ev *hook.Event, extID string, a contract.Action, newOut *string) {
	if l == nil {
		return
	}
	rec := interceptRecord{
		Time: time.Now().UTC().Format(time.RFC3339Nano), SessionID: ev.SessionID, Hook: ev.Kind,
		Extension: extID, Action: a, Tool: ev.ToolRuntimeName,
	}
	if newOut != nil {
		n, m := 0, len(*newOut)
		if ev.ToolOutput != nil {
			n = len(*ev.ToolOutput)
		}
		rec.OutputBytes, rec.NewBytes = &n, &m
	}
	b, _ := json.Marshal(rec)
	l.mu.Lock()
	defer l.mu.Unlock()
	appendLine(l.path, b)
}

// appendLine appends b and a newline to the file at path, creating it and
// its directory; failures are dropped (logs must not stop the agent).
func appendLine(path string, b []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(append(b, '\n'))
}
