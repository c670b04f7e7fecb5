// Package configs holds the companion's default data files and embeds them,
// so every command has working defaults with no file on disk:
//
//   - blueprints.json: the blueprint card catalogue the engine deals from.
//   - blueprints.yaml: an example configuration with every setting and its
//     default (copy it to ./blueprints.yaml or pass --config to change them).
//
// Other parts add their files here (the card model the renderer and the
// vision share, colour profiles, ...). Reading these files into typed values
// is the job of the package that uses them; viper stays in cmd/.
package configs
