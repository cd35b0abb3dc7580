package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/pflag"
)

// Where the prompt of `synaps -p` comes from.
//
//	synaps -p "explain"            the argument
//	synaps -p, synaps -p -         stdin (a pipe or a file, not a terminal)
//	cat log | synaps -p "explain"  the argument, with stdin attached as context
//
// Claude Code reads stdin the same way but gives up on it after 3 s
// without data (which breaks `vipe`-style pipelines) and adds it to the
// prompt as plain text. synaps waits for stdin to end, says on stderr what
// it is waiting for, and puts stdin in a <stdin> block after the prompt,
// so that the model can tell the instruction from the data, as `codex
// exec` does.

// stdinPrompt is the value of -p that means "the prompt is on stdin": a
// bare -p is rewritten to it by barePrint.
const stdinPrompt = "-"

// maxStdin bounds what -p reads from stdin. 4 MiB is ten times what fits
// in the largest context windows; more is a mistake (a binary, the wrong
// file), better said than sent.
const maxStdin = 4 << 20

// stdinHintAfter is how long -p waits for stdin to end before it says on
// stderr what it is waiting for. A variable so that a test can make it 0.
var stdinHintAfter = 3 * time.Second

// pickSession is the value of a bare --resume: the terminal UI then lets
// the user pick the session. No session id has this form.
const pickSession = "?"

// barePrint rewrites a bare --resume or -r (as it does a bare -p) to
// --resume=?, the session picker. It rewrites a bare -p/--print (the last argument, or followed by
// another flag) to -p=-, so that `synaps -p`, `synaps -p --model m` and
// `synaps --print` read the prompt from stdin, while `synaps -p TEXT` keeps
// TEXT as the prompt even when TEXT starts with a dash. A flag is an
// argument naming a flag of sets; anything else after -p is its value.
func barePrint(args []string, sets ...*pflag.FlagSet) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "-p" || a == "--print") && (i+1 == len(args) || isFlag(args[i+1], sets)) {
			out = append(out, "--print="+stdinPrompt)
			continue
		}
		if (a == "--resume" || a == "-r") && (i+1 == len(args) || isFlag(args[i+1], sets)) {
			out = append(out, "--resume="+pickSession)
			continue
		}
		out = append(out, a)
	}
	return out
}

// isFlag reports whether arg names a flag of sets, as --name, --name=v, -x
// or -x=v (help and version count: cobra adds them later).
func isFlag(arg string, sets []*pflag.FlagSet) bool {
	if name, ok := strings.CutPrefix(arg, "--"); ok {
		name, _, _ = strings.Cut(name, "=")
		if name == "help" || name == "version" {
			return true
		}
		for _, s := range sets {
			if s.Lookup(name) != nil {
				return true
			}
		}
		return false
	}
	if len(arg) >= 2 && arg[0] == '-' && (len(arg) == 2 || arg[2] == '=') {
		if arg[1] == 'h' || arg[1] == 'v' {
			return true
		}
		for _, s := range sets {
			if s.ShorthandLookup(arg[1:2]) != nil {
				return true
			}
		}
	}
	return false
}

// printPrompt resolves the prompt of -p from the flag's value, the
// positional arguments (Claude Code's spelling, `synaps -p --model m
// "explain"`) and stdin, which is read only when it is not a terminal.
// hint is where a note goes when stdin is slow to end.
func printPrompt(flag string, args []string, stdin io.Reader, stdinTerminal bool, hint io.Writer) (string, error) {
	prompt := flag
	switch {
	case flag == stdinPrompt && len(args) == 1:
		prompt = args[0]
	case len(args) > 0:
		words := args
		if flag != stdinPrompt {
			words = append([]string{flag}, args...)
		}
		return "", usageError{fmt.Errorf("-p takes one prompt but got %d words; quote it: synaps -p %q", len(words), strings.Join(words, " "))}
	}
	if prompt == stdinPrompt {
		if stdinTerminal {
			return "", usageError{errors.New(`-p without a prompt reads it from stdin, but stdin is a terminal; give the prompt (synaps -p "what does this repo do?") or pipe it (echo "what does this repo do?" | synaps -p)`)}
		}
		data, err := readStdin(stdin, hint)
		if err != nil {
			return "", err
		}
		if strings.TrimSpace(data) == "" {
			return "", usageError{errors.New(`-p reads the prompt from stdin, but stdin was empty; pipe the prompt (echo "what does this repo do?" | synaps -p) or give it as an argument (synaps -p "what does this repo do?")`)}
		}
		return data, nil
	}
	if strings.TrimSpace(prompt) == "" {
		return "", usageError{errors.New(`-p needs a prompt: synaps -p "what does this repo do?", or pipe it: echo "what does this repo do?" | synaps -p`)}
	}
	if stdinTerminal {
		return prompt, nil
	}
	data, err := readStdin(stdin, hint)
	if err != nil {
		return "", err
	}
	return withStdin(prompt, data), nil
}

// withStdin attaches what was piped to the prompt; nothing (or only
// whitespace) attaches nothing.
func withStdin(prompt, stdin string) string {
	if strings.TrimSpace(stdin) == "" {
		return prompt
	}
	if !strings.HasSuffix(stdin, "\n") {
		stdin += "\n"
	}
	return prompt + "\n\n<stdin>\n" + stdin + "</stdin>"
}

// readStdin reads all of r, up to maxStdin, as text. If r has not ended
// after stdinHintAfter, it says so on hint once and goes on waiting: a
// pipeline stage may take its time (an editor, a slow command), and a pipe
// left open by mistake is better named than silently dropped.
func readStdin(r io.Reader, hint io.Writer) (string, error) {
	done, hinted := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(hinted)
		t := time.NewTimer(stdinHintAfter)
		defer t.Stop()
		select {
		case <-t.C:
			fmt.Fprintln(hint, "synaps: waiting for stdin to end (-p attaches it to the prompt); end it with Ctrl-D, or run with </dev/null if there is nothing to attach")
		case <-done:
		}
	}()
	data, err := io.ReadAll(io.LimitReader(r, maxStdin+1))
	close(done)
	<-hinted // the hint is written before anything else goes to stderr
	if err != nil {
		return "", fmt.Errorf("-p could not read stdin: %w", err)
	}
	if len(data) > maxStdin {
		return "", fmt.Errorf("stdin is larger than %d MiB, the most -p attaches to a prompt; send less (e.g. tail -c 1000000 app.log | synaps -p …), or name the file in the prompt and let the model read the part it needs", maxStdin>>20)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return "", fmt.Errorf("stdin is not text (a NUL byte at offset %d); -p attaches text only — name a binary file in the prompt instead and let the model inspect it with its tools", i)
	}
	if !utf8.Valid(data) {
		return "", errors.New("stdin is not valid UTF-8 text; -p attaches text only — convert it first (e.g. iconv -f latin1 -t utf-8)")
	}
	return string(data), nil
}
