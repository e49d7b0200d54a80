// Package recordtest checks transparency records (record.json) against
// their JSON Schema, docs/record.schema.json, so that the record's format
// cannot drift from its documentation without a test failing. It is for
// tests only: the gitctx binary never imports it.
package recordtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SchemaPath is the schema's place in the repository.
const SchemaPath = "docs/record.schema.json"

// Check fails tb unless data is a record the schema accepts.
func Check(tb testing.TB, data []byte) {
	tb.Helper()
	if err := Validate(data); err != nil {
		tb.Errorf("the record does not match %s: %v", SchemaPath, err)
	}
}

// CheckValue is Check of v encoded as JSON (a *pack.Record).
func CheckValue(tb testing.TB, v any) {
	tb.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		tb.Fatalf("encode the record: %v", err)
	}
	Check(tb, data)
}

// Validate checks data against the schema.
func Validate(data []byte) error {
	sch, err := compile()
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("decode the record: %w", err)
	}
	if err := sch.Validate(doc); err != nil {
		var verr *jsonschema.ValidationError
		if errors.As(err, &verr) {
			return errors.New(verr.GoString()) // every failing field, with its place
		}
		return fmt.Errorf("validate the record: %w", err)
	}
	return nil
}

// compile loads and compiles the schema, with formats (date-time)
// asserted rather than only annotated.
func compile() (*jsonschema.Schema, error) {
	path, err := schemaFile()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open the schema: %w", err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", path, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(path, doc); err != nil {
		return nil, fmt.Errorf("add %s: %w", path, err)
	}
	sch, err := c.Compile(path)
	if err != nil {
		return nil, fmt.Errorf("compile %s: %w", path, err)
	}
	return sch, nil
}

// schemaFile finds docs/record.schema.json at the module's root: above
// this source file (tests that change directory still find it), else
// above the working directory (a build with -trimpath).
func schemaFile() (string, error) {
	var starts []string
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		starts = append(starts, filepath.Dir(file))
	}
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	for _, dir := range starts {
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				return filepath.Join(dir, filepath.FromSlash(SchemaPath)), nil
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return "", errors.New("find the schema: no go.mod above this package or the working directory")
}
