package neighbours

import (
	"context"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
)

// Data files: a changed test fixture, golden file or image has no imports,
// and often no history of its own beside the test that reads it. That
// test names it: view_test.go opens fixtures/run_log.zip, the readme
// shows logo.png. So the files that name a changed data file by its file
// name are its neighbours, a test among them as its paired test.
//
// On the tuning repositories' commits that change a file of test data (65
// of them, in the samplings of docs/neighbours.md and one of such commits
// alone: twelfth round), the files naming it by its file name were right 33
// times in 63, and 11 times in the 35 not yet among the first ten
// neighbours. For the other files not written in a programming language (a
// readme, a Makefile, a config file: 373 commits) that was 4 in 473, so only
// data files are searched for.
const (
	maxNamers    = 10 // a file name named in more files than this is too common to tell
	maxDataSeeds = 20 // a change of more data files (by name) searches for none: it says little about each
	// maxDataChange is the most files a change may have for the search:
	// it reads every file of the work tree (0.15-0.19 CPU-s on terraform's
	// last 100 commits, 331 files, where a change of that size has more
	// neighbours than it can show from its own files' relations alone).
	maxDataChange = 50
)

// IsTestData reports whether a path is a file of test data: it lies in a
// directory for test data (testdata/, fixtures/, __snapshots__/ …).
func IsTestData(p string) bool { return isDataFile(p) }

// isDataFile reports whether a path is a file of test data: it lies in a
// directory for test data.
func isDataFile(p string) bool {
	return slices.ContainsFunc(strings.Split(path.Dir(p), "/"), isDataDir)
}

func isDataDir(d string) bool {
	switch strings.ToLower(d) {
	case "testdata", "test-data", "test_data", "fixtures", "fixture", "__fixtures__", "__snapshots__",
		"snapshots", "golden", "testfiles":
		return true
	}
	return false
}

// startDataNames starts the search for the changed data files' names in
// the background: one `git grep` of their file names as fixed words. The
// data files are the changed test data and the changed files never shown
// (see quietSeeds).
func (f *finder) startDataNames(ctx context.Context) {
	byName := map[string][]string{}
	for _, s := range f.seeds() {
		if isDataFile(s) {
			byName[path.Base(s)] = append(byName[path.Base(s)], s)
		}
	}
	for _, s := range f.quietSeeds() {
		byName[path.Base(s)] = append(byName[path.Base(s)], s)
	}
	if len(byName) == 0 || len(byName) > maxDataSeeds || len(f.seeds())+len(f.quietSeeds()) > maxDataChange {
		return
	}
	f.dataNamers = sync.OnceValues(func() (map[string][]string, error) {
		namers := map[string][]string{} // file → data files it names
		files := map[string]map[string]bool{}
		err := f.ch.Grep(ctx, slices.Sorted(maps.Keys(byName)), func(p string, text []byte) {
			name := string(text)
			if files[name] == nil {
				files[name] = map[string]bool{}
			}
			files[name][p] = true
		})
		if err != nil {
			return nil, err
		}
		for name, ps := range files {
			if len(ps) > maxNamers {
				continue
			}
			for p := range ps {
				namers[p] = append(namers[p], byName[name]...)
			}
		}
		return namers, nil
	})
	go func() { _, _ = f.dataNamers() }()
}

// dataNames adds the files that name a changed data file (see
// startDataNames): a test as the data file's paired test, any other file
// as a reference.
func (f *finder) dataNames(context.Context) error {
	if f.dataNamers == nil {
		return nil
	}
	namers, err := f.dataNamers()
	if err != nil {
		return err
	}
	for p, data := range namers {
		slices.Sort(data)
		for _, d := range slices.Compact(data) {
			if isTestPath(p) {
				f.relate(d, p, weightTest, "a test that names the changed file "+d)
			} else {
				f.relate(d, p, weightReference, "names the changed file "+d)
			}
		}
	}
	return nil
}
