package picture

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/jpeg"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// jpegsForTest returns JPEGs as image/jpeg writes them (grey and colour)
// and the same with a JFIF APP0 segment, an Adobe APP14 segment and a
// comment before the frame.
func jpegsForTest(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	for _, img := range []image.Image{
		image.NewGray(image.Rect(0, 0, 12, 7)),
		image.NewRGBA(image.Rect(0, 0, 17, 9)),
		image.NewRGBA(image.Rect(0, 0, 8001, 1)),
	} {
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, nil); err != nil {
			t.Fatal(err)
		}
		b := buf.Bytes()
		jfif := append([]byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"), b[2:]...)
		adobe := append([]byte("\xff\xd8\xff\xee\x00\x0eAdobe\x00\x64\x00\x00\x00\x00\x01"), b[2:]...)
		comment := append([]byte("\xff\xd8\xff\xfe\x00\x05hi!\xff\xff"), b[2:]...)
		out = append(out, b, jfif, adobe, comment)
	}
	return out
}

// headerEnd is the offset just past the start-of-scan marker's length,
// the last byte image/jpeg's DecodeConfig reads, or len(b).
func headerEnd(b []byte) int {
	if i := bytes.Index(b, []byte{0xff, 0xda}); i >= 0 {
		return min(len(b), i+4)
	}
	return len(b)
}

// TestJPEGMatchesStdlib: on whole JPEGs, every truncation of their
// headers and every header byte replaced by each of several values,
// jpegSize and image/jpeg's DecodeConfig agree on the size or the error.
func TestJPEGMatchesStdlib(t *testing.T) {
	type result struct {
		W, H int
		Err  string
	}
	compare := func(name string, data []byte) {
		var want, got result
		if cfg, err := jpeg.DecodeConfig(bytes.NewReader(data)); err != nil {
			want.Err = err.Error()
		} else {
			want.W, want.H = cfg.Width, cfg.Height
		}
		if w, h, err := jpegSize(data); err != nil {
			got.Err = err.Error()
		} else {
			got.W, got.H = w, h
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-image/jpeg +jpegSize):\n%s", name, d)
		}
	}
	n := 0
	for i, whole := range jpegsForTest(t) {
		compare("whole", whole)
		end := headerEnd(whole)
		for cut := 2; cut <= end; cut++ {
			n++
			compare("cut", whole[:cut])
		}
		for at := 2; at < end; at++ {
			orig := whole[at]
			for _, v := range []byte{0x00, 0x01, 0x03, 0x05, 0x07, 0x08, 0x09, 0x11, 0x12, 0x13, 0x14, 0x21, 0x22, 0x24, 0x31, 0x41, 0x44, 0x45, 0x7f, 0xbf, 0xc0, 0xc2, 0xc3, 0xc4, 0xd0, 0xd8, 0xd9, 0xda, 0xdb, 0xe0, 0xee, 0xfe, 0xff, orig + 1, orig - 1} {
				if v == orig {
					continue
				}
				whole[at] = v
				n++
				compare("jpeg "+string(rune('0'+i))+" byte changed", whole[:min(len(whole), end+64)])
				whole[at] = orig
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d cases compared", n)
	}
	t.Logf("%d cases", n)
}

// TestCheckJPEG: Check reads JPEGs without image/jpeg registered and
// names a JPEG sent under another label.
func TestCheckJPEG(t *testing.T) {
	whole := base64.StdEncoding.EncodeToString(jpegsForTest(t)[4]) // 17x9
	if w, h, err := Check("image/jpeg", whole); err != nil || w != 17 || h != 9 {
		t.Errorf("got %dx%d, %v; want 17x9", w, h, err)
	}
	if _, _, err := Check("image/png", whole); err == nil || !strings.Contains(err.Error(), "labelled image/png but is a jpeg") {
		t.Errorf("mislabelled: err = %v", err)
	}
}
