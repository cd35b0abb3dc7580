package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The linker drops the methods no one can call, unless something reachable
// calls reflect's Method or MethodByName with a name it cannot see at
// build time (text/template's field lookup does, html/template too): from
// then on it keeps every exported method of every type that is converted
// to an interface. For synaps that was about 5 MB of its 28 MB (issue 15:
// the binary must stay ≤ 25 MB as `go build` makes it). This test links
// synaps and fails when anything marked <ReflectMethod> is reachable,
// naming what reaches it.
func TestNothingReachableCallsMethodByName(t *testing.T) {
	if testing.Short() {
		t.Skip("links the whole binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go not on PATH")
	}
	// go test caches a result by the files the test touched; the build's
	// inputs are the module's sources, so touch them all.
	err = filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".go") || d.Name() == "go.mod" || d.Name() == "go.sum") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goBin, "build", "-o", filepath.Join(t.TempDir(), "synaps"), "-ldflags=-dumpdep", ".")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -ldflags=-dumpdep: %v\n%.2000s", err, out)
	}
	var found []string
	for line := range strings.Lines(string(out)) {
		// "caller -> callee <ReflectMethod>": what reaches such a call.
		if line = strings.TrimSpace(line); strings.HasSuffix(line, "<ReflectMethod>") {
			found = append(found, line)
		}
	}
	if len(found) > 0 {
		if len(found) > 20 {
			found = append(found[:20], "…")
		}
		t.Errorf("reachable code calls reflect's Method/MethodByName (a template engine?), which keeps every exported method in the binary; edges, caller -> callee:\n%s\nsee `go build -ldflags=-dumpdep ./cmd/synaps` for the whole graph", strings.Join(found, "\n"))
	}
}
