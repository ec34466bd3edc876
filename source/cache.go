package source

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeletcfg/kubeletcfg/skew"
)

// Cache remembers what reading, parsing, decoding and walking a file produced, so
// that evaluating the same files at several kubelet minors (kubeletcfg skew,
// preflight) pays for that work once. Everything it returns is shared: callers
// must not modify it, except MainDecode's Config, which is a fresh copy per call.
// A nil *Cache caches nothing. A Cache is not safe for concurrent use.
type Cache struct {
	files   map[string]cachedFile
	mains   map[*File]MainDecode
	dropIns map[*File]cachedDropIn
	walks   map[walkKey][]Key
	// instances holds each file as the JSON value its schema validation sees.
	instances map[*File]cachedInstance
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
	tree *skew.Field
	mode Mode
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{
		files:   map[string]cachedFile{},
		mains:   map[*File]MainDecode{},
		dropIns: map[*File]cachedDropIn{},
		walks:   map[walkKey][]Key{},

		instances: map[*File]cachedInstance{},
	}
}

// ReadFile is ReadFile, once per path.
func (c *Cache) ReadFile(path string) (*File, error) {
	if c == nil {
		return ReadFile(path)
	}
	if r, ok := c.files[path]; ok {
		return r.f, r.err
	}
	f, err := ReadFile(path)
	c.files[path] = cachedFile{f, err}
	return f, err
}

// DecodeMain is DecodeMain of f.Data, once per file; Config is a deep copy the
// caller may default in place.
func (c *Cache) DecodeMain(f *File) MainDecode {
	if c == nil {
		return DecodeMain(f.Data)
	}
	d, ok := c.mains[f]
	if !ok {
		d = DecodeMain(f.Data)
		c.mains[f] = d
	}
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
	d, ok := c.dropIns[f]
	if !ok {
		d.data, d.gvk, d.err = DecodeDropIn(f.Data)
		c.dropIns[f] = d
	}
	return d.data, d.gvk, d.err
}

// Walk is Walk, once per file, tree and mode.
func (c *Cache) Walk(f *File, root *skew.Field, mode Mode) []Key {
	if c == nil {
		return Walk(f, root, mode)
	}
	k := walkKey{f, root, mode}
	keys, ok := c.walks[k]
	if !ok {
		keys = Walk(f, root, mode)
		c.walks[k] = keys
	}
	return keys
}
