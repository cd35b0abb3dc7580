package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func open(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// Two opens of one file are two holders: an exclusive lock excludes any
// other, shared locks only the exclusive one; after the first holder lets
// go (Unlock or Close) the second gets what it asked for.
func TestHoldersExcludeEachOther(t *testing.T) {
	type take func(*os.File) error
	tests := []struct {
		name          string
		first, second take
		release       func(*os.File) error
		want          []bool // second's try: locked while the first holds, locked after the release
	}{
		{"exclusive then exclusive", TryLock, TryLock, Unlock, []bool{true, false}},
		{"exclusive then shared", TryLock, TryRLock, Unlock, []bool{true, false}},
		{"shared then exclusive", TryRLock, TryLock, Unlock, []bool{true, false}},
		{"shared then shared", TryRLock, TryRLock, Unlock, []bool{false, false}},
		{"waited-for exclusive then exclusive", Lock, TryLock, Unlock, []bool{true, false}},
		{"closing drops the lock", TryLock, TryLock, (*os.File).Close, []bool{true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.lock")
			a, b := open(t, path), open(t, path)
			if err := tt.first(a); err != nil {
				t.Fatalf("first holder: %v", err)
			}
			var got []bool
			err := tt.second(b)
			got = append(got, errors.Is(err, ErrLocked))
			if err == nil {
				Unlock(b)
			} else if !errors.Is(err, ErrLocked) {
				t.Fatalf("second holder: %v, want nil or ErrLocked", err)
			}
			if err := tt.release(a); err != nil {
				t.Fatalf("release: %v", err)
			}
			err = tt.second(b)
			got = append(got, errors.Is(err, ErrLocked))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("second holder locked out (-want +got):\n%s", diff)
			}
		})
	}
}

// Lock waits for the holder: it returns only after the holder's Unlock,
// which the waiter sees by finding the holder's write already done.
func TestLockWaitsForTheHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	a, b := open(t, path), open(t, path)
	if err := Lock(a); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		if err := Lock(b); err != nil {
			got <- err.Error()
			return
		}
		data, _ := os.ReadFile(path)
		got <- string(data)
	}()
	if _, err := a.WriteString("written under the lock"); err != nil {
		t.Fatal(err)
	}
	if err := Unlock(a); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "written under the lock" {
		t.Errorf("the waiter saw %q, want the holder's write", s)
	}
}

// A refusal names the file, so the caller's error says which lock.
func TestErrorNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "named.lock")
	a, b := open(t, path), open(t, path)
	if err := TryLock(a); err != nil {
		t.Fatal(err)
	}
	err := TryLock(b)
	if err == nil || err.Error() != path+": "+ErrLocked.Error() {
		t.Errorf("err = %v, want %q", err, path+": "+ErrLocked.Error())
	}
}

// An uncontended Lock and Unlock: what the memory store's append and the
// config writer pay per write (two system calls on Linux).
func BenchmarkLockUnlock(b *testing.B) {
	f, err := os.OpenFile(filepath.Join(b.TempDir(), "x.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	for b.Loop() {
		if err := Lock(f); err != nil {
			b.Fatal(err)
		}
		if err := Unlock(f); err != nil {
			b.Fatal(err)
		}
	}
}
