// Package initoff turns the garbage collector off while Go initialises the
// lakesql command's packages; main turns it back on (lakesql.TuneGC). The
// command imports it for that alone.
//
// Why: the ~430 package initialisers of lakesql allocate about 3 MB, and
// internal/hugeheap a 32 MB block that is garbage at once. At the runtime's
// 4 MB starting goal that started two collections during start-up, about
// 5 ms of a 45 ms `lakesql -e "SELECT 1"`. Nothing they allocate is garbage
// but that block, so collecting during initialisation gains nothing; the
// first collection after main turns the collector on frees the block.
//
// It imports nothing but unsafe, so it is ready at once, and Go initialises
// the ready package first in import path order: this one runs before every
// lakesql package and every dependency whose path sorts after it (all of
// internal/hugeheap's initialisation included). A library importing lakesql
// does not import this package.
package initoff

import _ "unsafe" // for go:linkname

func init() { setGCPercent(-1) }

// setGCPercent is debug.SetGCPercent's implementation, which the runtime
// provides under this name. Importing runtime/debug instead would make this
// package wait for fmt and os, and run after ~240 other initialisers.
//
//go:linkname setGCPercent runtime/debug.setGCPercent
func setGCPercent(percent int32) int32
