package pack

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSecretValuesFarBelowKind: a change to a Kubernetes Secret's value
// thirty lines below its kind line shows none of the values, in a full
// pack and in a summary pack (whose diff is all that is shown of it), in
// every format.
func TestSecretValuesFarBelowKind(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	value := func() string {
		b := make([]byte, 12+rng.IntN(28))
		for i := range b {
			b[i] = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"[rng.IntN(57)]
		}
		return base64.StdEncoding.EncodeToString(b)
	}
	var values []string
	manifest := func() string {
		var b strings.Builder
		b.WriteString("apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\ndata:\n")
		for i, v := range values {
			fmt.Fprintf(&b, "  slot%d: %s\n", i, v)
		}
		return b.String()
	}
	for range 40 {
		values = append(values, value())
	}
	r := newRepo(t, "k8s")
	r.Write("deploy/secret.yaml", manifest())
	r.Commit("secret")
	old := values[30]
	values = append(values, value())
	values[30] = value()
	r.Write("deploy/secret.yaml", manifest())
	r.Commit("rotate")
	values = append(values, old)
	ch := r.change("HEAD~1..HEAD")
	for _, f := range formats {
		for _, mode := range []string{"full", "summary"} {
			opts := options(counter(t), f, 0)
			opts.Mode = mode
			res := build(t, ch, opts)
			for i, v := range values {
				if strings.Contains(res.Text, v) {
					t.Errorf("%s %s pack: value %d shown", f, mode, i)
				}
			}
		}
	}
}
