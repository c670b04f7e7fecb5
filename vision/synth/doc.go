// Package synth renders synthetic overhead photographs of a Blueprints table
// and writes the exact truth of each one, so that the vision code can be
// developed and measured long before a real camera watches a real table.
//
// A Scene is plain data in world coordinates (millimetres, origin at the
// table centre, z up, table top z = 0): blueprint cards from the catalogue
// (configs/blueprints.json) drawn to the card model (configs/card.json, see
// vision/cardmodel), legal stacks of rounded dice with sunken pips in the
// four materials, loose dice of the offer, a hand and forearm, player
// screens, one to three area lights, a camera 35-90 cm above the table, and
// the camera simulation (blur, sensor noise, JPEG).
//
//	Generate      a random still from a seed (Options steer it)
//	GenerateRound the frames of a round being built, hand in and out
//	WritePOV      the POV-Ray scene; Render runs povray (killed on cancel)
//	              and applies PostProcess
//	TruthOf       the truth of a scene; WriteTruth / ReadTruth (validating)
//	RenderCorpus  the seeded, resumable corpus in vision/testdata/synth
//
// The truth format is documented in README.md; other tools and independent
// test sets write the same format. The command is cmd/bprender.
package synth
