package transport

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/llm/sse"
)

// A body in parts reaches the server whole, with its length, and a retry
// sends the same bytes again (the parts are not used up by the first
// attempt).
func TestBodyInPartsIsSentWholeAndAgainOnRetry(t *testing.T) {
	var mu sync.Mutex
	var got []string
	var lengths []int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got, lengths = append(got, string(b)), append(lengths, r.ContentLength)
		n := len(got)
		mu.Unlock()
		if n == 1 {
			http.Error(w, `{"error":{"type":"overloaded_error","message":"busy"}}`, 529)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: done\n\n")
	}))
	defer srv.Close()
	parts := [][]byte{[]byte(`{"a":`), []byte(`[1,2`), nil, []byte(`,3]`), []byte(`}`)}
	want := string(bytes.Join(parts, nil))
	_, err := Stream(context.Background(), Request{Provider: "anthropic", Endpoint: srv.URL, Body: parts, MaxRetries: 1, Backoff: Backoff{Base: 1}},
		nil, func(rd *sse.Reader, emit func(llm.Event), readErr func(error) error) (*llm.Response, error) {
			return &llm.Response{}, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != want || got[1] != want {
		t.Fatalf("bodies %q; want %q twice", got, want)
	}
	for _, n := range lengths {
		if n != int64(len(want)) {
			t.Errorf("Content-Length %d; want %d", n, len(want))
		}
	}
}

// Read fills small buffers across part boundaries.
func TestPartsReaderSmallReads(t *testing.T) {
	r := &partsReader{parts: [][]byte{[]byte("ab"), nil, []byte("cde"), []byte("f")}}
	var sb strings.Builder
	buf := make([]byte, 2)
	for {
		n, err := r.Read(buf)
		sb.Write(buf[:n])
		if err == io.EOF {
			break
		}
	}
	if sb.String() != "abcdef" {
		t.Errorf("read %q", sb.String())
	}
}
