package expr

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/value"
)

// MySQL's CONVERT_TZ, TIMEDIFF and TIME_FORMAT (planner/bind_func_mysql_time.go).

// mysqlZones reads the zones of a batch's rows, each distinct name once.
type mysqlZones map[string]*time.Location // nil: not a zone MySQL knows

func (z mysqlZones) get(name []byte) *time.Location {
	if loc, ok := z[string(name)]; ok {
		return loc
	}
	loc, _ := value.MySQLZone(string(name))
	z[string(name)] = loc
	return loc
}

// convertTZKernel converts wall clocks between the zones of each row; an
// unknown zone makes the row NULL, as in MySQL.
func convertTZKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	x := fixedVec[int64](ops[0])
	from, to := newBytesVec(ops[1]), newBytesVec(ops[2])
	zones := mysqlZones{}
	return fixedRows(ev, c.T, ops, func(i int) (int64, outcome) {
		f, t := zones.get(from.At(i)), zones.get(to.At(i))
		if f == nil || t == nil {
			return 0, valueNull
		}
		return value.MySQLConvertTZ(x.At(i), f, t), ValueOK
	}, nil)
}

// maxTimeMicros is MySQL's largest TIME, 838:59:59; TIMEDIFF clamps to it.
const maxTimeMicros = (838*3600 + 59*60 + 59) * microsPerSecond

// timeDiffKernel is a − b of two TIMESTAMPs or two TIMEs (both
// microseconds), as an INTERVAL of nanoseconds within ±maxTimeMicros.
func timeDiffKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	a, b := fixedVec[int64](ops[0]), fixedVec[int64](ops[1])
	return fixedRows(ev, c.T, ops, func(i int) (arrow.MonthDayNanoInterval, outcome) {
		d, o := intSub(a.At(i), b.At(i))
		if o != ValueOK {
			d = maxTimeMicros
			if a.At(i) < b.At(i) {
				d = -maxTimeMicros
			}
		}
		d = min(max(d, -maxTimeMicros), maxTimeMicros)
		return arrow.MonthDayNanoInterval{Nanoseconds: d * 1000}, ValueOK
	}, nil)
}

// formatDurationKernel formats TIMEs or INTERVALs with TIME_FORMAT's
// constant pattern. An INTERVAL's month counts 30 days, as interval_key
// counts it; MySQL's times have no months.
func formatDurationKernel(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error) {
	if ops[1].lit == nil {
		return nil, fmt.Errorf("%s: the pattern must be a constant", c)
	}
	df, err := value.CompileDurationFormat(ops[1].lit.Value.(string))
	if err != nil {
		return nil, wrapError(c, err)
	}
	var micros func(i int) int64
	if ops[0].t.ID() == arrow.TIME64 {
		micros = fixedVec[int64](ops[0]).At
	} else {
		iv := fixedVec[arrow.MonthDayNanoInterval](ops[0])
		micros = func(i int) int64 {
			v := iv.At(i)
			return (int64(v.Months)*30+int64(v.Days))*microsPerDay + v.Nanoseconds/1000
		}
	}
	return ev.stringRows(ops, func(dst []byte, i int) []byte {
		return df.AppendFormat(dst, micros(i))
	}), nil
}
