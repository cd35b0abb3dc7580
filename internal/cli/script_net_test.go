package cli

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdHTTPServe is `httpserve NAME`: serve HTTP on a loopback port until
// the script ends, answering "served PATH" for every path, and set
// $NAME_PORT to the port — a server the sandbox's network tests try to
// reach (by a name their policy allows, by one it does not, and around
// the proxy).
func cmdHTTPServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: httpserve NAME")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "served "+r.URL.Path+"\n")
	}))
	ts.Defer(srv.Close)
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	if err != nil {
		ts.Fatalf("httpserve: %v", err)
	}
	ts.Setenv(strings.ToUpper(args[0])+"_PORT", port)
}

// cmdFileServe is `fileserve NAME DIR`: serve DIR's files over HTTP on a
// loopback port until the script ends, and set $NAME_URL to its root
// (without a trailing slash).
func cmdFileServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: fileserve NAME DIR")
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(ts.MkAbs(args[1]))))
	ts.Defer(srv.Close)
	ts.Setenv(strings.ToUpper(args[0])+"_URL", srv.URL)
}
