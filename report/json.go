package report

import (
	"encoding/json"
	"io"
)

type jsonWriter struct{}

// Write prints one document for one minor, as the lint contract says; several
// minors print as {"versions":[...]}.
func (jsonWriter) Write(w io.Writer, docs []Document, _ Options) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if len(docs) == 1 {
		return enc.Encode(docs[0])
	}
	return enc.Encode(map[string][]Document{"versions": docs})
}
