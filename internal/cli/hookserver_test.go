package cli

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdHookserve is `hookserve FILE...`: a loopback HTTP server for Claude
// Code http hooks, run in the test process for the rest of the script.
// $HOOKURL is its address, and each FILE has "$HOOKURL" replaced by it
// (a hooks file cannot read the environment). A POST to /NAME is
// appended to $WORK/NAME.req (its X-* and Authorization headers, sorted,
// then the body and a newline) and answered with the status in
// $WORK/NAME.status (default 200) and the body in $WORK/NAME.body
// (default none), after the milliseconds in $WORK/NAME.delay.
func cmdHookserve(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! hookserve")
	}
	work := ts.Getenv("WORK")
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(work, name))
		return strings.TrimSpace(string(b))
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.Trim(r.URL.Path, "/")
		body, _ := io.ReadAll(r.Body)
		var head []string
		for k, v := range r.Header {
			if strings.HasPrefix(k, "X-") || k == "Authorization" || k == "Content-Type" {
				head = append(head, k+": "+strings.Join(v, ","))
			}
		}
		sort.Strings(head)
		f, err := os.OpenFile(filepath.Join(work, name+".req"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%s %s\n%s\n%s\n", r.Method, r.URL.Path, strings.Join(head, "\n"), body)
			f.Close()
		}
		if ms, err := strconv.Atoi(read(name + ".delay")); err == nil {
			select {
			case <-time.After(time.Duration(ms) * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
		status := http.StatusOK
		if s, err := strconv.Atoi(read(name + ".status")); err == nil {
			status = s
		}
		w.WriteHeader(status)
		b, _ := os.ReadFile(filepath.Join(work, name+".body"))
		w.Write(b)
	}))
	ts.Defer(srv.Close)
	ts.Setenv("HOOKURL", srv.URL)
	for _, file := range args {
		path := ts.MkAbs(file)
		b, err := os.ReadFile(path)
		ts.Check(err)
		ts.Check(os.WriteFile(path, []byte(strings.ReplaceAll(string(b), "$HOOKURL", srv.URL)), 0o644))
	}
}
