package gitctx

// ObjectID is the id of the git blob whose bytes Read returns for one side
// of f, or "" when they come from elsewhere (the work tree, a patch, a
// submodule's pointer line). Content with the same id is the same content,
// which is what caches of what was found in it rely on.
func (c *Change) ObjectID(f *File, side Side) string { return c.blobID(f, side) }

// TreeObjectID is ObjectID for a file listed by Tree.
func (c *Change) TreeObjectID(e TreeEntry) string {
	if c.repo == nil || e.Mode == ModeSubmodule || c.fromWorktree(e) {
		return ""
	}
	return e.ID
}
