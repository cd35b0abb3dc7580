package picture

import "errors"

// A JPEG's size is read here rather than by registering image/jpeg for
// image.DecodeConfig, which links the whole decoder (Huffman, IDCT,
// colour conversion), about 80 KB of binary, for what its DecodeConfig
// reads: the markers up to the frame header and, unless a JFIF segment
// came first, on to the start of the scan (docs/performance.md, binary
// size). jpegSize accepts and refuses what image/jpeg's DecodeConfig
// does; TestJPEGMatchesStdlib compares the two on whole pictures, every
// truncation and every one-byte change of their headers.

// isJPEG reports whether data starts as image.DecodeConfig recognises a
// JPEG.
func isJPEG(data []byte) bool { return len(data) >= 2 && data[0] == 0xff && data[1] == 0xd8 }

func jpegErr(s string) error         { return errors.New("invalid JPEG format: " + s) }
func jpegUnsupported(s string) error { return errors.New("unsupported JPEG feature: " + s) }

var errJPEGEOF = errors.New("unexpected EOF")

// jpegSize returns the width and height of the JPEG in b.
func jpegSize(b []byte) (w, h int, err error) {
	b = b[2:] // SOI
	nComp, jfif := 0, false
	next := func(n int) ([]byte, error) {
		if len(b) < n {
			return nil, errJPEGEOF
		}
		s := b[:n]
		b = b[n:]
		return s, nil
	}
	for {
		t, err := next(2)
		if err != nil {
			return 0, 0, err
		}
		m0, marker := t[0], t[1]
		for m0 != 0xff { // bytes before a marker are skipped
			c, err := next(1)
			if err != nil {
				return 0, 0, err
			}
			m0, marker = marker, c[0]
		}
		if marker == 0 {
			continue
		}
		for marker == 0xff {
			c, err := next(1)
			if err != nil {
				return 0, 0, err
			}
			marker = c[0]
		}
		if marker == 0xd9 { // EOI before a scan
			break
		}
		if 0xd0 <= marker && marker <= 0xd7 { // RSTn
			continue
		}
		t, err = next(2)
		if err != nil {
			return 0, 0, err
		}
		n := int(t[0])<<8 + int(t[1]) - 2
		if n < 0 {
			return 0, 0, jpegErr("short segment length")
		}
		switch {
		case marker == 0xc0 || marker == 0xc1 || marker == 0xc2:
			if nComp != 0 {
				return 0, 0, jpegErr("multiple SOF markers")
			}
			if nComp, err = jpegSOF(b, n); err != nil {
				return 0, 0, err
			}
			h, w = int(b[1])<<8+int(b[2]), int(b[3])<<8+int(b[4])
			b = b[n:]
			if jfif {
				return w, h, nil
			}
		case marker == 0xda: // SOS: DecodeConfig stops here
			if nComp == 0 {
				return 0, 0, jpegErr("missing SOF marker")
			}
			return w, h, nil
		case marker == 0xe0: // APP0: JFIF or not
			if n >= 5 {
				s, err := next(5)
				if err != nil {
					return 0, 0, err
				}
				jfif, n = string(s) == "JFIF\x00", n-5
			}
			if _, err := next(n); err != nil {
				return 0, 0, err
			}
		case marker == 0xc4 || marker == 0xdb || marker == 0xdd || 0xe1 <= marker && marker <= 0xef || marker == 0xfe:
			// DHT, DQT, DRI, APPn, COM: skipped when only the size is read
			if _, err := next(n); err != nil {
				return 0, 0, err
			}
		case marker < 0xc0:
			return 0, 0, jpegErr("unknown marker")
		default:
			return 0, 0, jpegUnsupported("unknown marker")
		}
	}
	// EOI: image/jpeg refuses a JPEG without a scan.
	return 0, 0, jpegErr("missing SOS marker")
}

// jpegSOF checks a frame header of n bytes at the start of b as
// image/jpeg does and returns its number of components.
func jpegSOF(b []byte, n int) (int, error) {
	var nComp int
	switch n {
	case 6 + 3*1, 6 + 3*3, 6 + 3*4:
		nComp = (n - 6) / 3
	default:
		return 0, jpegUnsupported("number of components")
	}
	if len(b) < n {
		return 0, errJPEGEOF
	}
	if b[0] != 8 {
		return 0, jpegUnsupported("precision")
	}
	if int(b[5]) != nComp {
		return 0, jpegErr("SOF has wrong length")
	}
	var hs, vs [4]int
	for i := 0; i < nComp; i++ {
		c := b[6+3*i]
		for j := 0; j < i; j++ {
			if b[6+3*j] == c {
				return 0, jpegErr("repeated component identifier")
			}
		}
		if b[8+3*i] > 3 {
			return 0, jpegErr("bad Tq value")
		}
		hv := b[7+3*i]
		h, v := int(hv>>4), int(hv&0x0f)
		if h < 1 || 4 < h || v < 1 || 4 < v {
			return 0, jpegErr("luma/chroma subsampling ratio")
		}
		bad := h == 3 || v == 3
		switch nComp {
		case 1:
			h, v = 1, 1
		case 3:
			bad = bad || i == 0 && v == 4 ||
				i == 1 && (hs[0]%h != 0 || vs[0]%v != 0) ||
				i == 2 && (hs[1] != h || vs[1] != v)
		case 4:
			bad = bad || i == 0 && hv != 0x11 && hv != 0x22 ||
				(i == 1 || i == 2) && hv != 0x11 ||
				i == 3 && (hs[0] != h || vs[0] != v)
		}
		if bad {
			return 0, jpegUnsupported("luma/chroma subsampling ratio")
		}
		hs[i], vs[i] = h, v
	}
	return nComp, nil
}
