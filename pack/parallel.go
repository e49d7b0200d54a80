package pack

import (
	"context"
	"runtime"
	"slices"
	"sync"

	"github.com/gitctx/gitctx/secrets"
)

// parallel runs fn for each item on every core and returns the first
// error.
func parallel[T any](ctx context.Context, items []T, fn func(T) error) error {
	next := make(chan T)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(items)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range next {
				if err := fn(it); err != nil {
					select {
					case errs <- err:
					default:
					}
				}
			}
		}()
	}
	var err error
feed:
	for _, it := range items {
		select {
		case next <- it:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	return err
}

// inBackground runs fn in a goroutine of its own and returns a function
// that waits for it and returns its error (as often as it is called).
func inBackground(fn func() error) func() error {
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		err = fn()
	}()
	return func() error {
		<-done
		return err
	}
}

// inOrder puts items through the gate on every core and keeps the
// placeholders numbered as if it had gone through them one by one: fn runs
// for each item with a dry gate (see secrets.Gate.Dry), on every core,
// then again with g, in the items' order, for each item whose dry run
// placed a placeholder (the rules run once per text: the second run only
// names what the first found). fn stores its result with the item and
// reports whether it placed a placeholder; a result without one stands.
func inOrder[T any](ctx context.Context, g *secrets.Gate, items []T, fn func(*secrets.Gate, T) (bool, error)) error {
	dry := g.Dry()
	placed := make([]bool, len(items))
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	// A credential found by value everywhere (secrets.Gate.Everywhere)
	// may be found in one item after another was scanned: those without a
	// placeholder are scanned again until none is found, so that what is
	// redacted never depends on which core came first.
	for known := -1; known != g.Known(); {
		known = g.Known()
		err := parallel(ctx, idx, func(i int) (err error) {
			placed[i], err = fn(dry, items[i])
			return err
		})
		if err != nil {
			return err
		}
		idx = slices.DeleteFunc(idx, func(i int) bool { return placed[i] })
	}
	for i, it := range items {
		if placed[i] {
			if _, err := fn(g, it); err != nil {
				return err
			}
		}
	}
	return nil
}
