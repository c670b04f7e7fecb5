package configs

import _ "embed"

// Blueprints is the embedded default blueprint catalogue (blueprints.json).
//
//go:embed blueprints.json
var Blueprints []byte

// Example is the embedded example configuration (blueprints.yaml), which
// lists every setting with its default.
//
//go:embed blueprints.yaml
var Example []byte
