package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/kubeletcfg/kubeletcfg/internal/fuzzcase"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(os.Args[2:])
	case "compare":
		var n int
		n, err = compare(os.Args[2:], os.Stdout)
		if err == nil && n > 0 {
			os.Exit(1)
		}
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fuzzcase:", err)
		os.Exit(2)
	}
}

func usage() {
	fmt.Fprint(os.Stderr, `usage:
  fuzzcase gen -minor M -n N -seed S -out DIR
  fuzzcase compare -minor M -cases DIR -golden DIR
`)
	os.Exit(2)
}

func gen(args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	minor := fs.String("minor", kubelets.Default().Version, "kubelet minor whose schema and gates the cases are built from")
	n := fs.Int("n", 100, "number of cases")
	seed := fs.Uint64("seed", 1, "seed; the same seed writes the same cases")
	out := fs.String("out", "", "folder to write the case folders into")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() != 0 {
		return errors.New("gen: -out is required")
	}
	m, err := kubelets.Lookup(*minor)
	if err != nil {
		return err
	}
	g, err := fuzzcase.New(m)
	if err != nil {
		return err
	}
	if err := g.Write(*out, *seed, *n); err != nil {
		return err
	}
	fmt.Printf("wrote %d cases for kubelet %s (seed %d) to %s\n", *n, m.Version, *seed, *out)
	return nil
}

func compare(args []string, w io.Writer) (int, error) {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	minor := fs.String("minor", kubelets.Default().Version, "kubelet minor the goldens were recorded with")
	cases := fs.String("cases", "", "folder of case folders")
	golden := fs.String("golden", "", "folder of the kubelet's <case>.json")
	nodeOS := fs.String("os", "linux", "the OS of the kubelet that recorded the goldens: linux, or windows (the Windows harness under Wine)")
	if err := fs.Parse(args); err != nil {
		return 0, err
	}
	osName, err := kubelets.ParseOS(*nodeOS)
	if err != nil {
		return 0, err
	}
	if *cases == "" || *golden == "" || fs.NArg() != 0 {
		return 0, errors.New("compare: -cases and -golden are required")
	}
	m, err := kubelets.Lookup(*minor)
	if err != nil {
		return 0, err
	}
	casesDir, err := filepath.Abs(*cases)
	if err != nil {
		return 0, err
	}
	rep, err := fuzzcase.Compare(m, osName, casesDir, *golden)
	if err != nil {
		return 0, err
	}
	rep.Write(w)
	return rep.Disagreeing, nil
}
