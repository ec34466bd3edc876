package kubelets

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	kubeletv1beta1 "github.com/kubeletcfg/kubeletcfg/upstream/kubelet/config/v1beta1"
)

// The field tree of each minor comes from its generated field table
// (data/<minor>/fields.json), not from the types compiled into this binary:
// k8s.io/kubelet here is the newest minor's, and an older kubelet does not know
// the fields added since. A test checks that the newest minor's generated tree
// equals the compiled one.

var fieldTrees sync.Map // minor -> func() (*Field, error)

// FieldTree returns the minor's KubeletConfiguration field tree. Minors whose
// trees are identical share one *Field, so what is cached per tree (the walk of
// a file, source.Cache) is computed once for all of them; which minors share
// a tree is decided by the generator (genTable.Tree; TestTreesShared checks it
// against treeSignature).
func (m *Minor) FieldTree() (*Field, error) {
	f, _ := fieldTrees.LoadOrStore(m.Version, sync.OnceValues(m.groupTree))
	return f.(func() (*Field, error))()
}

// treeSignature writes everything a Field holds (names, kinds, Go types, the
// case-insensitive index), children sorted: equal signatures are equal trees.
func treeSignature(b *strings.Builder, f *Field) {
	if f == nil {
		b.WriteString("~")
		return
	}
	fmt.Fprintf(b, "(%q %d %q", f.Name, f.Kind, f.GoType)
	if f.Children != nil {
		b.WriteString(" {")
		for _, n := range f.ChildNames() {
			fmt.Fprintf(b, "%q:", n)
			treeSignature(b, f.Children[n])
		}
		b.WriteString("}")
	}
	if f.lower != nil {
		lows := make([]string, 0, len(f.lower))
		for l := range f.lower {
			lows = append(lows, l)
		}
		sort.Strings(lows)
		b.WriteString(" <")
		for _, l := range lows {
			fmt.Fprintf(b, "%q=%q ", l, f.lower[l].Name)
		}
		b.WriteString(">")
	}
	b.WriteString(" ")
	treeSignature(b, f.Elem)
	b.WriteString(")")
}

// Fields is the KubeletConfiguration field tree of this minor. The embedded data
// is checked by tests, so a decoding failure is a build defect and panics.
func (m *Minor) Fields() *Field {
	t, err := m.FieldTree()
	if err != nil {
		panic(err)
	}
	return t
}

// treeFromInfos builds the tree from the generated paths ("a.b", "l[].x"). Map and
// list element shapes without paths of their own come from the Go type.
func treeFromInfos(infos []FieldInfo) (*Field, error) {
	root := &Field{Kind: Object, GoType: "v1beta1.KubeletConfiguration", Children: map[string]*Field{}, lower: map[string]*Field{}}
	for _, info := range infos {
		parent, name, err := parentOf(root, info.Path)
		if err != nil {
			return nil, err
		}
		f := &Field{Name: name, GoType: info.GoType}
		switch info.Kind {
		case "scalar":
			f.Kind = Scalar
		case "object":
			f.Kind = Object
			f.Children, f.lower = map[string]*Field{}, map[string]*Field{}
		case "map":
			f.Kind = Map
			f.Elem = elemOf(strings.TrimPrefix(info.GoType, "*"))
		case "list":
			f.Kind = List
			f.Elem = elemOf(strings.TrimPrefix(info.GoType, "*"))
		default:
			return nil, fmt.Errorf("kubelets: field %s: unknown kind %q", info.Path, info.Kind)
		}
		if parent.Kind != Object {
			return nil, fmt.Errorf("kubelets: field %s: parent is not an object", info.Path)
		}
		parent.Children[name] = f
		if _, dup := parent.lower[strings.ToLower(name)]; !dup {
			parent.lower[strings.ToLower(name)] = f
		}
	}
	return root, nil
}

// elemOf is the element of a map or list Go type: a list ("[]string") or a scalar.
// Struct elements get their fields from their own paths ("l[].x"), which turn the
// scalar into an object in parentOf.
func elemOf(goType string) *Field {
	switch {
	case strings.HasPrefix(goType, "map["):
		goType = goType[strings.IndexByte(goType, ']')+1:]
	case strings.HasPrefix(goType, "[]"):
		goType = goType[2:]
	default:
		// A named map or list type (v1.ResourceList, VModuleConfiguration): its
		// elements are scalars unless paths below say otherwise.
		return &Field{Kind: Scalar}
	}
	if strings.HasPrefix(goType, "[]") {
		return &Field{Kind: List, Elem: &Field{Kind: Scalar}}
	}
	return &Field{Kind: Scalar, GoType: goType}
}

