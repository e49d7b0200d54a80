package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gitctx/gitctx/gitctx"
	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/review/artifact"
	"github.com/gitctx/gitctx/secrets"
)

// packRun is a built pack and what it was built from.
type packRun struct {
	ch         *gitctx.Change // the caller closes it
	gate       *secrets.Gate
	counter    pack.Counter
	res        *pack.Result
	format     pack.Format
	outDir     string
	defaultDir bool            // outDir is .gitctx/, which gitctx keeps ignored
	empty      bool            // the change touches nothing: res holds only a record
	hint       string          // how to pack changed code a default directory name left out, if any (packedHint)
	saved      bool            // the outputs are written (saveOutputs)
	extra      []artifact.File // saved beside the pack and record: a review's answer
}

// buildPack selects the change the options name and packs it.
func buildPack(ctx context.Context, a *app, o *packOptions, prog *progress) (*packRun, error) {
	defer limitMemory(a.getenv, packMemoryLimit)()
	// The default secret rules, then the tokenizer's vocabulary, about 40
	// ms of CPU in all, are built in the background while git selects the
	// change: one after the other, on one core. Built side by side they
	// took both cores of a small machine, and the goroutine waiting on git
	// for the selection waited as long for a core (15 ms). With counts
	// kept by earlier runs, the vocabulary is built only if a count is
	// missing: a pack of text counted before needs none.
	budget, counter, err := resolveBudget(a, o)
	if err != nil {
		return nil, err
	}
	counts := countCache(a)
	defer counts.Close()
	defaults := secrets.LoadDefaults(gateLogger(a))
	go func() {
		defaults.Wait()
		if counts == nil || counts.Fresh() {
			pack.Warm(counter)
		}
	}()
	prog.stage("selecting the change")
	ch, err := selectChange(ctx, a, o)
	if err != nil {
		return nil, err
	}
	pr := &packRun{ch: ch, counter: counter}
	pr.outDir, pr.defaultDir = outputDir(ch, o)
	err = checkOutputPaths(o, pr.outDir, pr.defaultDir)
	if err == nil && pr.defaultDir && ch.Repo() == nil && inGitDir(parentDir(pr.outDir)) {
		err = fmt.Errorf("the output directory %s would be inside a .git directory, where git keeps its own files: run gitctx from the work tree, or pass --out DIR", pr.outDir)
	}
	if err == nil {
		pr.gate, err = newGate(ctx, a, ch, defaults)
	}
	if err == nil {
		err = pr.build(ctx, a, o, prog, budget, counts)
	}
	if err != nil && o.failOn && pr.gate != nil && errors.Is(err, pack.ErrBudget) {
		err = secretsFirst(ctx, a, ch, pr.gate, err)
	}
	if err != nil {
		ch.Close()
		return nil, err
	}
	return pr, nil
}

// secretsFirst checks for added credentials a change too large for its
// budget (budgetErr): --fail-on-secrets asks about the change, not the
// pack, so they are named, and exit 3, which a hook or a CI step reads as
// "blocked", wins over the budget's exit 4.
func secretsFirst(ctx context.Context, a *app, ch *gitctx.Change, gate *secrets.Gate, budgetErr error) error {
	err := failOnSecrets(ctx, a, ch, gate)
	if blocked(err) {
		return fmt.Errorf("%w; no pack was written either: %v", err, budgetErr)
	}
	if err != nil {
		return err
	}
	return budgetErr
}

