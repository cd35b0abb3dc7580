package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/synaps-cli/synaps/internal/contract"
	"github.com/synaps-cli/synaps/internal/extension"
	"github.com/synaps-cli/synaps/internal/hook"
	"github.com/synaps-cli/synaps/internal/jsonrpc"
)

// unknownAndShutdown is steps 6 and 7.
//
// 6. Unknown methods: the guide lets an extension answer them or ignore
// them; what it must not do is die or stop reading. The probe is written
// straight to stdin (nothing else is in flight) so that it is on the wire
// before the next real request, which is the one whose answer decides.
// With no tool and no hook, shutdown is that request.
//
// 7. Shutdown: answered, then the process exits.
func (x *run) unknownAndShutdown() {
	probeErr := sendUnknownProbe(x.proc, x.o.Timeout)
	var next func() error
	nextName := "shutdown"
	switch {
	case len(x.tools) > 0:
		t := x.tools[0]
		input := x.toolInput(t)
		nextName = "tool.call " + t.Name
		next = func() error {
			_, err := x.call(contract.MethodToolCall, toolCallParams{Name: t.Name, Input: input})
			return err
		}
	case len(x.subs) > 0:
		nextName = "hook.handle " + x.subs[0].Hook
		next = func() error {
			_, err := x.call(contract.MethodHookHandle, SampleEvent(x.subs[0]).Encode(contract.MaxToolOutputHook))
			return err
		}
	}
	if next != nil {
		x.unknownCheck(next(), probeErr, nextName)
	}
	if !x.proc.Alive() {
		if next == nil {
			x.unknownCheck(jsonrpc.ErrClosed, probeErr, nextName)
		}
		x.add(checkShutdown, CheckSkip, "the process is not running")
		return
	}
	_, err := x.call(contract.MethodShutdown, nil)
	if next == nil {
		x.unknownCheck(err, probeErr, nextName)
	}
	switch {
	case err != nil:
		x.add(checkShutdown, CheckFail, "no reply to shutdown within "+x.shutdownTimeout.String()+" (synaps waits as long, then closes stdin and signals the process)"+`; reply {"jsonrpc":"2.0","id":<id>,"result":{}} and then exit`)
	case !x.proc.WaitExit(2 * time.Second):
		x.add(checkShutdown, CheckFail, "replied to shutdown but was still running 2 s later; leave the read loop and exit after replying")
	default:
		x.add(checkShutdown, CheckPass, x.proc.ExitDescription())
	}
	x.proc.Close()
	x.stopped = true

	x.mu.Lock()
	if len(x.noise) > 0 {
		x.add("stdout carries only frames", CheckWarn, strings.Join(x.noise, "\n")+"\nwrite logs to stderr, never stdout")
	}
	x.mu.Unlock()
}

// unknownCheck judges the unknown-method probe by what the next request
// (nextName) met: err is its failure, probeErr the probe's own.
func (x *run) unknownCheck(err, probeErr error, nextName string) {
	x.mu.Lock()
	answer := x.unknownAnswer
	x.mu.Unlock()
	var rpcErr *jsonrpc.Error
	if probeErr != nil {
		err = probeErr
	}
	switch {
	case err != nil && !errors.As(err, &rpcErr):
		x.add(checkUnknown, CheckFail, "after an unknown method, "+nextName+" failed: "+x.callFailure(err)+
			`; answer unknown requests with an error (-32601) or "result": {}, or ignore them, and keep reading`)
	case answer == "":
		x.add(checkUnknown, CheckPass, "no answer to the unknown method (allowed); "+nextName+" was answered after it")
	default:
		x.add(checkUnknown, CheckPass, "answered the unknown method with "+truncate(answer, 100))
	}
}

// unknownProbeID is the id of the unknown-method probe: far above any id
// the connection will use, so its answer arrives as an unknown id and is
// recognised by unknownProbeNoise rather than taken for stdout noise.
const unknownProbeID = 1<<53 - 1

