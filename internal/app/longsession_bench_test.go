package app

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/synaps-cli/synaps/internal/permission"
	"github.com/synaps-cli/synaps/internal/procs"
)

// Issue 37 item 3: synaps's own CPU per tool call must stay flat in a
// session's length — calls 1001–1500 may cost at most 1.25× calls
// 101–300.
//
// BenchmarkLongSessionCPU runs a whole session in a child process (this
// test binary again, longSessionEnv set): app.Open against a scripted
// model behind a loopback server in the benchmark's process, speaking the
// Anthropic Messages API, so that encoding, sending and saving count as
// with the real service and only the session's own work is charged to
// the child. Every call is a tool call — mostly `read` of a 2 KB file,
// every tenth a bash `true` — under two Claude hooks whose `if` filter
// is read on every call and never matches (so no hook process runs), as
// a Claude Code user's settings would have. One user message per 50
// calls; after each, the child prints its user and sys CPU so far
// (getrusage), and the benchmark reports the CPU per call over calls
// 101–300 and 1001–1500 and their ratios.
//
//	go test ./internal/app -run '^$' -bench LongSessionCPU -benchtime 1x -count 5
//
// SYNAPS_BENCH_CALLS shortens the session (at least 400 calls, a
// multiple of 50).
func BenchmarkLongSessionCPU(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	calls := 1500
	if s := os.Getenv("SYNAPS_BENCH_CALLS"); s != "" {
		if calls, err = strconv.Atoi(s); err != nil || calls < 400 || calls%50 != 0 {
			b.Fatalf("SYNAPS_BENCH_CALLS=%q: want a number of calls of at least 400, a multiple of 50", s)
		}
	}
	late := max(calls-500, 300) // the last 500 calls, or those after 300
	for b.Loop() {
		work := b.TempDir()
		file := filepath.Join(work, "f.txt")
		var text strings.Builder
		for i := 1; i <= 40; i++ {
			fmt.Fprintf(&text, "line %02d of a small file that the model reads again and again\n", i)
		}
		writeFile(b, file, text.String())
		srv := httptest.NewServer(loopModel(file, calls, 50))
		cfg := longSession{Base: b.TempDir(), Work: work, URL: srv.URL, Calls: calls, Per: 50,
			Profile: os.Getenv("SYNAPS_BENCH_CPUPROFILE")}
		data, _ := json.Marshal(cfg)
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), longSessionEnv+"="+string(data))
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		srv.Close()
		if err != nil {
			b.Fatalf("the session's process: %v\n%s", err, out)
		}
		at := map[int][2]time.Duration{}
		sc := bufio.NewScanner(strings.NewReader(string(out)))
		for sc.Scan() {
			var n int
			var u, s time.Duration
			if _, err := fmt.Sscan(sc.Text(), &n, &u, &s); err == nil {
				at[n] = [2]time.Duration{u, s}
			}
		}
		per := func(from, to int) (user, sys float64) {
			a, z := at[from], at[to]
			if z == [2]time.Duration{} {
				b.Fatalf("no CPU figure after %d calls in:\n%s", to, out)
			}
			n := float64(to - from)
			return float64(z[0]-a[0]) / n / 1e3, float64(z[1]-a[1]) / n / 1e3
		}
		eu, es := per(100, 300)
		lu, ls := per(late, calls)
		b.ReportMetric(eu, "user-µs/call@100-300")
		b.ReportMetric(es, "sys-µs/call@100-300")
		b.ReportMetric(lu, fmt.Sprintf("user-µs/call@%d-%d", late, calls))
		b.ReportMetric(ls, fmt.Sprintf("sys-µs/call@%d-%d", late, calls))
		b.ReportMetric(lu/eu, "user-ratio")
		b.ReportMetric((lu+ls)/(eu+es), "total-ratio")
	}
}

// longSessionEnv carries a longSession to the child process.
const longSessionEnv = "SYNAPS_TEST_LONG_SESSION"

type longSession struct {
	Base, Work, URL string
	Calls, Per      int
	// BashIf is the PreToolUse hook's `if` filter; "" is one that never
	// matches (Bash(git push:*)).
	BashIf  string
	Profile string // a CPU profile of the session, if set
}

