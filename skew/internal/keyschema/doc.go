// Package keyschema reduces a JSON Schema to the keywords that decide which
// object keys exist (properties, additionalProperties, items, $ref, $defs,
// definitions): skew.Minor.KeySchema compiles it, and skew/internal/gen
// computes it from each minor's schema.json at generation time.
package keyschema
