package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/lakesql/lakesql/exec"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// explain prints the optimized plan, one line per operator, and under each
// scan the pruning at every level: partition filters per spec, the stats
// filter, the residual filter and kept/total counts. EXPLAIN ANALYZE runs
// the query and adds rows and time per operator and what each scan read.
func (s *Session) Explain(ctx context.Context, st *sql.Explain) (*Result, error) {
	q, ok := st.Stmt.(*sql.QueryStmt)
	if !ok {
		return nil, fmt.Errorf("EXPLAIN supports queries only, not %s", StatementName(st.Stmt))
	}
	p, err := s.Plan(ctx, q.Query)
	if err != nil {
		return nil, err
	}
	env := s.Env()
	if st.Analyze {
		env.Metrics = map[planner.Plan]*exec.OperatorMetrics{}
		env.ScanStats = map[*planner.Scan]*exec.ScanStats{}
		if err := s.drain(ctx, p, env); err != nil {
			return nil, err
		}
	}
	// dynamic holds the filters joins put on scans below them, subquery
	// plans' joins included: a join is printed before its probe scan.
	dynamic := map[*planner.Scan]string{}
	var lines [][]string
	shown := map[planner.Plan]bool{}
	var walk func(planner.Plan, int, planner.Plan) error
	walk = func(node planner.Plan, depth int, parent planner.Plan) error {
		indent := strings.Repeat("  ", depth)
		line := indent + node.Describe()
		if m := env.Metrics[node]; m != nil {
			line += fmt.Sprintf(" (rows=%d time=%s)", m.Rows, m.Time.Round(time.Microsecond))
		}
		lines = append(lines, []string{line})
		if j, ok := node.(*planner.Join); ok {
			if scan, text := exec.DynamicFilterOf(j, env); scan != nil {
				// A scan under several joins' probe sides gets each one's filter.
				if dynamic[scan] != "" {
					text = dynamic[scan] + " AND " + text
				}
				dynamic[scan] = text
			}
		}
		if fs, ok := node.(*planner.FileScan); ok && fs.Filter != nil {
			kept, err := exec.PruneHiveFiles(ctx, fs)
			if err != nil {
				return err
			}
			lines = append(lines, []string{fmt.Sprintf("%s  hive partition filter: %s; files %d/%d", indent, fs.Filter, len(kept), len(fs.Files))})
		}
		if scan, ok := node.(*planner.Scan); ok {
			details, err := s.explainScan(ctx, scan, parent, env, dynamic[scan])
			if err != nil {
				return err
			}
			for _, d := range details {
				lines = append(lines, []string{indent + "  " + d})
			}
		}
		for _, c := range node.Children() {
			if err := walk(c, depth+1, node); err != nil {
				return err
			}
		}
		for _, sq := range subqueriesOf(node, shown) {
			lines = append(lines, []string{indent + "  " + sq.String() + " runs once:"})
			if err := walk(sq.Plan, depth+2, nil); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(p, 0, nil); err != nil {
		return nil, err
	}
	for _, l := range lines {
		l[0] = clipInLists(l[0])
	}
	return TextRows([]string{"plan"}, lines), nil
}

// drain runs a plan to the end, discarding its rows.
func (s *Session) drain(ctx context.Context, p planner.Plan, env *exec.Env) error {
	res, err := s.Run(ctx, p, env)
	if err != nil {
		return err
	}
	defer res.Close()
	for {
		batch, err := res.Next(ctx)
		if err != nil || batch == nil {
			return err
		}
		batch.Release()
	}
}

// explainScan describes how a scan prunes: statically, by its filter (with
// the values its subqueries supplied), and at run time, by the build side
// of the hash join it is the probe side of (dynamic).
func (s *Session) explainScan(ctx context.Context, scan *planner.Scan, parent planner.Plan, env *exec.Env, dynamic string) ([]string, error) {
	plan, err := exec.TableScanPlan(ctx, scan, env)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, sp := range plan.Specs {
		if sp.Fields == "unpartitioned" {
			out = append(out, fmt.Sprintf("spec %d (unpartitioned): none; manifests %d/%d, files %d/%d",
				sp.SpecID, sp.ManifestsKept, sp.ManifestsTotal, sp.FilesKept, sp.FilesTotal))
			continue
		}
		if sp.ManifestsKept == 0 && sp.ManifestsTotal > 0 {
			out = append(out, fmt.Sprintf("spec %d [%s]: %s; manifests 0/%d (pruned)",
				sp.SpecID, sp.Fields, sp.PartitionFilter, sp.ManifestsTotal))
			continue
		}
		out = append(out, fmt.Sprintf("spec %d [%s]: %s; manifests %d/%d, files %d/%d",
			sp.SpecID, sp.Fields, sp.PartitionFilter, sp.ManifestsKept, sp.ManifestsTotal, sp.FilesKept, sp.FilesTotal))
	}
	if !plan.Pruned {
		out = append(out, "pruning: off (SET pruning = on to enable)")
	} else if plan.FilterText != "" {
		out = append(out, "stats filter: "+plan.FilterText)
	}
	filter := scan.Filter
	if plan.Pruned {
		var supplied []string
		filter, supplied = exec.ResolvedFilter(ctx, scan, env)
		for _, line := range supplied {
			out = append(out, "subquery: "+line)
		}
	}
	if dynamic != "" {
		out = append(out, "dynamic filter: "+dynamic+" (prunes files when the join's build side is read)")
	}
	if f, ok := parent.(*planner.Filter); ok {
		out = append(out, "residual filter: "+f.Cond.String())
	}
	out = append(out, pruningNotes(scan, filter)...)
	out = append(out, fmt.Sprintf("manifests %d/%d; data files %d/%d (pruned by partition %d, by stats %d); bytes %s/%s",
		plan.ManifestsKept, plan.ManifestsTotal, plan.FilesAfterStats, plan.FilesTotal,
		plan.FilesTotal-plan.FilesAfterPartition, plan.FilesAfterPartition-plan.FilesAfterStats,
		exec.FormatBytes(plan.BytesKept), exec.FormatBytes(plan.BytesTotal)))
	if st := env.ScanStats[scan]; st != nil {
		line := fmt.Sprintf("read: files %d, row groups %d/%d, bytes %s, rows %d",
			st.FilesOpened.Load(), st.RowGroupsRead.Load(), st.RowGroupsTotal.Load(),
			exec.FormatBytes(st.BytesRead.Load()), st.RowsProduced.Load())
		if n := st.FilesPrunedAtRunTime.Load(); n > 0 {
			line += fmt.Sprintf("; files pruned at run time %d", n)
		}
		out = append(out, line)
	}
	return out, nil
}

// pruningNotes explains, per scan filter conjunct, why it could not prune by
// partition.
func pruningNotes(scan *planner.Scan, filter planner.Expr) []string {
	if filter == nil {
		return nil
	}
	sources := map[int]bool{}
	for _, spec := range scan.Table.Table.Metadata().PartitionSpecs() {
		for _, pf := range spec.Fields() {
			sources[pf.SourceID()] = true
		}
	}
	var notes []string
	for _, c := range planner.Conjuncts(filter) {
		if lit, ok := c.(*planner.Literal); ok {
			if lit.Value != true {
				notes = append(notes, "note: the filter is always false or NULL: no row can match")
			}
			continue
		}
		if _, ok := planner.IcebergFilter(c, scan.Columns); !ok {
			notes = append(notes, fmt.Sprintf("note: %s: cannot prune; kept as residual filter", c))
			continue
		}
		usesSource := false
		planner.Walk(c, func(x planner.Expr) {
			if ref, ok := x.(*planner.ColumnRef); ok && sources[scan.Columns[ref.Index].FieldID] {
				usesSource = true
			}
		})
		if !usesSource {
			notes = append(notes, fmt.Sprintf("note: %s: not a partition source; used for stats only", c))
		}
	}
	return notes
}

// subqueriesOf lists the uncorrelated subqueries node evaluates whose plans
// are not in shown yet, and adds them: a subquery pushed into a scan's
// filter is the same one its Filter parent shows, and is printed once.
func subqueriesOf(node planner.Plan, shown map[planner.Plan]bool) []*planner.Subquery {
	var out []*planner.Subquery
	for _, root := range planner.NodeExprs(node) {
		planner.Walk(root, func(e planner.Expr) {
			if sq, ok := e.(*planner.Subquery); ok && !shown[sq.Plan] {
				shown[sq.Plan] = true
				out = append(out, sq)
			}
		})
	}
	return out
}
