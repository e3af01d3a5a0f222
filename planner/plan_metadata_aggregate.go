package planner

import "strings"

// MetadataAggregate is an Aggregate without GROUP BY over a whole table whose
// count(*), count(col), min(col) and max(col) can be answered from the
// manifests' record counts and column metrics, without opening data files.
// When the metrics turn out incomplete at run time (a file without bounds,
// delete files), the executor runs Aggregate instead.
type MetadataAggregate struct {
	Aggregate *Aggregate
	Scan      *Scan
}

func (m *MetadataAggregate) Schema() []Column { return m.Aggregate.Schema() }
func (m *MetadataAggregate) Children() []Plan { return []Plan{m.Scan} }
func (m *MetadataAggregate) Describe() string {
	aggs := make([]string, len(m.Aggregate.Aggs))
	for i, a := range m.Aggregate.Aggs {
		aggs[i] = a.String()
	}
	return "MetadataAggregate [" + strings.Join(aggs, ", ") + "] (from manifest metrics; scans if they are incomplete)"
}
