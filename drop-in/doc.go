// Package dropin finds the kubelet's --config-dir drop-ins in the kubelet's order
// and merges them exactly as the kubelet does: each .conf file is decoded strictly
// into an unstructured object and applied as an RFC 7386 JSON merge patch (with the
// same library the kubelet uses) over the JSON of the defaulted main config; the
// result is decoded with encoding/json. It remembers which file and line set each
// field, and which keys the merge drops.
package dropin
