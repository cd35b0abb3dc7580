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
	t.Setenv("SYNAPS_SERVER_TOKEN", "")
	t.Chdir(work)
	os.WriteFile(filepath.Join(work, "turns.jsonl"), []byte(`{"text":"Served over the web."}`+"\n"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errR, errW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- Main(ctx, []string{"server", "--listen", "127.0.0.1:0", "--token", "tok", "--model", "script:turns.jsonl", "--no-extensions"},
			Stdio{In: strings.NewReader(""), Out: io.Discard, Err: errW})
		errW.Close()
	}()
	sc := bufio.NewScanner(errR)
	var url string
	for url == "" && sc.Scan() {
		if m := regexp.MustCompile(`on (ws://127\.0\.0\.1:\d+/)$`).FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatal("synaps server did not say where it listens")
	}
	go io.Copy(io.Discard, errR)

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