var unknownProbeNoise = fmt.Sprintf("dropping response with unknown id %d", unknownProbeID)

// sendUnknownProbe writes a request for a method no extension knows. A
// process that stopped reading with its stdin pipe full cannot block it
// for longer than timeout.
func sendUnknownProbe(p *extension.Child, timeout time.Duration) error {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"synaps.test/unknown_method","params":{}}`, unknownProbeID)
	frame := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body)
	return p.WriteFrame(frame, timeout)
}

// protocolCheck reads the raw manifest: the guide asks authors to set the
// version explicitly even though 1 is the default. 2 (SynapsCLI's, for
// on_usage) passes too.
func protocolCheck(file string) (string, string) {
	data, err := os.ReadFile(file)
	if err != nil {
		return CheckSkip, err.Error()
	}
	var top struct {
		Extension map[string]json.RawMessage `json:"extension"`
	}
	_ = json.Unmarshal(data, &top)
	for _, k := range []string{"extension_protocol_version", "protocol_version"} {
		if v := string(top.Extension[k]); v == "1" || v == "2" {
			return CheckPass, k + ": " + v
		}
	}
	return CheckWarn, `not set; add "extension_protocol_version": 1 to the extension object`
}

// describeHandshakeFailure says why initialize got no answer.
func describeHandshakeFailure(p *extension.Child, err error, timeout time.Duration) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		reason := extension.InitTimeoutReason(p.Argv(), timeout)
		if extension.CompilesOnStart(p.Argv()) == "" {
			reason += " (in Python: sys.stdout.buffer.flush() after each write)"
		}
		return reason
	case !p.Alive() || errors.Is(err, jsonrpc.ErrClosed):
		p.WaitExit(200 * time.Millisecond)
		return "the process ended during initialize (" + p.ExitDescription() + "); its stderr is below"
	}
	return err.Error()
}

// callFailure says why a call got no answer, in the author's terms.
func (x *run) callFailure(err error) string {
	p, timeout := x.proc, x.o.Timeout
	x.mu.Lock()
	bad := ""
	for _, n := range x.noise {
		if strings.HasPrefix(n, "bad-json") {
			bad = n
		}
	}
	x.mu.Unlock()
	switch {
	case (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)) && bad != "":
		return "the answer was not JSON (" + truncate(bad, 160) + "); send the result as a JSON-RPC response object"
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("no answer within %s", timeout)
	case !p.Alive() || errors.Is(err, jsonrpc.ErrClosed):
		p.WaitExit(200 * time.Millisecond)
		return "the process crashed (" + p.ExitDescription() + ")"
	}
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		return "answered with a JSON-RPC error: " + rpcErr.Message
	}
	return err.Error()
}

func subscribed(subs []hook.Subscription, hook string) bool {
	for _, s := range subs {
		if s.Hook == hook {
			return true
		}
	}
	return false
}

func declared(tools []extension.ToolDecl, subs []hook.Subscription) string {
	var parts []string
	for _, t := range tools {
		parts = append(parts, "tool "+t.Name)
	}
	for _, s := range subs {
		parts = append(parts, "hook "+s.Hook)
	}
	return strings.Join(parts, ", ")
}

func actionList(spec contract.HookSpec) string {
	var b strings.Builder
	for _, a := range spec.Actions {
		b.WriteString(", " + string(a))
	}
	return b.String()
}

// toolCallParams are the tool.call params of the wire contract.
type toolCallParams struct {
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// containsSub reports whether list holds a subscription equal to s.
func containsSub(list []hook.Subscription, s hook.Subscription) bool {
	b, _ := json.Marshal(s)
	for _, x := range list {
		a, _ := json.Marshal(x)
		if string(a) == string(b) {
			return true
		}
	}
	return false
}

// truncate cuts s to n bytes for a report line.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
