package claude

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestInProcessSameAsBash runs each command of the in-process subset both
// ways — through the interpreter and through bash -c — and compares what
// a hook's caller sees: stdout, stderr, exit status. (The subset has no
// command that can see the working directory, and reads only the env it
// is given: $VAR cases compare that.)
func TestInProcessSameAsBash(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "CLAUDE_PLUGIN_ROOT=/plugins/p one", "CLAUDE_PROJECT_DIR=" + dir}
	stdin := []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash"}`)
	for _, line := range []string{
		"cat > /dev/null",
		"cat",
		"cat >> /dev/null",
		"exit 0",
		"exit 3",
		"exit",
		":",
		"true && echo yes",
		"false || echo no",
		"false && echo never",
		"false",
		`echo '{"decision":"approve"}'`,
		`echo "root=$CLAUDE_PLUGIN_ROOT"`,
		`echo "${CLAUDE_PLUGIN_ROOT}/scripts" "x$UNSET_VAR-x"`,
		"cat | cat > /dev/null; echo done",
		"cat | cat",
		"echo err >&2; exit 2",
		"echo out 2>/dev/null 1>&2",
		"echo a; echo b",
		"echo quiet > /dev/null 2>&1",
		": ; exit 1",
		"# only a comment\nexit 4",
	} {
		t.Run(line, func(t *testing.T) {
			if inProcess(line) == nil {
				t.Fatalf("inProcess(%q) = nil: the subset should take it", line)
			}
			c := Command{Line: line, Dir: dir, Env: env}
			got := Exec(context.Background(), c, stdin)
			forceShell = true
			want := Exec(context.Background(), c, stdin)
			forceShell = false
			if got.StartErr != nil || want.StartErr != nil {
				t.Fatalf("start errors: in-process %v, bash %v", got.StartErr, want.StartErr)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("in-process run differs from bash (-bash +in-process):\n%s", diff)
			}
		})
	}
}

// TestInProcessRefuses: what the interpreter could not promise to run as
// bash does — another program, a file read or written, an expansion bash
// does its own way — goes to bash.
func TestInProcessRefuses(t *testing.T) {
	for _, line := range []string{
		"ls", "cat file.txt", "cat < /etc/passwd", "cat > out.txt", "echo x > out.txt",
		"echo $(id)", "echo `id`", "echo *", "echo ~", "echo {a,b}", "echo $HOME",
		"echo -n x", `echo "$1"`, `echo "$RANDOM"`, `echo "$PWD"`, `echo "${X:-d}"`,
		"x=1 echo", "sleep 1 &", "! true", "printf x", "cd /; cat", "true |& cat",
		"exit $X", "cat 3> /dev/null", "cat <<EOF\nx\nEOF", "if true; then echo; fi",
		"(cat)", "{ cat; }", `echo "$X"`, "echo $'\\n'", "",
	} {
		if inProcess(line) != nil {
			t.Errorf("inProcess(%q) took it; it must go to bash", line)
		}
	}
}
