// Package server serves a session's rpc frames over WebSocket (`synaps
// server`): any number of clients, each a client of the same
// host.Session, so every one sees every event of the session. A
// connection must carry the server's token, and a browser page of
// another origin is refused unless allowed.
package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/rpc"
)

// WriteTimeout bounds sending one frame to a client: a client that does
// not read for that long is disconnected, never waited for.
const WriteTimeout = 10 * time.Second

// Options shape a server.
type Options struct {
	// Token is required of every connection (Authorization: Bearer, or
	// ?token=). It must not be empty.
	Token string
	// AllowOrigins are host patterns (path.Match, as "localhost:3000",
	// "*.example.com", or with a scheme "https://app.example.com") of
	// browser pages let in besides the server's own origin.
	AllowOrigins []string
	// MaxClients bounds the connections open at once (0: DefaultMaxClients);
	// one more is refused with 503.
	MaxClients int
	// Log hears connections coming and going; nil: nothing.
	Log io.Writer
}

// DefaultMaxClients is how many clients a server takes at once unless
// told otherwise: many more than people watch one session, few enough
// that a runaway script cannot exhaust the process.
const DefaultMaxClients = 64

// Server is an http.Handler for one session's WebSocket clients.
type Server struct {
	s    *host.Session
	opts Options
	n    atomic.Int64
	// open counts the connections being served.
	open atomic.Int64
	wg   sync.WaitGroup
	// ctx ends every connection (Close).
	ctx    context.Context
	cancel context.CancelFunc
}

// New returns a server of s. It refuses an empty token.
func New(s *host.Session, o Options) (*Server, error) {
	if o.Token == "" {
		return nil, errors.New("server: a token is required")
	}
	for _, p := range o.AllowOrigins {
		if _, err := path.Match(p, ""); err != nil {
			return nil, fmt.Errorf("--allow-origin %q is not a valid pattern: %v", p, err)
		}
	}
	if o.MaxClients <= 0 {
		o.MaxClients = DefaultMaxClients
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Server{s: s, opts: o, ctx: ctx, cancel: cancel}, nil
}

// NewToken is a random token for a server started without one.
func NewToken() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// ServeHTTP checks the token and the origin, then speaks rpc frames with
// the client until it goes (or the server closes). A client that goes
// leaves the session and its turn running.
func (sv *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !sv.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="synaps"`)
		http.Error(w, "a valid token is required: send Authorization: Bearer TOKEN or ?token=TOKEN (it is in the file synaps server named, or the one given with --token-file, or $SYNAPS_SERVER_TOKEN)", http.StatusUnauthorized)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !sv.originAllowed(r, origin) {
		http.Error(w, fmt.Sprintf("origin %s is not allowed; start synaps server with --allow-origin %s to let its pages in", origin, hostOf(origin)), http.StatusForbidden)
		return
	}
	if sv.open.Add(1) > int64(sv.opts.MaxClients) {
		sv.open.Add(-1)
		http.Error(w, fmt.Sprintf("too many clients: this server takes %d at once; try again when one has gone", sv.opts.MaxClients), http.StatusServiceUnavailable)
		return
	}
	defer sv.open.Add(-1)
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: sv.opts.AllowOrigins})
	if err != nil {
		return // Accept answered the request
	}
	sv.wg.Add(1)
	defer sv.wg.Done()
	c.SetReadLimit(rpc.MaxFrame)
	n := sv.n.Add(1)
	sv.logf("client %d connected from %s", n, r.RemoteAddr)
	err = rpc.Serve(sv.ctx, sv.s, wsConn{c}, rpc.Options{Name: fmt.Sprintf("ws%d", n)})
	switch status := websocket.CloseStatus(err); {
	case err == nil:
		c.Close(websocket.StatusNormalClosure, "shutdown")
	case status == websocket.StatusNormalClosure || status == websocket.StatusGoingAway:
	case status == websocket.StatusMessageTooBig:
		sv.logf("client %d sent a frame over %d bytes and was disconnected", n, rpc.MaxFrame)
	default:
		c.CloseNow()
	}
	sv.logf("client %d disconnected", n)
}

// Close ends every connection and waits for them.
func (sv *Server) Close() {
	sv.cancel()
	sv.wg.Wait()
}

func (sv *Server) authorized(r *http.Request) bool {
	got := r.URL.Query().Get("token")
	if h, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		got = strings.TrimSpace(h)
	}
	if got == "" {
		return false
	}
	// Compared as SHA-256 digests, in constant time: neither the bytes
	// nor the length of the token leak through the time a refusal takes.
	a, b := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(sv.opts.Token))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// originAllowed: the server's own origin, or one AllowOrigins matches.
func (sv *Server) originAllowed(r *http.Request, origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	for _, p := range sv.opts.AllowOrigins {
		target := u.Host
		if strings.Contains(p, "://") {
			target = u.Scheme + "://" + u.Host
		}
		if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(target)); ok {
			return true
		}
	}
	return false
}

func hostOf(origin string) string {
	if u, err := url.Parse(origin); err == nil && u.Host != "" {
		return u.Host
	}
	return origin
}

func (sv *Server) logf(format string, args ...any) {
	if sv.opts.Log != nil {
		fmt.Fprintf(sv.opts.Log, "synaps server: "+format+"\n", args...)
	}
}

// wsConn carries rpc frames as WebSocket messages.
type wsConn struct{ c *websocket.Conn }

func (w wsConn) ReadFrame(ctx context.Context) ([]byte, error) {
	_, data, err := w.c.Read(ctx)
	return data, err
}

func (w wsConn) WriteFrame(ctx context.Context, frame []byte) error {
	ctx, cancel := context.WithTimeout(ctx, WriteTimeout)
	defer cancel()
	return w.c.Write(ctx, websocket.MessageText, frame)
}
