// Package atinit sets lakesql's GOGC when it is initialised; the lakesql
// command imports it for that alone. Go initialises, among the packages
// whose imports are done, the one first in import path order, so this one
// runs after every ready package whose path sorts before
// github.com/lakesql (arrow-go, the AWS and Azure SDKs, cloud.google.com,
// …): about 45 ms into a 73 ms start, after 0.8 MB of their allocation.
// The initialisers after it — 2.3 MB more — then no longer start a garbage
// collection at the default 4 MB heap goal before main runs. A library
// importing lakesql is not affected: it calls lakesql.TuneGC or not.
package atinit

import "github.com/lakesql/lakesql/internal/gcpercent"

func init() { gcpercent.Set() }
