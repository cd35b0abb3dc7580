package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/synaps-cli/synaps/internal/extension/exttest"
	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/session"
)

// TestDurabilitySIGKILL kills `synaps -p` with SIGKILL at a random point of
// a scripted session of many bash calls, 50 times, and checks each time
// that
//   - every line of the session file but the last is a complete record,
//     and session.Read skips at most that one line (a cut-short line is
//     never read as data);
//   - every message synaps had reported (stream-json "assistant" lines are
//     emitted after the message is appended) is in the file, in order;
//   - the conversation is well formed: the user's prompt, then assistant
//     tool calls each answered by its tool result, "echo 1", "echo 2", …
//     without a gap — only the tail may be a tool call without its result;
//   - `synaps -p next --continue` resumes that session, appends after the
//     last complete record and leaves every earlier record as it was;
//   - the session's extension process (Pdeathsig) does not outlive synaps.
//
// synaps is this test binary re-run under the name "synaps" (TestMain).
// The kill point is chosen by progress, not by wall time, so that it is
// spread over the session however loaded the machine is: one round in
// five is killed at a random moment of start-up (before the first
// stream-json event), the others a random 0–3 ms after a random event of
// the run. Rounds run two at a time. SYNAPS_DURABILITY_SEED replays a run.
func TestDurabilitySIGKILL(t *testing.T) {
	const rounds, turns = 50, 30
	synaps, err := exec.LookPath("synaps")
	if err != nil {
		t.Skipf("synaps is not on PATH (TestMain puts this test binary there): %v", err)
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("SYNAPS_DURABILITY_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	t.Logf("seed %d (SYNAPS_DURABILITY_SEED=%d replays it)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 0))

	var script strings.Builder
	for i := 1; i <= turns; i++ {
		fmt.Fprintf(&script, `{"text":"step %d","tool_calls":[{"name":"bash","input":{"command":"echo %d"}}]}`+"\n", i, i)
	}
	script.WriteString(`{"text":"counted","expect":{"last_tool_result_contains":"` + strconv.Itoa(turns) + `"}}` + "\n")

	// A full run, to check the rig and to count the events of a session.
	full := newDurabilityRound(t, t.TempDir(), synaps, script.String())
	res := full.run(t, killPoint{afterEvents: -1})
	if !res.exited || res.acked != turns+1 {
		t.Fatalf("the full run did not complete: exited %v, %d messages reported\n%s", res.exited, res.acked, res.stderr)
	}
	full.check(t, res)
	t.Logf("a full run of %d turns: %d stream-json events in %v, the first after %v",
		turns, res.events, res.took.Round(time.Millisecond), res.firstEvent.Round(time.Millisecond))

	points := make([]killPoint, rounds)
	for i := range points {
		if i%5 == 0 {
			points[i] = killPoint{delay: time.Duration(rng.Int64N(int64(res.firstEvent) + 1))}
		} else {
			points[i] = killPoint{afterEvents: 1 + rng.IntN(res.events), delay: time.Duration(rng.Int64N(int64(3*time.Millisecond) + 1))}
		}
	}
	var mu sync.Mutex
	outcomes := map[string]int{}
	t.Run("rounds", func(t *testing.T) {
		for i, kp := range points {
			t.Run(fmt.Sprintf("%02d-%s", i, kp), func(t *testing.T) {
				t.Parallel()
				r := newDurabilityRound(t, t.TempDir(), synaps, script.String())
				outcome := r.check(t, r.run(t, kp))
				mu.Lock()
				outcomes[outcome]++
				mu.Unlock()
			})
		}
	})
	// A tool call cut off at the tail is answered with an "interrupted"
	// error result when the session resumes (see docs/reliability.md).
	t.Logf("%d rounds: %d killed before the session had a record, %d with a tool call cut off at the tail, %d cut between complete records, %d finished before the kill",
		rounds, outcomes["no-session"], outcomes["dangling-tool-use"], outcomes["cut"], outcomes["complete"])
}

// killPoint says when to kill: delay after the afterEvents-th stream-json
// event, or after the start when afterEvents is 0; never when it is < 0.
type killPoint struct {
	afterEvents int
	delay       time.Duration
}

func (k killPoint) String() string {
	if k.afterEvents == 0 {
		return fmt.Sprintf("start+%v", k.delay.Round(time.Millisecond))
	}
	return fmt.Sprintf("event%d+%v", k.afterEvents, k.delay.Round(10*time.Microsecond))
}

type durabilityRound struct {
	dir, base, work, plugin, synaps string
	env                             []string
}

