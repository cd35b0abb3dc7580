package cli

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"
)

func TestBarePrint(t *testing.T) {
	flags := pflag.NewFlagSet("synaps", pflag.ContinueOnError)
	flags.StringP("print", "p", "", "")
	flags.String("model", "", "")
	flags.Bool("continue", false, "")
	flags.String("resume", "", "")
	for _, tc := range []struct {
		args, want []string
	}{
		{[]string{"-p"}, []string{"--print=-"}},
		{[]string{"--print"}, []string{"--print=-"}},
		{[]string{"-p", "--model", "m"}, []string{"--print=-", "--model", "m"}},
		{[]string{"-p", "--model=m", "explain"}, []string{"--print=-", "--model=m", "explain"}},
		{[]string{"-p", "--continue"}, []string{"--print=-", "--continue"}},
		{[]string{"-p", "-h"}, []string{"--print=-", "-h"}},
		{[]string{"-p", "explain"}, []string{"-p", "explain"}},
		{[]string{"-p", "-"}, []string{"-p", "-"}},
		{[]string{"-p", "-v means what?"}, []string{"-p", "-v means what?"}},
		{[]string{"-p", "--unknown-is-a-prompt"}, []string{"-p", "--unknown-is-a-prompt"}},
		{[]string{"--model", "m", "-p"}, []string{"--model", "m", "--print=-"}},
		{[]string{"--", "-p"}, []string{"--", "-p"}},
		{[]string{"sessions", "list"}, []string{"sessions", "list"}},
		{[]string{"--resume"}, []string{"--resume=?"}},
		{[]string{"--resume", "--model", "m"}, []string{"--resume=?", "--model", "m"}},
		{[]string{"--resume", "20261203-1"}, []string{"--resume", "20261203-1"}},
		{[]string{"--resume=20261203-1"}, []string{"--resume=20261203-1"}},
	} {
		if diff := cmp.Diff(tc.want, barePrint(tc.args, flags)); diff != "" {
			t.Errorf("barePrint(%q) (-want +got):\n%s", tc.args, diff)
		}
	}
}

func TestPrintPrompt(t *testing.T) {
	for _, tc := range []struct {
		name     string
		flag     string
		args     []string
		stdin    string
		terminal bool
		want     string
		usage    bool   // a usage error (exit 2)
		err      string // a substring of the error
	}{
		{name: "argument", flag: "explain", want: "explain"},
		{name: "argument, stdin a terminal", flag: "explain", stdin: "never read", terminal: true, want: "explain"},
		{name: "argument, empty stdin", flag: "explain", want: "explain"},
		{name: "argument, blank stdin", flag: "explain", stdin: " \n\n", want: "explain"},
		{name: "argument and stdin", flag: "explain", stdin: "ERROR disk full\n", want: "explain\n\n<stdin>\nERROR disk full\n</stdin>"},
		{name: "stdin without a final newline", flag: "explain", stdin: "a\nb", want: "explain\n\n<stdin>\na\nb\n</stdin>"},
		{name: "stdin is the prompt", flag: "-", stdin: "What is 2+2?\n", want: "What is 2+2?\n"},
		{name: "positional prompt", flag: "-", args: []string{"explain"}, stdin: "log\n", want: "explain\n\n<stdin>\nlog\n</stdin>"},
		{name: "stdin a terminal", flag: "-", terminal: true, usage: true, err: "stdin is a terminal; give the prompt"},
		{name: "stdin empty", flag: "-", stdin: "\n", usage: true, err: "stdin was empty"},
		{name: "empty argument", flag: " ", usage: true, err: "-p needs a prompt"},
		{name: "unquoted words", flag: "fix", args: []string{"the", "bug"}, usage: true, err: `quote it: synaps -p "fix the bug"`},
		{name: "two positional prompts", flag: "-", args: []string{"a", "b"}, usage: true, err: `quote it: synaps -p "a b"`},
		{name: "too large", flag: "explain", stdin: strings.Repeat("x", maxStdin+1), err: "stdin is larger than 4 MiB"},
		{name: "largest", flag: "-", stdin: strings.Repeat("x", maxStdin), want: strings.Repeat("x", maxStdin)},
		{name: "binary", flag: "explain", stdin: "PK\x03\x04\x00", err: "stdin is not text (a NUL byte at offset 4)"},
		{name: "not UTF-8", flag: "explain", stdin: "caf\xe9\n", err: "not valid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := printPrompt(tc.flag, tc.args, strings.NewReader(tc.stdin), tc.terminal, io.Discard)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("prompt (-want +got):\n%s", diff)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			}
			if isUsage := errors.As(err, new(usageError)); isUsage != tc.usage {
				t.Errorf("usage error %v, want %v", isUsage, tc.usage)
			}
		})
	}
}

// TestReadStdinHint: stdin that stays open gets a note on stderr, and
// is still read to its end (Claude Code gives up after 3 s instead).
func TestReadStdinHint(t *testing.T) {
	defer func(d time.Duration) { stdinHintAfter = d }(stdinHintAfter)
	stdinHintAfter = 0
	r, w := io.Pipe()
	hint := &signalWriter{wrote: make(chan struct{})}
	go func() {
		<-hint.wrote // the writer ends only once the hint is out
		w.Write([]byte("late data\n"))
		w.Close()
	}()
	got, err := readStdin(r, hint)
	if err != nil {
		t.Fatal(err)
	}
	if got != "late data\n" {
		t.Errorf("read %q", got)
	}
	if !strings.Contains(hint.String(), "waiting for stdin to end (-p attaches it to the prompt); end it with Ctrl-D, or run with </dev/null") {
		t.Errorf("hint %q", hint.String())
	}
}

// signalWriter closes wrote at its first write.
type signalWriter struct {
	strings.Builder
	wrote chan struct{}
}

func (s *signalWriter) Write(p []byte) (int, error) {
	n, err := s.Builder.Write(p)
	if s.Len() == n {
		close(s.wrote)
	}
	return n, err
}
