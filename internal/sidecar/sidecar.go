// Package sidecar runs a plugin's sidecar (SynapsCLI's
// provides.sidecar): a helper process — a voice recogniser, say — that
// speaks line-delimited JSON on stdin and stdout. synaps spawns it, waits
// for its hello, sends init, and then routes what it says (status,
// text to insert, errors) to the UI; the user toggles it (a trigger
// "press", then "release") and synaps shuts it down at the end.
//
// It knows processes and the sidecar's line protocol; which plugin
// declares one and where its events are shown is its caller's business.
package sidecar

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/synaps-cli/synaps/internal/sandbox"
)

// HostProtocol is the sidecar protocol version synaps speaks; a sidecar
// whose hello says less is refused.
const HostProtocol = 2

// Limits of the protocol, as SynapsCLI's.
const (
	MaxLine      = 1 << 20
	HelloTimeout = 10 * time.Second
	ReadyTimeout = 30 * time.Second
	StopWait     = 2 * time.Second
)

// Spec says how to start a sidecar.
type Spec struct {
	Plugin, Display string
	Command         string // absolute, or a name on PATH
	Args            []string
	Dir             string
	Env             []string
	// Policy, when set, confines the sidecar (internal/sandbox): its
	// plugin's policy.
	Policy *sandbox.Policy
}

// Event is something the sidecar said, for the UI.
type Event struct {
	Plugin, Display string
	// Kind is status, insert_text, error or exited.
	Kind string
	// State and Label (status): the sidecar's state as it names it;
	// Text and Mode (insert_text: final or replace; append is not sent
	// on); Message (error, exited).
	State, Label, Text, Mode, Message string
}

// Sidecar is one running sidecar. One lock guards its state.
type Sidecar struct {
	spec Spec
	on   func(Event)
	cmd  *exec.Cmd
	done chan struct{} // closed when the reader has seen the end
	// release ends what confining it took, once it has exited.
	release func()

	mu    sync.Mutex
	stdin io.WriteCloser
	state string // starting, idle, loading, active, error, stopped
	label string
	armed bool
	caps  []string
	ready chan struct{} // closed at status ready (ready_after_init)
	hello chan helloMsg
	// status gets a token at each status message, and seq counts them,
	// so Toggle can wait for the sidecar's answer to a trigger.
	status   chan struct{}
	seq      int
	stopping bool
}

type helloMsg struct {
	ProtocolVersion int      `json:"protocol_version"`
	Extension       string   `json:"extension"`
	Capabilities    []string `json:"capabilities"`
}

// Start spawns the sidecar and completes the start-up: hello within 10 s
// (a protocol below 2 is refused), init, and — when hello listed
// ready_after_init — a "ready" status within 30 s. on receives its events
// from then on, one at a time.
func Start(spec Spec, on func(Event)) (*Sidecar, error) {
	cmd := exec.Command(spec.Command, spec.Args...)
	cmd.Dir, cmd.Env = spec.Dir, spec.Env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = io.Discard
	release := func() {}
	if spec.Policy != nil {
		// A connection the proxy refused is the sidecar's error event.
		// Start confines on a thread of synaps where it can (no helper
		// re-run of synaps per start; see extension's spawn).
		say := func(line string) { on(Event{Plugin: spec.Plugin, Display: spec.Display, Kind: "error", Message: line}) }
		if release, err = sandbox.Start(cmd, *spec.Policy, say); err != nil {
			release() // the pipes made above are closed
			var refused *sandbox.RefusedError
			if errors.As(err, &refused) {
				return nil, fmt.Errorf("sidecar of plugin %s: %w", spec.Plugin, err)
			}
			return nil, fmt.Errorf("sidecar of plugin %s: cannot start %s: %w", spec.Plugin, spec.Command, err)
		}
	} else if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("sidecar of plugin %s: cannot start %s: %w", spec.Plugin, spec.Command, err)
	}
	s := &Sidecar{spec: spec, on: on, cmd: cmd, stdin: stdin, state: "starting", release: release,
		done: make(chan struct{}), ready: make(chan struct{}), hello: make(chan helloMsg, 1), status: make(chan struct{}, 1)}
	go s.read(stdout)
	fail := func(err error) (*Sidecar, error) {
		s.Stop()
		return nil, fmt.Errorf("sidecar of plugin %s: %w", spec.Plugin, err)
	}
	var h helloMsg
	select {
	case h = <-s.hello:
	case <-s.done:
		return fail(errors.New("it exited before saying hello"))
	case <-time.After(HelloTimeout):
		return fail(fmt.Errorf("no hello within %s", HelloTimeout))
	}
	if h.ProtocolVersion < HostProtocol {
		return fail(fmt.Errorf("its protocol version %d is too old (synaps speaks %d)", h.ProtocolVersion, HostProtocol))
	}
	s.mu.Lock()
	s.caps = h.Capabilities
	s.mu.Unlock()
	if err := s.send(map[string]any{"type": "init", "config": map[string]any{"protocol_version": HostProtocol}}); err != nil {
		return fail(err)
	}
	if slices.Contains(h.Capabilities, "ready_after_init") {
		select {
		case <-s.ready:
		case <-s.done:
			return fail(errors.New("it exited before it was ready"))
		case <-time.After(ReadyTimeout):
			return fail(fmt.Errorf("not ready within %s", ReadyTimeout))
		}
	}
	s.mu.Lock()
	if s.state == "starting" {
		s.state = "idle"
	}
	s.mu.Unlock()
	return s, nil
}

