//go:build !goexperiment.jsonv2

package main

// encodingJSONv2: this Go's encoding/json is its own (v1) implementation.
const encodingJSONv2 = false
