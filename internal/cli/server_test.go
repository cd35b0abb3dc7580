package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// synaps server end to end, in process: it prints where it listens,
// refuses a client without the token, serves a prompt to one with it,
// and ends at Ctrl-C (a cancelled context) with exit 0 and the session
// saved.
func TestServerCommand(t *testing.T) {
	base, work := t.TempDir(), t.TempDir()
	t.Setenv("SYNAPS_BASE_DIR", base)
	t.Setenv("SYNAPS_SERVER_TOKEN", "tok")
	t.Chdir(work)
	os.WriteFile(filepath.Join(work, "turns.jsonl"), []byte(`{"text":"Served over the web."}`+"\n"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, _, code := startServer(t, ctx, "server", "--listen", "127.0.0.1:0", "--model", "script:turns.jsonl", "--no-extensions")

	if _, resp, err := websocket.Dial(ctx, url, nil); err == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no token: %v, %v; want 401", err, resp)
	}
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer tok"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	c.Write(ctx, websocket.MessageText, []byte(`{"type":"prompt","id":"1","message":"hello"}`))
	var text strings.Builder
	for {
		_, data, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Type  string
			ID    string
			OK    bool
			Event struct{ Type, Delta string }
		}
		json.Unmarshal(data, &f)
		if f.Type == "message_update" && f.Event.Type == "text_delta" {
			text.WriteString(f.Event.Delta)
		}
		if f.Type == "response" && f.ID == "1" {
			if !f.OK {
				t.Errorf("prompt response %s", data)
			}
			break
		}
	}
	if got := strings.TrimSpace(text.String()); got != "Served over the web." {
		t.Errorf("streamed text %q", got)
	}
	cancel()
	if got := <-code; got != ExitOK {
		t.Errorf("exit %d after Ctrl-C, want 0", got)
	}
	files, _ := filepath.Glob(filepath.Join(base, "sessions", "*.jsonl"))
	if len(files) != 1 {
		t.Errorf("session files %v, want 1", files)
	}
}

// startServer runs synaps server in process with args until ctx ends; it
// returns the url it said it listens on, what it wrote to stderr until
// then, and its exit code to come.
func startServer(t *testing.T, ctx context.Context, args ...string) (string, []string, <-chan int) {
	t.Helper()
	errR, errW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- Main(ctx, args, Stdio{In: strings.NewReader(""), Out: io.Discard, Err: errW})
		errW.Close()
	}()
	sc := bufio.NewScanner(errR)
	var url string
	var lines []string
	for url == "" && sc.Scan() {
		lines = append(lines, sc.Text())
		if m := regexp.MustCompile(`on (ws://127\.0\.0\.1:\d+/)$`).FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("synaps server did not say where it listens; stderr:\n%s", strings.Join(lines, "\n"))
	}
	go io.Copy(io.Discard, errR)
	return url, lines, code
}

