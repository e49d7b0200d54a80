package main

import (
	"path/filepath"
	"runtime"

	"github.com/gitctx/gitctx/gitctx/neighbours"
	"github.com/gitctx/gitctx/pack"
	"github.com/gitctx/gitctx/secrets"
)

// scanCache opens the cache of what the secrets gate found before (see
// secrets.Cache) in cacheDir. Without a usable directory there is none: a
// run without it is only slower.
func scanCache(a *app) *secrets.Cache {
	dir := cacheDir(a)
	if dir == "" {
		return nil
	}
	c, err := secrets.OpenCache(dir, 0)
	if err != nil {
		return nil
	}
	return c
}

// neighbourMemo opens the memo of the neighbours found for ranges (see
// neighbours.Memo), in the folder neighbours of cacheDir. A build that
// cannot name itself exactly (built from a modified checkout, or by `go
// run`) keeps none.
func neighbourMemo(a *app) *neighbours.Memo {
	dir := cacheDir(a)
	if dir == "" {
		return nil
	}
	b := readBuild()
	name := ""
	if !b.modified && (b.commit != "" || b.version != "(devel)") {
		name = b.version + " " + b.commit
	}
	m, err := neighbours.OpenMemo(filepath.Join(dir, "neighbours"), name)
	if err != nil {
		return nil
	}
	return m
}

// countCache opens the cache of token counts (see pack.CountCache) in
// cacheDir; nil without one.
func countCache(a *app) *pack.CountCache {
	dir := cacheDir(a)
	if dir == "" {
		return nil
	}
	c, err := pack.OpenCountCache(dir)
	if err != nil {
		return nil
	}
	return c
}

// cacheDir is where gitctx keeps its caches: GITCTX_CACHE_DIR, else
// gitctx/scan under the user's cache directory; "" when GITCTX_NO_CACHE=1
// turns them off or there is no such directory.
func cacheDir(a *app) string {
	switch a.getenv("GITCTX_NO_CACHE") {
	case "", "0", "false":
	default:
		return ""
	}
	if dir := a.getenv("GITCTX_CACHE_DIR"); dir != "" {
		return dir
	}
	if base := userCacheDir(a.getenv); base != "" {
		return filepath.Join(base, "gitctx", "scan")
	}
	return ""
}

// userCacheDir is os.UserCacheDir, read through getenv; "" when the
// variables it needs are unset or relative.
func userCacheDir(getenv func(string) string) string {
	return userDir(getenv, userDirs{xdg: "XDG_CACHE_HOME", dot: ".cache", mac: "Caches", win: "LocalAppData", plan9: "cache"})
}

// userDirs name a user directory on each system: the XDG variable and the
// directory under HOME, the directory under ~/Library, the Windows
// variable, the directory under plan9's $home/lib.
type userDirs struct{ xdg, dot, mac, win, plan9 string }

// userDir is what os.UserCacheDir and os.UserConfigDir do, read through
// getenv; "" when the variables it needs are unset or relative.
func userDir(getenv func(string) string, d userDirs) string {
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return ""
	}
	switch runtime.GOOS {
	case "windows":
		return abs(getenv(d.win))
	case "darwin", "ios":
		if home := abs(getenv("HOME")); home != "" {
			return filepath.Join(home, "Library", d.mac)
		}
		return ""
	case "plan9":
		if home := abs(getenv("home")); home != "" {
			return filepath.Join(home, "lib", d.plan9)
		}
		return ""
	}
	if xdg := abs(getenv(d.xdg)); xdg != "" {
		return xdg
	}
	if home := abs(getenv("HOME")); home != "" {
		return filepath.Join(home, d.dot)
	}
	return ""
}
