package pack

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// Readers of the three formats, written from their specifications
// (CommonMark fenced code blocks, XML 1.0, JSON) rather than from the
// renderers, so that a pack is checked the way its reader will parse it.

// mdBlock is a fenced code block as CommonMark reads it.
type mdBlock struct {
	info, body string
}

// mdLines splits text into lines with their endings; CommonMark ends a
// line at "\n", "\r\n" or a lone "\r".
func mdLines(text string) []string {
	var out []string
	for len(text) > 0 {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			out = append(out, text)
			break
		}
		end := i + 1
		if text[i] == '\r' && end < len(text) && text[end] == '\n' {
			end++
		}
		out = append(out, text[:end])
		text = text[end:]
	}
	return out
}

var (
	openFence  = regexp.MustCompile("^ {0,3}(`{3,})([^`\r\n]*)\r?\n?$")
	closeFence = regexp.MustCompile("^ {0,3}(`{3,})[ \t]*(\r\n|\r|\n)?$")
)

// fencedBlocks returns the fenced code blocks of a markdown text and the
// lines outside them. A block left open at the end is an error.
func fencedBlocks(text string) (blocks []mdBlock, outside []string, err error) {
	var open *mdBlock
	width := 0
	for _, l := range mdLines(text) {
		if open == nil {
			if m := openFence.FindStringSubmatch(l); m != nil {
				open, width = &mdBlock{info: strings.TrimSpace(m[2])}, len(m[1])
				continue
			}
			outside = append(outside, l)
			continue
		}
		if m := closeFence.FindStringSubmatch(l); m != nil && len(m[1]) >= width {
			blocks = append(blocks, *open)
			open = nil
			continue
		}
		open.body += l
	}
	if open != nil {
		return blocks, outside, fmt.Errorf("a %d-backtick fence (%q) is never closed", width, open.info)
	}
	return blocks, outside, nil
}

// diffLinesOf splits a diff into its lines, which end at "\n" only: a
// carriage return is part of a diff line.
func diffLinesOf(body string) []string {
	return strings.SplitAfter(strings.TrimSuffix(body, "\n"), "\n")
}

// codeSpan reads the inline code span that starts s, as CommonMark does:
// it ends at the next run of exactly as many backticks, and one space on
// each side is stripped when both are there. It returns the span's text
// and what follows it.
func codeSpan(s string) (code, rest string, ok bool) {
	n := len(s) - len(strings.TrimLeft(s, "`"))
	if n == 0 {
		return "", s, false
	}
	for i := n; i < len(s); {
		if s[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j-i == n {
			code = s[n:i]
			if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.Trim(code, " ") != "" {
				code = code[1 : len(code)-1]
			}
			return code, s[j:], true
		}
		i = j
	}
	return "", s, false
}

// xmlFile is a file element of the diff or contents part.
type xmlFile struct {
	Path           string `xml:"path,attr"`
	Representation string `xml:"representation,attr"`
	Text           string `xml:",chardata"`
}

// xmlPack is what the tests read of an XML pack.
type xmlPack struct {
	XMLName  xml.Name `xml:"gitctx_pack"`
	Boundary string   `xml:"boundary,attr"`
	Commits  []struct {
		SHA  string `xml:"sha,attr"`
		Text string `xml:",chardata"`
	} `xml:"change>commit"`
	PullRequest *struct {
		Number int    `xml:"number,attr"`
		Title  string `xml:"title,attr"`
		Text   string `xml:",chardata"`
	} `xml:"change>pull_request"`
	Index    []xmlFile `xml:"files>file"`
	Diffs    []xmlFile `xml:"diff>file"`
	Contents []xmlFile `xml:"contents>file"`
}

// parseXML reads an XML pack strictly: one root element, nothing after it
// but white space and comments, and returns the comments at the top level
// of the root.
func parseXML(text string) (*xmlPack, []string, error) {
	var p xmlPack
	if err := xml.Unmarshal([]byte(text), &p); err != nil {
		return nil, nil, err
	}
	d := xml.NewDecoder(strings.NewReader(text))
	d.Strict = true
	depth, roots := 0, 0
	var comments []string
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.Comment:
			if depth == 1 {
				comments = append(comments, string(t))
			}
		case xml.CharData:
			if depth == 0 && strings.TrimSpace(string(t)) != "" {
				return nil, nil, fmt.Errorf("text outside the root element: %q", t)
			}
		}
	}
	if roots != 1 {
		return nil, nil, fmt.Errorf("%d root elements", roots)
	}
	return &p, comments, nil
}

// jsonPack is what the tests read of a JSON pack.
type jsonPack struct {
	Schema   string   `json:"schema"`
	Type     string   `json:"type"`
	Boundary string   `json:"boundary"`
	End      string   `json:"end"`
	Manifest Manifest `json:"manifest"`
	Change   struct {
		PullRequest *struct {
			Number      int    `json:"number"`
			Title       string `json:"title"`
			Description string `json:"description"`
		} `json:"pull_request"`
		Commits []struct {
			SHA     string `json:"sha"`
			Message string `json:"message"`
		} `json:"commits"`
	} `json:"change"`
	Files []struct {
		Path           string `json:"path"`
		Representation string `json:"representation"`
		Reason         string `json:"reason"`
	} `json:"files"`
	Diff []struct {
		Path  string `json:"path"`
		Patch string `json:"patch"`
	} `json:"diff"`
	Contents []struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	} `json:"contents"`
}

// parseJSON reads a JSON pack; trailing data is an error.
func parseJSON(text string) (*jsonPack, error) {
	var p jsonPack
	if err := json.Unmarshal([]byte(text), &p); err != nil {
		return nil, err
	}
	return &p, nil
}
