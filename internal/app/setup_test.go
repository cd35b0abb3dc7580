package app

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/synaps-cli/synaps/internal/plugin"
)

type archiveFile struct {
	name string
	mode int64
	body string
	link bool
}

func tarGz(t *testing.T, files []archiveFile) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for _, f := range files {
		h := &tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.body)), Typeflag: tar.TypeReg}
		if f.link {
			h = &tar.Header{Name: f.name, Linkname: "/etc/passwd", Typeflag: tar.TypeSymlink}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if !f.link {
			tw.Write([]byte(f.body))
		}
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

func zipped(t *testing.T, files []archiveFile) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.name}
		h.SetMode(os.FileMode(f.mode))
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(f.body))
	}
	zw.Close()
	return buf.Bytes()
}

// TestInstallPrebuilt: this platform's archive, found in the plugin, is
// checked against its SHA-256 and unpacked so the command exists; a
// wrong digest, an entry that leaves the plugin, a link or an archive
// without the command installs nothing; a remote URL is a note.
func TestInstallPrebuilt(t *testing.T) {
	good := []archiveFile{{name: "bin/tool", mode: 0o755, body: "#!/bin/sh\n"}}
	tests := []struct {
		name    string
		archive string // file name in dist/
		data    []byte
		sha     string // "" = the data's
		url     string // "" = dist/<archive>
		want    string // substring of the error or note; "" = installed
		note    bool
	}{
		{name: "tar.gz", archive: "x.tar.gz", data: tarGz(t, good)},
		{name: "tgz", archive: "x.tgz", data: tarGz(t, good)},
		{name: "zip", archive: "x.zip", data: zipped(t, good)},
		{name: "a bare binary", archive: "tool", data: []byte("#!/bin/sh\n")},
		{name: "digest differs", archive: "x.tar.gz", data: tarGz(t, good), sha: strings.Repeat("0", 64), want: "but the manifest says 0000"},
		{name: "entry climbs out", archive: "x.tar.gz", data: tarGz(t, []archiveFile{{name: "../evil", mode: 0o644, body: "x"}}), want: `entry "../evil" climbs out of the plugin`},
		{name: "symlink entry", archive: "x.tar.gz", data: tarGz(t, []archiveFile{{name: "bin/tool", link: true}}), want: "links are not unpacked"},
		{name: "command missing from the archive", archive: "x.zip", data: zipped(t, []archiveFile{{name: "README", mode: 0o644, body: "x"}}), want: "does not hold bin/tool"},
		{name: "not executable", archive: "x.tar.gz", data: tarGz(t, []archiveFile{{name: "bin/tool", mode: 0o644, body: "x"}}), want: "is not executable"},
		{name: "remote", url: "https://example.com/x.tar.gz", want: "synaps does not download prebuilt binaries", note: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, dst := t.TempDir(), t.TempDir()
			url := tc.url
			if url == "" {
				url = "dist/" + tc.archive
				os.MkdirAll(filepath.Join(src, "dist"), 0o755)
				if err := os.WriteFile(filepath.Join(src, url), tc.data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sha := tc.sha
			if sha == "" {
				s := sha256.Sum256(tc.data)
				sha = hex.EncodeToString(s[:])
			}
			ext := &plugin.ExtensionManifest{Command: "bin/tool", Prebuilt: map[string]plugin.Prebuilt{plugin.HostTriple(): {URL: url, SHA256: sha}}}
			ok, note, err := installPrebuilt(src, dst, ext)
			got := note
			if err != nil {
				got = err.Error()
			}
			if tc.want == "" {
				if err != nil || !ok {
					t.Fatalf("installed = %v, err = %v, note %q", ok, err, note)
				}
				if info, err := os.Stat(filepath.Join(dst, "bin/tool")); err != nil || info.Mode().Perm()&0o100 == 0 {
					t.Fatalf("bin/tool: %v %v", info, err)
				}
				return
			}
			if ok || !strings.Contains(got, tc.want) || (tc.note != (err == nil)) {
				t.Errorf("installed %v, err %v, note %q; want %q", ok, err, note, tc.want)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(dst), "evil")); err == nil {
				t.Error("an entry was written outside the plugin")
			}
		})
	}
}

// TestSetupFailureKeepsThePlugin: a failing setup script is a
// *SetupError after the install, its output passed on.
func TestSetupFailureKeepsThePlugin(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no bash")
	}
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(filepath.Join(src, plugin.ManifestDir), 0o755)
	os.WriteFile(filepath.Join(src, plugin.ManifestDir, plugin.ManifestFile), []byte(`{"name":"builds","extension":{"command":"bin/x","permissions":["tools.register"],"setup":"setup.sh"}}`), 0o644)
	os.WriteFile(filepath.Join(src, "setup.sh"), []byte("echo compiling; echo broken >&2; exit 4\n"), 0o644)
	base := t.TempDir()
	var out bytes.Buffer
	res, err := Install(context.Background(), base, src, InstallOptions{Output: &out})
	var se *SetupError
	if !errors.As(err, &se) || res == nil || res.ID != "builds" {
		t.Fatalf("res %+v, err %v", res, err)
	}
	if !strings.Contains(out.String(), "compiling\nbroken\n") || !strings.Contains(err.Error(), "exit status 4") {
		t.Errorf("output %q, err %v", out.String(), err)
	}
	if _, err := os.Stat(filepath.Join(base, "plugins", "builds", "setup.sh")); err != nil {
		t.Errorf("the plugin was not kept: %v", err)
	}
}

// TestSidecarSetupRuns: without extension.setup, provides.sidecar.setup
// is the one that runs at install.
func TestSidecarSetupRuns(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no bash")
	}
	src := filepath.Join(t.TempDir(), "src")
	os.MkdirAll(filepath.Join(src, plugin.ManifestDir), 0o755)
	os.WriteFile(filepath.Join(src, plugin.ManifestDir, plugin.ManifestFile), []byte(`{"name":"sc","provides":{"sidecar":{"command":"bin/sc","setup":"build.sh"}}}`), 0o644)
	os.WriteFile(filepath.Join(src, "build.sh"), []byte("echo built > built.txt\n"), 0o644)
	base := t.TempDir()
	if _, err := Install(context.Background(), base, src, InstallOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(base, "plugins", "sc", "built.txt")); err != nil || string(b) != "built\n" {
		t.Errorf("built.txt = %q, %v", b, err)
	}
}
