package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubeletcfg/kubeletcfg/internal/atomicfile"
	"github.com/kubeletcfg/kubeletcfg/internal/rulesdoc"
)

func main() {
	out := flag.String("o", "docs/rules.md", "file to write; - for standard output")
	root := flag.String("corpus", "testdata/conformance", "the conformance corpus (cases/ and golden/)")
	flag.Parse()
	if err := run(*out, *root); err != nil {
		fmt.Fprintln(os.Stderr, "rulesdoc:", err)
		os.Exit(1)
	}
}

func run(out, root string) error {
	if _, err := os.Stat(filepath.Join(root, "cases")); err != nil {
		return fmt.Errorf("%w (run from the module root, or pass -corpus)", err)
	}
	var b bytes.Buffer
	missing, err := rulesdoc.Write(&b, root)
	if err != nil {
		return err
	}
	if out == "-" {
		_, err = os.Stdout.Write(b.Bytes())
	} else {
		err = atomicfile.Write(out, b.Bytes(), atomicfile.Options{Mode: 0o644, Overwrite: true, KeepMode: true})
	}
	if err != nil {
		return err
	}
	// Which rules the corpus does not illustrate is what a contributor adding
	// cases wants to know.
	fmt.Fprintf(os.Stderr, "rulesdoc: %d rules without a corpus example: %s\n", len(missing), strings.Join(missing, " "))
	return nil
}
