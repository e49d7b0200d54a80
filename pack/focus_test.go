package pack

import (
	gobuild "go/build"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// keyNames are names that match each branch of the key-file patterns, and
// near misses.
var keyNames = []string{
	"package.json", "web/tsconfig.json", "pyproject.toml", "setup.py", "lib/setup.cfg", "go.mod", "Cargo.toml",
	"pom.xml", "build.gradle", "app/build.gradle.kts", "Gemfile", "Dockerfile", "Makefile", "docker-compose.yml",
	"docker-compose.yaml", ".gitctx.yml", ".gitctx.yaml", "a/b.toml", "setup.ini", "nginx.conf", "config/x.go",
	"configs/y", "settings/z.py", ".github/workflows/ci.yml", "x/config", "mainframe.go", "cmd/tool/main.go",
	"src/main.rs", "index.ts", "app.py", "server.js", "__main__.py", "manage.py", "main.d.ts", "internal/auth/token.go",
	"login.html", "session_store.go", "jwt.go", "oauth2.go", "password.txt", "credentials.go", "routes.rb",
	"user_controller.go", "handler.go", "api/v1.go", "x_api.go", "rapid.go", "endpoint.go", "graphql/schema.graphql",
	"grpc.go", "models/user.go", "migrations/001.sql", "db/conn.go", "database.go", "repository/x.go", "store.go",
	"storage.go", "dao.go", "q.sql", "permission.go", "rbac.go", "acl.go", "crypto/x.go", "security.md", "policy.go",
	"sanitize.go", "csrf.go", "cors.go", "readme.md", "x/y/z.go", "", "/", "a..b", "docs/api", "api",
}

// TestKeyFileWords checks that every name a key-file pattern matches holds
// one of its category's words, on the names above and on every path of
// the Go toolchain's source.
func TestKeyFileWords(t *testing.T) {
	names := keyNames
	root := filepath.Join(gobuild.Default.GOROOT, "src")
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			rel, _ := filepath.Rel(root, p)
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	if len(names) < 5000 {
		t.Fatalf("only %d names: is GOROOT's source there?", len(names))
	}
	matched := make([]int, len(keyCategories))
	for _, n := range names {
		lower := strings.ToLower(n)
		for c, cat := range keyCategories {
			want := cat.pattern.MatchString(lower)
			if got := isKeyFile(c, lower); got != want {
				t.Errorf("%s %q: isKeyFile = %v, the pattern says %v", cat.name, n, got, want)
			}
			if want {
				matched[c]++
			}
		}
	}
	for c, n := range matched {
		if n < 5 {
			t.Errorf("%s matched only %d names", keyCategories[c].name, n)
		}
	}
}

func FuzzKeyFileWords(f *testing.F) {
	for _, n := range keyNames {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, name string) {
		lower := strings.ToLower(name)
		for c, cat := range keyCategories {
			if got, want := isKeyFile(c, lower), cat.pattern.MatchString(lower); got != want {
				t.Fatalf("%s %q: isKeyFile = %v, the pattern says %v", cat.name, name, got, want)
			}
		}
	})
}
