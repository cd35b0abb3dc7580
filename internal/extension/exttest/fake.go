// Package exttest is a fake extension for tests: the test binary re-runs
// itself as the extension (call Main first thing in TestMain), and a
// fake.json in the plugin root says how it behaves — answers, crashes,
// hangs, protocol noise. Tests across synaps use it so that most need
// neither Python nor Node.
package exttest

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"github.com/synaps-cli/synaps/internal/demo"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/jsonrpc"
)

// Arg is argv[1] of a fake extension process.
const Arg = "fake-extension"

// Main runs the fake extension and exits if this process is one; call it
// first thing in TestMain.
func Main() {
	if len(os.Args) > 1 && os.Args[1] == Arg {
		os.Exit(Run())
	}
	if len(os.Args) > 2 && os.Args[1] == BundledArg {
		if err := demo.Run(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// BundledArg, followed by a name, makes the test binary serve that bundled
// extension (internal/demo, written with the Go SDK) as `synaps
// __extension NAME` does: a Go extension as its authors write them.
const BundledArg = "bundled-extension"

// BundledPlugin writes a plugin dir whose extension is the bundled one
// named, run by the test binary.
func BundledPlugin(t testing.TB, base, id, name string) string {
	t.Helper()
	dir, self := selfPlugin(t, base, id)
	ext := map[string]any{"command": self, "args": []string{BundledArg, name}, "protocol_version": 1, "permissions": demo.Extensions[name].Permissions}
	WriteJSON(t, filepath.Join(dir, ".synaps-plugin", "plugin.json"), map[string]any{"name": id, "version": "0.0.1", "extension": ext})
	return dir
}

// selfPlugin makes the plugin dir base/plugins/id (its .synaps-plugin
// too) for an extension the test binary runs, and names that binary.
func selfPlugin(t testing.TB, base, id string) (dir, self string) {
	t.Helper()
	dir = filepath.Join(base, "plugins", id)
	if err := os.MkdirAll(filepath.Join(dir, ".synaps-plugin"), 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return dir, self
}

// Spec is fake.json, the behaviour of one fake extension.
type Spec struct {
	// Init is the initialize result; default {"protocol_version":1,"capabilities":{}}.
	Init json.RawMessage `json:"init,omitempty"`
	// InitMode: "" answers; "crash" exits; "hang" never answers; "crash-once"
	// exits the first time only; "slow" takes a second, noting when it
	// began and ended in init-start and init-end; "gate" answers once a
	// file named "go" exists in the plugin root, or at Gate when set (a
	// test opens the gate).
	InitMode string `json:"init_mode,omitempty"`
	// Gate is the file "gate" waits for instead of "go" in the plugin
	// root: a file outside the plugin leaves its fingerprint (and so its
	// initialize cache key) alone when the test opens or closes it.
	Gate string `json:"gate,omitempty"`
	// InitFile, when set, is read for the initialize result instead of
	// Init (a path from the plugin root): an extension whose answer
	// depends on a file outside the plugin, which its cache key does not
	// cover.
	InitFile string `json:"init_file,omitempty"`
	// Results answer tool.call ("tool:<name>") and hook.handle
	// ("hook:<kind>"); default {} for hooks, {"output":"ok"} for tools.
	Results map[string]json.RawMessage `json:"results,omitempty"`
	// Rules answer hook.handle by what the tool input holds: the first
	// rule of the hook whose InputContains occurs in the raw JSON text of
	// params.tool_input gives the result; when none matches, Results
	// answers. Guards and rewriters that decide by input are written so.
	Rules []Rule `json:"rules,omitempty"`
	// Modes misbehave for a key: crash, crash-once, hang, garbage (noise on
	// stdout, then the answer), badjson (a non-JSON body, then the answer),
	// huge (Content-Length 2^40), badlen (negative, then missing
	// Content-Length, then the answer), unknownid (a response to id 999999,
	// then the answer), echo (tool output = input), env (tool output = environment), slow
	// (answer after a second, noting when it began and ended in slow-start
	// and slow-end), and, for fault injection:
	//
	//   - drip: write the answer frame one byte at a time, with a short
	//     sleep between bytes;
	//   - stderr-flood: write 1 MiB to stderr (1024 lines of 1 KiB), then
	//     answer;
	//   - crash-at:N: exit (status 4, without answering) on the Nth call of
	//     this key, counted across restarts in a counter file in the
	//     plugin root; every other call answers;
	//   - late:MS: answer after MS milliseconds;
	//   - rpc-error:TEXT: answer a JSON-RPC error (-32000, "fake: TEXT");
	//   - crash-random:P: exit (status 4, without answering) with
	//     probability P (0..1) on each call of this key; the generator is
	//     seeded per process, so each restart draws afresh.
	//   - flood-requests:N: send N requests to synaps (method "flood",
	//     ids 1..N) without ever reading stdin again, then hang.
	//   - rendezvous:N: answer only once N calls of this key are in
	//     flight at the same time (each waits for the others, reading on
	//     meanwhile); a call still alone after 10 s answers "alone" (a
	//     tool's output) or blocks with reason "alone: …" (a hook), so a
	//     test proves calls overlapped by what they answer, not by time.
	//   - redact:WORD: a redactor for hook:after_tool_call: when the
	//     event's tool_output holds WORD, answer replace with every WORD
	//     turned into [REDACTED]; otherwise continue.
	Modes map[string]string `json:"modes,omitempty"`
	// Record appends every hook.handle and tool.call params to record.jsonl.
	Record bool `json:"record,omitempty"`
	// Shutdown: "" replies and exits; "ignore" neither replies nor exits
	// and ignores SIGTERM; "noreply-exit" exits without replying.
	Shutdown string `json:"shutdown,omitempty"`
	// Stderr is written to stderr on every request.
	Stderr string `json:"stderr,omitempty"`
	// Grandchild starts a sleeping grandchild that inherits the pipes.
	Grandchild bool `json:"grandchild,omitempty"`
	// CommandOutputs is how many command.output text events ("line 1",
	// …) a command.invoke streams before a task.start/task.done pair, a
	// done event and the answer.
	CommandOutputs int `json:"command_outputs,omitempty"`
	// Probe are actions tried at start, each said on stderr (probe.go):
	// what the sandbox lets the extension do.
	Probe []string `json:"probe,omitempty"`
}

// Rule is one input-dependent hook answer (see Spec.Rules).
type Rule struct {
	Hook          string `json:"hook"`
	InputContains string `json:"input_contains"`
	// MessageContains, when set, must also occur in params.message (a
	// before_message hook that judges by the user's words).
	MessageContains string          `json:"message_contains,omitempty"`
	Result          json.RawMessage `json:"result"`
	// Crash: exit (status 4, without answering) instead, as a guard whose
	// parser chokes on the input would.
	Crash bool `json:"crash,omitempty"`
}

func Run() int {
	data, err := os.ReadFile("fake.json")
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake: no fake.json:", err)
		return 2
	}
	var spec Spec
	if err := json.Unmarshal(data, &spec); err != nil {
		fmt.Fprintln(os.Stderr, "fake: bad fake.json:", err)
		return 2
	}
	if spec.Shutdown == "ignore" {
		signalIgnoreTerm()
	}
	for _, a := range spec.Probe {
		probe(a)
	}
	if spec.Grandchild {
		cmd := exec.Command("sleep", "60")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		_ = cmd.Start()
	}
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), uint64(time.Now().UnixNano())))
	out := bufio.NewWriter(os.Stdout)
	// sendMu: a rendezvous answers from its own goroutine.
	var sendMu sync.Mutex
	send := func(v any) {
		b, _ := json.Marshal(v)
		sendMu.Lock()
		defer sendMu.Unlock()
		_ = jsonrpc.WriteFrame(out, b)
		out.Flush()
	}
	rv := &rendezvous{groups: map[string]*group{}}
	raw := func(s string) { out.WriteString(s); out.Flush() }
	in := jsonrpc.NewFrameReader(os.Stdin, 1<<20, nil)
	for {
		body, err := in.ReadFrame()
		if err != nil {
			return 0
		}
		var req jsonrpc.Message
		if json.Unmarshal(body, &req) != nil {
			continue
		}
		if spec.Stderr != "" {
			fmt.Fprintln(os.Stderr, spec.Stderr)
		}
		key := req.Method
		var result json.RawMessage
		switch req.Method {
		case "initialize":
			switch spec.InitMode {
			case "crash":
				fmt.Fprintln(os.Stderr, "fake: crashing in initialize")
				return 3
			case "crash-once":
				if bump("init") == 1 {
					return 3
				}
			case "hang":
				select {}
			case "slow":
				stamp("init-start")
				time.Sleep(time.Second)
				stamp("init-end")
			case "gate":
				gate := cmp.Or(spec.Gate, "go")
				for {
					if _, err := os.Stat(gate); err == nil {
						break
					}
					time.Sleep(5 * time.Millisecond)
				}
			}
			if spec.Record {
				_ = os.WriteFile("init.json", req.Params, 0o644)
			}
			result = spec.Init
			if spec.InitFile != "" {
				data, err := os.ReadFile(spec.InitFile)
				if err != nil {
					fmt.Fprintln(os.Stderr, "fake:", err)
					return 3
				}
				result = json.RawMessage(data)
			}
			if result == nil {
				result = json.RawMessage(`{"protocol_version":1,"capabilities":{}}`)
			}
		case "shutdown":
			switch spec.Shutdown {
			case "ignore":
				for {
					if _, err := in.ReadFrame(); err != nil {
						select {}
					}
				}
			case "noreply-exit":
				return 0
			}
			send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{}})
			return 0
		case "hook.handle":
			var p struct {
				Kind      string
				ToolInput json.RawMessage `json:"tool_input"`
				Message   string          `json:"message"`
			}
			_ = json.Unmarshal(req.Params, &p)
			key = "hook:" + p.Kind
			result = spec.Results[key]
			for _, r := range spec.Rules {
				if r.Hook == p.Kind && strings.Contains(string(p.ToolInput), r.InputContains) && strings.Contains(p.Message, r.MessageContains) {
					if r.Crash {
						fmt.Fprintf(os.Stderr, "fake: crashing on input holding %q\n", r.InputContains)
						return 4
					}
					result = r.Result
					break
				}
			}
			if result == nil {
				result = json.RawMessage(`{}`)
			}
			if word, ok := strings.CutPrefix(spec.Modes[key], "redact:"); ok {
				result = redact(req.Params, word, result)
			}
		case "command.invoke":
			var p struct {
				RequestID string `json:"request_id"`
			}
			_ = json.Unmarshal(req.Params, &p)
			for i := 1; i <= spec.CommandOutputs; i++ {
				send(map[string]any{"jsonrpc": "2.0", "method": "command.output", "params": map[string]any{
					"request_id": p.RequestID, "event": map[string]any{"kind": "text", "content": fmt.Sprintf("line %d", i)}}})
			}
			send(map[string]any{"jsonrpc": "2.0", "method": "task.start", "params": map[string]any{"id": "t", "label": "work"}})
			send(map[string]any{"jsonrpc": "2.0", "method": "task.done", "params": map[string]any{"id": "t"}})
			send(map[string]any{"jsonrpc": "2.0", "method": "command.output", "params": map[string]any{"request_id": "someone-else", "kind": "text", "content": "not mine"}})
			send(map[string]any{"jsonrpc": "2.0", "method": "command.output", "params": map[string]any{"request_id": p.RequestID, "kind": "done"}})
			result = json.RawMessage(`{"ok":true}`)
		case "tool.call":
			var p struct {
				Name  string
				Input json.RawMessage
			}
			_ = json.Unmarshal(req.Params, &p)
			key = "tool:" + p.Name
			result = spec.Results[key]
			if result == nil {
				result = json.RawMessage(`{"output":"ok"}`)
			}
			switch spec.Modes[key] {
			case "echo":
				result, _ = json.Marshal(map[string]string{"output": string(p.Input)})
			case "env":
				result, _ = json.Marshal(map[string]string{"output": strings.Join(os.Environ(), "\n")})
			}
		default:
			if r, ok := spec.Results[req.Method]; ok {
				result = r
				break
			}
			// Modes keyed by an unknown method: silent ignores it (the
			// guide allows that), error answers -32601, crash exits,
			// deaf stops answering anything from then on.
			switch spec.Modes[req.Method] {
			case "silent":
				continue
			case "error":
				send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "method not found"}})
				continue
			case "crash":
				fmt.Fprintf(os.Stderr, "fake: crashing on unknown method %s\n", req.Method)
				return 4
			case "deaf":
				for {
					if _, err := in.ReadFrame(); err != nil {
						return 0
					}
				}
			}
			if len(req.ID) > 0 {
				send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{}})
			}
			continue
		}
		if spec.Record && (req.Method == "hook.handle" || req.Method == "tool.call" || req.Method == "provider.complete") {
			f, _ := os.OpenFile("record.jsonl", os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
			f.Write(append(append([]byte(nil), req.Params...), '\n'))
			f.Close()
		}
		mode, arg, _ := strings.Cut(spec.Modes[key], ":")
		switch mode {
		case "rendezvous":
			n, _ := strconv.Atoi(arg)
			go func(id json.RawMessage, key string, result json.RawMessage) {
				if !rv.arrive(key, n) {
					if strings.HasPrefix(key, "hook:") {
						result = json.RawMessage(`{"action":"block","reason":"alone: no other call came while this one waited"}`)
					} else {
						result = json.RawMessage(`{"output":"alone"}`)
					}
				}
				send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
			}(req.ID, key, result)
			continue
		case "crash-at":
			if n, _ := strconv.Atoi(arg); bump(key) == n {
				fmt.Fprintf(os.Stderr, "fake: crash-at %d on %s\n", n, key)
				return 4
			}
		case "crash-random":
			if p, _ := strconv.ParseFloat(arg, 64); rng.Float64() < p {
				fmt.Fprintf(os.Stderr, "fake: crash-random on %s\n", key)
				return 4
			}
		case "late":
			ms, _ := strconv.Atoi(arg)
			time.Sleep(time.Duration(ms) * time.Millisecond)
		case "rpc-error":
			send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32000, "message": "fake: " + arg}})
			continue
		case "stderr-flood":
			floodStderr()
		case "flood-requests":
			n, _ := strconv.Atoi(arg)
			for i := 1; i <= n; i++ {
				send(map[string]any{"jsonrpc": "2.0", "id": i, "method": "flood"})
			}
			select {}
		case "drip":
			b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
			var frame strings.Builder
			_ = jsonrpc.WriteFrame(&frame, b)
			for i := 0; i < frame.Len(); i++ {
				out.WriteByte(frame.String()[i])
				out.Flush()
				time.Sleep(50 * time.Microsecond)
			}
			continue
		}
		switch spec.Modes[key] {
		case "crash":
			return 4
		case "crash-once":
			if bump(key) == 1 {
				return 4
			}
		case "hang":
			continue
		case "slow":
			stamp("slow-start")
			time.Sleep(time.Second)
			stamp("slow-end")
		case "garbage":
			raw("debug print without a frame\nmore noise")
		case "badjson":
			raw("Content-Length: 9\r\n\r\n{not json")
		case "huge":
			raw("Content-Length: 1099511627776\r\n\r\n")
			select {}
		case "badlen":
			raw("Content-Length: -5\r\n\r\n")
			raw("Content-Type: application/json\r\n\r\n")
		case "unknownid":
			send(map[string]any{"jsonrpc": "2.0", "id": 999999, "result": map[string]any{}})
		}
		send(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
}

