package acp_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEndOfInputAnswersRequestsInFlight: a script pipes a prompt into
// `synaps acp` (the real command, as a process) and closes its stdin
// right after. The requests already read are answered before synaps
// exits 0: the turn runs to its end, its updates and the prompt's answer
// are written. A permission request synaps sends after the end of input
// cannot be answered: it fails, so the call does not run, and the turn
// still ends.
func TestEndOfInputAnswersRequestsInFlight(t *testing.T) {
	for _, tc := range []struct {
		name  string
		flags []string
		// what the editor saw
		text, asked string
		calls       []string
		stderr      string
	}{
		{
			name:  "turn runs to its end",
			flags: []string{"--permission-mode", "bypassPermissions"},
			text:  "Checking.Done.",
			calls: []string{"tool_call echo hi > hi.txt", "tool_call_update completed"},
		},
		{
			name:   "permission asked after the end of input",
			text:   "Checking.Done.",
			asked:  "session/request_permission",
			calls:  []string{"tool_call echo hi > hi.txt", "tool_call_update failed"},
			stderr: `permission request failed, so the call does not run: {"code":-32603,"message":"the editor closed synaps's input (stdin), so session/request_permission cannot be answered"}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// delay_ms slows the turn so that the end of input comes while
			// it runs; the answers are the same however fast it is.
			p := startACP(t, `{"text":"Checking.","tool_calls":[{"name":"bash","input":{"command":"echo hi > hi.txt"}}],"delay_ms":20}`+"\n"+
				`{"text":"Done.","delay_ms":20}`+"\n", tc.flags...)
			cmd, stdout, out, stderr := p.cmd, p.stdout, p.out, p.stderr
			p.send(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"look"}]}}`, p.session)
			p.stdin.Close()

			var text, asked string
			var calls []string
			var answer json.RawMessage
			for out.Scan() {
				var m struct {
					ID     *int
					Method string
					Params struct {
						Update struct {
							SessionUpdate string
							Content       json.RawMessage // a block, or a tool call's blocks
							Title, Status string
						}
					}
					Result json.RawMessage
					Error  json.RawMessage
				}
				if err := json.Unmarshal(out.Bytes(), &m); err != nil {
					t.Fatalf("stdout line %q: %v", out.Bytes(), err)
				}
				u := m.Params.Update
				switch {
				case m.ID != nil && *m.ID == 3:
					answer = append(m.Result, m.Error...)
				case m.ID != nil:
					asked = m.Method
				case u.SessionUpdate == "agent_message_chunk":
					var block struct{ Text string }
					json.Unmarshal(u.Content, &block)
					text += block.Text
				case u.SessionUpdate == "tool_call":
					calls = append(calls, "tool_call "+u.Title)
				case u.SessionUpdate == "tool_call_update" && u.Status != "":
					calls = append(calls, "tool_call_update "+u.Status)
				}
			}
			io.Copy(io.Discard, stdout)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("synaps acp: %v\n%s", err, stderr.String())
			}
			if diff := cmp.Diff(`{"stopReason":"end_turn"}`, string(answer)); diff != "" {
				t.Errorf("the prompt's answer (-want +got):\n%s\nstderr:\n%s", diff, stderr.String())
			}
			if diff := cmp.Diff(tc.text, strings.TrimSpace(text)); diff != "" {
				t.Errorf("agent text (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.calls, calls); diff != "" {
				t.Errorf("tool calls (-want +got):\n%s", diff)
			}
			if asked != tc.asked {
				t.Errorf("synaps asked %q, want %q", asked, tc.asked)
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr does not say why the call did not run:\n%s", stderr.String())
			}
		})
	}
}

// TestEditorGoneMidTurn: the editor quits while a prompt's turn runs,
// closing synaps's stdin and stdout. synaps must not die of SIGPIPE on
// its next write: the write fails, the turn ends, and synaps exits 0.
func TestEditorGoneMidTurn(t *testing.T) {
	// A slow answer: the editor is gone before it is streamed.
	p := startACP(t, `{"text":"one two three four five six seven eight nine ten","delay_ms":50}`+"\n")
	cmd, stdin, stdout, out, stderr := p.cmd, p.stdin, p.stdout, p.out, p.stderr
	p.send(`{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"talk"}]}}`, p.session)
	// The first streamed word shows the turn runs; then the editor goes.
	for out.Scan() {
		if strings.Contains(out.Text(), "agent_message_chunk") {
			break
		}
	}
	stdin.Close()
	stdout.Close()
	err := cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			t.Fatalf("synaps acp died of %v when the editor left mid-turn\nstderr:\n%s", ws.Signal(), stderr.String())
		}
	}
	if err != nil {
		t.Errorf("synaps acp: %v\nstderr:\n%s", err, stderr.String())
	}
}

// acpProc is `synaps acp` run by the test binary over pipes, initialised
// and with one session open.
type acpProc struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stdout  io.ReadCloser
	out     *bufio.Scanner
	stderr  *strings.Builder
	session string
	t       *testing.T
}

// startACP starts synaps acp on a script model of turns (with flags),
// initialises it and opens a session in a fresh work directory.
func startACP(t *testing.T, turns string, flags ...string) *acpProc {
	t.Helper()
	base := t.TempDir()
	work := filepath.Join(base, "work")
	os.MkdirAll(work, 0o755)
	model := filepath.Join(base, "turns.jsonl")
	os.WriteFile(model, []byte(turns), 0o644)
	self, _ := os.Executable()
	cmd := exec.Command(self, append([]string{"synaps-main", "acp", "--model", "script:" + model}, flags...)...)
	cmd.Env = append(os.Environ(), "SYNAPS_BASE_DIR="+base, "HOME="+base, "ANTHROPIC_API_KEY=", "OPENAI_API_KEY=")
	p := &acpProc{cmd: cmd, stderr: &strings.Builder{}, t: t}
	cmd.Stderr = p.stderr
	p.stdin, _ = cmd.StdinPipe()
	p.stdout, _ = cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	p.out = bufio.NewScanner(p.stdout)
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`)
	p.send(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`, work)
	// The session id comes in session/new's answer.
	for p.session == "" && p.out.Scan() {
		var m struct {
			ID     int
			Result struct{ SessionID string }
			Error  any
		}
		json.Unmarshal(p.out.Bytes(), &m)
		if m.ID == 2 {
			if m.Error != nil {
				t.Fatalf("session/new: %s", p.out.Bytes())
			}
			p.session = m.Result.SessionID
		}
	}
	return p
}

// send writes one line to synaps's stdin.
func (p *acpProc) send(format string, args ...any) {
	p.t.Helper()
	if _, err := fmt.Fprintf(p.stdin, format+"\n", args...); err != nil {
		p.t.Fatal(err)
	}
}
