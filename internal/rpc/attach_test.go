package rpc

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/synaps-cli/synaps/internal/host"
	"github.com/synaps-cli/synaps/internal/host/hosttest"
)

// attachFrame is a prompt frame naming path n times.
func attachFrame(id, path string, n int) string {
	atts := make([]string, n)
	for i := range atts {
		atts[i] = fmt.Sprintf(`{"path":%q}`, path)
	}
	return fmt.Sprintf(`{"type":"prompt","id":%q,"message":"look","attachments":[%s]}`, id, strings.Join(atts, ","))
}

// A frame of a few KB can name one picture hundreds of times; each copy
// was read and base64-encoded (400 copies of a 3 MB picture: past
// 1.5 GB). A message takes at most host.MaxAttachments attachments and
// host.MaxAttachmentBytes of them in all, checked before a file is read:
// more is an error frame naming the limit, and nothing reaches the model.
func TestPromptAttachmentsAreBounded(t *testing.T) {
	s, srv := open(t, hosttest.Reply{Text: "seen"})
	dir := s.App().WorkDir
	// Real pictures (synaps checks each before it enters the
	// conversation): a 2×2 PNG, and the same with 2 MB after its end.
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	small := buf.Bytes()
	big := append(append([]byte(nil), small...), make([]byte, 2<<20)...)
	os.WriteFile(filepath.Join(dir, "small.png"), small, 0o644)
	os.WriteFile(filepath.Join(dir, "big.png"), big, 0o644)
	p := newPeer(t, s)

	p.send(attachFrame("many", "small.png", 400))
	if got := p.refusal("many"); !strings.Contains(got, fmt.Sprintf("400 attachments: a message takes at most %d", host.MaxAttachments)) {
		t.Errorf("400 attachments: error %q, want one naming the limit of %d", got, host.MaxAttachments)
	}
	p.send(attachFrame("heavy", "big.png", 11)) // 22 MB
	if got := p.refusal("heavy"); !strings.Contains(got, fmt.Sprintf("at most %d MB of attachments in all", host.MaxAttachmentBytes>>20)) {
		t.Errorf("11 × 2 MB: error %q, want one naming the limit of %d MB", got, host.MaxAttachmentBytes>>20)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests reached the model; want none", n)
	}

	// Within the limits, the pictures are sent. (Two: a message's record
	// in the session file holds at most session.MaxRecord, 8 MiB, and
	// what does not fit is not sent either.)
	p.send(attachFrame("ok", "big.png", 2))
	p.until("response", "ok")
	p.send(attachFrame("count", "small.png", host.MaxAttachments))
	p.until("response", "count")
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests; want 2", len(reqs))
	}
	images := func(blocks []string) (n int) {
		for _, b := range blocks {
			if b == "image" {
				n++
			}
		}
		return n
	}
	last := func(i int) []string { m := reqs[i].Messages; return m[len(m)-1].Blocks }
	if diff := cmp.Diff([]int{2, host.MaxAttachments}, []int{images(last(0)), images(last(1))}); diff != "" {
		t.Errorf("images sent (-want +got):\n%s", diff)
	}
}

// refusal reads frames up to the first error or response with id and
// returns the error's message; a response (the prompt was taken) is
// "accepted".
func (p *peer) refusal(id string) string {
	p.t.Helper()
	for {
		f := p.next()
		if f["id"] != id {
			continue
		}
		switch f["type"] {
		case "error":
			return f["message"].(string)
		case "response":
			if f["ok"] == true {
				return "accepted"
			}
		}
	}
}
