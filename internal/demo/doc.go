// Package demo generates the demo warehouse of the seed tutorial: the
// Oleander retail clickstream and its daily traffic summary, deterministic
// for given options, written in parallel as Iceberg tables.
package demo
