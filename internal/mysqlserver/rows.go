package mysqlserver

import (
	"encoding/json"
	"regexp"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/lakesql/lakesql/value"
)

// rowsOf converts a batch to the protocol's text values, column by column.
func rowsOf(batch arrow.RecordBatch) [][]sqltypes.Value {
	n := int(batch.NumRows())
	rows := make([][]sqltypes.Value, n)
	for i := range rows {
		rows[i] = make([]sqltypes.Value, batch.NumCols())
	}
	for c, col := range batch.Columns() {
		typ := fieldOf(batch.Schema().Field(c)).Type
		text := textOf(col)
		for r := range n {
			if value.IsNull(col, r) {
				rows[r][c] = sqltypes.NULL
				continue
			}
			rows[r][c] = sqltypes.MakeTrusted(typ, text(nil, r))
		}
	}
	return rows
}

// textOf returns how values of arr are written in MySQL's text protocol
// (which the binary protocol of prepared statements parses back): booleans
// as 1 and 0, timestamps as YYYY-MM-DD HH:MM:SS.ffffff in the session's time
// zone without a zone suffix, binary values as their bytes, nested values as
// JSON; the rest as lakesql formats them.
func textOf(arr arrow.Array) value.Formatter {
	switch a := arr.(type) {
	case *array.Boolean:
		return func(dst []byte, i int) []byte {
			if a.Value(i) {
				return append(dst, '1')
			}
			return append(dst, '0')
		}
	case *array.Timestamp:
		return timestampText(a)
	case *array.Time64:
		perMicro := int64(1)
		if a.DataType().(*arrow.Time64Type).Unit == arrow.Nanosecond {
			perMicro = 1000
		}
		return func(dst []byte, i int) []byte { return appendTime(dst, int64(a.Value(i))/perMicro) }
	case *array.Time32:
		perSecond := int64(1)
		if a.DataType().(*arrow.Time32Type).Unit == arrow.Millisecond {
			perSecond = 1000
		}
		return func(dst []byte, i int) []byte { return appendTime(dst, int64(a.Value(i))*1e6/perSecond) }
	case *array.Binary:
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
	case *array.LargeBinary:
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
	case *array.FixedSizeBinary:
		return func(dst []byte, i int) []byte { return append(dst, a.Value(i)...) }
	case *array.Dictionary:
		values := textOf(a.Dictionary())
		return func(dst []byte, i int) []byte { return values(dst, a.GetValueIndex(i)) }
	case array.ExtensionArray:
		if a.ExtensionType().ExtensionName() == "arrow.uuid" {
			return value.FormatterOf(arr)
		}
		return textOf(a.Storage())
	}
	if _, nested := arr.DataType().(arrow.NestedType); nested {
		return func(dst []byte, i int) []byte {
			b, err := json.Marshal(arr.GetOneForMarshal(i))
			if err != nil {
				return append(dst, "null"...)
			}
			return append(dst, b...)
		}
	}
	return value.FormatterOf(arr)
}

// timestampText writes timestamps as wall-clock times: TIMESTAMPTZ values
// in the zone their type names (the session's, SET TIME ZONE), with six
// digits of microseconds as MySQL writes a DATETIME(6).
func timestampText(a *array.Timestamp) value.Formatter {
	t := a.DataType().(*arrow.TimestampType)
	toTime, _ := t.GetToTimeFunc()
	loc := time.UTC
	if t.TimeZone != "" {
		if l, err := value.LoadZone(t.TimeZone); err == nil {
			loc = l
		}
	}
	return func(dst []byte, i int) []byte {
		tm := toTime(a.Value(i)).In(loc)
		_, offset := tm.Zone()
		secs := tm.Unix() + int64(offset)
		dst = value.AppendTimestamp(dst, secs*1e6, false)
		return appendMicros(dst, int64(tm.Nanosecond()/1e3))
	}
}

// appendTime writes a time of day, in microseconds since midnight, as
// HH:MM:SS.ffffff (MySQL's TIME(6)).
func appendTime(dst []byte, micros int64) []byte {
	secs := micros / 1e6
	dst = append(dst, two(secs/3600)...)
	dst = append(append(dst, ':'), two(secs/60%60)...)
	dst = append(append(dst, ':'), two(secs%60)...)
	return appendMicros(dst, micros%1e6)
}

func two(n int64) string { return string([]byte{byte('0' + n/10), byte('0' + n%10)}) }

// appendMicros writes .ffffff.
func appendMicros(dst []byte, micros int64) []byte {
	return append(append(dst, '.'), strconv.FormatInt(micros+1e6, 10)[1:]...)
}

// countMessage matches lakesql's messages of statements that change rows:
// "3 rows inserted", "1 row deleted".
var countMessage = regexp.MustCompile(`^(\d+) rows? `)

// okResult is the OK packet of a statement without rows: its row count
// when the message has one, and the message as the packet's info.
func okResult(message string) *sqltypes.Result {
	r := &sqltypes.Result{}
	if m := countMessage.FindStringSubmatch(message); m != nil {
		r.RowsAffected, _ = strconv.ParseUint(m[1], 10, 64)
	}
	if message != "OK" {
		r.Info = message
	}
	return r
}