func (pr *packRun) build(ctx context.Context, a *app, o *packOptions, prog *progress, budget pack.Budget, counts *pack.CountCache) error {
	format, _ := pack.ParseFormat(o.format)
	extra := o.settings.extra()
	rules := pack.DefaultRules()
	rules.Include, rules.Exclude = o.include, o.exclude
	if err := rules.PackDirs(extra.PackedDirectories...); err != nil {
		return err // checked as the configuration was read
	}
	rules.ExcludeDirs(extra.ExcludedDirectories...)
	rules.ExcludeExtensions(extra.ExcludedExtensions...)
	rules.Outputs = ownOutputs(pr.ch, o, pr.outDir)
	uctx, err := o.ctx.options(ctx, a, pr.ch, o.settings)
	if err != nil {
		return err
	}
	var described *pack.PullRequest
	if o.pullRequest != nil && len(pr.ch.Files) > 0 {
		if described, err = o.pullRequest(ctx); err != nil {
			return err
		}
	}
	v, _ := buildVersion()
	res, err := pack.Build(ctx, pr.ch, pack.Options{
		Format:          format,
		Mode:            o.effectiveMode(),
		Rules:           rules,
		MaxFileBytes:    int64(o.maxFileKB) * 1024,
		MaxFiles:        o.maxFiles,
		MaxContentBytes: o.maxBytes,
		Context:         uctx,
		Truncation: pack.Truncation{
			MaxFileBytes: int64(extra.Truncation.MaxFileBytes),
			HeadLines:    extra.Truncation.PreserveHeadLines,
			TailLines:    extra.Truncation.PreserveTailLines,
		},
		KeyFiles: pack.KeyFiles{
			MaxPerCategory:         extra.KeyFiles.MaxPerCategory,
			MaxTotal:               extra.KeyFiles.MaxTotal,
			MaxContentPerFileBytes: int64(extra.KeyFiles.MaxContentPerFileBytes),
		},
		Budget:        budget,
		Split:         o.split,
		NoNeighbours:  o.noNeigh || o.maxNeigh == 0,
		MaxNeighbours: o.maxNeigh,
		HistoryDepth:  historyDepth(o.history),
		NeighbourMemo: neighbourMemo(a),
		Counter:       pr.counter,
		Counts:        counts,
		Gate:          pr.gate,
		Tool:          pack.Tool{Name: "gitctx", Version: v},
		Progress:      prog.stage,
		PullRequest:   described,
	})
	pr.empty = errors.Is(err, pack.ErrEmpty)
	if err != nil && !pr.empty {
		return err
	}
	pr.res, pr.format = res, format
	if res != nil && res.Record != nil {
		pr.hint = packedHint(res.Record, rules, extra.ExcludedDirectories)
	}
	return nil
}

// realDir refuses a default output directory that is a symbolic link or
// not a directory: .gitctx/ can come with the repository, and a link
// committed there would have gitctx write (and remove stale packs, and
// write a .gitignore of "*") wherever it points.
func realDir(dir string) error {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("output directory: %w", err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("the output directory %s is a symbolic link; gitctx writes only into a real directory there (remove the link, or pass --out DIR)", dir)
	case !fi.IsDir():
		return fmt.Errorf("the output directory %s is not a directory (remove it, or pass --out DIR)", dir)
	}
	return nil
}

// parentDir is the directory that holds dir, made absolute (dir itself when
// it cannot be).
func parentDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return filepath.Dir(abs)
	}
	return dir
}

// selectChange selects the change the options name.
func selectChange(ctx context.Context, a *app, o *packOptions) (*gitctx.Change, error) {
	repo, err := a.openRepo(ctx)
	if err != nil && !(o.patch != "" && errors.Is(err, gitctx.ErrNotRepository)) {
		return nil, err
	}
	if repo != nil {
		repo.SetCommitMemo(openCommitMemo(a))
		if !o.noNeigh && o.maxNeigh > 0 && o.history > 0 {
			// the neighbours' history window is walked while the change
			// is listed (gitctx.Repo.PrefetchHistory)
			repo.PrefetchHistory(o.history)
		}
	}
	switch {
	case o.patch != "":
		var in io.Reader = a.stdin
		if o.patch != "-" {
			f, err := os.Open(o.patch)
			if err != nil {
				return nil, fmt.Errorf("read --patch (a file written by git diff or diff -u, or - for stdin): %w", err)
			}
			defer f.Close()
			in = f
		}
		return gitctx.ReadPatch(ctx, repo, o.patch, in)
	case o.staged:
		return repo.SelectStaged(ctx)
	case o.spec != "":
		return repo.SelectRange(ctx, o.spec)
	}
	return repo.SelectWorktree(ctx)
}

// outputDir is --out, or .gitctx/ at the repository root (then
// defaultDir is true and gitctx keeps it ignored by git).
func outputDir(ch *gitctx.Change, o *packOptions) (dir string, defaultDir bool) {
	if o.out != "" {
		return o.out, false
	}
	if r := ch.Repo(); r != nil {
		return filepath.Join(r.Top(), ".gitctx"), true
	}
	return ".gitctx", true
}

// historyDepth maps --history-depth to pack's option, where 0 means the
// default and a negative depth mines nothing.
func historyDepth(n int) int {
	if n == 0 {
		return -1
	}
	return n
}
