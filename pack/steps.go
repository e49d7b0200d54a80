package pack

import (
	"fmt"
	"sort"
)

// maxListedCommits is how many commits a degraded pack still lists.
const maxListedCommits = 20

// step is one kind of degradation, applied to one entry at a time (or,
// when global, to the pack once).
type step struct {
	name   string
	global bool
	order  func() []*entry
	apply  func(*entry) bool
}

// steps lists the degradations of a Summary, gentlest first: cut long
// diffs and files to head and tail, shorten commit messages, narrow diff
// context, drop outlines and excerpts, drop the directory tree, and at
// last list files by name only. Within a step, the costliest files go
// first, so that as many files as possible keep the most.
func (s *shaper) steps() []step {
	v := s.v
	byCost := func(keep func(*entry) bool) func() []*entry {
		return func() []*entry {
			var out []*entry
			for _, e := range v.shown() {
				if keep(e) {
					out = append(out, e)
				}
			}
			sort.SliceStable(out, func(i, j int) bool { return s.cost[out[i]] > s.cost[out[j]] })
			return out
		}
	}
	once := func(apply func() bool) (func() []*entry, func(*entry) bool) {
		return func() []*entry { return []*entry{nil} }, func(*entry) bool { return apply() }
	}
	described := v.PullRequest != nil && v.PullRequest.Body != ""
	subjects, subjectsApply := once(func() bool {
		changed := v.Messages && (len(v.Commits) > 0 || described)
		v.Messages = false
		return changed
	})
	subjectsName := "commit messages shortened to their subjects"
	if described {
		subjectsName += ", the pull request's description left out"
	}
	fewer, fewerApply := once(func() bool {
		changed := len(v.Commits) > maxListedCommits && v.MaxCommits == 0
		v.MaxCommits = maxListedCommits
		return changed
	})
	tree, treeApply := once(func() bool {
		changed := v.ShowTree
		v.ShowTree = false
		return changed
	})
	longDiff := func(e *entry) bool { return e.showsDiff() && e.diffCap == 0 && e.diffOverCap() }
	longFile := func(e *entry) bool { return e.showContent == RepFull && e.long() }
	return []step{
		fewerGenerated(v),
		fewerExtras(v),
		fewerContext(v),
		{name: "long diffs and files cut to their head and tail",
			order: byCost(func(e *entry) bool { return longDiff(e) || longFile(e) }),
			apply: func(e *entry) bool {
				if longFile(e) {
					e.showContent = RepTruncated
				}
				if longDiff(e) {
					e.diffCap = diffCapLines
				}
				return true
			}},
		{name: subjectsName, global: true, order: subjects, apply: subjectsApply},
		{name: fmt.Sprintf("commit list cut to the %d newest", maxListedCommits), global: true, order: fewer, apply: fewerApply},
		{name: "diff context cut to 1 line",
			order: byCost(func(e *entry) bool { return e.showsDiff() && e.diffContext > 1 }),
			apply: func(e *entry) bool { e.diffContext = 1; return true }},
		{name: "diff context cut to 0 lines",
			order: byCost(func(e *entry) bool { return e.showsDiff() && e.diffContext > 0 }),
			apply: func(e *entry) bool { e.diffContext = 0; return true }},
		{name: "outlines and excerpts left out",
			order: byCost(func(e *entry) bool { return e.showContent != "" && e.showsDiff() }),
			apply: func(e *entry) bool { e.showContent = ""; return true }},
		{name: "directory structure left out", global: true, order: tree, apply: treeApply},
		{name: "files listed by name only",
			order: byCost(func(*entry) bool { return true }),
			apply: func(e *entry) bool { e.nameOnly = true; return true }},
	}
}

// fewerGenerated cuts the long diffs of files written by tools (lock
// files, generated code) to their head and tail, the costliest first:
// what a reviewer reads is their source, and the neighbours of the
// change are worth more than the middle of a regenerated file.
func fewerGenerated(v *view) step {
	return step{name: "long diffs of generated files cut to their head and tail", order: func() []*entry {
		var out []*entry
		for _, e := range v.shown() {
			if e.generated != "" && e.showsDiff() && e.diffCap == 0 && e.diffOverCap() {
				out = append(out, e)
			}
		}
		return out
	}, apply: func(e *entry) bool { e.diffCap = diffCapLines; return true }}
}

// fewerExtras leaves out the neighbours and guide files, the
// lowest-ranked neighbour first and the guides last: the context around
// the change goes before anything of the change itself.
func fewerExtras(v *view) step {
	return step{name: "lowest-ranked neighbours and guide files left out", order: func() []*entry {
		var ns, gs []*entry
		for _, e := range v.shown() {
			switch e.role {
			case RoleNeighbour:
				ns = append([]*entry{e}, ns...)
			case RoleGuide:
				gs = append([]*entry{e}, gs...)
			}
		}
		return append(ns, gs...)
	}, apply: func(e *entry) bool { e.excluded = ReasonBudget; return true }}
}

// fewerContext leaves out the user's context files, the last chosen (the
// lowest-ranked) first. The user asked for them, so they go after the
// neighbours and guide files, which were chosen automatically, but before
// anything of the change itself.
func fewerContext(v *view) step {
	return step{name: "context files left out, the lowest-ranked first", order: func() []*entry {
		var cs []*entry
		for _, e := range v.shown() {
			if e.role == RoleContext {
				cs = append([]*entry{e}, cs...)
			}
		}
		return cs
	}, apply: func(e *entry) bool { e.excluded = ReasonBudget; return true }}
}
