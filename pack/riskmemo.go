package pack

import (
	"crypto/sha256"
	"fmt"

	"github.com/gitctx/gitctx/gitctx"
)

// riskVariant names how riskOrder finds the kinds of risk (riskKinds'
// words and patterns, maxRiskLines): change it whenever that changes.
const riskVariant = "gitctx-risk-kinds-1"

// riskKinds is riskKindsOf, with the kinds a change of one blob into
// another touches kept in the count table by the two blobs' ids: they
// depend on the diff of the two alone. Reading every changed line for the
// kinds' words took 7 ms of the CPU of a warm run over terraform's last
// 100 commits. A side of no blob (the work tree) has it read each time.
func (b *builder) riskKinds(e *entry) []string {
	key, changed, ok := b.riskKey(e)
	if ok {
		if code, ok := b.opts.Counts.get(key, changed); ok {
			if order, ok := decodeRiskOrder(code); ok {
				return riskNames(order, e)
			}
		}
	}
	order := riskOrder(e)
	if ok {
		b.opts.Counts.put(key, changed, encodeRiskOrder(order))
	}
	return riskNames(order, e)
}

// riskKey keys the kinds of risk of e's change, by its blobs and the
// lines its patch adds and deletes (changed, their sum, checks a slot);
// ok is false when a side is not a blob, or there is no table.
func (b *builder) riskKey(e *entry) (key countKey, changed int, ok bool) {
	if b.opts.Counts == nil || e.file == nil || e.patch == nil {
		return key, 0, false
	}
	ids := [2]string{b.ch.ObjectID(e.file, gitctx.Old), b.ch.ObjectID(e.file, gitctx.New)}
	modes := [2]uint32{e.file.OldMode, e.file.NewMode}
	for i := range ids {
		if modes[i] != 0 && ids[i] == "" {
			return key, 0, false
		}
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%d\x00%d\x00", riskVariant, ids[0], ids[1], e.additions(), e.deletions())
	copy(key[:], h.Sum(nil))
	return key, e.additions() + e.deletions(), true
}

// encodeRiskOrder packs an order of riskKinds into a slot's count: three
// bits a kind (its index + 1), the first lowest.
func encodeRiskOrder(order []int) int {
	code := 0
	for i, k := range order {
		code |= (k + 1) << (3 * i)
	}
	return code
}

// decodeRiskOrder unpacks encodeRiskOrder's code; ok is false for a code
// it cannot have made.
func decodeRiskOrder(code int) (order []int, ok bool) {
	for ; code != 0; code >>= 3 {
		k := code&7 - 1
		if k < 0 || k >= len(riskKinds) || len(order) == len(riskKinds) {
			return nil, false
		}
		order = append(order, k)
	}
	return order, true
}
