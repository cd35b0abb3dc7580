package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/host/hosttest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const token = "t0ken"

// serve starts a server of a fresh session whose model plays replies.
func serve(t *testing.T, o Options, replies ...hosttest.Reply) (*httptest.Server, *host.Session, *hosttest.ModelServer) {
	t.Helper()
	model := hosttest.NewModelServer(t, replies...)
	s, err := host.New().Open(context.Background(), model.Options(t))
	if err != nil {
		t.Fatal(err)
	}
	if o.Token == "" {
		o.Token = token
	}
	sv, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(sv)
	t.Cleanup(func() {
		sv.Close()
		web.Close()
		s.Close(context.Background())
	})
	return web, s, model
}

func wsURL(web *httptest.Server) string { return "ws" + strings.TrimPrefix(web.URL, "http") + "/" }

// client is one WebSocket client reading frames on a goroutine.
type client struct {
	t      *testing.T
	c      *websocket.Conn
	frames chan map[string]any
}

func dial(t *testing.T, url string, h http.Header) (*client, *http.Response, error) {
	t.Helper()
	c, resp, err := websocket.Dial(context.Background(), url, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, resp, err
	}
	cl := &client{t: t, c: c, frames: make(chan map[string]any, 1000)}
	go func() {
		defer close(cl.frames)
		for {
			_, data, err := c.Read(context.Background())
			if err != nil {
				return
			}
			var f map[string]any
			json.Unmarshal(data, &f)
			cl.frames <- f
		}
	}()
	t.Cleanup(func() { c.CloseNow() })
	if f := cl.next(); f["type"] != "ready" {
		t.Fatalf("first frame %v", f)
	}
	return cl, resp, nil
}

func bearer(tok string) http.Header { return http.Header{"Authorization": {"Bearer " + tok}} }

func (cl *client) send(frame string) {
	cl.t.Helper()
	if err := cl.c.Write(context.Background(), websocket.MessageText, []byte(frame)); err != nil {
		cl.t.Fatal(err)
	}
}

func (cl *client) next() map[string]any {
	cl.t.Helper()
	f, ok := <-cl.frames
	if !ok {
		cl.t.Fatal("connection ended")
	}
	return f
}

// until returns the frames up to the first of type typ (and id, if set).
func (cl *client) until(typ, id string) []map[string]any {
	cl.t.Helper()
	var seen []map[string]any
	for {
		f := cl.next()
		seen = append(seen, f)
		if f["type"] == typ && (id == "" || f["id"] == id) {
			return seen
		}
	}
}

func types(fs []map[string]any) []string {
	var out []string
	for _, f := range fs {
		t, _ := f["type"].(string)
		if e, ok := f["event"].(map[string]any); ok {
			t += "/" + e["type"].(string)
		}
		out = append(out, t)
	}
	return out
}

// Without the token, or with a wrong one, the upgrade is refused (401)
// and says how to send it; the header and ?token= are both taken.
func TestTokenRequired(t *testing.T) {
	web, _, _ := serve(t, Options{})
	for name, tc := range map[string]struct {
		url string
		h   http.Header
	}{
		"none":         {wsURL(web), nil},
		"wrong bearer": {wsURL(web), bearer("guess")},
		"wrong query":  {wsURL(web) + "?token=guess", nil},
		"empty bearer": {wsURL(web), bearer("")},
	} {
		_, resp, err := dial(t, tc.url, tc.h)
		if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: err %v, resp %v; want 401", name, err, resp)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		if !strings.Contains(string(body), "Authorization: Bearer TOKEN") {
			t.Errorf("%s: body %q does not say how to send the token", name, body)
		}
	}
	if _, _, err := dial(t, wsURL(web)+"?token="+token, nil); err != nil {
		t.Errorf("?token=: %v", err)
	}
	if _, _, err := dial(t, wsURL(web), bearer(token)); err != nil {
		t.Errorf("bearer: %v", err)
	}
}

// A page of another origin is refused (403) even with the token, unless
// --allow-origin lets it in; the server's own origin is let in.
func TestOriginChecked(t *testing.T) {
	web, _, _ := serve(t, Options{AllowOrigins: []string{"*.trusted.example"}})
	origin := func(o string) http.Header {
		h := bearer(token)
		h.Set("Origin", o)
		return h
	}
	_, resp, err := dial(t, wsURL(web), origin("https://evil.example"))
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("bad origin: err %v resp %v; want 403", err, resp)
	}
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), "--allow-origin evil.example") {
		t.Errorf("403 body %q does not name the flag", body)
	}
	for _, o := range []string{"https://app.trusted.example", web.URL} {
		if _, _, err := dial(t, wsURL(web), origin(o)); err != nil {
			t.Errorf("origin %s: %v", o, err)
		}
	}
}

