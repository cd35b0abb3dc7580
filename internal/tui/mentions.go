package tui

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/synaps-cli/synaps/internal/llm"
	"github.com/synaps-cli/synaps/internal/plural"
)

// Limits on what the input attaches.
const (
	// mentionMax is the largest file an @path mention attaches.
	mentionMax = 256 << 10
	// shellOutputMax is the most output of a !command kept for the model.
	shellOutputMax = 64 << 10
)

// pdfMax is the largest PDF attached: within the 32 MB a request may
// carry once base64-encoded.
const pdfMax = 20 << 20

// isPDF reports whether the file at path is a PDF, by its first bytes.
func isPDF(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 5)
	n, _ := f.Read(head)
	return string(head[:n]) == "%PDF-"
}

// attachPDF reads a PDF for the message (nil: not attached; the note
// says why).
func attachPDF(p, abs string) (*llm.Image, string) {
	b, err := os.ReadFile(abs)
	switch {
	case err != nil:
		return nil, fmt.Sprintf("@%s: %v", p, err)
	case len(b) > pdfMax:
		return nil, fmt.Sprintf("@%s is a %d MB PDF; PDFs over %d MB are not attached (split it, or ask the model to read parts of it)", p, len(b)>>20, pdfMax>>20)
	}
	return &llm.Image{MediaType: "application/pdf", Data: base64.StdEncoding.EncodeToString(b)}, fmt.Sprintf("attached %s (PDF, %d KB)", p, (len(b)+1023)>>10)
}

// attachFile attaches one named file, by its kind: a picture or a PDF as
// a block of its own, text in a <file> block (appended to files). ok is
// false when nothing was attached; the note says what happened. deny,
// when set, says why the permission rules forbid reading the file (""
// when they do not): a Read deny rule holds for what the input attaches
// as for the read tool, links followed.
func attachFile(p, abs, workDir string, deny func(string) string) (im *llm.Image, file, note string) {
	info, err := os.Stat(abs)
	switch {
	case err != nil:
		return nil, "", fmt.Sprintf("@%s: no such file in %s; sent as text", p, workDir)
	case deny != nil && deny(abs) != "":
		return nil, "", fmt.Sprintf("@%s is not attached: %s", p, deny(abs))
	case info.IsDir():
		return nil, "", fmt.Sprintf("@%s is a directory; only files are attached", p)
	case isImageFile(abs):
		im, note := attachImage(p, abs)
		return im, "", note
	case isPDF(abs):
		im, note := attachPDF(p, abs)
		return im, "", note
	case info.Size() > mentionMax:
		return nil, "", fmt.Sprintf("@%s is %d KB; files over %d KB are not attached (ask the model to read it)", p, info.Size()>>10, mentionMax>>10)
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		return nil, "", fmt.Sprintf("@%s: %v", p, err)
	}
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return nil, "", fmt.Sprintf("@%s is not text, a picture or a PDF; not attached", p)
	}
	return nil, fmt.Sprintf("<file path=%q>\n%s\n</file>", p, strings.TrimRight(string(b), "\n")),
		fmt.Sprintf("attached @%s (%s)", p, plural.Count(strings.Count(strings.TrimRight(string(b), "\n"), "\n")+1, "line"))
}

// refusal says why model cannot take the attachments, naming the file;
// "" when it can. Checked before the request, so the user gets this
// rather than an API error.
func refusal(model string, atts []attachment) string {
	for _, a := range atts {
		if a.im != nil && a.im.MediaType == "application/pdf" && !llm.TakesDocuments(model) {
			return fmt.Sprintf("%s is a PDF, and %s does not read PDFs; the message was not sent (switch with /model, or remove the file)", a.name, model)
		}
	}
	return ""
}

// attachment is a picture or PDF named in the input, with its name.
type attachment struct {
	name string
	im   *llm.Image
}

// imageMax is the largest picture attached: 5 MB once base64-encoded, the
// most Anthropic takes in one image.
const imageMax = 3750 << 10

// expandHome turns ~/p into a path in the home directory.
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// isImageFile reports whether the file at path is a picture a model
// takes (PNG, JPEG, GIF, WebP), by its first bytes.
func isImageFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := f.Read(head)
	return imageMediaType(head[:n]) != ""
}

func imageMediaType(head []byte) string {
	switch mt := http.DetectContentType(head); mt {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return mt
	}
	return ""
}

