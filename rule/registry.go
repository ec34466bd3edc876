package rule

import (
	"strings"
	"sync"
)

// The registry is the generated table of every rule (registry_gen.go): the
// metadata of each declaration (its Check stays with the declaration), so
// that what the registry holds does not depend on what a program links.

var (
	indexOnce sync.Once
	byID      map[string]*Rule
)

func index() {
	indexOnce.Do(func() {
		Resolve(table)
		byID = make(map[string]*Rule, len(table))
		for _, r := range table {
			byID[r.ID] = r
		}
	})
}

// All returns every rule ordered by ID, as the table is generated (a copy:
// callers may reorder it).
func All() []*Rule {
	index()
	return append([]*Rule(nil), table...)
}

// Lookup finds a rule by ID (case-insensitive: kc3001).
func Lookup(id string) (*Rule, bool) {
	index()
	r, ok := byID[strings.ToUpper(id)]
	return r, ok
}
