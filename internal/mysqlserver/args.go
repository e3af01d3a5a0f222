package mysqlserver

import (
	"fmt"
	"strconv"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/lakesql/lakesql/sql"
	"github.com/lakesql/lakesql/sql/mysqldialect"
)

// bindArgs converts the arguments of COM_STMT_EXECUTE, which the protocol
// layer decoded into bind variables v1, v2, …, into the Go values the
// MySQL dialect substitutes for the ? markers.
func bindArgs(prepare *mysql.PrepareData) ([]any, error) {
	args := make([]any, prepare.ParamsCount)
	for i := range args {
		bv, ok := prepare.BindVars["v"+strconv.Itoa(i+1)]
		if !ok {
			return nil, fmt.Errorf("parameter %d of the prepared statement has no value", i+1)
		}
		raw := string(bv.Value)
		var err error
		switch t := bv.Type; {
		case t == sqltypes.Null:
			args[i] = nil
		case sqltypes.IsSigned(t):
			args[i], err = strconv.ParseInt(raw, 10, 64)
		case sqltypes.IsUnsigned(t):
			args[i], err = strconv.ParseUint(raw, 10, 64)
		case sqltypes.IsFloat(t):
			args[i], err = strconv.ParseFloat(raw, 64)
		case t == sqltypes.Decimal:
			args[i] = mysqldialect.Typed{Kind: sql.LitDecimal, Value: raw}
		case t == sqltypes.Date:
			args[i] = mysqldialect.Typed{Kind: sql.LitDate, Value: raw}
		case t == sqltypes.Datetime || t == sqltypes.Timestamp:
			args[i] = mysqldialect.Typed{Kind: sql.LitTimestamp, Value: raw}
		case t == sqltypes.Time:
			args[i] = mysqldialect.Typed{Kind: sql.LitTime, Value: raw}
		default:
			args[i] = raw
		}
		if err != nil {
			return nil, fmt.Errorf("parameter %d: %q is not a number", i+1, raw)
		}
	}
	return args, nil
}
