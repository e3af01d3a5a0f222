// Package ddl runs the statements that create, change, drop and show
// namespaces and tables: CREATE/DROP NAMESPACE, CREATE TABLE [AS SELECT],
// DROP TABLE, ALTER TABLE (partition evolution, columns, properties, write
// order), SHOW, DESCRIBE and SHOW CREATE TABLE. Each one that changes a
// table is one catalog commit.
package ddl
