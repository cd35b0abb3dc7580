package app

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tarEntry is one entry of a test archive.
type tarEntry struct {
	name, body, link string
	typ              byte
}

func makeTarGz(t *testing.T, entries []tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		h := &tar.Header{Name: e.name, Typeflag: typ, Mode: 0o644, Size: int64(len(e.body)), Linkname: e.link}
		if typ != tar.TypeReg {
			h.Size = 0
		}
		if typ == tar.TypeDir {
			h.Mode = 0o755
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if typ == tar.TypeReg {
			tw.Write([]byte(e.body))
		}
	}
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func makeZip(t *testing.T, entries []tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		h.SetMode(0o644)
		if e.typ == tar.TypeSymlink {
			h.SetMode(os.ModeSymlink | 0o777)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e.body + e.link))
	}
	zw.Close()
	return buf.Bytes()
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestFetchArchive: a good archive unpacks (its single top directory is
// the plugin); a wrong digest, an entry that leaves the directory, a
// link, a device and an oversize archive are refused, each naming why.
func TestFetchArchive(t *testing.T) {
	files := map[string][]byte{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	defer srv.Close()
	plugin := []tarEntry{
		{name: "kit-1.0/", typ: tar.TypeDir},
		{name: "kit-1.0/.claude-plugin/plugin.json", body: `{"name":"kit"}`},
		{name: "kit-1.0/commands/go.md", body: "go"},
	}
	files["/good.tar.gz"] = makeTarGz(t, plugin)
	files["/good.zip"] = makeZip(t, plugin[1:])
	files["/dotdot.tar.gz"] = makeTarGz(t, []tarEntry{{name: "a/../../evil", body: "x"}})
	files["/abs.tar.gz"] = makeTarGz(t, []tarEntry{{name: "/etc/evil", body: "x"}})
	files["/symlink.tar.gz"] = makeTarGz(t, []tarEntry{{name: "x", typ: tar.TypeSymlink, link: "/etc/passwd"}})
	files["/hardlink.tar.gz"] = makeTarGz(t, []tarEntry{{name: "x", typ: tar.TypeLink, link: "../../etc/passwd"}})
	files["/device.tar.gz"] = makeTarGz(t, []tarEntry{{name: "x", typ: tar.TypeChar}})
	files["/dotdot.zip"] = makeZip(t, []tarEntry{{name: "../evil", body: "x"}})
	files["/symlink.zip"] = makeZip(t, []tarEntry{{name: "x", typ: tar.TypeSymlink, link: "/etc/passwd"}})
	files["/big.tar.gz"] = makeTarGz(t, []tarEntry{{name: "big", body: strings.Repeat("z", 4096)}})
	files["/many.tar.gz"] = makeTarGz(t, []tarEntry{{name: "a", body: "1"}, {name: "b", body: "2"}, {name: "c", body: "3"}})
	files["/notgz.tar.gz"] = []byte("plain text")

	for _, good := range []string{"/good.tar.gz", "/good.zip"} {
		tmp, dir, err := fetchArchive(context.Background(), &archiveSource{URL: srv.URL + good, SHA256: digest(files[good])})
		if err != nil {
			t.Fatalf("%s: %v", good, err)
		}
		b, err := os.ReadFile(filepath.Join(dir, ".claude-plugin", "plugin.json"))
		if d := cmp.Diff(`{"name":"kit"}`, string(b)); d != "" || err != nil {
			t.Errorf("%s: plugin.json (-want +got):\n%s %v", good, d, err)
		}
		os.RemoveAll(tmp)
	}

	scratch := t.TempDir()
	t.Setenv("TMPDIR", scratch)
	oldBytes, oldFiles := archiveMaxBytes, archiveMaxFiles
	archiveMaxBytes, archiveMaxFiles = 1024, 2
	defer func() { archiveMaxBytes, archiveMaxFiles = oldBytes, oldFiles }()
	bad := []struct{ path, sha, want string }{
		{"/good.tar.gz", strings.Repeat("0", 64), "sha256 is " + digest(files["/good.tar.gz"]) + ", but the marketplace pins 0000"},
		{"/dotdot.tar.gz", "", `entry "a/../../evil" leaves the archive's directory`},
		{"/abs.tar.gz", "", `entry "/etc/evil" leaves the archive's directory`},
		{"/symlink.tar.gz", "", `entry "x" is a link (to "/etc/passwd")`},
		{"/hardlink.tar.gz", "", `entry "x" is a link (to "../../etc/passwd")`},
		{"/device.tar.gz", "", `entry "x" is not a file or directory`},
		{"/dotdot.zip", "", `entry "../evil" leaves the archive's directory`},
		{"/symlink.zip", "", `entry "x" is a link`},
		{"/big.tar.gz", "", "unpacks to more than 0 MiB"},
		{"/many.tar.gz", "", "more than 2 entries"},
		{"/notgz.tar.gz", "", "not a gzip archive"},
		{"/missing.tar.gz", strings.Repeat("0", 64), "404 Not Found"},
	}
	for _, b := range bad {
		sha := b.sha
		if sha == "" {
			sha = digest(files[b.path])
		}
		tmp, _, err := fetchArchive(context.Background(), &archiveSource{URL: srv.URL + b.path, SHA256: sha})
		if err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: error %v, want one containing %q", b.path, err, b.want)
		}
		if tmp != "" {
			t.Errorf("%s: a temporary directory is left for a refused archive", b.path)
		}
	}
	if left, _ := os.ReadDir(scratch); len(left) != 0 {
		t.Errorf("refused archives left %d temporary directories", len(left))
	}
	// Bigger than the bound as downloaded.
	files["/huge.zip"] = bytes.Repeat([]byte("x"), 2048)
	if _, _, err := fetchArchive(context.Background(), &archiveSource{URL: srv.URL + "/huge.zip", SHA256: digest(files["/huge.zip"])}); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("huge download: %v", err)
	}
}

// TestEntryArchive: which sources are archives, and the errors of a bad
// one.
func TestEntryArchive(t *testing.T) {
	sum := strings.Repeat("ab", 32)
	tests := []struct {
		src    string
		isArch bool
		want   string
	}{
		{`"./plugins/x"`, false, ""},
		{`{"source":"github","repo":"o/r"}`, false, ""},
		{`{"source":"url","url":"https://h/r.git"}`, false, ""},
		{`{"source":"url","url":"https://h/x.tar.gz","sha256":"` + sum + `"}`, true, ""},
		{`{"source":"archive","url":"https://h/x","sha256":"sha256:` + sum + `"}`, true, ""},
		{`{"source":"url","url":"https://h/x.zip"}`, true, `needs "sha256"`},
		{`{"source":"archive","url":"ftp://h/x.zip","sha256":"` + sum + `"}`, true, `needs "url", an http(s) URL`},
		{`{"source":"archive","url":"https://h/x.zip","sha256":"` + sum + `","path":"../x"}`, true, `"path" "../x" must be a directory inside the archive`},
	}
	for _, tt := range tests {
		_, ok, err := entryArchive("m.json", "x", []byte(tt.src))
		if ok != tt.isArch {
			t.Errorf("%s: archive %v, want %v", tt.src, ok, tt.isArch)
		}
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: error %v, want %q", tt.src, err, tt.want)
		}
	}
}
