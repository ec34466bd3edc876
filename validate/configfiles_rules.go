package validate

// What the start-up stages' rules share. The read rules (KC1xxx) are declared
// in package source (rules.go), the drop-in rules (KC2xxx) in drop-in.

const kubeletServer = "cmd/kubelet/app/server.go"
