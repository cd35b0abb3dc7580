package transport

import (
	"context"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// Defaults for Backoff.
const (
	DefaultBase = 500 * time.Millisecond
	DefaultCap  = 30 * time.Second
	// MaxRetryAfter is the longest wait a server may ask for and still be
	// retried; beyond it the error is returned at once, since a turn that
	// silently stalls for minutes looks like a hang.
	MaxRetryAfter = time.Minute
)

// Backoff computes and sleeps retry delays. The zero value is the default
// policy: 500 ms doubling to 30 s, with up to a quarter taken off at random
// so that clients that failed together do not retry together.
type Backoff struct {
	Base time.Duration // first delay; 0 means DefaultBase
	Cap  time.Duration // longest delay; 0 means DefaultCap
	// Rand returns a number in [0, 1) for the jitter; nil means math/rand.
	Rand func() float64
	// Sleep waits d or until ctx is done; nil means a timer. Tests replace
	// it to observe delays without waiting.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Delay is the wait before retry number try (0 for the first retry).
func (b Backoff) Delay(try int) time.Duration {
	base, limit := b.Base, b.Cap
	if base <= 0 {
		base = DefaultBase
	}
	if limit <= 0 {
		limit = DefaultCap
	}
	d := limit
	if try < 40 && base<<try > 0 && base<<try < limit {
		d = base << try
	}
	r := rand.Float64
	if b.Rand != nil {
		r = b.Rand
	}
	return d - time.Duration(float64(d/4)*r())
}

func (b Backoff) sleep(ctx context.Context, d time.Duration) error {
	if b.Sleep != nil {
		return b.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// RetryAfter reads how long the server asked the client to wait: the
// retry-after-ms header (milliseconds, Anthropic and OpenAI send it), else
// retry-after in seconds or as an HTTP date. It returns 0 when neither is
// present, parseable and positive.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil {
			return clampDuration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return clampDuration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// clampDuration converts nanoseconds to a Duration between 0 and a day,
// mapping NaN and negatives to 0.
func clampDuration(ns float64) time.Duration {
	if !(ns > 0) { // also catches NaN
		return 0
	}
	return time.Duration(math.Min(ns, float64(24*time.Hour)))
}
