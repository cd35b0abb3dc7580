package acp

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The SDK reads exactly what the editor wrote, whatever the line
// lengths: a line longer than the read buffer, a last line with no
// newline, blank lines and noise.
func TestInflightPassesInputThrough(t *testing.T) {
	long := `{"jsonrpc":"2.0","method":"session/cancel","params":{"x":"` + strings.Repeat("a", 200<<10) + `"}}`
	in := "\n" + long + "\nnot json\n" + `{"jsonrpc":"2.0","method":"n"}`
	f := newInflight(strings.NewReader(in), io.Discard)
	got, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, []byte(in)) {
		t.Errorf("read %d bytes, want the %d written", len(got), len(in))
	}
}

// At the end of input, the EOF waits for the answer to every request
// read, the last one too when it has no newline; synaps's own requests
// meanwhile are answered with an error.
func TestInflightHoldsTheEndForAnswers(t *testing.T) {
	var out bytes.Buffer
	in := `{"jsonrpc":"2.0","id":1,"method":"initialize"}` + "\n" + `{"jsonrpc":"2.0","id":"p","method":"session/prompt"}`
	f := newInflight(strings.NewReader(in), &out)
	if _, err := io.ReadFull(f, make([]byte, len(in))); err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"))
	f.Write([]byte(`{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{}}` + "\n"))
	refused := make([]byte, 4096)
	n, err := f.Read(refused)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"the editor closed synaps's input (stdin), so session/request_permission cannot be answered"}}` + "\n"
	if diff := cmp.Diff(want, string(refused[:n])); diff != "" {
		t.Errorf("the made-up answer (-want +got):\n%s", diff)
	}
	done := make(chan error)
	go func() {
		_, err := f.Read(make([]byte, 10))
		done <- err
	}()
	f.Write([]byte(`{"jsonrpc":"2.0","id":"p","result":{"stopReason":"end_turn"}}` + "\n"))
	if err := <-done; err != io.EOF {
		t.Errorf("after the last answer, Read = %v, want EOF", err)
	}
}