// The server's token never goes on the command line, where every local
// user reads it (/proc/PID/cmdline): --token is refused naming the
// alternatives; --token-file and $SYNAPS_SERVER_TOKEN are taken; without
// either a generated token is written to a 0600 file whose path is
// printed (not the token), and removed at exit.
func TestServerToken(t *testing.T) {
	t.Run("--token is refused", func(t *testing.T) {
		t.Setenv("SYNAPS_BASE_DIR", t.TempDir())
		var errb strings.Builder
		code := Main(context.Background(), []string{"server", "--listen", "127.0.0.1:0", "--token", "s3cret", "--no-extensions"}, Stdio{In: strings.NewReader(""), Out: io.Discard, Err: &errb})
		if code != ExitUsage || !strings.Contains(errb.String(), "--token-file PATH") || !strings.Contains(errb.String(), "$SYNAPS_SERVER_TOKEN") || !strings.Contains(errb.String(), "/proc/PID/cmdline") {
			t.Errorf("exit %d, stderr %q; want a usage error naming --token-file and $SYNAPS_SERVER_TOKEN", code, errb.String())
		}
	})
	t.Run("bad --token-file", func(t *testing.T) {
		t.Setenv("SYNAPS_BASE_DIR", t.TempDir())
		empty := filepath.Join(t.TempDir(), "empty")
		os.WriteFile(empty, nil, 0o600)
		for file, want := range map[string]string{
			empty:                                 "--token-file " + empty + " is empty",
			filepath.Join(t.TempDir(), "missing"): "no such file",
		} {
			var errb strings.Builder
			code := Main(context.Background(), []string{"server", "--listen", "127.0.0.1:0", "--token-file", file, "--no-extensions"}, Stdio{In: strings.NewReader(""), Out: io.Discard, Err: &errb})
			if code != ExitUsage || !strings.Contains(errb.String(), want) {
				t.Errorf("%s: exit %d, stderr %q; want a usage error with %q", file, code, errb.String(), want)
			}
		}
	})

	tokenFile := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tokenFile, []byte("from-a-file\n"), 0o600)
	loose := filepath.Join(t.TempDir(), "token")
	os.WriteFile(loose, []byte("loose"), 0o644)
	tests := []struct {
		name, env string
		args      []string
		token     string // "" : generated, read from the file printed
		warn      string
	}{
		{name: "--token-file", args: []string{"--token-file", tokenFile}, token: "from-a-file"},
		{name: "--token-file readable by others", args: []string{"--token-file", loose}, token: "loose", warn: "can be read by other users (mode 0644); chmod 600 " + loose},
		{name: "$SYNAPS_SERVER_TOKEN", env: "from-the-env", token: "from-the-env"},
		{name: "--token-file wins over the env", env: "from-the-env", args: []string{"--token-file", tokenFile}, token: "from-a-file"},
		{name: "generated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			t.Setenv("SYNAPS_BASE_DIR", base)
			t.Setenv("SYNAPS_SERVER_TOKEN", tt.env)
			work := t.TempDir()
			t.Chdir(work)
			os.WriteFile(filepath.Join(work, "turns.jsonl"), []byte(`{"text":"hi"}`+"\n"), 0o644)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			url, lines, code := startServer(t, ctx, append([]string{"server", "--listen", "127.0.0.1:0", "--model", "script:turns.jsonl", "--no-extensions"}, tt.args...)...)
			stderr := strings.Join(lines, "\n")
			token, generated := tt.token, ""
			if token == "" {
				m := regexp.MustCompile(`token in (\S+) \(readable by you only`).FindStringSubmatch(stderr)
				if m == nil {
					t.Fatalf("stderr %q does not name the token's file", stderr)
				}
				generated = m[1]
				info, err := os.Stat(generated)
				if err != nil {
					t.Fatal(err)
				}
				if info.Mode().Perm() != 0o600 {
					t.Errorf("%s has mode %04o, want 0600", generated, info.Mode().Perm())
				}
				data, _ := os.ReadFile(generated)
				token = strings.TrimSpace(string(data))
				if len(token) < 32 || strings.Contains(stderr, token) {
					t.Errorf("generated token %q: want a long random one, not printed on stderr", token)
				}
			} else if strings.Contains(stderr, "token in ") {
				t.Errorf("a token was given, but stderr says one was generated: %q", stderr)
			}
			if tt.warn != "" && !strings.Contains(stderr, tt.warn) {
				t.Errorf("stderr %q lacks the warning %q", stderr, tt.warn)
			}
			if _, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token + "x"}}}); err == nil || resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("a wrong token: %v, %v; want 401", err, resp)
			}
			c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
			if err != nil {
				t.Fatalf("the token %q: %v", token, err)
			}
			c.CloseNow()
			cancel()
			if got := <-code; got != ExitOK {
				t.Errorf("exit %d after Ctrl-C, want 0", got)
			}
			if generated != "" {
				if _, err := os.Stat(generated); err == nil {
					t.Errorf("%s is left after the server ended", generated)
				}
			}
		})
	}
}
