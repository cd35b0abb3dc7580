package host

import (
	"bytes"
	"encoding/base64"
	"fmt"
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

// readAttachments reads atts for a message to model: pictures and PDFs
// become images, text files are quoted in text, each in a <file> block.
// A file that cannot be sent is an error naming it and saying why.
func readAttachments(atts []Attachment, workDir, model string) (string, []llm.Image, error) {
	var text strings.Builder
	var images []llm.Image
	for i, at := range atts {
		if at.Path == "" {
			return "", nil, fmt.Errorf("attachment %d has no path; give {\"path\": \"/abs/or/relative/file\"}", i+1)
		}
		p := at.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(workDir, p)
		}
		name := at.Name
		if name == "" {
			name = at.Path
		}
		info, err := os.Stat(p)
		if err != nil {
			return "", nil, fmt.Errorf("attachment %s: %w", at.Path, err)
		}
		if !info.Mode().IsRegular() {
			return "", nil, fmt.Errorf("attachment %s is not a regular file", at.Path)
		}
		if info.Size() > maxPDF {
			return "", nil, fmt.Errorf("attachment %s is %d MB; files over %d MB are not attached", at.Path, info.Size()>>20, maxPDF>>20)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return "", nil, fmt.Errorf("attachment %s: %w", at.Path, err)
		}
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
