package neighbours

import "testing"

func TestSameKind(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"a/x.go", "a/y.go", true},
		{"web/a.ts", "web/b.tsx", true}, // one language
		{"web/a.ts", "web/b.js", true},
		{"README.md", "CHANGES.md", true},
		{"README.md", "go.sum", false},
		{"README.md", ".gitignore", false},
		{"docs/a.txt", "docs/b.md", false},
		{"a/x.go", "a/x.py", false},
		{"Makefile", "LICENSE", true}, // neither has an extension
	} {
		if got := sameKind(tc.a, tc.b); got != tc.want {
			t.Errorf("sameKind(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestGenerated(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"go.sum", true},
		{"web/package-lock.json", true},
		{"yarn.lock", true},
		{"bun.lockb", true}, // binary: bun's lock before its text lock
		{"Cargo.lock", true},
		{"static/app.min.js", true},
		{"static/app.js.map", true},
		{"go.mod", false},
		{"package.json", false},
		{"static/app.js", false},
		{"docs/lock.md", false},
	} {
		if got := generated(tc.path); got != tc.want {
			t.Errorf("generated(%q) = %v, want %v", tc.path, got, tc.want)
		}
	}
}

func TestPairable(t *testing.T) {
	for _, tc := range []struct {
		test, code string
		want       bool
	}{
		{"tests/test_testing.py", "flask/testing.py", true},                // a flat test tree at the root
		{"tests/unit/test_x.py", "src/pkg/x.py", true},                     // unit/ sorts tests only
		{"src/test/java/a/FooTest.java", "src/main/java/a/Foo.java", true}, // a Maven mirror
		{"spec/models/user_spec.rb", "app/models/user.rb", true},
		{"src/components/__tests__/B.test.tsx", "src/components/B.tsx", true},
		{"test/ranges-test.cc", "include/fmt/ranges.h", true},
		{"test/mix/tasks/ecto.migrate_test.exs", "lib/mix/tasks/ecto.migrate.ex", true},
		{"core/src/jvmTest/kotlin/a/FooTest.kt", "core/src/commonMain/kotlin/a/Foo.kt", true}, // Kotlin Multiplatform
		{"tests/domain/test_order.py", "src/domain/order.py", true},
		{"tests/domain/test_order.py", "src/billing/order.py", false}, // domain is no source set
		{"test/spec_sendfile.rb", "lib/rack/sendfile.rb", true},
		{"tests/Cookie/CookieJarTest.php", "src/Cookie/CookieJar.php", true},
		{"tests/Unit/Models/UserTest.php", "app/Models/User.php", true}, // Laravel
		{"tests/Acme.Tests/Billing/InvoiceTests.cs", "src/Acme/Billing/Invoice.cs", true},
		{"Tests/SessionTests.swift", "Source/Core/Session.swift", true},
		{"Tests/AcmeTests/ParserTests.swift", "Sources/Acme/Parser.swift", true}, // SwiftPM
		{"test/plug/conn_test.exs", "lib/plug/conn.ex", true},
		{"test/client_test.dart", "lib/src/client.dart", true},
		{"tests/Acme.Tests/InvoiceTests.cs", "src/Other/Invoice.cs", false},
		{"test/plug/conn_test.exs", "lib/other/conn.ex", false},
		{"tests/InvoiceTest.php", "src/Invoice.cs", false},
		{"internal/client/config_test.go", "internal/server/config.go", false}, // Go: same directory only
		{"packages/b/test/index.test.ts", "packages/a/src/index.ts", false},
		{"tests/test_x.py", "src/x.go", false}, // two languages
		{"web/a/x.spec.ts", "web/b/x.ts", false},
	} {
		if got := pairable(tc.test, tc.code); got != tc.want {
			t.Errorf("pairable(%q, %q) = %v, want %v", tc.test, tc.code, got, tc.want)
		}
	}
}

func TestSpecific(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"ParseAbsAction", true},
		{"initCommands", true},
		{"get_json", true},
		{"AddrType", true},
		{"String", false},
		{"Config", false},
		{"run", false},
		{"_private", false},
		{"HTTP", false},
		{"ServeHTTP", true},
		{"aB", false}, // too short
		// random words, from terraform's tests: keys and digests
		{"LfXmhxZO3fLXQUCy3MVXAJK9pybY8WoDPgvs", false},
		{"lBK0tFD6VwAFbKRx", false},
		{"xtF8Rz4WmaSQPMMLYptoyodSwgYfpCEnZCIdjckfFEs", false},
		{"UnWIy4mq9GaDr1LhAzCPgA6RSQUn952RLFqQe3HPyCs", false},
		{"NzQR6W56enWX4T0XLos", false},
		{"d41d8cd98f00b204e9800998ecf8427e", false},
		// long names, written in words
		{"TestInit_stateStore_newWorkingDir_partialConfiguration", true},
		{"TestParseApply_minimal_refresh", true},
		{"SetResourceInstanceCurrent", true},
		{"getXMLHttpRequest", true},
		{"x509CertificateAuthority", true},
		{"TestAES128GCMRoundTrip", true},
	} {
		if got := specific(tc.name); got != tc.want {
			t.Errorf("specific(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
