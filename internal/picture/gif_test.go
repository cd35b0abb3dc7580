package picture

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/gif"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gifsForTest returns encoded GIFs of several sizes and palettes, and the
// same bytes with the version and colour-table flags altered.
func gifsForTest(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	for _, tc := range []struct{ w, h, colours int }{{1, 1, 2}, {12, 7, 4}, {300, 2, 256}, {8001, 3, 16}} {
		pal := make(color.Palette, tc.colours)
		for i := range pal {
			pal[i] = color.RGBA{uint8(i), 0, 0, 0xff}
		}
		var buf bytes.Buffer
		if err := gif.Encode(&buf, image.NewPaletted(image.Rect(0, 0, tc.w, tc.h), pal), nil); err != nil {
			t.Fatal(err)
		}
		b := buf.Bytes()
		out = append(out, b)
		old := append([]byte(nil), b...)
		copy(old, "GIF87a")
		bad := append([]byte(nil), b...)
		copy(bad, "GIF8xa") // sniffed as a GIF, refused by the decoder
		noTable := append([]byte(nil), b...)
		noTable[10] &^= 0x80
		bigTable := append([]byte(nil), b...)
		bigTable[10] |= 0x87 // announces 256 colours
		out = append(out, old, bad, noTable, bigTable)
	}
	return out
}

// TestGIFMatchesStdlib: on whole GIFs and on every truncation of them,
// gifSize and image/gif's DecodeConfig agree on the size or the error.
func TestGIFMatchesStdlib(t *testing.T) {
	type result struct {
		W, H int
		Err  string
	}
	n := 0
	for i, whole := range gifsForTest(t) {
		limit := min(len(whole), 13+3*256+1)
		for end := 0; end <= limit; end++ {
			data := whole[:end]
			if !isGIF(data) {
				continue
			}
			n++
			var want, got result
			if cfg, err := gif.DecodeConfig(bytes.NewReader(data)); err != nil {
				want.Err = err.Error()
			} else {
				want.W, want.H = cfg.Width, cfg.Height
			}
			if w, h, err := gifSize(data); err != nil {
				got.Err = err.Error()
			} else {
				got.W, got.H = w, h
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("gif %d cut at %d bytes (-image/gif +gifSize):\n%s", i, end, d)
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d cases compared", n)
	}
}

// TestCheckGIF: Check reads GIFs without image/gif registered, and still
// names a GIF sent under another label.
func TestCheckGIF(t *testing.T) {
	whole := base64.StdEncoding.EncodeToString(gifsForTest(t)[5]) // 12x7
	for _, tc := range []struct{ mediaType, errHas string }{
		{"image/gif", ""},
		{"image/png", "labelled image/png but is a gif"},
		{"image/jpeg", "labelled image/jpeg but is a gif"},
	} {
		w, h, err := Check(tc.mediaType, whole)
		switch {
		case tc.errHas == "" && (err != nil || w != 12 || h != 7):
			t.Errorf("%s: got %dx%d, %v; want 12x7", tc.mediaType, w, h, err)
		case tc.errHas != "" && (err == nil || !strings.Contains(err.Error(), tc.errHas)):
			t.Errorf("%s: err = %v, want one containing %q", tc.mediaType, err, tc.errHas)
		}
	}
	cut := base64.StdEncoding.EncodeToString([]byte("GIF89a\x01\x00"))
	if _, _, err := Check("image/gif", cut); err == nil || !strings.Contains(err.Error(), "does not decode as image/gif: gif: reading header") {
		t.Errorf("truncated: err = %v", err)
	}
}
