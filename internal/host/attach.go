package host

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/llm"
)

// Attachment is a file sent with a message, by path (rpc's and server's
// prompt attachments). Name, when set, is what the model is told the
// file is called; MIME is a hint the host checks against the content.
type Attachment struct {
	Path string `json:"path"`
	Name string `json:"name,omitempty"`
	MIME string `json:"mime,omitempty"`
}

// Limits of what is attached: a picture as Anthropic takes one (5 MB
// once base64-encoded), a PDF as the APIs take one, a text file as a
// message should carry (more is better read by the model's tools).
const (
	maxPicture = 3750 << 10
	maxPDF     = 20 << 20
	maxText    = 256 << 10
)

// Limits of one message's attachments together, checked before any file
// is read: a frame of a few KB may name the same 3 MB picture hundreds of
// times, and each copy is read and base64-encoded in memory (400 took
// synaps past 1.5 GB). 20 is what Claude takes in one message in its
// apps (its API allows more per request, but every request carries the
// whole conversation); 20 MB of files is at most ~27 MB base64, within
// the 32 MB a request to Anthropic may be.
const (
	MaxAttachments     = 20
	MaxAttachmentBytes = 20 << 20
)

// checkAttachments stats every attachment before one is read: the
// number and the total size are bounded (MaxAttachments,
// MaxAttachmentBytes), and each error names the attachment or the
// limit. It returns each file's absolute path.
func checkAttachments(atts []Attachment, workDir string) ([]string, error) {
	if len(atts) > MaxAttachments {
		return nil, fmt.Errorf("%d attachments: a message takes at most %d; send the rest with later messages", len(atts), MaxAttachments)
	}
	paths := make([]string, len(atts))
	var total int64
	for i, at := range atts {
		if at.Path == "" {
			return nil, fmt.Errorf("attachment %d has no path; give {\"path\": \"/abs/or/relative/file\"}", i+1)
		}
		p := at.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(workDir, p)
		}
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("attachment %s: %w", at.Path, err)
		}
		if !info.Mode().IsRegular() {
			return nil, fmt.Errorf("attachment %s is not a regular file", at.Path)
		}
		if info.Size() > maxPDF {
			return nil, fmt.Errorf("attachment %s is %d MB; files over %d MB are not attached", at.Path, info.Size()>>20, maxPDF>>20)
		}
		total += info.Size()
		if total > MaxAttachmentBytes {
			return nil, fmt.Errorf("attachments 1 to %d come to %d MB: a message takes at most %d MB of attachments in all; send the rest with later messages", i+1, total>>20, MaxAttachmentBytes>>20)
		}
		paths[i] = p
	}
	return paths, nil
}

// readAttachments reads atts for a message to model: pictures and PDFs
// become images, text files are quoted in text, each in a <file> block.
// A file that cannot be sent is an error naming it and saying why.
func readAttachments(atts []Attachment, workDir, model string) (string, []llm.Image, error) {
	paths, err := checkAttachments(atts, workDir)
	if err != nil {
		return "", nil, err
	}
	var text strings.Builder
	var images []llm.Image
	left := int64(MaxAttachmentBytes) // a file may grow after its stat
	for i, at := range atts {
		name := at.Name
		if name == "" {
			name = at.Path
		}
		data, err := readAtMost(paths[i], left)
		if err != nil {
			return "", nil, fmt.Errorf("attachment %s: %w", at.Path, err)
		}
		left -= int64(len(data))
		switch mt := http.DetectContentType(data); mt {
		case "image/png", "image/jpeg", "image/gif", "image/webp":
			if len(data) > maxPicture {
				return "", nil, fmt.Errorf("attachment %s is a %d KB picture; pictures over %d KB are not attached (make it smaller)", at.Path, len(data)>>10, maxPicture>>10)
			}
			images = append(images, llm.Image{MediaType: mt, Data: base64.StdEncoding.EncodeToString(data)})
		case "application/pdf":
			if !llm.TakesDocuments(model) {
				return "", nil, fmt.Errorf("attachment %s is a PDF, and %s does not read PDFs; switch the model or leave the file out", at.Path, model)
			}
			images = append(images, llm.Image{MediaType: mt, Data: base64.StdEncoding.EncodeToString(data)})
		default:
			if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
				return "", nil, fmt.Errorf("attachment %s is neither text, a picture (PNG, JPEG, GIF, WebP) nor a PDF (it looks like %s); name it in the message and let the model inspect it with its tools", at.Path, mt)
			}
			if len(data) > maxText {
				return "", nil, fmt.Errorf("attachment %s is %d KB of text; text files over %d KB are not attached (name it in the message and let the model read the part it needs)", at.Path, len(data)>>10, maxText>>10)
			}
			fmt.Fprintf(&text, "<file name=%q>\n%s", name, data)
			if len(data) > 0 && data[len(data)-1] != '\n' {
				text.WriteByte('\n')
			}
			text.WriteString("</file>\n")
		}
	}
	return text.String(), images, nil
}

// readAtMost reads the file at p, or fails when it holds more than max
// bytes (it grew since checkAttachments saw it).
func readAtMost(p string, max int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		err = fmt.Errorf("it grew while it was read, past the %d MB a message's attachments may come to", MaxAttachmentBytes>>20)
	}
	return data, err
}
