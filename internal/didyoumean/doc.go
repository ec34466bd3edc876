// Package didyoumean finds the known name a user most likely meant.
package didyoumean
