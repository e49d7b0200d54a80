package pack

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer/codec"
)

// Counter counts tokens the way a model's tokenizer does.
type Counter interface {
	Count(s string) int
	Name() string
}

// NewCounter returns the counter for an encoding ("o200k_base" or
// "cl100k_base"). A factor other than 1 scales its counts up, for models
// whose tokenizer is not public; the name then says so ("o200k_base×1.35").
// The encoding's vocabulary (200,000 entries, about 20 ms to build) is
// built by the first Count, or ahead of it by Warm.
func NewCounter(encoding string, factor float64) (Counter, error) {
	var newCodec func() *codec.Codec
	var piece func(string, int) int
	switch encoding {
	case "", "o200k_base":
		encoding, newCodec, piece = "o200k_base", codec.NewO200kBase, o200kPiece
	case "cl100k_base":
		newCodec, piece = codec.NewCl100kBase, cl100kPiece
	default:
		return nil, fmt.Errorf("unknown tokenizer %q (known: o200k_base, cl100k_base)", encoding)
	}
	if factor <= 0 {
		factor = 1
	}
	return &tiktoken{codec: sync.OnceValue(newCodec), piece: piece, name: encoding, factor: factor, known: map[string]int{}}, nil
}

// Warm builds a counter's vocabulary now, if it has one still to build, so
// that no Count waits for it. Run it in a goroutine of its own, once the
// goroutines that must not wait for a core have what they need.
func Warm(c Counter) {
	if t, ok := c.(*tiktoken); ok {
		t.codec()
	}
}

// tiktoken counts with tiktoken-go's encodings. It splits the text into
// the encoding's pieces itself (pretoken.go) and asks the codec to count
// each piece once: code repeats its words, so most pieces are counted from
// memory, and the codec's slow split only ever sees a short piece.
type tiktoken struct {
	codec  func() *codec.Codec
	piece  func(s string, i int) int
	name   string
	factor float64

	mu    sync.RWMutex
	known map[string]int // the counts of pieces seen, up to maxKnownPieces
}

// maxKnownPieces and maxKnownPiece bound the memory of counted pieces:
// a few MB at most, and no long piece (a hash, a data line) kept.
const (
	maxKnownPieces = 1 << 16
	maxKnownPiece  = 32
)

func (t *tiktoken) Count(s string) int {
	s, extra := collapseWhitespace(s)
	n := t.count(s) + extra
	if t.factor == 1 {
		return n
	}
	return int(math.Ceil(float64(n) * t.factor))
}

// count counts s piece by piece, as the codec would count it whole.
func (t *tiktoken) count(s string) int {
	c := t.codec()
	if !utf8.ValidString(s) {
		// The codec reads an invalid byte as U+FFFD; its pieces are then
		// not substrings of s, so it counts s itself.
		return codecCount(c, s)
	}
	n := 0
	for i := 0; i < len(s); {
		end := t.piece(s, i)
		if end == i { // a character no piece takes (DEL): no token
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		n += t.pieceCount(c, s[i:end])
		i = end
	}
	return n
}

func (t *tiktoken) pieceCount(c *codec.Codec, piece string) int {
	if len(piece) > maxKnownPiece {
		return codecCount(c, piece)
	}
	t.mu.RLock()
	n, ok := t.known[piece]
	t.mu.RUnlock()
	if ok {
		return n
	}
	n = codecCount(c, piece)
	t.mu.Lock()
	if len(t.known) < maxKnownPieces {
		t.known[strings.Clone(piece)] = n
	}
	t.mu.Unlock()
	return n
}

func codecCount(c *codec.Codec, s string) int {
	n, err := c.Count(s)
	if err != nil {
		// The codec only fails on invalid UTF-8 in strict mode, which is not
		// used; fall back to a count no tokenizer exceeds.
		return len(s)
	}
	return n
}

// maxWhitespaceRun is the longest run of white space counted exactly. The
// tokenizer's pre-tokenizer and merges take time quadratic in the length
// of such a run (a 64 KB run takes seconds), which a hostile file could
// exploit.
const maxWhitespaceRun = 128

// collapseWhitespace shortens each longer run of white space to its last
// character and returns how many characters it removed. No token is
// shorter than a byte, so the count of the collapsed text plus that number
// bounds the count of the original from above: a pack counted this way is
// never over its budget, only counted a little high.
func collapseWhitespace(s string) (string, int) {
	var b strings.Builder
	removed, start, run := 0, 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\v', '\f':
			run++
			continue
		}
		if run > maxWhitespaceRun {
			if b.Len() == 0 {
				b.Grow(len(s))
			}
			b.WriteString(s[start : i-run])
			b.WriteByte(s[i-1])
			removed += run - 1
			start = i
		}
		run = 0
	}
	if removed == 0 && run <= maxWhitespaceRun {
		return s, 0
	}
	if run > maxWhitespaceRun {
		b.WriteString(s[start : len(s)-run])
		b.WriteByte(s[len(s)-1])
		removed += run - 1
	} else {
		b.WriteString(s[start:])
	}
	return b.String(), removed
}

func (t *tiktoken) Name() string {
	if t.factor == 1 {
		return t.name
	}
	return t.name + "×" + strconv.FormatFloat(t.factor, 'f', -1, 64)
}

// estimate is a quick count used to plan before counting exactly: code
// runs at 3.1–3.9 bytes per o200k token, dense data at about 2.2.
func estimate(bytes int) int { return (bytes + 2) / 3 }

// countAll counts the segments that have no count yet, spread over the
// cores, from the cache where it holds their counts (cache may be nil).
// Segments must keep their counts additive: see segment.
func countAll(ctx context.Context, c Counter, cache *CountCache, segs []*segment) error {
	var todo []*segment
	for _, s := range segs {
		if s.tokens < 0 {
			todo = append(todo, s)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	next := make(chan *segment)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				s.tokens = cache.Count(c, s.str())
			}
		}()
	}
	var err error
feed:
	for _, s := range todo {
		select {
		case next <- s:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	return err
}