// redact answers a redactor's after_tool_call: replace when the output
// holds word, else the default result.
func redact(params json.RawMessage, word string, def json.RawMessage) json.RawMessage {
	var ev struct {
		ToolOutput *string `json:"tool_output"`
	}
	if json.Unmarshal(params, &ev) != nil || ev.ToolOutput == nil || !strings.Contains(*ev.ToolOutput, word) {
		return def
	}
	b, _ := json.Marshal(map[string]string{"action": "replace", "output": strings.ReplaceAll(*ev.ToolOutput, word, "[REDACTED]")})
	return b
}

// floodStderr writes 1 MiB to stderr: 1024 lines of 1023 bytes and a
// newline.
func floodStderr() {
	line := strings.Repeat("x", 1023) + "\n"
	w := bufio.NewWriterSize(os.Stderr, 64<<10)
	for i := 0; i < 1024; i++ {
		w.WriteString(line)
	}
	w.Flush()
}

// stamp writes the time to a file in the plugin root.
func stamp(name string) {
	_ = os.WriteFile(name, []byte(strconv.FormatInt(time.Now().UnixNano(), 10)), 0o644)
}

// ReadStamp reads a stamp file of a plugin.
func ReadStamp(t testing.TB, dir, name string) int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := strconv.ParseInt(string(b), 10, 64)
	return n
}

