package fserr

import (
	"errors"
	"io/fs"
	"os"
)

// Unwrap drops the *fs.PathError or *os.LinkError wrapper, whose text repeats
// the path (or both paths) the message already names.
func Unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
