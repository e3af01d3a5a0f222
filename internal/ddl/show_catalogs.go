package ddl

import (
	"github.com/lakesql/lakesql/internal/engine"
)

// ShowCatalogs runs SHOW CATALOGS: the default catalog, then those
// declared in iceberg-go's configuration file, which three-part names
// reach (opened at their first use, so listing them opens none).
func ShowCatalogs(s *engine.Session) (*engine.Result, error) {
	names, err := s.Catalogs()
	if err != nil {
		return nil, err
	}
	rows := make([][]string, len(names))
	for i, n := range names {
		rows[i] = []string{n}
	}
	return engine.TextRows([]string{"catalog"}, rows), nil
}
