# Rules engine and CLI parsers: each fuzz target runs briefly in make test.
FUZZ_TARGETS += ./engine:FuzzParseBlueprint ./engine:FuzzParseStack ./engine:FuzzBuildingJSON ./engine:FuzzParseLog ./cmd/blueprints:FuzzScoreInput ./cmd/blueprints:FuzzRoundInput
