// Package jsonscan steps over values of JSON that is already known to be valid
// (encoding/json or json-patch produced or checked it), without decoding them:
// the drop-in merge's origin walk and skew's per-minor key filter both walk raw
// documents this way, keeping every byte of the values they do not touch.
package jsonscan
