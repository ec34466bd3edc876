package fix

import (
	"bytes"
	"fmt"
	"os"

	"github.com/kubeletcfg/kubeletcfg/internal/atomicfile"
)

// Failures is what makes kubeletcfg fix fail, 0 when it succeeds: an error
// left at any target minor and the mistakes found and not repaired, counted,
// or 1 when the repairs were refused (they would lint worse).
func (p *Plan) Failures() int {
	errs, warns := p.Left()
	switch {
	case p.Fixed() == 0 && p.Skipped() == 0 && errs+warns == 0:
		return 0
	case p.Worse != nil:
		return 1
	}
	return errs + p.Skipped()
}

// Apply writes every changed file, each atomically and keeping its mode,
// after checking that none changed on disk since it was read: the repairs were
// computed from those bytes.
func (p *Plan) Apply() error {
	for _, f := range p.Changed() {
		now, err := os.ReadFile(f.Path)
		if err != nil {
			return fmt.Errorf("%s: %w; nothing written", f.Path, unwrapPath(err))
		}
		if !bytes.Equal(now, f.Original) {
			return fmt.Errorf("%s: changed on disk while kubeletcfg was fixing it; nothing written", f.Path)
		}
	}
	for _, f := range p.Changed() {
		if err := atomicfile.Write(f.Path, f.Fixed, atomicfile.Options{Overwrite: true, KeepMode: true}); err != nil {
			return fmt.Errorf("%s: %w", f.Path, unwrapPath(err))
		}
	}
	return nil
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
