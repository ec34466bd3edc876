package report

import (
	"encoding/json"
	"io"
)

type jsonWriter struct{}

// Write prints one document for one minor, as the lint contract says; several
// minors print as {"versions":[...]}.
func (jsonWriter) Write(w io.Writer, docs []Document, _ Options) error {
	if len(docs) == 1 {
		return WriteJSON(w, docs[0])
	}
	return WriteJSON(w, map[string][]Document{"versions": docs})
}

// WriteJSON writes v as every -o json document is written: one value,
// indented by two spaces, then a newline.
func WriteJSON(w io.Writer, v any) error { return writeIndented(w, v, true) }

// writeIndented is json.Encoder's Encode with SetIndent("", "  ") (and
// SetEscapeHTML(escapeHTML)), indented by the indenter as it is written.
func writeIndented(w io.Writer, v any, escapeHTML bool) error {
	x := &indenter{w: w}
	enc := json.NewEncoder(x)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return x.flush(true)
}
