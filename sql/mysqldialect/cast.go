package mysqldialect

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/charset"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/types"

	"github.com/lakesql/lakesql/sql"
)

// cast is CAST(x AS type) and CONVERT(x, type).
func (t *translator) cast(x *ast.FuncCastExpr) (sql.Expr, error) {
	v, err := t.expr(x.Expr)
	if err != nil {
		return nil, err
	}
	to, err := t.typeName(x, x.Tp)
	if err != nil {
		return nil, err
	}
	return &sql.CastExpr{X: v, To: to, Pos: t.pos(x)}, nil
}

// typeName maps a MySQL type (of CAST or of a column definition) to
// lakesql's. Integer widths follow MySQL's; unsigned integers widen to the
// next signed type, so that every value fits.
func (t *translator) typeName(n ast.Node, ft *types.FieldType) (sql.TypeName, error) {
	pos := t.pos(n)
	unsigned := mysql.HasUnsignedFlag(ft.GetFlag())
	name := ""
	var params []int
	switch ft.GetType() {
	case mysql.TypeTiny:
		name = pick(unsigned, "SMALLINT", "TINYINT")
		if ft.GetFlen() == 1 && !unsigned {
			name = "BOOLEAN" // TINYINT(1) and BOOL
		}
	case mysql.TypeShort:
		name = pick(unsigned, "INT", "SMALLINT")
	case mysql.TypeInt24, mysql.TypeLong:
		name = pick(unsigned, "BIGINT", "INT")
	case mysql.TypeLonglong:
		name = pick(unsigned, "DECIMAL", "BIGINT")
		if unsigned {
			params = []int{20, 0}
		}
	case mysql.TypeFloat:
		name = "FLOAT"
	case mysql.TypeDouble:
		name = "DOUBLE"
	case mysql.TypeNewDecimal:
		name = "DECIMAL"
		p, s := ft.GetFlen(), ft.GetDecimal()
		if p <= 0 {
			p = 10 // MySQL's DECIMAL without precision is DECIMAL(10, 0)
		}
		params = []int{p, max(s, 0)}
	case mysql.TypeDate:
		name = "DATE"
	case mysql.TypeDatetime, mysql.TypeTimestamp:
		name = "TIMESTAMP"
	case mysql.TypeDuration:
		name = "TIME"
	case mysql.TypeVarchar, mysql.TypeVarString, mysql.TypeString,
		mysql.TypeTinyBlob, mysql.TypeBlob, mysql.TypeMediumBlob, mysql.TypeLongBlob:
		name = "STRING"
		if ft.GetCharset() == charset.CharsetBin {
			name = "BINARY"
		}
	case mysql.TypeJSON, mysql.TypeEnum, mysql.TypeSet:
		name = "STRING"
	case mysql.TypeYear:
		name = "INT"
	default:
		return sql.TypeName{}, t.unsupported(n, "type "+types.TypeToStr(ft.GetType(), ft.GetCharset()))
	}
	return sql.TypeName{Name: name, Params: params, Pos: pos}, nil
}

func pick(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}