// longSessionMain is the child of BenchmarkLongSessionCPU: it runs the
// session and exits, when longSessionEnv is set.
func longSessionMain() {
	data := os.Getenv(longSessionEnv)
	if data == "" {
		return
	}
	if err := runLongSession(data); err != nil {
		fmt.Fprintln(os.Stderr, "long session:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

func runLongSession(data string) error {
	var ls longSession
	if err := json.Unmarshal([]byte(data), &ls); err != nil {
		return err
	}
	env := map[string]string{"ANTHROPIC_API_KEY": "bench", "ANTHROPIC_BASE_URL": ls.URL}
	if ls.BashIf == "" {
		ls.BashIf = "Bash(git push:*)"
	}
	hooks := `{"hooks":{
		"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 2","if":` + strconv.Quote(ls.BashIf) + `}]}],
		"PostToolUse":[{"matcher":"Read|Bash","hooks":[{"type":"command","command":"exit 2","if":"Read(secret/**)"}]}]}}`
	ctx := context.Background()
	a, err := Open(ctx, Options{BaseDir: ls.Base, WorkDir: ls.Work, Model: "anthropic/claude-loop",
		Getenv: func(k string) string { return env[k] }, Version: "bench",
		PermissionMode: permission.AcceptEdits,
		ClaudeSettings: []ClaudeSettings{{File: "bench-settings.json", Data: []byte(hooks)}}})
	if err != nil {
		return err
	}
	defer a.Close(ctx)
	if ls.Profile != "" {
		stop, err := startCPUProfile(ls.Profile)
		if err != nil {
			return err
		}
		defer stop()
	}
	// SYNAPS_BENCH_STAMPS: the wall time after each user message, on
	// stderr, as perf's realtime clock shows it (perf record -k realtime),
	// to cut a profile of the kernel's part into the same windows
	// (perf report --time FROM,TO).
	stamps := os.Getenv("SYNAPS_BENCH_STAMPS") != ""
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	report := func(n int) {
		user, system, _ := procs.CPUTime()
		fmt.Fprintln(w, n, user.Nanoseconds(), system.Nanoseconds())
		if stamps {
			t := time.Now().UnixNano()
			fmt.Fprintf(os.Stderr, "after %d calls: %d.%09d\n", n, t/1e9, t%1e9)
		}
	}
	report(0)
	for done := 0; done < ls.Calls; {
		if err := a.Send(ctx, "go on"); err != nil {
			return err
		}
		done = min(done+ls.Per, ls.Calls)
		report(done)
	}
	return nil
}

// loopModel is a scripted model speaking the Anthropic Messages API
// (streaming): it answers each request with one tool call — bash `true`
// every tenth call, else a read of path — and, after every per calls and
// after the last of calls,
// with a short text that ends the user message's work. It reads each
// request whole, as a service would.
func loopModel(path string, calls, per int) http.Handler {
	var mu sync.Mutex
	done, since := 0, 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		tool := done < calls && since < per
		if tool {
			done++
			since++
		} else {
			since = 0
		}
		n := done
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(name, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data) }
		ev("message_start", `{"type":"message_start","message":{"id":"msg","type":"message","role":"assistant","content":[],"model":"loop","stop_reason":null,"usage":{"input_tokens":100,"output_tokens":1}}}`)
		stop := "end_turn"
		if tool {
			name, input := "read", fmt.Sprintf(`{"path":%q}`, path)
			if n%10 == 0 {
				name, input = "bash", `{"command":"true"}`
			}
			ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_%06d","name":%q,"input":{}}}`, n, name))
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":%q}}`, input))
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
			stop = "tool_use"
		} else {
			ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}`)
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
		}
		ev("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":10}}`, stop))
		ev("message_stop", `{"type":"message_stop"}`)
	})
}

// TestLongSessionRuns runs a short long session, so that the benchmark's
// child is known to work: every call is made, the figures come out in
// order, the session saved every tool result, and the Claude hooks are
// in force (here the bash hook's filter matches, and it blocks the call).
func TestLongSessionRuns(t *testing.T) {
	work, base := t.TempDir(), t.TempDir()
	file := filepath.Join(work, "f.txt")
	write(t, file, "a small file\n")
	srv := httptest.NewServer(loopModel(file, 12, 5))
	defer srv.Close()
	data, _ := json.Marshal(longSession{Base: base, Work: work, URL: srv.URL, Calls: 12, Per: 5, BashIf: "Bash(true)"})
	exe, _ := os.Executable()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), longSessionEnv+"="+string(data))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s%s", err, out, stderr.String())
	}
	var counts []int
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		n, _ := strconv.Atoi(strings.Fields(l)[0])
		counts = append(counts, n)
	}
	if want := []int{0, 5, 10, 12}; !slices.Equal(counts, want) {
		t.Fatalf("figures after %v calls, want %v:\n%s", counts, want, out)
	}
	sessions, _ := filepath.Glob(filepath.Join(base, "sessions", "*.jsonl"))
	if len(sessions) != 1 {
		t.Fatalf("sessions: %v", sessions)
	}
	body, _ := os.ReadFile(sessions[0])
	if n := strings.Count(string(body), "a small file"); n != 11 {
		t.Errorf("%d read results saved, want 11 (12 calls, every tenth a bash)", n)
	}
	if !strings.Contains(string(body), `"tool_use_id":"toolu_000010","content":"Tool call blocked by Claude Code hook`) {
		t.Errorf("the bash call was not blocked by the hook:\n%s", body)
	}
}

func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}
