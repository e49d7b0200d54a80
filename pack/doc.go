// Package pack turns a change into a context pack and its transparency
// record.
//
// [Build] runs the middle of gitctx's pipeline on a [gitctx.Change]:
//
//  1. classify: every changed file gets an entry; the default exclusions
//     (credential files by name, dependency and build directories, caches,
//     binaries by extension) and the user's include and exclude globs
//     decide which are only listed, never shown;
//  2. context: the files the user adds (see ContextOptions) are read from
//     the work tree, with their problems settled by the error mode, before
//     anything else is read; they join the pack after the neighbours;
//  3. read: the new side of each remaining file, with the size checked
//     before reading, decoded to UTF-8 (UTF-16, Windows-1252) or found
//     binary by content; then the diff, streamed, parsed only for the files
//     that are shown;
//  4. shape: a Full pack (diffs and whole files, but only the head and
//     tail of a file over the truncation limit, see Truncation) when it
//     fits the token budget and the file and byte limits, else a Summary
//     degraded in recorded steps until it fits (see shaper);
//  5. render: markdown, XML or JSON, built from segments whose token counts
//     add up exactly (see segment), with fences and a boundary marker no
//     content can collide with;
//  6. record: what was sent, what was left out, and why.
//
// The same input always gives byte-identical output.
package pack
