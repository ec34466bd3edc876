package flags

import (
	"fmt"

	"github.com/spf13/pflag"
)

// onceString is a string flag that may be given once. pflag keeps the last of
// repeated values without a word, so `-c a.yaml -c b.yaml` would check b.yaml
// only; the kubelet has one --config and one --config-dir, so a second value is
// a usage error that names the flag and both values.
type onceString struct {
	p   *string
	set bool
}

func (o *onceString) Set(v string) error {
	if o.set {
		return fmt.Errorf("given twice (%q, then %q): give it once", *o.p, v)
	}
	*o.p, o.set = v, true
	return nil
}

func (o *onceString) String() string { return *o.p }

// Type is "string", as for a plain string flag (help and completion read it).
func (o *onceString) Type() string { return "string" }

// OnceStringVarP defines a string flag, with a shorthand, that may be given once.
func OnceStringVarP(fl *pflag.FlagSet, p *string, name, shorthand, value, usage string) {
	*p = value
	fl.VarP(&onceString{p: p}, name, shorthand, usage)
}
