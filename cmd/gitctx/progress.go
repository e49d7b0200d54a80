package main

import (
	"fmt"
	"io"
	"time"
)

// progress shows the current stage on a terminal, on one line.
type progress struct {
	w     io.Writer
	on    bool
	shown bool
	start time.Time
}

func newProgress(w io.Writer, mode string, quiet bool) *progress {
	on := mode == "always" || (mode == "auto" && !quiet && isTerminal(w))
	return &progress{w: w, on: on && !quiet, start: time.Now()}
}

func (p *progress) stage(name string) {
	if !p.on {
		return
	}
	fmt.Fprintf(p.w, "\r\033[Kgitctx: %s… (%.1fs)", name, time.Since(p.start).Seconds())
	p.shown = true
}

func (p *progress) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
