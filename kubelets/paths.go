package kubelets

import "strings"

// Field paths are dotted JSON names with map keys and list indexes in brackets:
// crashLoopBackOff.maxContainerRestartPeriod, evictionHard[memory.available],
// reservedMemory[0].limits[memory]. These helpers are the one place that knows it.

// JoinPath appends an object field name to a path.
func JoinPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// Below reports whether path lies strictly below p (a field, map key or list
// item of it, at any depth).
func Below(path, p string) bool {
	return strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[")
}

// Within reports whether path is p or lies below it.
func Within(path, p string) bool {
	return path == p || Below(path, p)
}

// Parent drops the last step of a path: a.b[c] -> a.b -> a -> "". A
// bracketed key is one step whatever it holds (evictionHard[memory.available]).
func Parent(p string) string {
	if strings.HasSuffix(p, "]") {
		if i := strings.LastIndexByte(p, '['); i > 0 {
			return p[:i]
		}
	}
	if i := strings.LastIndexAny(p, ".["); i > 0 {
		return p[:i]
	}
	return ""
}

// Step is one step of a path: an object field's name, or what stands in
// brackets (a map key or a list index).
type Step struct {
	Name      string
	Bracketed bool
}

// Steps splits a path into its steps: a.b[k][0].c is a, b, [k], [0], c. ok is
// false when a bracket is not closed; the steps before it are returned.
func Steps(path string) (steps []Step, ok bool) {
	ok = eachStep(path, func(s Step) bool {
		steps = append(steps, s)
		return true
	})
	return steps, ok
}

// eachStep calls yield with each step of path in turn, until yield returns
// false; it reports false when a bracket is not closed. Steps collects them,
// Field.at follows them without collecting.
func eachStep(path string, yield func(Step) bool) bool {
	for path != "" {
		switch path[0] {
		case '.':
			path = path[1:]
			continue
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return false
			}
			if !yield(Step{Name: path[1:end], Bracketed: true}) {
				return true
			}
			path = path[end+1:]
			continue
		}
		end := strings.IndexAny(path, ".[")
		if end < 0 {
			end = len(path)
		}
		if !yield(Step{Name: path[:end]}) {
			return true
		}
		path = path[end:]
	}
	return true
}