// parentOf finds the object a path's last segment belongs to.
func parentOf(root *Field, path string) (*Field, string, error) {
	cur := root
	for {
		end := strings.IndexAny(path, ".[")
		if end < 0 {
			return cur, path, nil
		}
		name := path[:end]
		next, ok := cur.Children[name]
		if !ok {
			return nil, "", fmt.Errorf("kubelets: path %q: %q comes before its parent", path, name)
		}
		path = path[end:]
		if strings.HasPrefix(path, "[]") {
			if next.Elem == nil {
				return nil, "", fmt.Errorf("kubelets: path %q: %q has no elements", path, name)
			}
			if next.Elem.Kind != Object {
				next.Elem = &Field{Kind: Object, GoType: next.Elem.GoType, Children: map[string]*Field{}, lower: map[string]*Field{}}
			}
			next = next.Elem
			path = path[2:]
		}
		path = strings.TrimPrefix(path, ".")
		cur = next
	}
}

// Prune zeroes every field of kc that the minor's kubelet does not have. kubeletcfg
// decodes into the newest minor's types; an older kubelet drops what it does not
// know (strict decoding fails, lenient decoding ignores the key; json.Unmarshal of
// the merged drop-ins ignores it too).
//
// What to zero depends only on the tree, so it is planned once per tree
// (prunePlan): a tree equal to the compiled types has nothing to zero.
func (m *Minor) Prune(kc *kubeletv1beta1.KubeletConfiguration) {
	if kc == nil || m == Newest() {
		return
	}
	if p := prunePlanOf(m.Fields()); p != nil {
		p.apply(reflectValue(kc))
	}
}

var prunePlans sync.Map // *Field -> func() *pruneNode

func prunePlanOf(tree *Field) *pruneNode {
	f, _ := prunePlans.LoadOrStore(tree, sync.OnceValue(func() *pruneNode {
		return planPrune(reflect.TypeFor[kubeletv1beta1.KubeletConfiguration](), tree, 0)
	}))
	return f.(func() *pruneNode)()
}

// pruneNode is the pruning of values of one type under one tree node,
// computed from the type: nil when there is nothing to zero below.
type pruneNode struct {
	kind reflect.Kind // Pointer, Struct or Slice
	elem *pruneNode   // Pointer target, Slice item
	ops  []pruneOp    // Struct
}

type pruneOp struct {
	field int
	zero  bool       // the tree does not have the field
	sub   *pruneNode // otherwise, what to prune inside it
}

// planPrune mirrors, on types instead of values, the value walk that tests use
// as its reference (pruneValue in prune_ref_test.go).
func planPrune(t reflect.Type, f *Field, depth int) *pruneNode {
	if f == nil || depth > 64 {
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if e := planPrune(t.Elem(), f, depth+1); e != nil {
			return &pruneNode{kind: reflect.Pointer, elem: e}
		}
	case reflect.Struct:
		if f.Kind != Object {
			return nil
		}
		var ops []pruneOp
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
				if sub := planPrune(sf.Type, f, depth+1); sub != nil { // inline TypeMeta
					ops = append(ops, pruneOp{field: i, sub: sub})
				}
				continue
			}
			if name == "" {
				name = sf.Name
			}
			child, ok := f.Children[name]
			if !ok {
				ops = append(ops, pruneOp{field: i, zero: true})
				continue
			}
			if sub := planPrune(sf.Type, child, depth+1); sub != nil {
				ops = append(ops, pruneOp{field: i, sub: sub})
			}
		}
		if len(ops) > 0 {
			return &pruneNode{kind: reflect.Struct, ops: ops}
		}
	case reflect.Slice:
		if f.Kind != List {
			return nil
		}
		if e := planPrune(t.Elem(), f.Elem, depth+1); e != nil {
			return &pruneNode{kind: reflect.Slice, elem: e}
		}
	}
	return nil
}

func (p *pruneNode) apply(v reflect.Value) {
	switch p.kind {
	case reflect.Pointer:
		if !v.IsNil() {
			p.elem.apply(v.Elem())
		}
	case reflect.Struct:
		for _, op := range p.ops {
			if op.zero {
				v.Field(op.field).SetZero()
			} else {
				op.sub.apply(v.Field(op.field))
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			p.elem.apply(v.Index(i))
		}
	}
}

// PruneJSON deletes from a decoded KubeletConfiguration object the keys the
// minor's kubelet does not have, recursively; a zeroed field that the newest
// types marshal without omitempty disappears this way.
func (m *Minor) PruneJSON(obj map[string]any) {
	if m == Newest() {
		return
	}
	pruneJSON(obj, m.Fields())
}

func pruneJSON(v any, f *Field) {
	if f == nil {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		switch f.Kind {
		case Object:
			for k, cv := range x {
				child, ok := f.Children[k]
				if !ok {
					if k != "apiVersion" && k != "kind" {
						delete(x, k)
					}
					continue
				}
				pruneJSON(cv, child)
			}
		case Map:
			for _, cv := range x {
				pruneJSON(cv, f.Elem)
			}
		}
	case []any:
		if f.Kind == List {
			for _, cv := range x {
				pruneJSON(cv, f.Elem)
			}
		}
	}
}

func reflectValue(kc *kubeletv1beta1.KubeletConfiguration) reflect.Value {
	return reflect.ValueOf(kc).Elem()
}
