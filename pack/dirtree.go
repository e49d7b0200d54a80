package pack

import (
	"sort"
	"strings"
)

// dirTree draws the directory structure of paths:
//
//	.
//	├── cmd/
//	│   └── main.go
//	└── go.mod
func dirTree(paths []string) string {
	type node struct {
		children map[string]*node
		file     bool
	}
	root := &node{children: map[string]*node{}}
	for _, p := range paths {
		n := root
		parts := strings.Split(p, "/")
		for i, part := range parts {
			child, ok := n.children[part]
			if !ok {
				child = &node{children: map[string]*node{}}
				n.children[part] = child
			}
			if i == len(parts)-1 {
				child.file = true
			}
			n = child
		}
	}
	var b strings.Builder
	b.WriteString(".\n")
	var walk func(n *node, indent string)
	walk = func(n *node, indent string) {
		names := make([]string, 0, len(n.children))
		for name := range n.children {
			names = append(names, name)
		}
		// directories first, then files, each by name
		sort.Slice(names, func(i, j int) bool {
			di, dj := len(n.children[names[i]].children) > 0, len(n.children[names[j]].children) > 0
			if di != dj {
				return di
			}
			return names[i] < names[j]
		})
		for i, name := range names {
			child := n.children[name]
			branch, next := "├── ", "│   "
			if i == len(names)-1 {
				branch, next = "└── ", "    "
			}
			label := displayName(name)
			if len(child.children) > 0 {
				label += "/"
			}
			b.WriteString(indent + branch + label + "\n")
			walk(child, indent+next)
		}
	}
	walk(root, "")
	return b.String()
}
