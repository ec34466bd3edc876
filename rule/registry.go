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
		byID = make(map[string]*Rule, 2*len(table))
		for _, r := range table {
			// As declared: IDs are upper case and names lower case, so they
			// do not collide (TestRegistry), and Lookup folds the query, not
			// 183 names at every start.
			byID[r.ID] = r
			byID[r.Name] = r
		}
	})
}

// All returns every rule ordered by ID, as the table is generated (a copy:
// callers may reorder it).
func All() []*Rule {
	index()
	return append([]*Rule(nil), table...)
}

// Lookup finds a rule by ID or name, as every output prints both
// (case-insensitive: kc3001, gate-unknown).
func Lookup(id string) (*Rule, bool) {
	index()
	if r, ok := byID[strings.ToUpper(id)]; ok {
		return r, true
	}
	r, ok := byID[strings.ToLower(id)]
	return r, ok
}
