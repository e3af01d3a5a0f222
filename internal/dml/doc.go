// Package dml runs the statements that change a table's rows: INSERT,
// INSERT OVERWRITE, DELETE, UPDATE and MERGE. Their rows and files are
// chosen by plans the optimizer has seen, as a SELECT's are, and each
// statement is one snapshot.
package dml
