package gitctx

import (
	"context"
	"sync"
)

// The history window: the n most recent commits a change's history is
// read from (see History). Telling where it ends walks those n commits
// (`git rev-list`, about 0.1 s of git's CPU for 10,000 commits without a
// commit-graph), and History waits for that walk before its `git log` can
// start. Its start is known as soon as a change's base is, long before the
// neighbours' search asks for its history (a work-tree change is first
// listed with `git diff`, which leaves the second core idle): started
// then, in the background, the walk is done by the time it is needed.

// windows keeps the repository's history windows, each walked once.
type windows struct {
	n      int                // the window PrefetchHistory asked for; 0: none
	ctx    context.Context    // the prefetches' context: the run's, cancelled by Close
	cancel context.CancelFunc // nil until the first prefetch
	wg     sync.WaitGroup
	mu     sync.Mutex
	walked map[windowKey]*window
}

type windowKey struct {
	start string
	n     int
}

// window is one walk's result: the commits in the window, and the commits
// it ends before (none when the whole history is in it).
type window struct {
	once   sync.Once
	in     map[string]bool
	beyond []string
	err    error
}

// PrefetchHistory has each change selected from now on start walking its
// history window of n commits (History's window) in the background, as soon
// as its base is known. Call it before selecting a change whose history
// will be read; 0 (the default) starts nothing.
func (r *Repo) PrefetchHistory(n int) { r.windows.n = max(n, 0) }

// prefetchWindow starts the walk of start's window, if PrefetchHistory
// asked for one.
func (r *Repo) prefetchWindow(ctx context.Context, start string) {
	w := &r.windows
	if w.n == 0 || start == "" {
		return
	}
	w.mu.Lock()
	if w.cancel == nil {
		w.ctx, w.cancel = context.WithCancel(ctx) // the run's: an interrupt stops it too
	}
	wctx := w.ctx
	w.mu.Unlock()
	w.wg.Go(func() { _, _, _ = r.recentCommits(wctx, start, w.n) })
}

// recentCommits is the window of n commits from start (see
// git.recentCommits), walked once however many ask for it.
func (r *Repo) recentCommits(ctx context.Context, start string, n int) (map[string]bool, []string, error) {
	w := &r.windows
	w.mu.Lock()
	if w.walked == nil {
		w.walked = map[windowKey]*window{}
	}
	k := windowKey{start, n}
	win := w.walked[k]
	if win == nil {
		win = &window{}
		w.walked[k] = win
	}
	w.mu.Unlock()
	win.once.Do(func() { win.in, win.beyond, win.err = r.git.recentCommits(ctx, start, n) })
	return win.in, win.beyond, win.err
}

// closeWindows stops the walks still going and waits for them.
func (r *Repo) closeWindows() {
	w := &r.windows
	w.mu.Lock()
	cancel := w.cancel
	w.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	w.wg.Wait()
}
