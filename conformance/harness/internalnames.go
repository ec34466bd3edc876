package main

import (
	"encoding"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"strings"

	kubeletconfigv1beta1 "k8s.io/kubelet/config/v1beta1"
	kubeletconfiginternal "k8s.io/kubernetes/pkg/kubelet/apis/config"

	"github.com/kubeletcfg/kubeletcfg/internal/kubeletdata"
)

// InternalNames is kubelets/data/<minor>/internalnames.json (kubeletdata's type,
// shared with kubelets, which reads it).
type InternalNames = kubeletdata.InternalNames

func cmdInternalNames(args []string) error {
	fs := flag.NewFlagSet("internalnames", flag.ContinueOnError)
	out := fs.String("out", "", "file to write (- for stdout)")
	if err := fs.Parse(args); err != nil || *out == "" || fs.NArg() != 0 {
		return errUsage
	}
	fields, err := internalNames()
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d field paths\n", len(fields))
	return writeJSON(*out, InternalNames{
		Generated: fmt.Sprintf(generatedHeader, "internalnames", kubeletVersion()),
		Fields:    fields,
	})
}

func internalNames() (map[string]string, error) {
	out := map[string]string{}
	err := walkInternalNames(reflect.TypeFor[kubeletconfigv1beta1.KubeletConfiguration](),
		reflect.TypeFor[kubeletconfiginternal.KubeletConfiguration](), "", "", out)
	return out, err
}

// jsonLeaf reports whether encoding/json decodes t by itself (Duration, Quantity, Time).
func internalNamesLeaf(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(reflect.TypeFor[json.Unmarshaler]()) || p.Implements(reflect.TypeFor[encoding.TextUnmarshaler]())
}

func internalNamesDeref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// jsonKey is the key encoding/json uses for a struct field ("" for an inlined
// embedded struct, "-" for a skipped field).
func internalNamesKey(sf reflect.StructField) string {
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return "-"
	}
	name, _, _ := strings.Cut(tag, ",")
	if name == "" && sf.Anonymous && internalNamesDeref(sf.Type).Kind() == reflect.Struct {
		return ""
	}
	if name == "" {
		name = sf.Name
	}
	return name
}

// walkInternalNames walks the v1beta1 struct type ext (paths as in fields.json) and
// finds each field's counterpart in the internal struct type in by Go field name.
func walkInternalNames(ext, in reflect.Type, extPrefix, inPrefix string, out map[string]string) error {
	for i := 0; i < ext.NumField(); i++ {
		sf := ext.Field(i)
		if !sf.IsExported() {
			continue
		}
		key := internalNamesKey(sf)
		if key == "-" {
			continue
		}
		ft := internalNamesDeref(sf.Type)
		if key == "" && !internalNamesLeaf(ft) { // inlined (TypeMeta): its fields are this struct's
			if err := walkInternalNames(ft, in, extPrefix, inPrefix, out); err != nil {
				return err
			}
			continue
		}
		path := extPrefix + key
		isf, ok := in.FieldByName(sf.Name)
		if !ok {
			return fmt.Errorf("internal %s has no field %s (v1beta1 %s)", in, sf.Name, path)
		}
		// The key path of the (possibly promoted) internal field.
		var keys []string
		t := in
		for _, idx := range isf.Index {
			f := internalNamesDeref(t).Field(idx)
			k := internalNamesKey(f)
			if k == "-" {
				return fmt.Errorf("internal field %s.%s (v1beta1 %s) is not marshalled (json:\"-\")", in, f.Name, path)
			}
			if k != "" {
				keys = append(keys, k)
			}
			t = f.Type
		}
		inPath := inPrefix + strings.Join(keys, ".")
		out[path] = inPath
		if internalNamesLeaf(ft) {
			continue
		}
		// Nested structs, through lists and maps (the element types of both sides).
		et, it, suffix := ft, internalNamesDeref(isf.Type), ""
		for et.Kind() == reflect.Slice || et.Kind() == reflect.Map {
			if et.Kind() == reflect.Slice {
				suffix += "[]"
			} else {
				suffix += "[*]"
			}
			if it.Kind() != et.Kind() {
				return fmt.Errorf("v1beta1 %s is a %s, internal %s a %s", path, et.Kind(), inPath, it.Kind())
			}
			et, it = internalNamesDeref(et.Elem()), internalNamesDeref(it.Elem())
		}
		if et.Kind() == reflect.Struct && !internalNamesLeaf(et) {
			if it.Kind() != reflect.Struct {
				return fmt.Errorf("v1beta1 %s is a struct, internal %s a %s", path, inPath, it.Kind())
			}
			if err := walkInternalNames(et, it, path+suffix+".", inPath+suffix+".", out); err != nil {
				return err
			}
		}
	}
	return nil
}
