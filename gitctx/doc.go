// Package gitctx is gitctx's model of a change and its only door to git.
//
// A change is selected from a revision range ([Repo.SelectRange]: "A..B",
// "A...B" or a single revision), the index ([Repo.SelectStaged]), the work
// tree ([Repo.SelectWorktree]) or a unified diff ([ReadPatch]). Selection
// is cheap: it lists the changed files with their status, modes and blob ids
// (`git diff --raw`), and the commits of a range. Everything heavier is read
// on demand, so that only what a pack emits is ever read: patches stream
// through [Change.Patches], and file contents come from [Change.Read] (either
// side of a changed file) and [Change.ReadTree] (any file on the new side).
//
// The git CLI computes diffs and rename detection, which it does faster and
// more faithfully than any library; go-git reads objects in process, and
// go-gitdiff parses every patch. File names are passed with -z and after
// "--", never through a shell, so any byte but NUL is a valid name.
// Symbolic links are never followed, and nothing under .git is ever read.
//
// The package imports nothing else of gitctx's.
package gitctx
