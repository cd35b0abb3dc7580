package tool

// JSON numbers, compared exactly. Inputs and schemas are decoded with
// UseNumber, so a number arrives as its text; reading it as a decimal
// (digits and the position of the point) makes 1, 1.0 and 1e0 equal, keeps
// 0.1 exact, and never costs more than the text is long: 1e999999999 is
// one digit and a point position, not a billion-digit integer.

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
)

// decimal is a JSON number: ±0.d₁d₂…dₙ × 10^point, where the significant
// digits d are a+b (a number's text keeps them in two runs, around its
// '.'), with no leading or trailing zeros. Zero has no digits. A decimal
// refers into the number's text: reading one does not allocate.
type decimal struct {
	neg   bool
	a, b  string
	point int64
}

// maxExponent bounds the exponents read; beyond it, two numbers with
// absurd exponents (more digits than any machine could hold) may compare
// wrongly, and nothing else.
const maxExponent = 1e15

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// parseDecimal reads a JSON number; ok is false when s is not one.
func parseDecimal(s string) (d decimal, ok bool) {
	if len(s) > 0 && s[0] == '-' {
		d.neg = true
		s = s[1:]
	}
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 {
		return decimal{}, false
	}
	intPart, frac := s[:i], ""
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i+1 {
			return decimal{}, false
		}
		frac = s[i+1 : j]
		i = j
	}
	var exp int64
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		negExp := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			negExp = s[i] == '-'
			i++
		}
		if i == len(s) {
			return decimal{}, false
		}
		for ; i < len(s); i++ {
			if !isDigit(s[i]) {
				return decimal{}, false
			}
			if exp < maxExponent {
				exp = exp*10 + int64(s[i]-'0')
			}
		}
		if negExp {
			exp = -exp
		}
	}
	if i != len(s) {
		return decimal{}, false
	}
	point := int64(len(intPart)) + exp
	for len(intPart) > 0 && intPart[0] == '0' {
		intPart = intPart[1:]
		point--
	}
	if intPart == "" {
		for len(frac) > 0 && frac[0] == '0' {
			frac = frac[1:]
			point--
		}
	}
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	if frac == "" {
		for len(intPart) > 0 && intPart[len(intPart)-1] == '0' {
			intPart = intPart[:len(intPart)-1]
		}
	}
	if intPart == "" && frac == "" {
		return decimal{}, true // zero; -0 is 0
	}
	d.a, d.b, d.point = intPart, frac, point
	return d, true
}

func (d decimal) zero() bool   { return d.a == "" && d.b == "" }
func (d decimal) ndigits() int { return len(d.a) + len(d.b) }

func (d decimal) digit(i int) byte {
	if i < len(d.a) {
		return d.a[i]
	}
	return d.b[i-len(d.a)]
}

func (d decimal) sign() int {
	switch {
	case d.zero():
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// integral reports whether d is a whole number (2, 2.0, 1e2).
func (d decimal) integral() bool {
	return d.zero() || int64(d.ndigits()) <= d.point
}

// cmpDecimal returns -1, 0 or +1 as x is less than, equal to or greater
// than y.
func cmpDecimal(x, y decimal) int {
	sx, sy := x.sign(), y.sign()
	if sx != sy {
		if sx < sy {
			return -1
		}
		return 1
	}
	if sx == 0 {
		return 0
	}
	m := 0
	switch {
	case x.point < y.point:
		m = -1
	case x.point > y.point:
		m = 1
	default:
		nx, ny := x.ndigits(), y.ndigits()
		for i := 0; i < nx && i < ny && m == 0; i++ {
			if dx, dy := x.digit(i), y.digit(i); dx < dy {
				m = -1
			} else if dx > dy {
				m = 1
			}
		}
		if m == 0 && nx != ny {
			m = 1
			if nx < ny {
				m = -1
			}
		}
	}
	return m * sx
}

// bigDigits returns d's significant digits as an integer.
func (d decimal) bigDigits() *big.Int {
	n, _ := new(big.Int).SetString(d.a+d.b, 10)
	return n
}

// multipleOf reports whether v is an integer multiple of m (m > 0).
// Written v = V·10^ev and m = M·10^em with V, M whole: v/m = V/M · 10^(ev-em).
func multipleOf(v, m decimal) bool {
	if v.zero() {
		return true
	}
	if m.zero() {
		return false
	}
	ev := v.point - int64(v.ndigits())
	em := m.point - int64(m.ndigits())
	d := ev - em
	V, M := v.bigDigits(), m.bigDigits()
	if d < 0 {
		// V must be a multiple of M·10^-d, which exceeds V when 10^-d does.
		if -d > int64(v.ndigits()) {
			return false
		}
		M.Mul(M, new(big.Int).Exp(big.NewInt(10), big.NewInt(-d), nil))
		return new(big.Int).Rem(V, M).Sign() == 0
	}
	// V·10^d mod M, with 10^d reduced modulo M first.
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(d), M)
	p.Mul(p, V)
	return p.Rem(p, M).Sign() == 0
}

// number is a number from a schema, kept with its text for messages.
type number struct {
	d    decimal
	text string
}

// numberOf reads a decoded JSON value as a number.
func numberOf(v any) (decimal, string, bool) {
	switch n := v.(type) {
	case json.Number:
		d, ok := parseDecimal(string(n))
		return d, string(n), ok
	case float64: // not produced by the decoders here; kept for safety
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return decimal{}, "", false
		}
		s := strconv.FormatFloat(n, 'g', -1, 64)
		d, ok := parseDecimal(s)
		return d, s, ok
	}
	return decimal{}, "", false
}
