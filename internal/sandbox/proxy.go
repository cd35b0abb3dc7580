package sandbox

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// proxy is the only way out of a confined process's network namespace: an
// HTTP proxy on a unix socket that serves CONNECT (HTTPS and any TCP
// protocol a client tunnels) and plain HTTP requests in absolute form, to
// the hosts its Network allows. A refused host gets 403 with the reason,
// and a line to log.
type proxy struct {
	net     Network
	setting string
	log     func(string)
	dir     string
	socket  string
	l       net.Listener
	once    sync.Once
}

// startProxy listens on a fresh socket in a private directory.
func startProxy(n Network, setting string, log func(string)) (*proxy, error) {
	dir, err := os.MkdirTemp("", "synaps-proxy-")
	if err != nil {
		return nil, fmt.Errorf("sandbox proxy: %w", err)
	}
	sock := filepath.Join(dir, "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("sandbox proxy: %w", err)
	}
	if log == nil {
		log = func(string) {}
	}
	p := &proxy{net: n, setting: setting, log: log, dir: dir, socket: sock, l: l}
	go p.serve()
	return p, nil
}

func (p *proxy) close() {
	p.once.Do(func() {
		p.l.Close()
		os.RemoveAll(p.dir)
	})
}

func (p *proxy) serve() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		go p.handle(c)
	}
}

// refusal is the text of a refused host, for the log and the 403 body.
func (p *proxy) refusal(host string) string {
	msg := "blocked by the sandbox: connection to " + host + ", a host not allowed"
	if p.setting != "" {
		msg += " (" + p.setting + ")"
	}
	return msg
}

func (p *proxy) handle(c net.Conn) {
	defer c.Close()
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	host := req.Host
	if req.Method != http.MethodConnect {
		if req.URL.Host == "" {
			io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n") //nolint:errcheck
			return
		}
		host = req.URL.Host
	}
	dialHost := host
	if _, _, err := net.SplitHostPort(host); err != nil {
		port := "80"
		if req.Method == http.MethodConnect || req.URL.Scheme == "https" {
			port = "443"
		}
		dialHost = net.JoinHostPort(host, port)
	}
	if !p.net.Allows(dialHost) {
		msg := p.refusal(dialHost)
		p.log(msg)
		fmt.Fprintf(c, "HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s\n", len(msg)+1, msg)
		return
	}
	up, err := net.DialTimeout("tcp", dialHost, 30*time.Second)
	if err != nil {
		msg := "cannot reach " + dialHost + ": " + err.Error()
		fmt.Fprintf(c, "HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s\n", len(msg)+1, msg)
		return
	}
	defer up.Close()
	if req.Method == http.MethodConnect {
		io.WriteString(c, "HTTP/1.1 200 Connection Established\r\n\r\n") //nolint:errcheck
		// Bytes the client sent after the request are in br.
		go func() { io.Copy(up, br); closeWrite(up) }() //nolint:errcheck
		io.Copy(c, up)                                  //nolint:errcheck
		return
	}
	// Plain HTTP: one request per connection, in origin form upstream.
	req.RequestURI = ""
	req.Header.Del("Proxy-Connection")
	req.Header.Del("Proxy-Authorization")
	req.Close = true
	if err := req.Write(up); err != nil {
		return
	}
	io.Copy(c, up) //nolint:errcheck
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite() //nolint:errcheck
	}
}

// HostPattern checks one allow/deny entry, for config and manifest
// validation: a host name, *.domain, either with :port.
func HostPattern(s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		return fmt.Errorf("an empty host")
	}
	if strings.Contains(s, "://") || strings.ContainsAny(s, "/ ") {
		return fmt.Errorf("%q is not a host name; write only the host, such as api.github.com or *.example.com", s)
	}
	name, port := splitHostPort(s)
	if rest, ok := strings.CutPrefix(name, "*."); ok {
		name = rest
	}
	if name == "" || strings.Contains(name, "*") {
		return fmt.Errorf("%q: a wildcard is only *.domain", s)
	}
	if port != "" {
		for _, r := range port {
			if r < '0' || r > '9' {
				return fmt.Errorf("%q: the port must be a number", s)
			}
		}
	}
	return nil
}
