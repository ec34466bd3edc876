package kubelets

import (
	"reflect"
	"strings"
)

// The reference Prune: a walk over the value, which the planned Prune must match
// (see export_test.go and tree_test.go).

// pruneValue is Prune without a plan, walking the value (tests compare the two).
func pruneValue(v reflect.Value, f *Field) {
	if f == nil {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			pruneValue(v.Elem(), f)
		}
	case reflect.Struct:
		if f.Kind != Object {
			return
		}
		pruneStruct(v, f)
	case reflect.Slice:
		if f.Kind == List {
			for i := 0; i < v.Len(); i++ {
				pruneValue(v.Index(i), f.Elem)
			}
		}
	}
}

func pruneStruct(v reflect.Value, f *Field) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if sf.Anonymous && name == "" {
			pruneValue(v.Field(i), f) // inline TypeMeta
			continue
		}
		if name == "" {
			name = sf.Name
		}
		child, ok := f.Children[name]
		if !ok {
			v.Field(i).SetZero()
			continue
		}
		pruneValue(v.Field(i), child)
	}
}
