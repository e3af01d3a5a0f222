package exec

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// A GROUP BY over STRING or BINARY columns of a table spends most of its
// time copying each row's value out of the Parquet dictionary pages, then
// hashing and comparing it. When a grouping key is a table column that
// reaches the aggregation unchanged, the scan instead hands it over as an
// Arrow Dictionary array (the chunk's dictionary and a code per row) and
// the groupTable numbers rows by their codes (group_keys_dictionary.go).
//
// Dictionary arrays must reach nothing else: a column is asked for as a
// dictionary only when every operator between the scan and the aggregation
// passes rows on without reading it (filters that do not mention it,
// subquery aliases), and the aggregation uses it only as a bare key. The
// aggregation's spill decodes it (storage.DictionaryValues); its results are built from
// the groupTable's own values.

// markDictionaryKeys records, for the scan below aggregate p, which of its
// columns may come as dictionary arrays.
func markDictionaryKeys(p *planner.Aggregate, env *Env) {
	keys := map[int]bool{}
	for _, g := range p.GroupBy {
		if ref, ok := g.(*planner.ColumnRef); ok && dictionaryKeyType(ref.T) {
			keys[ref.Index] = true
		}
	}
	if len(keys) == 0 {
		return
	}
	// Any other use of a column needs its values.
	readsOf := func(e planner.Expr) {
		planner.Walk(e, func(x planner.Expr) {
			if ref, ok := x.(*planner.ColumnRef); ok {
				delete(keys, ref.Index)
			}
		})
	}
	for _, g := range p.GroupBy {
		if planner.HasSubquery(g) {
			return
		}
		if _, ok := g.(*planner.ColumnRef); !ok {
			readsOf(g)
		}
	}
	for _, c := range p.Aggs {
		for _, e := range c.Exprs() {
			if planner.HasSubquery(e) {
				return
			}
			readsOf(e)
		}
	}
	for node := p.Input; len(keys) > 0; {
		switch n := node.(type) {
		case *planner.SubqueryAlias:
			node = n.Input
		case *planner.Filter:
			if planner.HasSubquery(n.Cond) {
				return
			}
			readsOf(n.Cond)
			node = n.Input
		case *planner.Scan:
			for i := range keys {
				if i >= len(n.Columns) || planner.IsMetadataColumn(n.Columns[i].FieldID) {
					delete(keys, i)
				}
			}
			if len(keys) > 0 {
				env.dictionaryKeys.Store(n, keys)
			}
			return
		default:
			return
		}
	}
}

// dictionaryKeyType reports whether storage reads columns of type t as
// dictionaries.
func dictionaryKeyType(t arrow.DataType) bool {
	switch t.(type) {
	case *arrow.StringType, *arrow.BinaryType:
		return true
	}
	return false
}

// askDictionaries sets ReadColumn.Dictionary on the columns of scan p that
// markDictionaryKeys chose, except those an equality delete of files
// compares (scan_deletes.go reads their values).
func askDictionaries(p *planner.Scan, env *Env, files []ScanFile, cols []ScanColumn) {
	marked, ok := env.dictionaryKeys.Load(p)
	if !ok {
		return
	}
	deleteKeys := map[int]bool{}
	for _, f := range files {
		if f.deletes == nil {
			continue
		}
		for _, eq := range f.deletes.equality {
			for _, c := range eq.cols {
				deleteKeys[c.FieldID] = true
			}
		}
	}
	for i := range marked.(map[int]bool) {
		if !deleteKeys[cols[i].FieldID] {
			cols[i].Dictionary = true
		}
	}
}
