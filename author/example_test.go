package author_test

import (
	"fmt"
	"os"

	"github.com/kubeletcfg/kubeletcfg/author"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// A dry run of dropin new: the file, the merge order and the verdict of the
// newest minor, nothing written.
func ExampleNew() {
	rep, err := author.New(author.NewRequest{
		Name:      "50-pods.conf",
		ConfigDir: "../testdata/dropin/node/conf.d",
		Config:    "../testdata/dropin/node/config.yaml",
		Sets:      []string{"maxPods=50"},
		Minors:    []*kubelets.Minor{kubelets.Default()},
		DryRun:    true,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("refused by", rep.Refused, "written", rep.Written)
	for _, f := range rep.MergeOrder {
		fmt.Println(f)
	}
	for _, a := range rep.Verdicts[0].Applied {
		fmt.Println(a.Path, "=", a.Got, "holds:", a.Holds())
	}
	_, err = os.Stat(rep.File)
	fmt.Println("on disk:", err == nil)
	// Output:
	// refused by [] written false
	// ../testdata/dropin/node/config.yaml
	// ../testdata/dropin/node/conf.d/10-pool.conf
	// ../testdata/dropin/node/conf.d/50-pods.conf
	// ../testdata/dropin/node/conf.d/90-site.conf
	// maxPods = 50 holds: true
	// on disk: false
}
