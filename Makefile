# lakesql — build, test, demo, bench.
GO ?= go
BIN := bin/lakesql
WAREHOUSE ?= warehouse

.PHONY: build test vet unit golden golden-rewrite stress demo bench tpch clean

# CGO_ENABLED=0: a static binary skips the dynamic loader, ~10 ms of every start-up.
# -s -w drops the symbol table and DWARF, which no run loads (panics still name
# functions): 137 MB → 99 MB on disk, less to read on a cold start.
# -buildvcs=auto stamps the git revision that `lakesql --version` prints, even
# where the Go environment turns stamping off (GOFLAGS=-buildvcs=false).
build:
	CGO_ENABLED=0 $(GO) build -buildvcs=auto -ldflags='-s -w' -o $(BIN) ./cmd/lakesql

# test is what CI runs: vet, unit tests and the golden SQL scripts.
test: vet unit golden

vet:
	$(GO) vet ./...

# The gs:// tests need -tags gcs (the build that links Google's client; see
# storage/object_clouds.go): they run against fake-gcs-server.
unit:
	$(GO) test -count=1 -skip 'TestGolden' ./...
	$(GO) test -count=1 -tags gcs -run 'GCS' . ./storage

golden:
	$(GO) test -count=1 -run 'TestGolden' .

# golden-rewrite replaces the expected output of every golden script
# (testdata/queries/<area>/*.test) and golden file with what the code prints
# now. Read the diff before committing it.
golden-rewrite:
	$(GO) test -count=1 -run 'TestGolden' . -rewrite
	$(GO) test -count=1 ./cmd/lakesql -rewrite
	$(GO) test -count=1 -run TestMariadbClientGolden ./internal/mysqlserver -rewrite

# stress runs, outside make test, what make test keeps small: the kill test
# at 100 SIGKILLs, 8 writers × 20 INSERTs with rewrite and expire loops
# (LAKESQL_STRESS=1 makes them full size), the one-day query on the 1095-day
# demo in S3, a GROUP BY of 10^8 groups and an ORDER BY of 10^7 rows under
# SET memory_limit = '1GB' (peak RSS at most 1.5 GB; make test skips it),
# and each fuzz target (parser, binder, executor) for FUZZTIME (default
# 2m). Fuzz seeds are in each
# package's testdata/fuzz/; a failing input is saved there too.
FUZZTIME ?= 2m
stress:
	LAKESQL_STRESS=1 $(GO) test -count=1 -timeout 60m -v \
		-run 'TestKilledWriterLeavesLastCommittedState|TestConcurrentWritersWithRewriteAndExpire|TestRewriteAndInsertFromTwoProcesses|TestStaleMetadataClaimIsTakenOver|TestObjectStorageThreeYearDemoOneDayQuery|TestLargeAggregationAndSortUnderMemoryLimit' .
	$(GO) test -run '^$$' -fuzz '^FuzzParse$$' -fuzztime $(FUZZTIME) ./sql
	$(GO) test -run '^$$' -fuzz '^FuzzBind$$' -fuzztime $(FUZZTIME) ./planner
	$(GO) test -run '^$$' -fuzz '^FuzzExecute$$' -fuzztime $(FUZZTIME) .

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

# tpch runs the 22 TPC-H queries in lakesql and DuckDB and rewrites
# bench/RESULTS-tpch.md. The data is generated once into bench/.tpch-data/
# (outside git): SF=N sets the scale factor (default 1), TPCH_QUICK=1 runs on
# the first 10 % of SF=1's orders instead, TPCH_RUNS=N sets the timed runs
# (default 5) and TPCH_TIMEOUT=S the seconds a run may take (default 120).
SF ?= 1
tpch:
	cd bench && SF=$(SF) TPCH_QUICK=$(TPCH_QUICK) TPCH_RUNS=$(TPCH_RUNS) TPCH_TIMEOUT=$(TPCH_TIMEOUT) \
		$(GO) test -count=1 -timeout 0 -run 'TestTPCH$$' -v .

clean:
	rm -rf bin
