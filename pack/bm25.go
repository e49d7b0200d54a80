package pack

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// BM25 parameters: the usual ones (Robertson and Zaragoza; Lucene's
// defaults).
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// pathWeight is how many times a file's path counts beside its text: a
// file named after what is asked for is more likely about it.
const pathWeight = 2

// queryDoc is one file as BM25 sees it: its length in terms and how often
// each term of the query occurs in it (only those are kept, so that the
// index of a large repository stays small).
type queryDoc struct {
	path   string
	length int
	tf     map[string]int
}

// indexDoc counts the query's terms in a file's path and text.
func indexDoc(p, text string, query map[string]bool) queryDoc {
	d := queryDoc{path: p, tf: map[string]int{}}
	count := func(t string) {
		d.length++
		if query[t] {
			d.tf[t]++
		}
	}
	for range pathWeight {
		terms(p, count)
	}
	terms(text, count)
	return d
}

// bm25 scores each document against the query's terms with Okapi BM25:
// the sum over the terms of idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)),
// with the idf that stays positive, ln(1 + (N − df + 0.5)/(df + 0.5)).
func bm25(docs []queryDoc, query []string) []float64 {
	scores := make([]float64, len(docs))
	if len(docs) == 0 {
		return scores
	}
	total := 0
	df := map[string]int{}
	for _, d := range docs {
		total += d.length
		for t := range d.tf {
			df[t]++
		}
	}
	avg := math.Max(float64(total)/float64(len(docs)), 1)
	n := float64(len(docs))
	for _, t := range query {
		idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
		for i, d := range docs {
			tf := float64(d.tf[t])
			if tf == 0 {
				continue
			}
			norm := bm25K1 * (1 - bm25B + bm25B*float64(d.length)/avg)
			scores[i] += idf * tf * (bm25K1 + 1) / (tf + norm)
		}
	}
	return scores
}

// queryTerms lists the distinct terms of a query, in order.
func queryTerms(q string) []string {
	var out []string
	seen := map[string]bool{}
	terms(q, func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	})
	return out
}

// terms splits text into index terms: runs of letters and digits, split
// again at snake_case and camelCase boundaries ("parseHTTPRequest" gives
// parse, http, request and, whole, parsehttprequest), lower-cased, with
// plurals reduced and stop words and one-letter words left out.
func terms(text string, fn func(string)) {
	for len(text) > 0 {
		start := strings.IndexFunc(text, isWordRune)
		if start < 0 {
			return
		}
		text = text[start:]
		end := strings.IndexFunc(text, func(r rune) bool { return !isWordRune(r) })
		if end < 0 {
			end = len(text)
		}
		word := text[:end]
		text = text[end:]
		parts := splitIdentifier(word)
		for _, p := range parts {
			emit(p, fn)
		}
		if len(parts) > 1 {
			emit(strings.ReplaceAll(word, "_", ""), fn)
		}
	}
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// splitIdentifier splits at underscores, at a lower-case letter or digit
// followed by an upper-case one, and before the last capital of a run of
// capitals followed by a lower-case letter ("HTTPServer": HTTP, Server).
func splitIdentifier(word string) []string {
	var parts []string
	for field := range strings.SplitSeq(word, "_") {
		from := 0
		var prev rune
		for i, r := range field {
			if i > 0 && unicode.IsUpper(r) {
				next, _ := utf8.DecodeRuneInString(field[i+utf8.RuneLen(r):])
				if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && unicode.IsLower(next) {
					parts = append(parts, field[from:i])
					from = i
				}
			}
			prev = r
		}
		if from < len(field) {
			parts = append(parts, field[from:])
		}
	}
	return parts
}

// emit normalises a word and passes it on unless it carries no meaning.
func emit(w string, fn func(string)) {
	w = stem(strings.ToLower(w))
	if utf8.RuneCountInString(w) < 2 || stopWord(w) {
		return
	}
	fn(w)
}

// stem reduces an English plural to its singular, roughly: "greetings"
// matches "greeting", "libraries" matches "library".
func stem(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// stopWord reports the commonest English words, which say nothing about
// what a file is about.
func stopWord(w string) bool {
	switch w {
	case "the", "and", "or", "of", "to", "in", "on", "at", "by", "for", "with", "from", "as", "is", "are", "was", "were",
		"be", "been", "it", "its", "this", "that", "these", "those", "an", "how", "what", "which", "who", "when", "where",
		"why", "do", "doe", "does", "not", "no", "but", "if", "so", "than", "then", "there", "their", "they", "we", "you",
		"he", "she", "all", "any", "can", "will", "would", "should", "into", "about", "each", "every", "some", "such":
		return true
	}
	return false
}
