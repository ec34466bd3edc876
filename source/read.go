package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"

	"github.com/kubeletcfg/kubeletcfg/finding"
	yaml "go.yaml.in/yaml/v3"
)

// MaxFileSize bounds what we read from one file. Real kubelet configs are a few KiB;
// the bound keeps a hostile input from exhausting memory. Larger files are an input
// error naming the limit.
const MaxFileSize = 4 << 20

// InputError is a problem with the input itself (missing file, a folder where a file
// should be, too large): the tool cannot say what the kubelet would do. It maps to
// exit code 2.
type InputError struct {
	Path string
	Err  error
}

func (e *InputError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// File is one configuration file as read from disk.
type File struct {
	// Path is the path as the user gave it (for messages).
	Path string
	Data []byte
	// Doc is the first YAML document's root node (a mapping for a sensible file);
	// nil when the file is empty, only comments, or does not parse.
	Doc *yaml.Node
	// SyntaxErr is the YAML parser's error, when the file does not parse; its
	// line (see ErrorLine) is the 1-based line of the mistake.
	SyntaxErr error
	// ExtraDocs holds the line of each document after the first: the kubelet
	// reads only the first.
	ExtraDocs []int
	// InMemory is set for a file given as bytes (Cache.Put) rather than read
	// from Path: the file on disk, if any, may hold something else.
	InMemory bool

	text atomic.Pointer[finding.Text]
	keys atomic.Pointer[finding.KeyIndex]
}

// Text is Data with its lines indexed, built on first use (files are shared by
// the minors evaluated in parallel): the findings that carry edits turn
// positions into offsets through it.
func (f *File) Text() *finding.Text {
	if t := f.text.Load(); t != nil {
		return t
	}
	f.text.CompareAndSwap(nil, finding.NewText(f.Data))
	return f.text.Load()
}

// Keys is Doc's keys indexed by position, built on first use (a finding that
// carries a repair locates its key through it).
func (f *File) Keys() *finding.KeyIndex {
	if k := f.keys.Load(); k != nil {
		return k
	}
	f.keys.CompareAndSwap(nil, finding.NewKeyIndex(f.Doc))
	return f.keys.Load()
}

// ReadFile reads and parses path. It returns an *InputError when the file cannot
// be read as a regular file within MaxFileSize.
func ReadFile(path string) (*File, error) {
	data, err := ReadBytes(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data), nil
}

// ReadBytes is ReadFile without the parse, for a caller that needs only the
// bytes (a parse of a large file costs about a second).
func ReadBytes(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, &InputError{Path: path, Err: describe(err)}
	}
	if fi.IsDir() {
		return nil, &InputError{Path: path, Err: errors.New("is a directory, not a file")}
	}
	if fi.Mode()&fs.ModeNamedPipe != 0 {
		return readPipe(path)
	}
	if !fi.Mode().IsRegular() {
		what := "not a regular file"
		switch {
		case fi.Mode()&fs.ModeDevice != 0:
			what = "a device, not a file"
		case fi.Mode()&fs.ModeSocket != 0:
			what = "a socket, not a file"
		}
		return nil, &InputError{Path: path, Err: errors.New("is " + what)}
	}
	if fi.Size() > MaxFileSize {
		return nil, &InputError{Path: path, Err: fmt.Errorf("is %d bytes; kubeletcfg reads at most %d bytes per file", fi.Size(), MaxFileSize)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &InputError{Path: path, Err: describe(err)}
	}
	defer f.Close()
	data, err := readAll(f, fi.Size())
	if err != nil {
		return nil, &InputError{Path: path, Err: describe(err)}
	}
	if len(data) > MaxFileSize {
		return nil, &InputError{Path: path, Err: fmt.Errorf("grew beyond %d bytes while reading", MaxFileSize)}
	}
	return data, nil
}

// pipes holds what each pipe read so far held: a pipe (process substitution's
// /dev/fd/63, a FIFO) yields its bytes once, and a run may read a path twice
// (format detection, then the pipeline; one read per kubelet minor).
var pipes sync.Map // path -> []byte

// readPipe reads the pipe at path once, within MaxFileSize as standard input is.
func readPipe(path string) ([]byte, error) {
	if data, ok := pipes.Load(path); ok {
		return data.([]byte), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &InputError{Path: path, Err: describe(err)}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, &InputError{Path: path, Err: describe(err)}
	}
	if len(data) > MaxFileSize {
		return nil, &InputError{Path: path, Err: fmt.Errorf("is more than %d bytes; kubeletcfg reads at most %d bytes per file", MaxFileSize, MaxFileSize)}
	}
	data = data[:len(data):len(data)]
	if prev, loaded := pipes.LoadOrStore(path, data); loaded {
		return prev.([]byte), nil
	}
	return data, nil
}

// readAll reads f to its end, or past MaxFileSize, into a buffer of the size
// stat reported (plus one byte, to see a file that grew): io.ReadAll's doubling
// from 512 bytes costs a large file a dozen copies and a small one a buffer
// four times its size, kept for the whole run (a drop-in folder of 40,000
// files).
func readAll(f *os.File, size int64) ([]byte, error) {
	buf := make([]byte, 0, min(size, MaxFileSize)+1)
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) > MaxFileSize {
			return buf, nil
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // it grew since stat: let append pick the size
		}
	}
}

// Parse parses data read from path.
func Parse(path string, data []byte) *File {
	f := &File{Path: path, Data: data}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	last := 0 // line of the last document read
	for i := 0; ; i++ {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if i == 0 {
				f.SyntaxErr = newSyntaxError(data, err)
			} else if l := markerAfter(data, last); l > 0 {
				// Later documents are ignored by the kubelet, even broken ones;
				// the parser cannot say where a broken one starts, its marker can.
				f.ExtraDocs = append(f.ExtraDocs, l)
			}
			break
		}
		last = n.Line
		if i == 0 {
			if len(n.Content) > 0 {
				f.Doc = n.Content[0]
			}
			continue
		}
		f.ExtraDocs = append(f.ExtraDocs, n.Line)
	}
	return f
}

// markerAfter returns the 1-based line of the first document start marker ("---"
// at the start of a line) after line after, or 0. YAML forbids such a line inside
// any scalar, so every one starts a document.
func markerAfter(data []byte, after int) int {
	line := 1
	for len(data) > 0 {
		next := bytes.IndexByte(data, '\n')
		text := data
		if next >= 0 {
			text = data[:next]
		}
		if line > after && bytes.HasPrefix(text, []byte("---")) &&
			(len(text) == 3 || text[3] == ' ' || text[3] == '\t' || text[3] == '\r') {
			return line
		}
		if next < 0 {
			break
		}
		data = data[next+1:]
		line++
	}
	return 0
}

func describe(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no such file or directory")
	case errors.Is(err, fs.ErrPermission):
		return errors.New("permission denied")
	}
	return err
}