// bump increments a counter file in the plugin root and returns the new
// value, so behaviour can depend on how often a process has been started.
func bump(key string) int {
	name := "count-" + strings.NewReplacer(":", "_", "/", "_").Replace(key)
	b, _ := os.ReadFile(name)
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	n++
	_ = os.WriteFile(name, []byte(strconv.Itoa(n)), 0o644)
	return n
}

func signalIgnoreTerm() {
	signal.Ignore(syscall.SIGTERM)
}

// Plugin writes a plugin dir whose extension is the fake. manifest is
// the "extension" object minus the launch form, which is filled in.
func Plugin(t testing.TB, base, id string, ext map[string]any, spec Spec) string {
	t.Helper()
	dir, self := selfPlugin(t, base, id)
	e := map[string]any{"command": self, "args": []string{Arg}, "protocol_version": 1}
	for k, v := range ext {
		e[k] = v
	}
	WriteJSON(t, filepath.Join(dir, ".synaps-plugin", "plugin.json"), map[string]any{"name": id, "version": "0.0.1", "extension": e})
	WriteJSON(t, filepath.Join(dir, "fake.json"), spec)
	return dir
}

func WriteJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func ChildrenOf(ppid string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 && f[1] == ppid && f[0] != "Z" {
			out = append(out, e.Name()+" "+s[:i+1])
		}
	}
	return out
}

