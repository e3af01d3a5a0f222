package planner

import (
	"slices"

	"github.com/lakesql/lakesql/sql"
)

// Iceberg reserves field ids at the top of the range for metadata columns
// that every table has without storing them; Spark and Trino expose them by
// name. lakesql's table scans offer two: the data file a row was read from
// and the row's position in it.
const (
	// FilePathFieldID is the id of _file: the data file's path, as the
	// table's manifests name it.
	FilePathFieldID = 2147483646
	// RowPositionFieldID is the id of _pos: the row's position in its data
	// file, counted from 0 over every row the file holds (the position a
	// position delete names).
	RowPositionFieldID = 2147483645
	// RowIDFieldID and LastUpdatedSequenceNumberFieldID are the row
	// lineage columns of format v3 tables: a row's _row_id and the data
	// sequence number of the commit that last changed it. A file may store
	// them (a rewrite keeps them); where it stores NULL or nothing, they
	// are inherited: the file's first_row_id plus the row's position, and
	// the file's data sequence number.
	RowIDFieldID                     = 2147483540
	LastUpdatedSequenceNumberFieldID = 2147483539
)

// metadataColumns are the metadata columns of a table scan.
var metadataColumns = []ScanColumn{
	{FieldID: FilePathFieldID, Name: "_file", T: TypeVarchar},
	{FieldID: RowPositionFieldID, Name: "_pos", T: TypeBigint},
}

// lineageColumns are the row lineage columns of a format v3 table's scan.
var lineageColumns = []ScanColumn{
	{FieldID: RowIDFieldID, Name: "_row_id", T: TypeBigint},
	{FieldID: LastUpdatedSequenceNumberFieldID, Name: "_last_updated_sequence_number", T: TypeBigint},
}

// IsMetadataColumn reports whether a scan column is a metadata column: the
// scan makes (or, for row lineage, completes) its values, so no file
// statistics bound them.
func IsMetadataColumn(fieldID int) bool {
	return fieldID == FilePathFieldID || fieldID == RowPositionFieldID || IsLineageColumn(fieldID)
}

// IsLineageColumn reports whether a scan column is a row lineage column.
func IsLineageColumn(fieldID int) bool {
	return fieldID == RowIDFieldID || fieldID == LastUpdatedSequenceNumberFieldID
}

// withMetadataColumns adds the metadata columns to a scan of every column
// of a table, as hidden columns (named, never part of *). A table column of
// the same name hides the metadata column, as in Spark.
func withMetadataColumns(scan *Scan) *Scan {
	columns := metadataColumns
	if t := scan.Table.Table; t != nil && t.Metadata().Version() >= 3 {
		columns = append(slices.Clone(columns), lineageColumns...)
	}
	for _, m := range columns {
		if _, taken := scan.Table.Schema.FindFieldByNameCaseInsensitive(m.Name); !taken {
			scan.Columns = append(scan.Columns, m)
		}
	}
	return scan
}

// bindInputFileName binds Spark's input_file_name() as the _file column of
// the one table scan in scope.
func bindInputFileName(e *sql.FuncCall, s *scope) (Expr, error) {
	if len(e.Args) > 0 {
		return nil, errorf(e.Pos, "input_file_name() takes no arguments")
	}
	found := -1
	for i, c := range s.cols {
		if !c.Hidden || c.Name != "_file" {
			continue
		}
		if found >= 0 {
			return nil, errorf(e.Pos, "input_file_name() is ambiguous: FROM reads more than one table (name the table's file with t._file)")
		}
		found = i
	}
	if found < 0 {
		return nil, errorf(e.Pos, "input_file_name() needs a table in FROM: it names the data file each row of an Iceberg table comes from")
	}
	return &ColumnRef{Index: found, Name: s.cols[found].Name, T: s.cols[found].T}, nil
}
