package procedures

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/storage"
)

// rewriteRequest is one rewrite_data_files call with its arguments checked.
type rewriteRequest struct {
	target *planner.TableRef
	scan   *planner.Scan
	where  planner.Expr // over scan.Columns; nil selects every file
	sort   *rewriteSort // nil for the binpack strategy
	opts   storage.RewriteOptions
	// partial commits groups in up to maxCommits snapshots as they are
	// written (partial-progress.enabled) instead of one at the end.
	partial     bool
	maxCommits  int
	concurrency int // groups rewritten at the same time
}

// rewriteDataFiles is CALL system.rewrite_data_files(table, strategy,
// sort_order, options, where), Iceberg's data compaction.
func rewriteDataFiles(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*engine.Result, error) {
	req, err := parseRewriteArgs(ctx, s, args)
	if err != nil {
		return nil, err
	}
	m, err := rewrite(ctx, s, req)
	if err != nil {
		return nil, err
	}
	return m.row(), nil
}

// parseRewriteArgs checks the arguments of a rewrite_data_files call.
func parseRewriteArgs(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*rewriteRequest, error) {
	name, err := stringArg(args, "table")
	if err != nil {
		return nil, err
	}
	written := sql.ObjectName{Parts: strings.Split(name, ".")}
	if _, _, err := defaultCatalogTable(ctx, s, written); err != nil {
		return nil, err
	}
	target, err := s.ResolveTable(ctx, written, nil)
	if err != nil {
		return nil, err
	}
	scan, err := planner.NewScan(target, "")
	if err != nil {
		return nil, err
	}
	req := newRewriteRequest(target, scan)
	if err := req.setOptions(args); err != nil {
		return nil, err
	}
	if err := req.setStrategy(args); err != nil {
		return nil, err
	}
	where, err := optionalString(args, "where")
	if err != nil {
		return nil, err
	}
	if where != "" {
		st, err := sql.ParseOne("DELETE FROM t WHERE " + where)
		del, ok := st.(*sql.Delete)
		if err != nil || !ok || del.Where == nil {
			return nil, fmt.Errorf("where %q is not a predicate: %v", where, err)
		}
		if req.where, err = s.BindCondition(ctx, scan, del.Where, "rewrite_data_files where"); err != nil {
			return nil, err
		}
	}
	return req, nil
}

// newRewriteRequest is a request with Iceberg's default options.
func newRewriteRequest(target *planner.TableRef, scan *planner.Scan) *rewriteRequest {
	return &rewriteRequest{target: target, scan: scan, opts: storage.DefaultRewriteOptions(target.Table), maxCommits: 10, concurrency: 5}
}

// setStrategy reads strategy and sort_order. As in Spark, a sort_order
// without a strategy means the sort strategy.
func (r *rewriteRequest) setStrategy(args map[string]*planner.Literal) error {
	strategy, err := optionalString(args, "strategy")
	if err != nil {
		return err
	}
	order, err := optionalString(args, "sort_order")
	if err != nil {
		return err
	}
	switch strategy = strings.ToLower(strategy); {
	case strategy == "sort" || strategy == "" && order != "":
		if order == "" {
			r.sort, err = tableSortOrder(r.target.Table, r.scan.Columns)
		} else {
			r.sort, err = parseSortOrder(order, r.scan.Columns)
		}
	case strategy == "binpack" || strategy == "":
		if order != "" {
			err = fmt.Errorf("sort_order needs strategy => 'sort'")
		}
	default:
		err = fmt.Errorf("unknown strategy %q: use 'binpack' or 'sort'", strategy)
	}
	return err
}

// rewriteOptionNames are the options rewrite_data_files understands.
var rewriteOptionNames = []string{
	"rewrite-all", "target-file-size-bytes", "min-file-size-bytes", "max-file-size-bytes",
	"min-input-files", "delete-file-threshold", "max-file-group-size-bytes", "output-spec-id",
	"partial-progress.enabled", "partial-progress.max-commits", "max-concurrent-file-group-rewrites",
}

// setOptions reads the options map over Iceberg's defaults. The size bounds
// default to 75% and 180% of the target given, as in Iceberg.
func (r *rewriteRequest) setOptions(args map[string]*planner.Literal) error {
	given := map[string]string{}
	if lit, ok := args["options"]; ok && lit.Value != nil {
		m, ok := lit.Value.(map[string]string)
		if !ok {
			return fmt.Errorf("argument options must be a map('name', 'value', …)")
		}
		given = m
	}
	for _, k := range slices.Sorted(maps.Keys(given)) {
		if !slices.Contains(rewriteOptionNames, k) {
			return fmt.Errorf("unknown rewrite_data_files option %q (options: %s)", k, strings.Join(rewriteOptionNames, ", "))
		}
	}
	o := r.opts
	p := optionParser{given: given}
	o.TargetFileSize = p.int64("target-file-size-bytes", o.TargetFileSize)
	o.MinFileSize = p.int64("min-file-size-bytes", o.TargetFileSize*3/4)
	o.MaxFileSize = p.int64("max-file-size-bytes", o.TargetFileSize*9/5)
	o.MaxGroupSize = p.int64("max-file-group-size-bytes", o.MaxGroupSize)
	o.MinInputFiles = int(p.int64("min-input-files", int64(o.MinInputFiles)))
	o.DeleteFileThreshold = int(p.int64("delete-file-threshold", int64(o.DeleteFileThreshold)))
	o.OutputSpecID = int(p.int64("output-spec-id", int64(o.OutputSpecID)))
	o.RewriteAll = p.bool("rewrite-all", false)
	r.partial = p.bool("partial-progress.enabled", false)
	r.maxCommits = int(p.int64("partial-progress.max-commits", int64(r.maxCommits)))
	r.concurrency = int(p.int64("max-concurrent-file-group-rewrites", int64(r.concurrency)))
	if p.err != nil {
		return p.err
	}
	if r.maxCommits < 1 || r.concurrency < 1 {
		return fmt.Errorf("partial-progress.max-commits and max-concurrent-file-group-rewrites must be at least 1")
	}
	if r.target.Table.Metadata().PartitionSpecByID(o.OutputSpecID) == nil {
		return fmt.Errorf("output-spec-id %d is not a partition spec of %s", o.OutputSpecID, r.target.QualifiedName())
	}
	r.opts = o
	return o.Validate()
}

// optionParser reads typed options, keeping the first error.
type optionParser struct {
	given map[string]string
	err   error
}

func (p *optionParser) int64(name string, def int64) int64 {
	v, ok := p.given[name]
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil && p.err == nil {
		p.err = fmt.Errorf("option %s=%q is not an integer", name, v)
	}
	return n
}

func (p *optionParser) bool(name string, def bool) bool {
	v, ok := p.given[name]
	if !ok {
		return def
	}
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	if err != nil && p.err == nil {
		p.err = fmt.Errorf("option %s=%q is not true or false", name, v)
	}
	return b
}

// optionalString returns a string argument, "" when it is absent or NULL.
func optionalString(args map[string]*planner.Literal, name string) (string, error) {
	if lit, ok := args[name]; !ok || lit.Value == nil {
		return "", nil
	}
	return stringArg(args, name)
}
