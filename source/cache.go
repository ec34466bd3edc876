package source

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Cache remembers what reading, parsing, decoding and walking a file produced, so
// that evaluating the same files at several kubelet minors (kubeletcfg skew,
// preflight) pays for that work once. Everything it returns is shared: callers
// must not modify it, except MainDecode's Config, which is a fresh copy per call.
// A nil *Cache caches nothing. A Cache is safe for concurrent use (minors are
// evaluated in parallel): each entry is computed once, by its first caller, and
// later callers wait for it, so every caller sees the same *File.
type Cache struct {
	files   onceMap[string, cachedFile]
	mains   onceMap[*File, MainDecode]
	dropIns onceMap[*File, cachedDropIn]
	walks   onceMap[walkKey, []Key]
	// jsons holds each file's yaml.YAMLToJSON conversion, shared by the main
	// decoding and the schema check.
	jsons onceMap[*File, cachedJSON]
}

type cachedJSON struct {
	data []byte
	err  error
}

// yamlToJSON is yaml.YAMLToJSON of f.Data, once per file (from the node tree
// where jsonOf proves it the same); the bytes are shared.
func (c *Cache) yamlToJSON(f *File) ([]byte, error) {
	if c == nil {
		return toJSON(f)
	}
	j := c.jsons.get(f, func() cachedJSON {
		d, err := toJSON(f)
		return cachedJSON{d, err}
	})
	return j.data, j.err
}

// toJSON is yaml.YAMLToJSON(f.Data).
func toJSON(f *File) ([]byte, error) {
	if js, ok := jsonOf(f); ok {
		return js, nil
	}
	if excessiveAliasing(f) {
		return nil, errExcessiveAliasing
	}
	return yaml.YAMLToJSON(f.Data)
}

// onceMap computes each key's value once; the lock is held only to find or add
// the entry, not while computing it.
type onceMap[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]func() V
}

func (o *onceMap[K, V]) get(k K, compute func() V) V {
	o.mu.Lock()
	f, ok := o.m[k]
	if !ok {
		if o.m == nil {
			o.m = map[K]func() V{}
		}
		f = sync.OnceValue(compute)
		o.m[k] = f
	}
	o.mu.Unlock()
	return f()
}

// lookup is the value for k when it was asked for before.
func (o *onceMap[K, V]) lookup(k K) (V, bool) {
	o.mu.Lock()
	f, ok := o.m[k]
	o.mu.Unlock()
	if !ok {
		var zero V
		return zero, false
	}
	return f(), true
}

type cachedFile struct {
	f   *File
	err error
}

type cachedDropIn struct {
	data []byte
	gvk  *schema.GroupVersionKind
	err  error
}

type walkKey struct {
	f    *File
	tree *kubelets.Field
	mode Mode
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{}
}

// Put makes path read as data, without touching the disk: a drop-in about to be
// written (kubeletcfg dropin new) is evaluated before it exists. It must be
// called before the first ReadFile of path.
func (c *Cache) Put(path string, data []byte) {
	c.files.get(path, func() cachedFile {
		f := Parse(path, data)
		f.InMemory = true
		return cachedFile{f: f}
	})
}

// Read is the file at path when it was read (or put) before; nil otherwise.
func (c *Cache) Read(path string) *File {
	if c == nil {
		return nil
	}
	r, ok := c.files.lookup(path)
	if !ok || r.err != nil {
		return nil
	}
	return r.f
}

// ReadFile is ReadFile, once per path.
func (c *Cache) ReadFile(path string) (*File, error) {
	if c == nil {
		return ReadFile(path)
	}
	r := c.files.get(path, func() cachedFile {
		f, err := ReadFile(path)
		return cachedFile{f, err}
	})
	return r.f, r.err
}

// DecodeMain is DecodeMain of f.Data, once per file; Config is a deep copy the
// caller may default in place.
func (c *Cache) DecodeMain(f *File) MainDecode {
	if c == nil {
		return DecodeMain(f.Data)
	}
	d := c.mains.get(f, func() MainDecode {
		return decodeMainConverted(f.Data, f.Doc, func() ([]byte, error) { return c.yamlToJSON(f) })
	})
	if d.Config != nil {
		d.Config = d.Config.DeepCopy()
	}
	return d
}

// DecodeDropIn is DecodeDropIn of f.Data, once per file.
func (c *Cache) DecodeDropIn(f *File) ([]byte, *schema.GroupVersionKind, error) {
	if c == nil {
		return DecodeDropIn(f.Data)
	}
	d := c.dropIns.get(f, func() (d cachedDropIn) {
		d.data, d.gvk, d.err = decodeDropInParsed(f)
		return d
	})
	return d.data, d.gvk, d.err
}

// Walk is Walk, once per file, tree and mode.
func (c *Cache) Walk(f *File, root *kubelets.Field, mode Mode) []Key {
	if c == nil {
		return Walk(f, root, mode)
	}
	return c.walks.get(walkKey{f, root, mode}, func() []Key { return Walk(f, root, mode) })
}
