package mysqldialect

import (
	"fmt"
	"strconv"

	"github.com/lakesql/lakesql/sql"
)

// Typed is an argument of a prepared statement that carries its SQL type,
// such as a DATE or a DECIMAL sent by a client in the binary protocol.
type Typed struct {
	Kind  sql.LitKind
	Value string
}

// argLiteral is the literal that stands for a ? marker's argument.
func argLiteral(v any, pos sql.Pos) (sql.Expr, error) {
	lit := &sql.Literal{Pos: pos}
	switch a := v.(type) {
	case nil:
		lit.Kind = sql.LitNull
	case bool:
		lit.Kind, lit.Value = sql.LitBool, strconv.FormatBool(a)
	case int64:
		lit.Kind, lit.Value = sql.LitInteger, strconv.FormatInt(a, 10)
	case uint64:
		lit.Kind, lit.Value = sql.LitInteger, strconv.FormatUint(a, 10)
	case float64:
		lit.Kind, lit.Value = sql.LitFloat, strconv.FormatFloat(a, 'e', -1, 64)
	case string:
		lit.Kind, lit.Value = sql.LitString, a
	case []byte:
		lit.Kind, lit.Value = sql.LitString, string(a)
	case Typed:
		lit.Kind, lit.Value = a.Kind, a.Value
	default:
		return nil, fmt.Errorf("line %d, column %d: parameter of type %T is not supported", pos.Line, pos.Col, v)
	}
	return lit, nil
}
