package review

import (
	"regexp"
	"strings"
)

// A model's answer is posted as gitctx's token, and what the pull request
// holds can steer it: an @mention in the answer would notify whoever it
// names (a team of hundreds, or anyone at all). quietMentions puts a zero
// width space after the @ of every mention in prose and in the findings
// block (whose titles and bodies become inline comments), so GitHub shows
// the name and notifies no one; code is left as it is, where a mention
// does nothing and a changed byte would break a snippet.

// mention is an @ that GitHub would read as one: not after a word
// character (an e-mail address) or a backtick, and followed by a user or
// organisation name, or org/team.
var mention = regexp.MustCompile(`(^|[^\w@` + "`" + `/.])@([A-Za-z0-9][A-Za-z0-9-]*(?:/[A-Za-z0-9][\w.-]*)?)`)

// quietMentions neutralises the mentions of text outside code: fenced
// blocks (but for json ones, the findings) and inline code spans.
func quietMentions(text string) string {
	return eachProse(text, func(s string) string { return mention.ReplaceAllString(s, "$1@\u200b$2") })
}

// eachProse applies quiet to the parts of text that GitHub renders as
// markdown: outside fenced blocks (but inside json ones, the findings,
// whose titles and bodies become comments) and outside inline code spans
// (in a json block, backticks are a string's characters).
func eachProse(text string, quiet func(string) string) string {
	lines := strings.Split(text, "\n")
	fence := "" // the open fence, "" outside one
	prose := true
	for i, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if f := fenceOf(t); f != "" {
			switch {
			case fence == "":
				fence, prose = f, strings.HasPrefix(strings.TrimSpace(t[len(f):]), "json")
				continue
			case strings.HasPrefix(t, fence) && strings.TrimSpace(t[len(fence):]) == "":
				fence, prose = "", true
				continue
			}
		}
		if prose {
			lines[i] = quietLine(l, fence != "", quiet)
		}
	}
	return strings.Join(lines, "\n")
}

// fenceOf is the run of three or more backticks or tildes a line starts
// with, "" when it starts with none.
func fenceOf(t string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == c {
			n++
		}
		if n >= 3 {
			return t[:n]
		}
	}
	return ""
}

// quietLine applies quiet to one line, outside its inline code spans.
func quietLine(l string, inJSON bool, quiet func(string) string) string {
	if inJSON || !strings.Contains(l, "`") {
		return quiet(l)
	}
	parts := strings.Split(l, "`")
	for i := 0; i < len(parts); i += 2 { // even parts are outside code spans
		parts[i] = quiet(parts[i])
	}
	return strings.Join(parts, "`")
}
