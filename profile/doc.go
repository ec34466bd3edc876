// Package profile runs a security profile (validate.RunProfile, `--profile cis`)
// over the effective configuration the pipeline computed: merged drop-ins and
// defaults included, each finding at the file and line that set the value, or
// at (defaults) when no file sets it.
package profile
