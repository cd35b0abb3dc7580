package picture

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func pngOf(t *testing.T, w, h int) string {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(buf.Bytes())
}

func TestCheck(t *testing.T) {
	vp8x := make([]byte, 30)
	copy(vp8x, "RIFF\x00\x00\x00\x00WEBPVP8X")
	vp8x[24], vp8x[25] = 0x3f, 0x1f // width-1 = 0x1f3f = 7999
	vp8x[27] = 9                    // height-1 = 9
	big := append([]byte(nil), vp8x...)
	big[24], big[25] = 0x40, 0x1f // 8001
	tests := []struct {
		name, mediaType, data string
		w, h                  int
		errHas                string
	}{
		{name: "png", mediaType: "image/png", data: pngOf(t, 12, 7), w: 12, h: 7},
		{name: "png too wide", mediaType: "image/png", data: pngOf(t, 8001, 2), w: 8001, h: 2, errHas: "8001x2 pixels; a model API takes at most 8000 a side"},
		{name: "junk", mediaType: "image/png", data: base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\nnot really")), errHas: "does not decode as image/png"},
		{name: "mislabelled", mediaType: "image/jpeg", data: pngOf(t, 2, 2), errHas: "labelled image/jpeg but is a png"},
		{name: "webp", mediaType: "image/webp", data: base64.StdEncoding.EncodeToString(vp8x), w: 8000, h: 10},
		{name: "webp too wide", mediaType: "image/webp", data: base64.StdEncoding.EncodeToString(big), w: 8001, h: 10, errHas: "at most 8000 a side"},
		{name: "not base64", mediaType: "image/png", data: "@@@", errHas: "not base64"},
		{name: "too large", mediaType: "image/png", data: strings.Repeat("A", MaxEncoded+4), errHas: "more than the 5 MB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, h, err := Check(tt.mediaType, tt.data)
			if tt.errHas == "" && err != nil || tt.errHas != "" && (err == nil || !strings.Contains(err.Error(), tt.errHas)) {
				t.Fatalf("err = %v, want one containing %q", err, tt.errHas)
			}
			if d := cmp.Diff([]int{tt.w, tt.h}, []int{w, h}); d != "" && (tt.w != 0 || err == nil) {
				t.Errorf("size (-want +got):\n%s", d)
			}
		})
	}
}
