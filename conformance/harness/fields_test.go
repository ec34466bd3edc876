package main

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	kubeletconfigv1beta1 "k8s.io/kubelet/config/v1beta1"
)

// reflectPaths lists the JSON paths of a type the way encoding/json sees it, with the
// same notation as the fields generator.
func reflectPaths(t reflect.Type, prefix string, out *[]FieldInfo) {
	jsonU := reflect.TypeFor[json.Unmarshaler]()
	textU := reflect.TypeFor[encoding.TextUnmarshaler]()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" || !sf.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := sf.Type
		pointer := ft.Kind() == reflect.Pointer
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		leaf := reflect.PointerTo(ft).Implements(jsonU) || reflect.PointerTo(ft).Implements(textU)
		if sf.Anonymous && name == "" && ft.Kind() == reflect.Struct && !leaf {
			reflectPaths(ft, prefix, out)
			continue
		}
		if name == "" {
			name = sf.Name
		}
		path := prefix + name
		*out = append(*out, FieldInfo{Path: path, OmitEmpty: strings.Contains(","+opts+",", ",omitempty,"), Pointer: pointer})
		if leaf {
			continue
		}
		suffix := ""
		for ft.Kind() == reflect.Slice || ft.Kind() == reflect.Map || ft.Kind() == reflect.Pointer {
			switch ft.Kind() {
			case reflect.Slice:
				suffix += "[]"
			case reflect.Map:
				suffix += "[*]"
			}
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct && !reflect.PointerTo(ft).Implements(jsonU) && !reflect.PointerTo(ft).Implements(textU) {
			reflectPaths(ft, path+suffix+".", out)
		}
	}
}

// TestFieldsMatchReflection: the go/ast walk of types.go gives the same paths, in the
// same order, with the same omitempty/pointer flags, as reflection over the compiled type.
func TestFieldsMatchReflection(t *testing.T) {
	table, err := buildFieldTable()
	if err != nil {
		t.Fatal(err)
	}
	var want []FieldInfo
	reflectPaths(reflect.TypeFor[kubeletconfigv1beta1.KubeletConfiguration](), "", &want)
	if len(table.Fields) != len(want) {
		t.Errorf("ast: %d paths, reflection: %d", len(table.Fields), len(want))
	}
	for i := 0; i < min(len(want), len(table.Fields)); i++ {
		g, w := table.Fields[i], want[i]
		if g.Path != w.Path || g.OmitEmpty != w.OmitEmpty || g.Pointer != w.Pointer {
			t.Errorf("#%d: ast %s omitempty=%v pointer=%v; reflection %s omitempty=%v pointer=%v",
				i, g.Path, g.OmitEmpty, g.Pointer, w.Path, w.OmitEmpty, w.Pointer)
		}
	}
	for _, f := range table.Fields {
		if f.Path == "crashLoopBackOff.maxContainerRestartPeriod" {
			if strings.Join(f.FeatureGates, ",") != "KubeletCrashLoopBackOffMax" || f.Doc == "" || strings.Contains(f.Doc, "+featureGate") {
				t.Errorf("markers/doc: %+v", f)
			}
		}
	}
}
