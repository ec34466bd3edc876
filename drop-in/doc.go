// Package dropin finds the kubelet's --config-dir drop-ins in the kubelet's order
// and merges them exactly as the kubelet does: each .conf file is decoded strictly
// into an unstructured object and applied as an RFC 7386 JSON merge patch (with the
// same library the kubelet uses) over the JSON of the defaulted main config; the
// result is decoded with encoding/json. It remembers which file and line set each
// field, and which keys the merge drops.
//
// The files follow the steps: find.go (the walk), merge.go (Merge: read, patch,
// decode), mergepatch.go (json-patch's merge on a document kept parsed),
// legacy.go (kubelet 1.31's merge), findings.go (what a drop-in that cannot be
// read, decoded or merged, and a key that vanishes, are reported as),
// origins.go (which drop-in key set each field, and the keys that only apply
// case-insensitively or are shadowed), jsonwalk.go (the scan of the merged
// document that simulates encoding/json's last writer per field) and
// override.go (a later drop-in that replaces an earlier one's value).
package dropin
