package exec

import (
	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/storage"
)

// CountPages records pages of the column chunks a scan touched: total in
// those chunks, read the ones decoded (the rest were skipped by the page
// index).
func (s *ScanStats) CountPages(total, read int) {
	s.PagesTotal.Add(int64(total))
	s.PagesRead.Add(int64(read))
}

// filterColumns lists the scan columns a bound row filter refers to: the
// columns whose page indexes can rule rows out.
func filterColumns(filter iceberg.BooleanExpression, cols []ScanColumn) []ScanColumn {
	if filter == nil {
		return nil
	}
	refs := &fieldRefs{ids: map[int]bool{}}
	if _, err := iceberg.VisitExpr[bool](filter, refs); err != nil {
		return nil
	}
	var out []ScanColumn
	for _, c := range cols {
		if refs.ids[c.FieldID] {
			out = append(out, c)
		}
	}
	return out
}

// fieldRefs collects the field ids of a bound expression's predicates.
type fieldRefs struct{ ids map[int]bool }

func (fieldRefs) VisitTrue() bool                            { return true }
func (fieldRefs) VisitFalse() bool                           { return true }
func (fieldRefs) VisitNot(bool) bool                         { return true }
func (fieldRefs) VisitAnd(bool, bool) bool                   { return true }
func (fieldRefs) VisitOr(bool, bool) bool                    { return true }
func (fieldRefs) VisitUnbound(iceberg.UnboundPredicate) bool { return true }
func (r *fieldRefs) VisitBound(p iceberg.BoundPredicate) bool {
	r.ids[p.Term().Ref().Field().ID] = true
	return true
}

// rowRanges returns the rows of a row group the page indexes of the filter's
// columns keep (nil: every row; empty: none).
func (s *tableScan) rowRanges(pf *storage.ParquetFile, rg int) []storage.RowRange {
	if s.rowFilter == nil || len(s.filterCols) == 0 {
		return nil
	}
	read := make([]storage.ReadColumn, len(s.filterCols))
	for i, c := range s.filterCols {
		read[i] = c.ReadColumn
	}
	ranges, ok := pf.RowRanges(rg, read, func(stats func(col int) storage.PageStats) bool {
		return storage.MightMatch(s.rowFilter, s.pageStats(stats))
	})
	if !ok || (len(ranges) == 1 && ranges[0].Start == 0 && int64(ranges[0].End) == pf.RowGroupNumRows(rg)) {
		return nil
	}
	if ranges == nil {
		ranges = []storage.RowRange{}
	}
	return ranges
}

// pageStats exposes page statistics to the pruning evaluator, as
// rowGroupStats does for row groups.
func (s *tableScan) pageStats(stats func(col int) storage.PageStats) func(int) storage.FieldStats {
	return func(fieldID int) storage.FieldStats {
		st := storage.FieldStats{Nulls: -1, Values: -1, NaNs: -1}
		for i, c := range s.filterCols {
			if c.FieldID != fieldID {
				continue
			}
			ps := stats(i)
			st.Nulls, st.Values = ps.Nulls, ps.Rows
			if ps.HasBounds {
				st.Lower = statLiteral(ps.Min, c)
				st.Upper = statLiteral(ps.Max, c)
			}
			return st
		}
		return st
	}
}
