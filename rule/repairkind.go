package rule

import "strings"

// Repair is what `kubeletcfg fix` does about a rule's findings: the edit it
// makes (Kind) and, for fix's help and the rules reference, what it finds and
// writes (Doc). The zero Repair is a rule fix leaves to the user.
type Repair struct {
	Kind RepairKind
	// Doc is one sentence, without the rule ID: what is found, then "->" or ":"
	// and what fix writes, with the conditions under which it writes nothing.
	Doc string
}

// RepairKind is the kind of edit fix makes.
type RepairKind int

const (
	// RepairNone: fix lists the finding among what is left, never edits it.
	RepairNone RepairKind = iota
	// RepairRenameKey: a key spelled with another case is renamed to the field's name.
	RepairRenameKey
	// RepairGateEntry: a featureGates entry is renamed (a gate spelled with another
	// case) or removed (set to its locked value, or to a gate a target minor no
	// longer has).
	RepairGateEntry
	// RepairDraftField: the KEP-4603 draft crashloopbackoff.maxSeconds becomes the
	// shipped crashLoopBackOff.maxContainerRestartPeriod, gate included.
	RepairDraftField
	// RepairAPIVersion: the missing apiVersion is added above kind.
	RepairAPIVersion
)

var repairKindNames = [...]string{"RepairNone", "RepairRenameKey", "RepairGateEntry", "RepairDraftField", "RepairAPIVersion"}

// String is the constant's name, as the generated registry spells it.
func (k RepairKind) String() string {
	if int(k) < len(repairKindNames) {
		return repairKindNames[k]
	}
	return "RepairKind(?)"
}

// Repairable is every rule whose findings fix repairs, ordered by ID.
func Repairable() []*Rule {
	var out []*Rule
	// The table directly, not All: every command builds fix's help at start,
	// and the repair needs nothing index resolves.
	for _, r := range table {
		if r.Repair.Kind != RepairNone {
			out = append(out, r)
		}
	}
	return out
}

// RepairList is Repairable as fix's help prints it: per rule the ID, then
// what fix repairs, wrapped at 78 columns under it.
func RepairList() string {
	const width, indent = 78, "          "
	var b strings.Builder
	for _, r := range Repairable() {
		b.WriteString("  " + r.ID)
		col := 2 + len(r.ID)
		for i, word := range strings.Fields(r.Repair.Doc) {
			switch {
			case i == 0:
				b.WriteString("  ")
				col += 2
			case col+1+len(word) > width:
				b.WriteString("\n" + indent)
				col = len(indent)
			default:
				b.WriteByte(' ')
				col++
			}
			b.WriteString(word)
			col += len(word)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