// Two clients of one session see the same events of a turn one of them
// started; only that one gets the prompt's response. The other steers
// the turn, and the model's next request carries its text.
func TestTwoClientsShareTheSession(t *testing.T) {
	hold := make(chan struct{})
	web, s, model := serve(t, Options{}, hosttest.Reply{Bash: "echo shared", Hold: hold}, hosttest.Reply{Text: "both saw it"})
	a, _, err := dial(t, wsURL(web), bearer(token))
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := dial(t, wsURL(web), bearer(token))
	if err != nil {
		t.Fatal(err)
	}
	a.send(`{"type":"get_state","id":"s"}`)
	if got := a.until("response", "s"); got[len(got)-1]["clients"] != float64(2) {
		t.Errorf("get_state with two clients: %v", got[len(got)-1])
	}
	a.send(`{"type":"prompt","id":"p","message":"for everyone"}`)
	model.WaitRequest(t, 1)
	b.send(`{"type":"follow_up","id":"f","message":"from b"}`)
	before := b.until("response", "f")
	if before[len(before)-1]["steered"] != true {
		t.Errorf("b's follow_up: %v", before[len(before)-1])
	}
	close(hold)
	fromA := a.until("response", "p")
	fromB := append(before, b.until("agent_end", "")...)
	events := func(fs []map[string]any) []string {
		var out []string
		for _, f := range fs {
			if f["type"] != "response" {
				out = append(out, types([]map[string]any{f})...)
			}
		}
		return out
	}
	want := []string{"turn_start", "message_update/toolcall_start", "message_update/toolcall_input", "message_update/toolcall_result",
		"steered", "message_update/text_delta", "agent_end"}
	if diff := cmp.Diff(want, events(fromA)); diff != "" {
		t.Errorf("a's events (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, events(fromB)); diff != "" {
		t.Errorf("b's events (-want +got):\n%s", diff)
	}
	if reqs := model.Requests(); len(reqs) != 2 || !strings.Contains(strings.Join(reqs[1].Messages[2].Blocks, "|"), "text: from b") {
		t.Errorf("requests: %+v", reqs)
	}
	// A client that goes mid-turn leaves the turn running for the rest.
	a.c.Close(websocket.StatusNormalClosure, "bye")
	b.send(`{"type":"get_messages","id":"m"}`)
	got := b.until("response", "m")
	if n := len(got[len(got)-1]["messages"].([]any)); n != 4 {
		t.Errorf("%d messages, want 4", n)
	}
	if s.State().Busy {
		t.Error("session busy after the turn")
	}
}

// A frame over 1 MiB closes that client's connection (1009); the others
// and the session go on.
func TestOversizedFrame(t *testing.T) {
	web, _, _ := serve(t, Options{})
	a, _, err := dial(t, wsURL(web), bearer(token))
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := dial(t, wsURL(web), bearer(token))
	if err != nil {
		t.Fatal(err)
	}
	a.c.Write(context.Background(), websocket.MessageText, []byte(`{"type":"prompt","id":"x","message":"`+strings.Repeat("x", 2<<20)+`"}`))
	for range a.frames {
	}
	b.send(`{"type":"get_state","id":"s"}`)
	if got := b.until("response", "s"); got[len(got)-1]["busy"] != false {
		t.Errorf("get_state after a's big frame: %v", got[len(got)-1])
	}
}

func TestNewRefusesNoToken(t *testing.T) {
	if _, err := New(nil, Options{}); err == nil {
		t.Error("New without a token")
	}
	if _, err := New(nil, Options{Token: "x", AllowOrigins: []string{"[bad"}}); err == nil || !strings.Contains(err.Error(), "--allow-origin") {
		t.Errorf("bad pattern: %v", err)
	}
}

// One client more than MaxClients is refused with 503; when one goes,
// the next gets in.
func TestMaxClients(t *testing.T) {
	web, _, _ := serve(t, Options{MaxClients: 1})
	a, _, err := dial(t, wsURL(web), bearer(token))
	if err != nil {
		t.Fatal(err)
	}
	if _, resp, err := dial(t, wsURL(web), bearer(token)); err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("second client: err %v resp %v; want 503", err, resp)
	}
	a.send(`{"type":"shutdown"}`)
	for range a.frames {
	}
	// The handler counts the connection out once it has closed it.
	for {
		c, resp, err := dial(t, wsURL(web), bearer(token))
		if err == nil {
			c.send(`{"type":"get_state","id":"s"}`)
			c.until("response", "s")
			return
		}
		if resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("after the first client went: %v", err)
		}
	}
}
