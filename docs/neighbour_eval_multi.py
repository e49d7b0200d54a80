#!/usr/bin/env python3
"""Evaluation of gitctx's key neighbours for a change of several files, black box.

A variant of ../shared/bench/neighbour_eval.py (same sampling, same clone, same scores) for
the change a pull request or a pre-commit hook brings: for sampled real commits C that
modified at least four files, check out C^ in a private clone whose only reachable history
is C^'s ancestry, apply C's change to HALF of its modified files (the seeds, chosen at
random), run `gitctx pack --worktree`, and score the ranked neighbours against the other
files C changed. The co-change baseline sums, over the seeds, the files that changed with
each in its last 200 commits; the same-directory baseline is the first seed's.

usage: neighbour_eval_multi.py GITCTX REPO [--samples N] [--seed S] [--k 10] [--json OUT]
"""
import argparse, json, os, random, shutil, subprocess, sys, tempfile, time

SKIP = ('vendor/', 'node_modules/', 'testdata/', '.github/', 'docs/')


def git(repo, *args, check=True):
    r = subprocess.run(['git', '-C', repo, *args], capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout


def candidate_commits(repo, limit=4000):
    out = git(repo, 'log', '--no-merges', f'-n{limit}', '--format=%H', '--name-status', '-M', 'HEAD')
    commits, cur = [], None
    for line in out.splitlines():
        if len(line) == 40 and ' ' not in line and '\t' not in line:
            cur = [line, []]
            commits.append(cur)
        elif line and cur:
            parts = line.split('\t')
            cur[1].append((parts[0][0], parts[-1], parts[1] if len(parts) > 2 else parts[-1]))
    good = []
    for sha, files in commits:
        mods = [p for st, p, old in files if st == 'M' and not p.startswith(SKIP)]
        if 2 <= len(files) <= 15 and len(mods) >= 4:
            good.append((sha, files))
    return good


def same_dir_baseline(clone, seed_path, k):
    d = os.path.dirname(seed_path)
    out = git(clone, 'log', '-n300', '--format=', '--name-only', 'HEAD', '--', d or '.')
    seen, ranked = set([seed_path]), []
    for p in out.splitlines():
        if p and p not in seen and os.path.dirname(p) == d and os.path.exists(os.path.join(clone, p)):
            seen.add(p)
            ranked.append(p)
    return ranked[:k]


def cochange_baseline(clone, seed_path, k, depth=2000):
    shas = git(clone, 'log', f'-n{depth}', '--no-merges', '--format=%H', 'HEAD', '--', seed_path).split()
    counts = {}
    for s in shas[:200]:
        for p in git(clone, 'show', '--format=', '--name-only', s).splitlines():
            if p and p != seed_path and os.path.exists(os.path.join(clone, p)):
                counts[p] = counts.get(p, 0) + 1
    return [p for p, c in sorted(counts.items(), key=lambda x: (-x[1], x[0]))][:k]


def multi_cochange(clone, seeds, k):
    """The files that changed most often with the seeds, summed over each seed's last 200 commits."""
    counts = {}
    for s in seeds:
        shas = git(clone, 'log', '-n2000', '--no-merges', '--format=%H', 'HEAD', '--', s).split()
        for sh in shas[:200]:
            for p in git(clone, 'show', '--format=', '--name-only', sh).splitlines():
                if p and p not in seeds and os.path.exists(os.path.join(clone, p)):
                    counts[p] = counts.get(p, 0) + 1
    return [p for p, c in sorted(counts.items(), key=lambda x: (-x[1], x[0]))][:k]


def score(ranked, truth, k):
    top = ranked[:k]
    hit3 = any(p in truth for p in ranked[:3])
    rec = len([p for p in top if p in truth]) / len(truth)
    rr = 0.0
    for i, p in enumerate(ranked):
        if p in truth:
            rr = 1.0 / (i + 1)
            break
    return hit3, rec, rr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('gitctx')
    ap.add_argument('repo')
    ap.add_argument('--samples', type=int, default=40)
    ap.add_argument('--seed', type=int, default=7)
    ap.add_argument('--k', type=int, default=10)
    ap.add_argument('--json')
    a = ap.parse_args()
    rng = random.Random(a.seed)
    commits = candidate_commits(a.repo)
    rng.shuffle(commits)
    work = tempfile.mkdtemp(prefix='nbeval-')
    clone = os.path.join(work, 'repo')
    subprocess.run(['git', 'clone', '-q', '--shared', '--no-checkout', a.repo, clone], check=True)
    for ref in git(clone, 'for-each-ref', '--format=%(refname)').split():
        git(clone, 'update-ref', '-d', ref)
    rows, agg = [], {'gitctx': [0, 0.0, 0.0], 'samedir': [0, 0.0, 0.0], 'cochange': [0, 0.0, 0.0]}
    n, fails, secs = 0, 0, 0.0
    for sha, files in commits:
        if n >= a.samples:
            break
        mods = [p for st, p, old in files if st == 'M' and not p.startswith(SKIP)]
        seeds = rng.sample(mods, len(mods) // 2)
        seed_path = seeds[0]
        truth = set(p for st, p, old in files if st in 'MR' and p not in seeds)
        try:
            git(clone, 'checkout', '-q', '-f', '--detach', sha + '^')
            git(clone, 'clean', '-qfdx')
            patch = git(a.repo, 'diff', '--binary', sha + '^', sha, '--', *seeds)
            p = subprocess.run(['git', '-C', clone, 'apply'], input=patch, text=True, capture_output=True)
            if p.returncode != 0:
                continue
        except RuntimeError:
            continue
        truth = set(t for t in truth if subprocess.run(['git', '-C', clone, 'cat-file', '-e', f'HEAD:{t}'],
                                                       capture_output=True).returncode == 0)
        if not truth:
            continue
        out = os.path.join(work, 'out')
        shutil.rmtree(out, ignore_errors=True)
        t0 = time.time()
        r = subprocess.run([a.gitctx, 'pack', '--worktree', '--out', out, '--quiet'], cwd=clone,
                           capture_output=True, text=True, timeout=300)
        secs += time.time() - t0
        n += 1
        ranked = []
        try:
            rec = json.load(open(os.path.join(out, 'record.json')))
            nbs = rec.get('neighbours') or []
            nbs = sorted(nbs, key=lambda x: -float(x.get('score', 0)))
            ranked = [x['path'] for x in nbs if x.get('path') not in seeds]
        except Exception as e:
            fails += 1
            ranked = []
        base = same_dir_baseline(clone, seed_path, 50)
        co = multi_cochange(clone, seeds, 50)
        for name, lst in (('gitctx', ranked), ('samedir', base), ('cochange', co)):
            h, rc, rr = score(lst, truth, a.k)
            agg[name][0] += h
            agg[name][1] += rc
            agg[name][2] += rr
        rows.append({'commit': sha, 'seed': seed_path, 'seeds': seeds, 'nbs': nbs, 'truth': sorted(truth), 'top': ranked[:a.k],
                     'exit': r.returncode})
    shutil.rmtree(work, ignore_errors=True)
    if n == 0:
        print('no usable samples')
        return 2
    res = {name: {'hit@3': round(v[0] / n, 3), f'recall@{a.k}': round(v[1] / n, 3), 'mrr': round(v[2] / n, 3)}
           for name, v in agg.items()}
    res.update({'samples': n, 'record_failures': fails, 'mean_pack_s': round(secs / n, 3)})
    if a.json:
        json.dump({'result': res, 'rows': rows}, open(a.json, 'w'), indent=1)
    print(json.dumps(res))
    return 0


if __name__ == '__main__':
    sys.exit(main())
