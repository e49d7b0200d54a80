package pack

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// ErrLeak means the rendered pack still held a credential after
// redaction; nothing was written.
var ErrLeak = errors.New("the rendered pack still holds a credential")

// rescan puts the rendered pack through the gate once more, segment by
// segment on every core. Any finding stops the run: it means a path of
// text reached the pack without being redacted, and the pack must not be
// written. The message names where and which rule, never the text.
func (b *builder) rescan(ctx context.Context, segs []*segment) error {
	var mu sync.Mutex
	var leaks []string
	err := parallel(ctx, segs, func(s *segment) error {
		spans, err := b.opts.Gate.Scan(ctx, s.text)
		if err != nil {
			return fmt.Errorf("re-check the pack (%s): %w", s.where, err)
		}
		for _, sp := range spans {
			mu.Lock()
			leaks = append(leaks, fmt.Sprintf("%s (rule %s)", s.where, sp.Rule))
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(leaks) > 0 {
		return fmt.Errorf("%w in %s; nothing was written (please report this as a gitctx bug)", ErrLeak, leaks[0])
	}
	return nil
}
