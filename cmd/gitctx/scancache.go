package main

import (
	"path/filepath"
	"runtime"

	"github.com/gitctx/gitctx/secrets"
)

// scanCache opens the cache of what the secrets gate found before (see
// secrets.Cache): in GITCTX_CACHE_DIR, else in gitctx/scan under the user's
// cache directory. GITCTX_NO_CACHE=1 turns it off. Without a usable
// directory there is none: a run without it is only slower.
func scanCache(a *app) *secrets.Cache {
	switch a.getenv("GITCTX_NO_CACHE") {
	case "", "0", "false":
	default:
		return nil
	}
	dir := a.getenv("GITCTX_CACHE_DIR")
	if dir == "" {
		base := userCacheDir(a.getenv)
		if base == "" {
			return nil
		}
		dir = filepath.Join(base, "gitctx", "scan")
	}
	c, err := secrets.OpenCache(dir, 0)
	if err != nil {
		return nil
	}
	return c
}

// userCacheDir is os.UserCacheDir, read through getenv; "" when the
// variables it needs are unset or relative.
func userCacheDir(getenv func(string) string) string {
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return ""
	}
	switch runtime.GOOS {
	case "windows":
		return abs(getenv("LocalAppData"))
	case "darwin", "ios":
		if home := abs(getenv("HOME")); home != "" {
			return filepath.Join(home, "Library", "Caches")
		}
		return ""
	case "plan9":
		if home := abs(getenv("home")); home != "" {
			return filepath.Join(home, "lib", "cache")
		}
		return ""
	}
	if xdg := abs(getenv("XDG_CACHE_HOME")); xdg != "" {
		return xdg
	}
	if home := abs(getenv("HOME")); home != "" {
		return filepath.Join(home, ".cache")
	}
	return ""
}
