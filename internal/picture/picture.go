// Package picture checks a picture before it enters a conversation. The
// model APIs refuse a whole request for one bad picture — junk that does
// not decode, one over 8000 pixels a side, one over 5 MB — and a picture
// once in the session is re-sent with every later request, so an
// unchecked one makes that request and every --continue after it fail.
package picture

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	_ "image/png" // DecodeConfig for PNG; gif.go and jpeg.go read the others
)

// The limits of Anthropic's Messages API (docs: vision): at most 8000 px
// a side, 5 MB an image as sent (base64), 100 images and 32 MB a request.
const (
	MaxSide = 8000
	// MaxEncoded is the largest base64 text of one picture.
	MaxEncoded = 5 << 20
	// PerRequest is the most pictures one request holds.
	PerRequest = 100
	// RequestBytes bounds the base64 text of the pictures of one request,
	// below the API's 32 MB for the whole request so the text fits too.
	RequestBytes = 24 << 20
)

// Check decodes the header of a base64 picture of mediaType and returns
// its size in pixels, or why a model API would refuse it.
func Check(mediaType, b64 string) (width, height int, err error) {
	if len(b64) > MaxEncoded {
		return 0, 0, fmt.Errorf("it is %.1f MB as sent, more than the %d MB a model API takes in one picture", float64(len(b64))/(1<<20), MaxEncoded>>20)
	}
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return 0, 0, fmt.Errorf("its data is not base64: %v", err)
	}
	switch mediaType {
	case "image/png", "image/jpeg", "image/gif":
		var format string
		if width, height, format, err = decodeConfig(data); err != nil {
			return 0, 0, fmt.Errorf("it does not decode as %s: %v", mediaType, err)
		}
		if "image/"+format != mediaType {
			return 0, 0, fmt.Errorf("it is labelled %s but is a %s", mediaType, format)
		}
	case "image/webp":
		if width, height, err = webpSize(data); err != nil {
			return 0, 0, fmt.Errorf("it does not decode as image/webp: %v", err)
		}
	default:
		return 0, 0, fmt.Errorf("its type %s is none the model APIs take (png, jpeg, gif, webp)", mediaType)
	}
	if width <= 0 || height <= 0 {
		return 0, 0, fmt.Errorf("it is %dx%d pixels", width, height)
	}
	if width > MaxSide || height > MaxSide {
		return width, height, fmt.Errorf("it is %dx%d pixels; a model API takes at most %d a side (make it smaller first)", width, height, MaxSide)
	}
	return width, height, nil
}

// decodeConfig is image.DecodeConfig with GIFs and JPEGs read by
// gifSize and jpegSize.
func decodeConfig(data []byte) (width, height int, format string, err error) {
	switch {
	case isGIF(data):
		width, height, err = gifSize(data)
		return width, height, "gif", err
	case isJPEG(data):
		width, height, err = jpegSize(data)
		return width, height, "jpeg", err
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	return cfg.Width, cfg.Height, format, err
}

// webpSize reads a WebP's size from its header (RIFF, then a VP8, VP8L
// or VP8X chunk); golang.org/x/image is not a dependency.
func webpSize(b []byte) (int, int, error) {
	if len(b) < 30 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, errors.New("no RIFF/WEBP header")
	}
	switch string(b[12:16]) {
	case "VP8X":
		w := int(b[24]) | int(b[25])<<8 | int(b[26])<<16
		h := int(b[27]) | int(b[28])<<8 | int(b[29])<<16
		return w + 1, h + 1, nil
	case "VP8L":
		if b[20] != 0x2f {
			return 0, 0, errors.New("bad VP8L signature")
		}
		bits := binary.LittleEndian.Uint32(b[21:25])
		return int(bits&0x3fff) + 1, int(bits>>14&0x3fff) + 1, nil
	case "VP8 ":
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return 0, 0, errors.New("bad VP8 start code")
		}
		return int(binary.LittleEndian.Uint16(b[26:28]) & 0x3fff), int(binary.LittleEndian.Uint16(b[28:30]) & 0x3fff), nil
	}
	return 0, 0, fmt.Errorf("unknown WebP chunk %q", b[12:16])
}
