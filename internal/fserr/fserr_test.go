package fserr

import (
	"errors"
	"io/fs"
	"os"
	"testing"
)

func TestUnwrap(t *testing.T) {
	plain := errors.New("plain")
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"path error", &fs.PathError{Op: "open", Path: "/x", Err: fs.ErrNotExist}, fs.ErrNotExist},
		{"link error", &os.LinkError{Op: "link", Old: "/a", New: "/b", Err: fs.ErrExist}, fs.ErrExist},
		{"other error kept", plain, plain},
	} {
		if got := Unwrap(tc.err); got != tc.want {
			t.Errorf("%s: Unwrap = %v, want %v", tc.name, got, tc.want)
		}
	}
}
