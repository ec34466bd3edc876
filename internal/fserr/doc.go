// Package fserr trims file-system errors for messages that already name the path.
package fserr
