package neighbours

import (
	"path"
	"strings"
)

// goPlan picks, while the import index is read, the Go files goRelations
// parses (see goRelations), so that they are parsed from that one read
// rather than read again: the seeds whole, and lightly the files a seed
// imports and those importing a seed's package. The index hands it its
// files in order: go.mod files first (the seeds' import paths need the
// modules), then the seeds, then the rest.
type goPlan struct {
	r       *resolver
	isSeed  map[string]bool
	targets map[string]bool // files the seeds import
	specs   map[string]bool // "go:" specs of the seeds' packages
	parsed  map[string]*goFile
}

// maxGoSeeds is the most Go seeds goRelations looks at; a change of more
// files is its own context.
const maxGoSeeds = 200

// newGoPlan plans for the Go seeds; nil when goRelations will not run.
func newGoPlan(r *resolver, seeds []string) *goPlan {
	if len(seeds) == 0 || len(seeds) > maxGoSeeds {
		return nil
	}
	p := &goPlan{r: r, isSeed: map[string]bool{}, targets: map[string]bool{}, specs: map[string]bool{}, parsed: map[string]*goFile{}}
	for _, s := range seeds {
		p.isSeed[s] = true
	}
	return p
}

// take parses a file of the index if goRelations will need it.
func (p *goPlan) take(file string, specs []string, data []byte) {
	if p == nil || !strings.HasSuffix(file, ".go") {
		return
	}
	if p.isSeed[file] {
		if ip := p.r.importPathOf(path.Dir(file)); ip != "" {
			p.specs["go:"+ip] = true
		}
		for _, spec := range specs {
			for _, t := range p.r.resolve(file, spec) {
				p.targets[t] = true
			}
		}
		if g := parseGo(file, data); g != nil {
			p.parsed[file] = g
		}
		return
	}
	wanted := p.targets[file]
	for _, spec := range specs {
		wanted = wanted || p.specs[spec]
	}
	if wanted {
		if g := lightGo(file, data); g != nil {
			p.parsed[file] = g
		}
	}
}

// indexOrder puts go.mod files first, then the seeds, then the rest, each
// group in the order given.
func indexOrder(paths []string, isSeed func(string) bool) []string {
	var mods, seeds, rest []string
	for _, p := range paths {
		switch {
		case p == "go.mod" || strings.HasSuffix(p, "/go.mod"):
			mods = append(mods, p)
		case isSeed(p):
			seeds = append(seeds, p)
		default:
			rest = append(rest, p)
		}
	}
	return append(append(mods, seeds...), rest...)
}
