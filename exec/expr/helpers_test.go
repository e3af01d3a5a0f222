package expr

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/lakesql/lakesql/exec/internal/exectest"
	"github.com/lakesql/lakesql/planner"
)

var (
	tInt    = planner.TypeInt
	tBig    = planner.TypeBigint
	tFloat  = planner.TypeFloat
	tDouble = planner.TypeDouble
	tBool   = planner.TypeBoolean
	tStr    = planner.TypeVarchar
	tBin    = planner.TypeBinary
	tDate   = planner.TypeDate
	tTime   = planner.TypeTime
	tTs     = planner.TypeTimestamp
	tTsTZ   = planner.TypeTimestampTZ
)

// The builders tests share with package exec (exectest). column and
// evalCase are types of this package, so that tests may write them unkeyed.
type column exectest.Column

type evalCase exectest.EvalCase

var (
	dec     = exectest.Dec
	lit     = exectest.Lit
	call    = exectest.Call
	cast    = exectest.Cast
	tryCast = exectest.TryCast
	ref     = exectest.Ref
)

// testCols is the batch most expression tests run over.
var testCols = localColumns(exectest.TestCols)

func localColumns(cols []exectest.Column) []column {
	out := make([]column, len(cols))
	for i, c := range cols {
		out[i] = column(c)
	}
	return out
}

func shared(cols []column) []exectest.Column {
	out := make([]exectest.Column, len(cols))
	for i, c := range cols {
		out[i] = exectest.Column(c)
	}
	return out
}

func newBatch(t testing.TB, mem memory.Allocator, cols ...column) arrow.RecordBatch {
	t.Helper()
	return exectest.NewBatch(t, mem, shared(cols)...)
}

func runEvalCases(t *testing.T, cols []column, cases []evalCase) {
	t.Helper()
	sharedCases := make([]exectest.EvalCase, len(cases))
	for i, c := range cases {
		sharedCases[i] = exectest.EvalCase(c)
	}
	exectest.RunEvalCases(t, Eval, shared(cols), sharedCases)
}