// read handles the sidecar's lines until it closes stdout.
func (s *Sidecar) read(r io.Reader) {
	defer close(s.done)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	helloSeen := false
	for sc.Scan() {
		var m struct {
			Type         string   `json:"type"`
			State        string   `json:"state"`
			Label        string   `json:"label"`
			Text         string   `json:"text"`
			Mode         string   `json:"mode"`
			Message      string   `json:"message"`
			Protocol     int      `json:"protocol_version"`
			Extension    string   `json:"extension"`
			Capabilities []string `json:"capabilities"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		ev := Event{Plugin: s.spec.Plugin, Display: s.spec.Display}
		switch m.Type {
		case "hello":
			if !helloSeen {
				helloSeen = true
				s.hello <- helloMsg{m.Protocol, m.Extension, m.Capabilities}
			}
			continue
		case "status":
			s.mu.Lock()
			switch m.State {
			case "idle", "ready", "stopped":
				s.state = "idle"
			case "loading", "initializing":
				if !s.armed {
					s.state = "loading"
				}
			default:
				s.state = "active"
			}
			s.label = m.Label
			s.seq++
			if m.State == "ready" {
				select {
				case <-s.ready:
				default:
					close(s.ready)
				}
			}
			s.mu.Unlock()
			ev.Kind, ev.State, ev.Label = "status", m.State, m.Label
			if s.on != nil {
				s.on(ev)
			}
			select {
			case s.status <- struct{}{}:
			default:
			}
			continue
		case "insert_text":
			if m.Mode != "final" && m.Mode != "replace" {
				continue // append: partial text, not inserted
			}
			ev.Kind, ev.Text, ev.Mode = "insert_text", strings.TrimSpace(m.Text), m.Mode
			if ev.Text == "" {
				continue
			}
		case "error":
			s.mu.Lock()
			s.state = "error"
			s.mu.Unlock()
			ev.Kind, ev.Message = "error", m.Message
		default:
			continue // a custom message
		}
		if s.on != nil {
			s.on(ev)
		}
	}
	s.mu.Lock()
	stopping := s.stopping
	s.state = "stopped"
	s.mu.Unlock()
	if !stopping && s.on != nil && helloSeen {
		s.on(Event{Plugin: s.spec.Plugin, Display: s.spec.Display, Kind: "exited", Message: "the sidecar exited"})
	}
}

func (s *Sidecar) send(v any) error {
	b, _ := json.Marshal(v)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stdin == nil {
		return errors.New("the sidecar is stopped")
	}
	_, err := s.stdin.Write(append(b, '\n'))
	return err
}

// ToggleWait bounds how long Toggle waits for the sidecar to answer a
// trigger with a status.
const ToggleWait = 2 * time.Second

// Toggle arms the sidecar (trigger "press") or disarms it ("release"),
// says which, and waits (at most ToggleWait) for the status the sidecar
// answers with, so the caller can show the new state.
func (s *Sidecar) Toggle() (string, error) {
	s.mu.Lock()
	seq := s.seq
	s.armed = !s.armed
	name := "release"
	if s.armed {
		name = "press"
	}
	s.mu.Unlock()
	if err := s.send(map[string]any{"type": "trigger", "name": name}); err != nil {
		return "", err
	}
	timer := time.NewTimer(ToggleWait)
	defer timer.Stop()
	for {
		s.mu.Lock()
		answered := s.seq > seq
		s.mu.Unlock()
		if answered {
			return name, nil
		}
		select {
		case <-s.status:
		case <-s.done:
			return name, nil
		case <-timer.C:
			return name, nil
		}
	}
}

// Status is the sidecar's state and label, e.g. "active (listening)".
func (s *Sidecar) Status() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.state
	if s.armed && st == "idle" {
		st = "armed"
	}
	if s.label != "" {
		st += " (" + s.label + ")"
	}
	return st
}

// Stop sends shutdown, closes stdin, waits up to 2 s and kills.
func (s *Sidecar) Stop() {
	_ = s.send(map[string]any{"type": "shutdown"})
	s.mu.Lock()
	s.state, s.stopping = "stopped", true
	if s.stdin != nil {
		s.stdin.Close()
		s.stdin = nil
	}
	s.mu.Unlock()
	exited := make(chan struct{})
	go func() { s.cmd.Wait(); s.release(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(StopWait):
		s.cmd.Process.Kill()
		<-exited
	}
	// What it said before it went is still shown.
	select {
	case <-s.done:
	case <-time.After(StopWait):
	}
}
