package backoff

import (
	"encoding/json"
	"io"
)

// WriteJSON writes the entries as `kubeletcfg backoff -o json` prints them:
// {"curves": [Entry...]}, indented.
func WriteJSON(w io.Writer, entries []*Entry) error {
	doc := struct {
		Curves []*Entry `json:"curves"`
	}{entries}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
