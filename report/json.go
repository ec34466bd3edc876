package report

import (
	"bytes"
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
// SetEscapeHTML(escapeHTML)), indented by indentJSON.
func writeIndented(w io.Writer, v any, escapeHTML bool) error {
	var compact bytes.Buffer
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(escapeHTML)
	if err := enc.Encode(v); err != nil {
		return err
	}
	src := bytes.TrimSuffix(compact.Bytes(), []byte("\n"))
	out := indentJSON(make([]byte, 0, len(src)+len(src)/2+1), src)
	_, err := w.Write(append(out, '\n'))
	return err
}
