package transport

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The default client's requests reach a server as they did before
// gathered writes: bodies in parts of every size (a long conversation's
// megabytes too), a body that is not in parts, a request with no body,
// and one that waits for "100 Continue" (its head is not held back),
// all on one kept-alive connection.
func TestGatheredRequestsArriveWhole(t *testing.T) {
	type got struct {
		Method, Body string
		Length       int64
	}
	var seen []got
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		seen = append(seen, got{r.Method, string(b), r.ContentLength})
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	big := make([][]byte, 300)
	for i := range big {
		big[i] = bytes.Repeat([]byte{byte('a' + i%26)}, 10_000+i)
	}
	cases := []struct {
		name  string
		parts [][]byte
	}{
		{"small", [][]byte{[]byte(`{"a":`), nil, []byte(`1}`)}},
		{"one byte", [][]byte{[]byte("x")}},
		{"megabytes", big},
	}
	client := defaultClient()
	var want []got
	for _, c := range cases {
		resp, err := Post(context.Background(), client, "anthropic", srv.URL, http.Header{"Content-Type": {"text/plain"}}, c.parts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		body := string(bytes.Join(c.parts, nil))
		want = append(want, got{"POST", body, int64(len(body))})
	}
	for _, r := range []func() (*http.Request, error){
		func() (*http.Request, error) { return http.NewRequest("GET", srv.URL, nil) },
		func() (*http.Request, error) {
			return http.NewRequest("POST", srv.URL, strings.NewReader("plain body"))
		},
		func() (*http.Request, error) {
			req, err := http.NewRequest("PUT", srv.URL, io.NopCloser(strings.NewReader("after continue")))
			if req != nil {
				req.ContentLength = int64(len("after continue"))
				req.Header.Set("Expect", "100-continue")
			}
			return req, err
		},
	} {
		req, err := r()
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", req.Method, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		body := map[string]string{"GET": "", "POST": "plain body", "PUT": "after continue"}[req.Method]
		want = append(want, got{req.Method, body, int64(len(body))})
	}
	if d := cmp.Diff(want, seen); d != "" {
		t.Errorf("requests as the server saw them (-want +got):\n%s", d)
	}
}

// A request's head and its body in parts go out in one write system
// call (the body fits the socket's buffer), where net/http alone makes
// one for the head and one per 32 KiB of body. Counted in /proc/self/io
// (syscw); the fewest of a few tries, since the Go runtime makes writes
// of its own now and then.
func TestGatheredRequestIsOneWrite(t *testing.T) {
	if _, err := os.Stat("/proc/self/io"); err != nil {
		t.Skip("no /proc/self/io")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			io.Copy(io.Discard, c)
			c.Close()
		}
	}()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	conn := &gatherConn{Conn: raw}
	defer conn.Close()
	parts := make([][]byte, 40)
	size := 0
	for i := range parts {
		parts[i] = bytes.Repeat([]byte("x"), 2000)
		size += len(parts[i])
	}
	head := fmt.Sprintf("POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n", size)
	fewest := int64(1 << 30)
	for range 5 {
		before := writeCalls(t)
		if _, err := conn.Write([]byte(head)); err != nil {
			t.Fatal(err)
		}
		if n, err := conn.ReadFrom(io.LimitReader(&partsReader{parts: parts}, int64(size))); err != nil || n != int64(size) {
			t.Fatalf("ReadFrom = %d, %v; want %d", n, err, size)
		}
		fewest = min(fewest, writeCalls(t)-before)
	}
	if fewest != 1 {
		t.Errorf("a request of %d bytes took %d write calls at best, want 1", len(head)+size, fewest)
	}
}

func writeCalls(t *testing.T) int64 {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "syscw: "); ok {
			var n int64
			fmt.Sscan(v, &n)
			return n
		}
	}
	t.Fatal("no syscw in /proc/self/io")
	return 0
}

func TestHeadWithBody(t *testing.T) {
	for _, c := range []struct {
		head string
		want bool
	}{
		{"POST /v1/messages HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\n\r\n", true},
		{"POST /v1/messages HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n", false},
		{"GET / HTTP/1.1\r\nHost: a\r\n\r\n", false},
		{"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\nExpect: 100-continue\r\n\r\n", false},
		{"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", false},
		{"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\n\r\nbody", false},     // not a head alone
		{"\x17\x03\x03\x00\x10POST / HTTP/1.1\r\nContent-Length: 1\r\n\r\n", false}, // a TLS record
		{"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n", false},
	} {
		if got := headWithBody([]byte(c.head)); got != c.want {
			t.Errorf("headWithBody(%q) = %v, want %v", c.head, got, c.want)
		}
	}
}
