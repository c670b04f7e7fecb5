# Rules engine and CLI parsers: fuzz targets run briefly in make test.
FUZZ_TARGETS += ./engine:FuzzParseBlueprint ./engine:FuzzParseStack ./engine:FuzzBuildingJSON ./cmd/blueprints:FuzzScoreInput ./cmd/blueprints:FuzzRoundInput
