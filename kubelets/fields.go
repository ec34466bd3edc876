package kubelets

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"sync"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
)

// FieldKind says how a field's value is shaped in YAML/JSON.
type FieldKind int

const (
	Scalar FieldKind = iota // string, number, bool, or a type with its own text form (Duration, Quantity)
	Object                  // a struct: keys are field names
	Map                     // a map: keys are free-form, values are Elem
	List                    // a list: items are Elem
)

// Field is one node of the KubeletConfiguration field tree.
type Field struct {
	Name   string // JSON name as the kubelet spells it
	Kind   FieldKind
	GoType string
	// Children of an Object, by exact JSON name.
	Children map[string]*Field
	// Elem is the value type of a Map or the item type of a List.
	Elem *Field
	// lower maps lower-cased names to children, for case-insensitive matching.
	lower map[string]*Field
}

// Child finds a field of an Object by name. exact is false when the name matches
// only case-insensitively (encoding/json accepts that, the kubelet's strict and
// case-sensitive decoder of the main file does not).
func (f *Field) Child(name string) (child *Field, exact bool) {
	if f == nil || f.Kind != Object {
		return nil, false
	}
	if c, ok := f.Children[name]; ok {
		return c, true
	}
	if c, ok := f.lower[strings.ToLower(name)]; ok {
		return c, false
	}
	return nil, false
}

// ChildNames lists the JSON names of an Object's fields, sorted.
func (f *Field) ChildNames() []string {
	names := make([]string, 0, len(f.Children))
	for n := range f.Children {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var (
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
)

// fieldTreeOf builds the field tree of a Go type the way encoding/json sees it.
func fieldTreeOf(name string, t reflect.Type) *Field {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	f := &Field{Name: name, GoType: t.String()}
	if reflect.PointerTo(t).Implements(jsonUnmarshaler) || reflect.PointerTo(t).Implements(textUnmarshaler) {
		f.Kind = Scalar
		return f
	}
	switch t.Kind() {
	case reflect.Struct:
		f.Kind = Object
		f.Children = map[string]*Field{}
		f.lower = map[string]*Field{}
		addStructFields(f, t)
	case reflect.Map:
		f.Kind = Map
		f.Elem = fieldTreeOf("", t.Elem())
	case reflect.Slice, reflect.Array:
		f.Kind = List
		f.Elem = fieldTreeOf("", t.Elem())
	default:
		f.Kind = Scalar
	}
	return f
}

func addStructFields(f *Field, t reflect.Type) {
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if sf.Anonymous && name == "" {
			// Embedded structs (TypeMeta) contribute their fields inline.
			et := sf.Type
			for et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				addStructFields(f, et)
				continue
			}
		}
		if name == "" {
			name = sf.Name
		}
		c := fieldTreeOf(name, sf.Type)
		f.Children[name] = c
		if _, dup := f.lower[strings.ToLower(name)]; !dup {
			f.lower[strings.ToLower(name)] = c
		}
	}
}

var compiledTree = sync.OnceValue(func() *Field {
	return fieldTreeOf("", reflect.TypeFor[kubeletv1beta1.KubeletConfiguration]())
})

// Tree is the field tree of the KubeletConfiguration types compiled into this
// binary (k8s.io/kubelet of the newest supported minor).
func Tree() *Field { return compiledTree() }

// At returns the field at a canonical path ("a.b", "m[key]", "l[0].x"), or nil.
// Names match case-insensitively, as encoding/json matches them.
func (f *Field) At(path string) *Field { return f.at(path, false) }

// AtExact is At with names matched exactly, as the kubelet's strict decoding does.
func (f *Field) AtExact(path string) *Field { return f.at(path, true) }

func (f *Field) at(path string, exactOnly bool) *Field {
	cur := f
	closed := eachStep(path, func(s Step) bool {
		switch {
		case s.Bracketed && cur.Kind != Map && cur.Kind != List:
			cur = nil
		case s.Bracketed:
			cur = cur.Elem
		default:
			var exact bool
			if cur, exact = cur.Child(s.Name); exactOnly && !exact {
				cur = nil
			}
		}
		return cur != nil
	})
	if !closed {
		return nil
	}
	return cur
}
