// Package author writes kubelet drop-in files that are right by construction:
// it parses --set expressions against a minor's KubeletConfiguration schema,
// builds the minimal drop-in document, checks it by evaluating the kubelet's
// start-up with the file in place at every target minor (Check), and computes
// the drop-in that turns one effective configuration into another (Diff).
package author