func newDurabilityRound(t *testing.T, dir, synaps, script string) *durabilityRound {
	r := &durabilityRound{dir: dir, base: filepath.Join(dir, "base"), work: filepath.Join(dir, "work"), synaps: synaps}
	r.plugin = filepath.Join(r.base, "plugins", "guard")
	for _, d := range []string{filepath.Join(dir, "home"), r.work, filepath.Join(r.plugin, ".synaps-plugin")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		filepath.Join(r.work, "turns.jsonl"):                     script,
		filepath.Join(r.work, "resume.jsonl"):                    `{"text":"resumed","expect":{"last_user_contains":"next"}}` + "\n",
		filepath.Join(r.plugin, ".synaps-plugin", "plugin.json"): `{"name":"guard","version":"1.0.0","extension":{"command":"synaps","args":["__extension","demo-guard"],"protocol_version":1,"permissions":["hooks.before_tool_call"]}}`,
	}
	for path, content := range files {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(dir, "home"), "SYNAPS_BASE_DIR=" + r.base, "NO_COLOR=1"}
	return r
}

type runResult struct {
	exited bool // ended on its own (not killed)
	acked  int  // "assistant" lines seen on stdout
	// reported are the messages synaps reported as complete, in order.
	reported []llm.Message
	stderr   string
	// events is the number of stream-json lines; took the run's duration;
	// firstEvent when the first line arrived.
	events           int
	took, firstEvent time.Duration
}

