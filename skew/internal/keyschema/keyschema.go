package keyschema

import "encoding/json"

// Structure returns the JSON of schema reduced to its key structure (keys
// sorted, as encoding/json writes a map).
func Structure(schema []byte) ([]byte, error) {
	var doc any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return nil, err
	}
	return json.Marshal(keep(doc))
}

// keep keeps the keywords of a schema that say which keys exist.
func keep(v any) any {
	s, ok := v.(map[string]any)
	if !ok {
		return v // true/false schemas
	}
	out := map[string]any{}
	for k, c := range s {
		switch k {
		case "properties", "$defs", "definitions":
			if props, ok := c.(map[string]any); ok {
				m := make(map[string]any, len(props))
				for n, p := range props {
					m[n] = keep(p)
				}
				out[k] = m
			}
		case "additionalProperties", "items":
			out[k] = keep(c)
		case "$ref":
			out[k] = c
		}
	}
	return out
}
