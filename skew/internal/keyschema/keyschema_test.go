package keyschema

import "testing"

func TestStructure(t *testing.T) {
	for _, tc := range []struct {
		schema, want string
		err          bool
	}{
		{`{"type":"object","description":"x","properties":{"a":{"type":"string","format":"date-time"},"b":{"$ref":"#/$defs/B"}},"additionalProperties":false,"$defs":{"B":{"type":"array","items":{"properties":{"c":true}}}}}`,
			`{"$defs":{"B":{"items":{"properties":{"c":true}}}},"additionalProperties":false,"properties":{"a":{},"b":{"$ref":"#/$defs/B"}}}`, false},
		{`true`, `true`, false},
		{`{"properties":`, ``, true},
	} {
		got, err := Structure([]byte(tc.schema))
		if (err != nil) != tc.err || string(got) != tc.want {
			t.Errorf("Structure(%s) = %s, %v; want %s", tc.schema, got, err, tc.want)
		}
	}
}