// ProcessesWithCwdUnder lists live processes whose working directory is
// under dir: how grandchildren that were reparented are found.
func ProcessesWithCwdUnder(dir string) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd"))
		if err != nil || !strings.HasPrefix(cwd, dir) {
			continue
		}
		if b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if i := strings.LastIndexByte(string(b), ')'); i > 0 && strings.HasPrefix(strings.TrimSpace(string(b[i+1:])), "Z") {
				continue
			}
		}
		out = append(out, e.Name())
	}
	return out
}

// AssertNoChildren fails if a child process of this test process is
// still alive once killed processes have had a moment to die.
func AssertNoChildren(t testing.TB) {
	t.Helper()
	self := strconv.Itoa(os.Getpid())
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := ChildrenOf(self)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("child processes left behind: %v", left)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// AssertNoProcessesIn fails if a process still runs in dir once killed
// processes have had a moment to die.
func AssertNoProcessesIn(t testing.TB, dir string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := ProcessesWithCwdUnder(dir)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("processes left running in %s: %v", dir, left)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ReadRecord reads what a recording fake saw.
func ReadRecord(t testing.TB, dir string) []map[string]any {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "record.jsonl"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []map[string]any
	dec := json.NewDecoder(f)
	for {
		var m map[string]any
		if err := dec.Decode(&m); err == io.EOF {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
}

// rendezvous lets calls of one key wait for each other (mode rendezvous:N).
type rendezvous struct {
	mu     sync.Mutex
	groups map[string]*group
}

type group struct {
	count int
	met   chan struct{}
}

// arrive waits until n calls of key have arrived, and reports whether
// they did within 10 s.
func (r *rendezvous) arrive(key string, n int) bool {
	r.mu.Lock()
	g := r.groups[key]
	if g == nil {
		g = &group{met: make(chan struct{})}
		r.groups[key] = g
	}
	g.count++
	if g.count == n {
		close(g.met)
		delete(r.groups, key) // the next n calls meet afresh
	}
	r.mu.Unlock()
	select {
	case <-g.met:
		return true
	case <-time.After(10 * time.Second):
		r.mu.Lock()
		defer r.mu.Unlock()
		select {
		case <-g.met:
			return true
		default:
			g.count-- // gone: a later call does not meet this one
			return false
		}
	}
}
