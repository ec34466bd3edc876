package schemacheck

import (
	"reflect"
	"testing"
)

func TestAdditionalProperties(t *testing.T) {
	s, err := Compile([]byte(`{"$id":"https://example.com/s.json","$schema":"https://json-schema.org/draft/2020-12/schema",
		"type":"object","additionalProperties":false,
		"properties":{"a":{"type":"object","additionalProperties":false,"properties":{"b":{"type":"string"}}},
		"m":{"type":"object","additionalProperties":{"type":"object","additionalProperties":false,"properties":{}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		doc  string
		want []Additional
	}{
		{`{"a":{"b":"x"},"m":{"k":{}}}`, nil},
		{`{"a":{"b":"x","c'd":1},"x\"y":2}`, []Additional{{"", []string{`x"y`}}, {"/a", []string{"c'd"}}}},
		{`{"m":{"k/1":{"z":1}}}`, []Additional{{"/m/k~11", []string{"z"}}}},
		{`{"a":{"b":1}}`, nil}, // fails on type only
	} {
		doc, err := Decode([]byte(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := AdditionalProperties(s, doc); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.doc, got, tc.want)
		}
	}
	if _, err := Compile([]byte(`{"type":"object"}`)); err == nil {
		t.Error("a schema without $id compiled")
	}
}
