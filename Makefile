# lakesql — build, test, demo, bench.
GO ?= go
BIN := bin/lakesql
WAREHOUSE ?= warehouse

.PHONY: build test vet unit golden demo bench clean

# CGO_ENABLED=0: a static binary skips the dynamic loader, ~10 ms of every start-up.
build:
	CGO_ENABLED=0 $(GO) build -o $(BIN) ./cmd/lakesql

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

# bench runs the differential test against DuckDB, the lakesql-vs-DuckDB
# harness (rewrites bench/RESULTS.md and bench/ratios.png) and the Go
# benchmarks. BENCH_QUICK=1 is the development run: 10^6 harness events and
# a small benchmark warehouse. BENCH_SCALE=N sets the harness's events,
# BENCH_RUNS=N its timed runs per query, BENCH_OUT=-1e8 its output names
# (RESULTS-1e8.md, ratios-1e8.png).
bench:
	cd bench && BENCH_QUICK=$(BENCH_QUICK) $(if $(BENCH_QUICK),BENCH_DAYS=20 BENCH_EVENTS_PER_DAY=5000) \
		$(GO) test -count=1 -timeout 0 -run 'Differential|Harness' -bench . -benchtime 3x ./...

clean:
	rm -rf bin
