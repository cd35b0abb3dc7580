package agent

import (
	"errors"
	"fmt"
	"strings"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/picture"
	"github.com/synaps-cli/synaps/internal/tool"
)

// Pictures are checked where they enter the conversation (a tool's
// result — read, MCP, an extension — and a user's attachment) and bounded
// in every request. A picture the API refuses fails the whole request,
// and once saved it is re-sent with every later one: before, one junk PNG
// or an 8001 px screenshot made every --continue of the session fail.

// checkedPictures returns the pictures that pass picture.Check, and a
// note for the model on each that does not (what it was, and why).
func checkedPictures(images []llm.Image) (ok []llm.Image, notes []string) {
	for i, im := range images {
		if im.MediaType == "application/pdf" {
			ok = append(ok, im)
			continue
		}
		if _, _, err := picture.Check(im.MediaType, im.Data); err != nil {
			notes = append(notes, fmt.Sprintf("[picture %d (%s) not attached: %v]", i+1, im.MediaType, err))
			continue
		}
		ok = append(ok, im)
	}
	return ok, notes
}

// droppedNote replaces a picture a request leaves out.
const droppedNote = "[an earlier picture is left out: one request holds at most %d pictures and %d MB of them, so the oldest beyond that are dropped; read the file again if it is needed]"

// boundPictures returns msgs with at most picture.PerRequest pictures and
// picture.RequestBytes of them, the newest kept: each older one becomes a
// note. The session's messages are not changed (copy on write). Every
// picture of the first refused messages is dropped: the API refused a
// request holding them for its content (refusedForPictures). The first
// free messages are known to hold no picture, and are not looked at.
func boundPictures(msgs []llm.Message, refused, free int) []llm.Message {
	count, size := 0, 0
	var out []llm.Message
	for i := len(msgs) - 1; i >= free; i-- {
		m := &msgs[i]
		all := i < refused
		var blocks []llm.Block
		for j := len(m.Content) - 1; j >= 0; j-- {
			// Looked at in place: a Block is large, and a long session's
			// thousands have no picture (a copy of each was most of this
			// walk's cost, every request).
			if len(m.Content[j].Images) == 0 || m.Content[j].Type == llm.BlockDocument {
				continue
			}
			b := m.Content[j]
			var kept []llm.Image
			dropped := 0
			for _, im := range b.Images {
				if !all && count < picture.PerRequest && size+len(im.Data) <= picture.RequestBytes {
					count++
					size += len(im.Data)
					kept = append(kept, im)
					continue
				}
				dropped++
			}
			if dropped == 0 {
				continue
			}
			if blocks == nil {
				blocks = append([]llm.Block(nil), m.Content...)
			}
			note := fmt.Sprintf(droppedNote, picture.PerRequest, picture.RequestBytes>>20)
			if all {
				note = "[a picture is left out: the model API refused a request holding it]"
			}
			note = strings.Repeat(note+"\n", dropped)
			switch b.Type {
			case llm.BlockImage:
				blocks[j] = llm.Block{Type: llm.BlockText, Text: strings.TrimSpace(note)}
			default:
				b.Images = kept
				b.Content = strings.TrimSpace(b.Content + "\n" + note)
				blocks[j] = b
			}
		}
		if blocks != nil {
			if out == nil {
				out = append([]llm.Message(nil), msgs...)
			}
			out[i].Content = blocks
		}
	}
	if out == nil {
		return msgs
	}
	return out
}

// boundPictures is boundPictures for this agent's next request. When it
// leaves pictures out, the prefix's encodings (which may hold them) are
// forgotten: the prefix knows a changed message only by the last one.
func (a *Agent) boundPictures(view []llm.Message) []llm.Message {
	msgs := boundPictures(view, a.refusedPictures, min(a.cfg.Session.PictureFree(), len(view)))
	if len(msgs) > 0 && &msgs[0] != &view[0] {
		a.prefix.Reset()
	}
	return msgs
}

// refusedForPictures reports whether err is the API refusing a request
// for a picture in it (HTTP 400 naming an image): the request is made
// again without pictures, so that the session stays usable.
func refusedForPictures(err error) bool {
	var api *llm.APIError
	if !errors.As(err, &api) || api.Status != 400 {
		return false
	}
	msg := strings.ToLower(api.Message)
	return strings.Contains(msg, "image")
}

// retryWithoutPictures is told of a failed request of n messages: when
// the API refused it for a picture, the pictures of those messages are
// left out from now on (a note each) and it says to make the request
// again. Once per refusal that changes something: a request refused with
// no pictures left is a plain error.
func (a *Agent) retryWithoutPictures(err error, n int) bool {
	if !refusedForPictures(err) || n <= a.refusedPictures || !hasPictures(a.cfg.Session.View()[a.refusedPictures:n]) {
		return false
	}
	a.refusedPictures = n
	a.emit(Event{Type: EventNotice, Text: fmt.Sprintf("the model API refused the request for a picture in it (%v); the conversation's pictures so far are left out and the request is made again", err)})
	return true
}

func hasPictures(msgs []llm.Message) bool {
	for i := range msgs {
		for j := range msgs[i].Content {
			if b := &msgs[i].Content[j]; len(b.Images) > 0 && b.Type != llm.BlockDocument {
				return true
			}
		}
	}
	return false
}

// attach adds the pictures and PDFs the user attached to their message;
// a picture a model API would refuse is a note instead, to the model and
// the user.
func (a *Agent) attach(user *llm.Message, images []llm.Image) {
	images, notes := checkedPictures(images)
	for _, n := range notes {
		user.Content = append(user.Content, llm.Block{Type: llm.BlockText, Text: n})
		a.emit(Event{Type: EventNotice, Text: n})
	}
	for _, im := range images {
		kind := llm.BlockImage
		if im.MediaType == "application/pdf" {
			kind = llm.BlockDocument
		}
		user.Content = append(user.Content, llm.Block{Type: kind, Images: []llm.Image{im}})
	}
}

// withPictures is a tool result block with the result's pictures that
// pass picture.Check; each other one is a note in its text.
func withPictures(b llm.Block, images []tool.Image) llm.Block {
	var all []llm.Image
	for _, im := range images {
		all = append(all, llm.Image{MediaType: im.MediaType, Data: im.Data})
	}
	var notes []string
	b.Images, notes = checkedPictures(all)
	if len(notes) > 0 {
		b.Content = strings.TrimSpace(b.Content + "\n" + strings.Join(notes, "\n"))
	}
	return b
}
