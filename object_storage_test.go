package lakesql_test

import (
	"testing"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/internal/testutil"
)

// A warehouse on S3 (versitygw): tables are created, written, read and
// evolved as in a local folder.
func TestObjectStorageWarehouse(t *testing.T) {
	s3 := testutil.StartS3(t)
	wh := s3.Location("warehouse")
	s := testutil.OpenWith(t, lakesql.Options{Warehouse: wh},
		"CREATE NAMESPACE shop",
		`CREATE TABLE shop.orders (id BIGINT, day DATE, region STRING, amount DECIMAL(10,2)) PARTITIONED BY (day)`,
		`INSERT INTO shop.orders VALUES (1, DATE '2026-01-01', 'EU', 10.50), (2, DATE '2026-01-02', NULL, NULL), (3, DATE '2026-01-02', 'US', 7.25)`,
	)
	got := testutil.RowsInOrder(t, s, "SELECT id, day, region, amount FROM shop.orders ORDER BY id")
	want := []string{"1|2026-01-01|EU|10.50", "2|2026-01-02|NULL|NULL", "3|2026-01-02|US|7.25"}
	if !slicesEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
