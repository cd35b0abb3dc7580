package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/synaps-cli/synaps/internal/safefile/fifotest"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	if err := fifotest.Make(fifo); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		want    string
		cut     bool
		errHas  string
		notReg  bool
		missing bool
	}{
		{name: "small", path: write("a", "hello"), want: "hello"},
		{name: "exactly the limit", path: write("b", "12345678"), want: "12345678"},
		{name: "cut", path: write("c", "123456789abc"), want: "12345678", cut: true},
		{name: "dev zero", path: zero, errHas: "a device", notReg: true},
		{name: "fifo", path: fifo, errHas: "a FIFO", notReg: true},
		{name: "directory", path: dir, errHas: "a directory", notReg: true},
		{name: "missing", path: filepath.Join(dir, "nope"), missing: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, cut, err := Read(tt.path, 8)
			if tt.errHas != "" || tt.missing {
				if err == nil {
					t.Fatalf("no error, read %d bytes", len(data))
				}
				if !strings.Contains(err.Error(), tt.errHas) || !strings.Contains(err.Error(), tt.path) {
					t.Errorf("error %q does not name %q and %q", err, tt.path, tt.errHas)
				}
				if got := errors.Is(err, ErrNotRegular); got != tt.notReg {
					t.Errorf("errors.Is(ErrNotRegular) = %v", got)
				}
				if got := errors.Is(err, fs.ErrNotExist); got != tt.missing {
					t.Errorf("errors.Is(fs.ErrNotExist) = %v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(data)); diff != "" || cut != tt.cut {
				t.Errorf("cut %v, data (-want +got):\n%s", cut, diff)
			}
		})
	}
}

func TestReadAllNamesTheBound(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(p, make([]byte, 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadAll(p, 1024)
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "1 KiB") {
		t.Fatalf("err = %v, want one naming %s and 1 KiB", err, p)
	}
}
