package defaults

import (
	"fmt"
	"reflect"
	"strings"
)

// semanticDiff reports the differences between want and got, one line per
// differing path, or "" when they are equal. Like go-cmp (which upstream tests
// use), a type with a method "(T) Equal(T) bool" is compared with it, so
// resource.Quantity compares by value and not by its cached string; nil and
// empty slices and maps differ.
func semanticDiff(want, got any) string {
	var out []string
	walk("", reflect.ValueOf(want), reflect.ValueOf(got), &out)
	return strings.Join(out, "\n")
}

func show(v reflect.Value) string {
	if !v.IsValid() {
		return "<invalid>"
	}
	if v.Kind() == reflect.Pointer && !v.IsNil() {
		return "&" + show(v.Elem())
	}
	if v.CanInterface() {
		return fmt.Sprintf("%#v", v.Interface())
	}
	return fmt.Sprintf("%v", v)
}

func walk(path string, a, b reflect.Value, out *[]string) {
	report := func() { *out = append(*out, fmt.Sprintf("%s: want %s, got %s", path, show(a), show(b))) }
	if !a.IsValid() || !b.IsValid() {
		if a.IsValid() != b.IsValid() {
			report()
		}
		return
	}
	if a.Type() != b.Type() {
		report()
		return
	}
	t := a.Type()
	if m, ok := t.MethodByName("Equal"); ok && a.CanInterface() && b.CanInterface() &&
		m.Type.NumIn() == 2 && m.Type.In(1) == t && m.Type.NumOut() == 1 && m.Type.Out(0).Kind() == reflect.Bool {
		if t.Kind() == reflect.Pointer && (a.IsNil() || b.IsNil()) {
			if a.IsNil() != b.IsNil() {
				report()
			}
			return
		}
		if !m.Func.Call([]reflect.Value{a, b})[0].Bool() {
			report()
		}
		return
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				report()
			}
			return
		}
		walk(path, a.Elem(), b.Elem(), out)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			walk(path+"."+t.Field(i).Name, a.Field(i), b.Field(i), out)
		}
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			report()
			return
		}
		for i := 0; i < a.Len(); i++ {
			walk(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i), out)
		}
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			report()
			return
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				report()
				return
			}
			walk(fmt.Sprintf("%s[%v]", path, k), a.MapIndex(k), bv, out)
		}
	default:
		if a.CanInterface() && b.CanInterface() {
			if !reflect.DeepEqual(a.Interface(), b.Interface()) {
				report()
			}
		} else if fmt.Sprintf("%#v", a) != fmt.Sprintf("%#v", b) {
			report()
		}
	}
}
