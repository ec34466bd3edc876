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
func WriteJSON(w io.Writer, v any) error {
	compact, err := json.Marshal(v)
	if err != nil {
		return err
	}
	out := indentJSON(make([]byte, 0, len(compact)+len(compact)/2), compact)
	_, err = w.Write(append(out, '\n'))
	return err
}
