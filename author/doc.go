// Package author writes kubelet drop-in files that are right by construction:
// it parses --set expressions against a minor's KubeletConfiguration schema
// (ParseSet), builds the minimal drop-in document (NewDocument), checks it by
// evaluating the kubelet's start-up with the file in place at every target
// minor (Check), and computes the drop-in that turns one effective
// configuration into another (Diff, Verify).
//
// New and DropInDiff are the whole of `kubeletcfg dropin new` and
// `kubeletcfg dropin diff` after flag parsing: they take a request, check it,
// build and check the file, and write it through internal/atomicfile only when
// every minor does what the file says. NewReport is the JSON that
// `dropin new -o json` prints (its text, and DiffReport's, is
// report/verbtext's).
package author
