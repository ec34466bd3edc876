package cluster_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeletcfg/kubeletcfg"
	"github.com/kubeletcfg/kubeletcfg/cluster"
	"github.com/kubeletcfg/kubeletcfg/finding"
	"github.com/kubeletcfg/kubeletcfg/fleet"
	"github.com/kubeletcfg/kubeletcfg/kubelets"
)

// Run reads nodes through an API server; what it refuses before any
// server is reached needs none: a request that contradicts itself, a
// kubeconfig that cannot be read.
func ExampleRun() {
	_, err := cluster.Run(context.Background(), cluster.Request{Contexts: []string{"prod"}, AllContexts: true})
	fmt.Println(err)
	_, err = cluster.Run(context.Background(), cluster.Request{
		Kubeconfig: &clientcmd.ClientConfigLoadingRules{ExplicitPath: "../testdata/no-such-kubeconfig"},
		Contexts:   []string{"prod", "staging"},
	})
	fmt.Println(err)
	// Output:
	// Request.AllContexts reads every context: leave out Request.Contexts
	// kubeconfig: stat ../testdata/no-such-kubeconfig: no such file or directory
}

// Evaluate a node as `kubeletcfg cluster` does once it has read the node's
// /configz through the API server (here a saved dump): at the minor it runs
// (lint), then as if upgraded to 1.37 (preflight), where a gate its
// configuration still sets is gone.
func ExampleEvaluateNode() {
	configz, err := os.ReadFile("../testdata/inputs/configz.json")
	if err != nil {
		log.Fatal(err)
	}
	running, err := kubeletcfg.LookupMinor("1.34", "")
	if err != nil {
		log.Fatal(err)
	}
	n := &fleet.Node{Name: "node-1", Kubelet: running, Configz: configz}
	for _, to := range []string{"", "1.37", "1.33"} {
		var target *kubelets.Minor
		if to != "" {
			if target, err = kubeletcfg.LookupMinor(to, ""); err != nil {
				log.Fatal(err)
			}
		}
		e := cluster.EvaluateNode(n, target, 2)
		if e.Err != nil {
			fmt.Printf("to %q: %v\n", to, e.Err)
			continue
		}
		fmt.Printf("to %q: starts %v\n", to, e.Starts)
		for _, f := range e.Findings {
			if f.Severity >= finding.Warning {
				fmt.Println(" ", f.Rule, f.Severity, f.Position)
			}
		}
	}
	// Output:
	// to "": starts true
	//   KC3006 warning configz:123:7
	// to "1.37": starts false
	//   KC3001 error configz (without 1.34 defaults):15:5
	// to "1.33": the nodes run kubelet 1.34, newer than Request.Target 1.33
}
