package picture

import "fmt"

// A GIF's size is read here rather than by registering image/gif for
// image.DecodeConfig: that links the whole decoder (with compress/lzw,
// image/draw and image/color/palette), about 50 KB of binary, for what
// its DecodeConfig reads — the header, the logical screen descriptor and
// the global colour table it announces (docs/performance.md, binary
// size). gifSize refuses what image/gif's DecodeConfig refuses, with its
// messages; TestGIFMatchesStdlib compares the two.

// isGIF reports whether data starts as image.DecodeConfig recognises a
// GIF: "GIF8", any byte, "a".
func isGIF(data []byte) bool {
	return len(data) >= 6 && string(data[:4]) == "GIF8" && data[5] == 'a'
}

// gifSize returns the width and height of the GIF in data.
func gifSize(data []byte) (int, int, error) {
	if len(data) < 13 {
		return 0, 0, fmt.Errorf("gif: reading header: unexpected EOF")
	}
	if v := string(data[:6]); v != "GIF87a" && v != "GIF89a" {
		return 0, 0, fmt.Errorf("gif: can't recognize format %q", v)
	}
	if fields := data[10]; fields&0x80 != 0 { // a global colour table follows
		if n := 1 << (1 + uint(fields&7)); len(data) < 13+3*n {
			return 0, 0, fmt.Errorf("gif: reading color table: unexpected EOF")
		}
	}
	return int(data[6]) | int(data[7])<<8, int(data[8]) | int(data[9])<<8, nil
}
