package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/tool"
)

func TestBash(t *testing.T) {
	dir := t.TempDir()
	bash := tools(t, Options{WorkDir: dir})["bash"]
	for _, tc := range []struct {
		name, command string
		want          tool.Result
	}{
		{"echo", "echo hi", tool.Result{Output: "hi\n"}},
		{"stdout and stderr in order", "echo a; echo b >&2; echo c; echo d >&2", tool.Result{Output: "a\nb\nc\nd\n"}},
		{"runs in WorkDir", "pwd", tool.Result{Output: dir + "\n"}},
		{"no output", "true", tool.Result{Output: "(no output)"}},
		{"stdin is /dev/null", "cat; read x || echo eof", tool.Result{Output: "eof\n"}},
		{"exit status", "echo oops; exit 2", tool.Result{Output: "oops\nexit status 2", IsError: true}},
		{"exit status without output", "exit 3", tool.Result{Output: "exit status 3", IsError: true}},
		{"output without newline", "printf x; exit 1", tool.Result{Output: "x\nexit status 1", IsError: true}},
		{"killed by a signal", "kill -TERM $$", tool.Result{Output: "signal: terminated", IsError: true}},
		{"bash syntax", "a=(1 2 3); echo ${#a[@]}", tool.Result{Output: "3\n"}},
		{"no controlling terminal", "{ exec 3</dev/tty; } 2>/dev/null && echo tty || echo no tty", tool.Result{Output: "no tty\n"}},
		{"own process group", "set -- $(cat /proc/$$/stat); [ \"$5\" = $$ ] && echo leader", tool.Result{Output: "leader\n"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, bash, mustJSON(t, map[string]any{"command": tc.command}))
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestBashInputErrors(t *testing.T) {
	bash := tools(t, Options{WorkDir: t.TempDir()})["bash"]
	for _, in := range []string{`{}`, `{"command":"  "}`, ``} {
		if res := run(t, bash, in); !res.IsError || res.Output != "command is required" {
			t.Errorf("%s: %+v", in, res)
		}
	}
}

func TestBashShFallback(t *testing.T) {
	b := &bashTool{o: Options{WorkDir: t.TempDir()}.withDefaults(), shell: "sh"}
	if res := run(t, b, `{"command":"echo $((1+2))"}`); res.Output != "3\n" {
		t.Fatalf("%+v", res)
	}
}

func TestBashTimeoutInput(t *testing.T) {
	b := newBash(Options{BashTimeout: 7 * time.Second})
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		in   *float64
		want time.Duration
	}{
		{nil, 7 * time.Second},
		{f(0), 7 * time.Second},
		{f(1.5), 1500 * time.Millisecond},
		{f(300), 300 * time.Second},
		{f(600), 10 * time.Minute},
		{f(1e12), 10 * time.Minute},
	} {
		if got := b.timeout(tc.in); got != tc.want {
			t.Errorf("timeout(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// marker returns an argument no other process on the machine has.
func marker(t *testing.T) string {
	return fmt.Sprintf("synaps-test-%s-%d-%d", strings.ReplaceAll(t.Name(), "/", "_"), os.Getpid(), time.Now().UnixNano())
}

// bgCommand starts a background shell that carries m as its own argument
// ($0) and would outlive the command by far.
func bgCommand(m string) string {
	return fmt.Sprintf("sh -c 'sleep 30; true' %s &", m)
}

// alive reports whether a live process has m as a whole argument. Exited
// processes (zombies) have an empty cmdline and do not count.
func alive(t *testing.T, m string) bool {
	t.Helper()
	paths, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil || len(paths) == 0 {
		t.Skip("no /proc")
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte("\x00"+m+"\x00")) {
			return true
		}
	}
	return false
}

// assertGone allows the kernel a moment to finish tearing killed processes down.
func assertGone(t *testing.T, m string) {
	t.Helper()
	for range 100 {
		if !alive(t, m) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("background process %s outlived the command", m)
}

func TestBashTimeoutKillsProcessGroup(t *testing.T) {
	bash := tools(t, Options{WorkDir: t.TempDir()})["bash"]
	m := marker(t)
	res := run(t, bash, mustJSON(t, map[string]any{"command": "echo started; " + bgCommand(m) + " sleep 5", "timeout": 0.2}))
	want := tool.Result{IsError: true, Output: "started\ncommand timed out after 0.2s and was killed; pass a larger \"timeout\" (seconds, at most 600) if it needs longer"}
	if d := cmp.Diff(want, res); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	assertGone(t, m)
}

func TestBashDefaultTimeout(t *testing.T) {
	bash := tools(t, Options{WorkDir: t.TempDir(), BashTimeout: 100 * time.Millisecond})["bash"]
	res := run(t, bash, `{"command":"sleep 5"}`)
	if !res.IsError || !strings.HasPrefix(res.Output, "command timed out after 0.1s") {
		t.Fatalf("%+v", res)
	}
}

func TestBashKillsBackgroundOnExit(t *testing.T) {
	bash := tools(t, Options{WorkDir: t.TempDir()})["bash"]
	m := marker(t)
	res := run(t, bash, mustJSON(t, map[string]any{"command": bgCommand(m) + " echo done"}))
	if d := cmp.Diff(tool.Result{Output: "done\n"}, res); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
	assertGone(t, m)
}

func TestBashCancelKillsProcessGroup(t *testing.T) {
	bash := tools(t, Options{WorkDir: t.TempDir()})["bash"]
	m := marker(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		defer cancel()
		for range 500 { // cancel once the background child is running
			if alive(t, m) {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	_, err := bash.Run(ctx, json.RawMessage(mustJSON(t, map[string]any{"command": bgCommand(m) + " sleep 30"})))
	if err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	assertGone(t, m)
}

func TestBashOutputTruncated(t *testing.T) {
	bash := tools(t, Options{WorkDir: t.TempDir(), MaxOutput: 100})["bash"]
	res := run(t, bash, `{"command":"seq 1 1000"}`)
	var full strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintln(&full, i)
	}
	s := full.String()
	want := s[:50] + fmt.Sprintf("\n…[%d bytes truncated]…\n", len(s)-100) + s[len(s)-50:]
	if d := cmp.Diff(tool.Result{Output: want}, res); d != "" {
		t.Fatalf("(-want +got):\n%s", d)
	}
}

func TestHeadTail(t *testing.T) {
	for _, tc := range []struct {
		name   string
		max    int
		chunks []string
		want   string
	}{
		{"fits", 10, []string{"abc", "def"}, "abcdef"},
		{"exactly full", 6, []string{"abcdef"}, "abcdef"},
		{"one big write", 6, []string{"abcdefghij"}, "abc\n…[4 bytes truncated]…\nhij"},
		{"many small writes", 6, strings.Split("abcdefghij", ""), "abc\n…[4 bytes truncated]…\nhij"},
		{"ring wraps", 6, []string{"abcd", "efg", "hi", "jklmn"}, "abc\n…[8 bytes truncated]…\nlmn"},
		{"utf-8 not split", 9, []string{"xéééééééé"}, "xé\n…[10 bytes truncated]…\néé"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHeadTail(tc.max)
			for _, c := range tc.chunks {
				h.Write([]byte(c))
			}
			if got := h.String(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func BenchmarkBashEcho(b *testing.B) {
	bash := tools(b, Options{WorkDir: b.TempDir()})["bash"]
	in := json.RawMessage(`{"command":"echo hi"}`)
	for b.Loop() {
		res, err := bash.Run(context.Background(), in)
		if err != nil || res.Output != "hi\n" {
			b.Fatal(res, err)
		}
	}
}

// bash runs without the variables whose names look secret: the model
// decides what it runs and can print whatever it reads.
func TestBashEnvHasNoSecrets(t *testing.T) {
	for k, v := range map[string]string{
		"ANTHROPIC_API_KEY": "sk-ant", "AWS_SECRET_ACCESS_KEY": "aws", "GITHUB_TOKEN": "ghp",
		"PGPASSWORD": "pg", "my_api_key": "lower", "SYNAPS_TEST_PLAIN": "kept",
	} {
		t.Setenv(k, v)
	}
	bash := tools(t, Options{WorkDir: t.TempDir()})["bash"]
	got := run(t, bash, `{"command":"env"}`).Output
	for _, secret := range []string{"sk-ant", "aws", "ghp", "pg", "lower"} {
		if strings.Contains(got, "="+secret+"\n") {
			t.Errorf("bash saw the secret %q:\n%s", secret, got)
		}
	}
	for _, want := range []string{"SYNAPS_TEST_PLAIN=kept\n", "PATH="} {
		if !strings.Contains(got, want) {
			t.Errorf("bash lost %q:\n%s", want, got)
		}
	}
	// An explicit environment (the user's allow list applied) is used as is.
	kept, _ := ScrubEnv(os.Environ(), []string{"GITHUB_TOKEN"})
	bash = tools(t, Options{WorkDir: t.TempDir(), Env: kept})["bash"]
	if got := run(t, bash, `{"command":"echo $GITHUB_TOKEN $ANTHROPIC_API_KEY."}`).Output; got != "ghp .\n" {
		t.Errorf("with GITHUB_TOKEN allowed: %q", got)
	}
}

func TestScrubEnv(t *testing.T) {
	env := []string{"PATH=/bin", "GITHUB_TOKEN=a", "OPENAI_API_KEY=b", "client_secret=c", "DB_PASSWORD=d", "KEYBOARD=e", "HOME=/h", "NOEQUALS"}
	kept, dropped := ScrubEnv(env, []string{"GITHUB_TOKEN", "openai_api_key"})
	if d := cmp.Diff([]string{"PATH=/bin", "GITHUB_TOKEN=a", "HOME=/h", "NOEQUALS"}, kept); d != "" {
		t.Errorf("kept (-want +got):\n%s", d)
	}
	// Allow names are exact: openai_api_key does not allow OPENAI_API_KEY.
	if d := cmp.Diff([]string{"DB_PASSWORD", "KEYBOARD", "OPENAI_API_KEY", "client_secret"}, dropped); d != "" {
		t.Errorf("dropped (-want +got):\n%s", d)
	}
}