// attachImage reads a picture for the message; the note says what
// happened (nil image: not attached).
func attachImage(p, abs string) (*llm.Image, string) {
	b, err := os.ReadFile(abs)
	switch {
	case err != nil:
		return nil, fmt.Sprintf("@%s: %v", p, err)
	case len(b) > imageMax:
		return nil, fmt.Sprintf("@%s is a %d KB picture; pictures over %d KB are not attached (make it smaller)", p, len(b)>>10, imageMax>>10)
	}
	mt := imageMediaType(b)
	return &llm.Image{MediaType: mt, Data: base64.StdEncoding.EncodeToString(b)}, fmt.Sprintf("attached %s (%s picture, %d KB)", p, mt, (len(b)+1023)>>10)
}

// mentionRE finds @path mentions: an @ at the start of the input or
// after a space, so that an e-mail address is no mention.
var mentionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|\s)@(\S+)`) })

// attachMentions returns text with the files it mentions (@path,
// relative to workDir) attached after it, as Claude Code does, and a
// note for each mention that could not be attached (it stays as text).
// refused says why the message must not be sent: it attaches a PDF and
// model reads none ("" when it may be sent, or model is ""). deny is as
// for attachFile.
func attachMentions(text, workDir, model string, deny func(string) string) (_ string, _ []llm.Image, _ []string, refused string) {
	var files, notes []string
	var images []llm.Image
	seen := map[string]bool{}
	// A picture's path pasted alone (dragged into the terminal) is
	// attached as @path is.
	for _, p := range pastedPictures(text) {
		abs := expandHome(p)
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(workDir, abs)
		}
		if !seen[p] && isImageFile(abs) {
			seen[p] = true
			if deny != nil {
				if why := deny(abs); why != "" {
					notes = append(notes, fmt.Sprintf("%s is not attached: %s", p, why))
					continue
				}
			}
			if im, note := attachImage(p, abs); note != "" {
				notes = append(notes, note)
				if im != nil {
					images = append(images, *im)
				}
			}
		}
	}
	for _, m := range mentionRE().FindAllStringSubmatch(text, -1) {
		p := strings.TrimRight(m[1], ".,;:!?)")
		if seen[p] {
			continue
		}
		seen[p] = true
		abs := expandHome(p)
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(workDir, p)
		}
		im, file, note := attachFile(p, abs, workDir, deny)
		notes = append(notes, note)
		if r := refusal(model, []attachment{{p, im}}); r != "" && model != "" && refused == "" {
			refused = r
		}
		if im != nil {
			images = append(images, *im)
		}
		if file != "" {
			files = append(files, file)
		}
	}
	if len(files) == 0 {
		return text, images, notes, refused
	}
	return text + "\n\n" + strings.Join(files, "\n\n"), images, notes, refused
}

// completeMention completes the @path the input ends with, from the
// files in workDir: the one match, or the longest prefix the matches
// share (a directory gets its "/"). ok is false when input does not end
// with a mention or nothing completes it.
func completeMention(input, workDir string) (string, bool) {
	i := strings.LastIndexAny(input, " \t\n")
	word := input[i+1:]
	if !strings.HasPrefix(word, "@") {
		return input, false
	}
	typed := word[1:]
	dir, prefix := filepath.Split(typed)
	base := dir
	if !filepath.IsAbs(base) {
		base = filepath.Join(workDir, dir)
	}
	ents, err := os.ReadDir(base)
	if err != nil {
		return input, false
	}
	var names []string
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, prefix) || (strings.HasPrefix(n, ".") && !strings.HasPrefix(prefix, ".")) {
			continue
		}
		if e.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	if len(names) == 0 {
		return input, false
	}
	sort.Strings(names)
	p := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, p) {
			p = p[:len(p)-1]
		}
	}
	if p == prefix {
		return input, false
	}
	return input[:i+1] + "@" + dir + p, true
}

// runShell runs a !command in workDir with bash and returns what it
// printed (stdout and stderr, cut to shellOutputMax) and how it ended.
func runShell(ctx context.Context, command, workDir string) (out string, status string) {
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Dir = workDir
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	out = buf.String()
	if len(out) > shellOutputMax {
		out = out[:shellOutputMax] + fmt.Sprintf("\n… cut at %d KB", shellOutputMax>>10)
	}
	status = "exit 0"
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			status = fmt.Sprintf("exit %d", ee.ExitCode())
		} else {
			status = err.Error()
		}
	}
	return out, status
}

// shellRun is a !command that ran.
type shellRun struct {
	command, output, status string
}