// run starts `synaps -p` and kills it with SIGKILL at kp.
func (r *durabilityRound) run(t *testing.T, kp killPoint) runResult {
	t.Helper()
	cmd := exec.Command(r.synaps, "-p", "count to thirty", "--model", "script:turns.jsonl", "--output-format", "stream-json", "--allowedTools", "Bash")
	cmd.Dir, cmd.Env = r.work, r.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = 5 * time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := func() { _ = cmd.Process.Signal(syscall.SIGKILL) }
	var timer *time.Timer
	if kp.afterEvents == 0 {
		timer = time.AfterFunc(kp.delay, kill)
	}
	var res runResult
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		res.events++
		if res.events == 1 {
			res.firstEvent = time.Since(start)
		}
		if res.events == kp.afterEvents {
			timer = time.AfterFunc(kp.delay, kill)
		}
		var ev struct {
			Type    string       `json:"type"`
			Message *llm.Message `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Type == "assistant" && ev.Message != nil {
			res.reported = append(res.reported, *ev.Message)
		}
	}
	err = cmd.Wait()
	res.took = time.Since(start)
	if timer != nil {
		timer.Stop()
	}
	res.stderr = stderr.String()
	res.acked = len(res.reported)
	if ee, ok := err.(*exec.ExitError); ok {
		ws := ee.Sys().(syscall.WaitStatus)
		if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("synaps failed on its own: %v\n%s", err, res.stderr)
		}
	} else if err != nil {
		t.Fatalf("synaps: %v\n%s", err, res.stderr)
	} else {
		res.exited = true
	}
	return res
}

// check verifies the session file after a run and resumes it. It returns
// "no-session", "dangling-tool-use", "complete" or "cut".
func (r *durabilityRound) check(t *testing.T, res runResult) string {
	t.Helper()
	// The extension does not outlive synaps.
	exttest.AssertNoProcessesIn(t, r.plugin)

	files, _ := filepath.Glob(filepath.Join(session.Dir(r.base), "*.jsonl"))
	if len(files) == 0 {
		if res.acked > 0 {
			t.Fatalf("%d messages reported but no session file", res.acked)
		}
		// Killed before the session existed: nothing to resume, and
		// --continue says so.
		out, err := r.resume()
		if err == nil || !strings.Contains(out, "--continue: no session was started in") {
			t.Fatalf("--continue without a session: %v\n%s", err, out)
		}
		return "no-session"
	}
	if len(files) > 1 {
		t.Fatalf("more than one session file: %v", files)
	}
	path := files[0]
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("\n")) {
		// Killed between creating the file and writing its header: it is
		// not a session, so --continue finds none.
		if out, err := r.resume(); err == nil || !strings.Contains(out, "--continue: no session was started in") {
			t.Fatalf("--continue with a headerless session file: %v\n%s", err, out)
		}
		return "no-session"
	}
	lines := strings.Split(string(raw), "\n")
	for i, line := range lines[:len(lines)-1] {
		var rec session.Record
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec.V == 0 || rec.Type == "" {
			t.Fatalf("line %d of %d, not the last, is not a complete record: %v: %.200q", i+1, len(lines), err, line)
		}
	}
	tail := lines[len(lines)-1] // "" when the file ends with a newline
	d, err := session.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if d.Skipped > 1 || (d.Skipped == 1 && tail == "") {
		t.Fatalf("Read skipped %d lines; only a cut-short last line may be skipped (tail %.100q)", d.Skipped, tail)
	}
	if res.exited && (d.Skipped != 0 || tail != "") {
		t.Fatalf("a run that ended normally left a partial line: %.100q", tail)
	}

	// Everything synaps reported is there, in order.
	var assistants []llm.Message
	for _, m := range d.Messages {
		if m.Role == llm.RoleAssistant {
			assistants = append(assistants, m)
		}
	}
	if len(assistants) < res.acked {
		t.Fatalf("%d assistant messages reported, %d in the file", res.acked, len(assistants))
	}
	// EquateEmpty: killed after the first answer was written but before
	// it was reported, the file's prefix is empty and the report nil.
	if diff := cmp.Diff(res.reported, assistants[:res.acked], cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("reported messages differ from the file (-reported +file):\n%s", diff)
	}

	// Well formed: prompt, then (tool call k, its result "k") for k = 1, 2, …
	msgs := d.Messages
	outcome := "cut"
	if len(msgs) > 0 && (msgs[0].Role != llm.RoleUser || msgs[0].Text() != "count to thirty") {
		t.Fatalf("first message = %+v", msgs)
	}
	for i, k := 1, 1; i < len(msgs); i, k = i+2, k+1 {
		a := msgs[i]
		if a.Role != llm.RoleAssistant {
			t.Fatalf("message %d: role %s, want assistant", i, a.Role)
		}
		uses := a.ToolUses()
		if len(uses) == 0 {
			if a.Text() != "counted" || i != len(msgs)-1 {
				t.Fatalf("message %d: text %q without a tool call before the end", i, a.Text())
			}
			outcome = "complete"
			break
		}
		if len(uses) != 1 || string(uses[0].Input) != fmt.Sprintf(`{"command":"echo %d"}`, k) {
			t.Fatalf("message %d: tool calls %+v, want echo %d", i, uses, k)
		}
		if i+1 == len(msgs) {
			outcome = "dangling-tool-use" // killed while the tool ran
			break
		}
		u := msgs[i+1]
		if u.Role != llm.RoleUser || len(u.Content) != 1 || u.Content[0].Type != llm.BlockToolResult ||
			u.Content[0].ToolUseID != uses[0].ID || u.Content[0].Content != fmt.Sprintf("%d\n", k) || u.Content[0].IsError {
			t.Fatalf("message %d: want the result %q of %s, got %+v", i+1, fmt.Sprintf("%d\n", k), uses[0].ID, u)
		}
	}

	// Resume: the new turn is appended, nothing before it changes.
	if out, err := r.resume(); err != nil {
		t.Fatalf("--continue: %v\n%s", err, out)
	}
	d2, err := session.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	// A tool call cut off at the tail is answered on resume with an
	// "interrupted" error result, so the conversation stays valid.
	added := 2
	if outcome == "dangling-tool-use" {
		added = 3
	}
	if d2.Skipped != d.Skipped || len(d2.Messages) != len(msgs)+added {
		t.Fatalf("after resume: %d skipped (was %d), %d messages (was %d, want +%d)", d2.Skipped, d.Skipped, len(d2.Messages), len(msgs), added)
	}
	if diff := cmp.Diff(msgs, d2.Messages[:len(msgs)], cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("resume changed earlier messages (-before +after):\n%s", diff)
	}
	if added == 3 {
		uses := msgs[len(msgs)-1].ToolUses()
		fix := d2.Messages[len(msgs)]
		if fix.Role != llm.RoleUser || len(fix.Content) != 1 || fix.Content[0].ToolUseID != uses[0].ID || !fix.Content[0].IsError || fix.Content[0].Content != session.Interrupted {
			t.Fatalf("interrupted tool call answered with %+v", fix)
		}
	}
	if last := d2.Messages[len(d2.Messages)-1]; last.Text() != "resumed" || d2.Messages[len(d2.Messages)-2].Text() != "next" {
		t.Fatalf("resumed messages = %+v", d2.Messages[len(msgs):])
	}
	exttest.AssertNoProcessesIn(t, r.plugin)
	return outcome
}

func (r *durabilityRound) resume() (string, error) {
	cmd := exec.Command(r.synaps, "-p", "next", "--continue", "--model", "script:resume.jsonl", "--allowedTools", "Bash")
	cmd.Dir, cmd.Env = r.work, r.env
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	return string(out), err
}
