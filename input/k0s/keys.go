package k0s

// decodeMode is how k0s's decoding of k0s.yaml reads a value of a Go type
// (keys_gen.go, written by internal/k0skeys from k0s's source).
type decodeMode uint8

const (
	// fieldsInherit: no UnmarshalJSON; the fields, as strictly as the
	// decoder the value is in.
	fieldsInherit decodeMode = iota
	// fieldsStrict: an UnmarshalJSON that decodes the fields with a Decoder
	// and DisallowUnknownFields (ClusterConfig): a key no field has is an error.
	fieldsStrict
	// fieldsLenient: an UnmarshalJSON that decodes the fields with
	// json.Unmarshal: a key no field has is dropped, here and below.
	fieldsLenient
	// freeForm: an UnmarshalJSON (or UnmarshalText) that reads the value its
	// own way; no key of it is checked.
	freeForm
)

// keyType is one Go type of keyTypes.
type keyType struct {
	decode decodeMode
	// method is the file and method that set decode, for messages.
	method string
	fields []keyField
}

// keyField is one JSON field: its name and its type as keyTypes spells it:
// []T, map[string]T (any key), a name of keyTypes, any, or a scalar.
type keyField struct{ name, typ string }
