# lakesql — build, test, demo, bench.
GO ?= go
BIN := bin/lakesql
WAREHOUSE ?= warehouse

.PHONY: build test vet unit golden demo bench clean

build:
	$(GO) build -o $(BIN) ./cmd/lakesql

# test is what CI runs: vet, unit tests and the golden SQL scripts.
test: vet unit golden

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 -skip 'TestGolden' ./...

golden:
	$(GO) test -count=1 -run 'TestGolden' .

# demo builds lakesql, creates the demo warehouse once and opens the REPL on it.
demo: build
	@test -d $(WAREHOUSE)/tutorial/retail_clickstream_events || ./$(BIN) demo --warehouse $(WAREHOUSE)
	./$(BIN) --warehouse $(WAREHOUSE) --catalog oleander

bench:
	cd bench && $(GO) test -run '^$$' -bench . -benchtime 3x ./...

clean:
	rm -rf bin
