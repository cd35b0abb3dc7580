package builtin

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBashBackground: Background makes the running call return with a
// result naming the shell and its output file; the command runs on and
// the file gets its whole output and how it ended. A call without a
// Backgrounder in its context is not touched.
func TestBashBackground(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	bash := tools(t, Options{WorkDir: t.TempDir()})["bash"]
	bg := NewBackgrounder()
	ctx := WithBackgrounder(context.Background(), bg)
	go func() {
		for bg.Running() == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		bg.Background()
	}()
	// The command waits for a file only the test makes: it cannot end
	// before it went to the background.
	gate := t.TempDir() + "/go"
	cmd := "echo before; while [ ! -e " + gate + " ]; do sleep 0.05; done; echo after; exit 3"
	in, _ := json.Marshal(map[string]string{"command": cmd})
	res, err := bash.Run(ctx, in)
	if err != nil || res.IsError {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	m := regexp.MustCompile(`runs on as shell bash_1 \(process group \d+\)\. Its output so far and all it prints go to (\S+bash_1\.output);`).FindStringSubmatch(res.Output)
	if m == nil {
		t.Fatalf("result does not name the shell and its file: %q", res.Output)
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var got string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(m[1])
		if got = string(b); strings.Contains(got, "ended") {
			break
		}
	}
	if want := "before\nafter\n\n[shell bash_1 ended: exit status 3]\n"; got != want {
		t.Errorf("output file = %q, want %q", got, want)
	}
	if bg.Running() != 0 || bg.Background() != 0 {
		t.Error("the finished call is still registered")
	}
}
