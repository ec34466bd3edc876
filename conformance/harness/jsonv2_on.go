//go:build goexperiment.jsonv2

package main

// encodingJSONv2: this Go's encoding/json is implemented on encoding/json/v2.
const encodingJSONv2 = true
