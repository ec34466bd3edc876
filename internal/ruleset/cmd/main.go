// Command cmd writes rule/registry_gen.go from internal/ruleset's list (go
// generate ./internal/ruleset, from the module's root or the package).
package main

import (
	"log"
	"os"
	"path/filepath"

	"github.com/kubeletcfg/kubeletcfg/internal/ruleset"
)

func main() {
	data, err := ruleset.Registry()
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.Getwd()
	if err != nil {
		log.Fatal(err)
	}
	for ; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			log.Fatal("no go.mod at or above the working directory")
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "rule", "registry_gen.go"), data, 0o644); err != nil {
		log.Fatal(err)
	}
}
