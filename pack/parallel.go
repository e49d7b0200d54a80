package pack

import (
	"context"
	"runtime"
	"sync"
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
