package ddl

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/iceberg-go"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// CreateView runs CREATE [OR REPLACE] [TEMP] VIEW. The query is bound first,
// as it will be at every use, so a view that cannot run is never stored. A
// stored view is an Iceberg view in the catalog (catalog/views.go) holding
// the query in canonical form; a temporary one lives in the session.
func CreateView(ctx context.Context, s *engine.Session, st *sql.CreateView) (*engine.Result, error) {
	if st.Temporary {
		return createTempView(ctx, s, st)
	}
	wh, ns, name, err := s.TableName(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	if err := s.InDefaultCatalog(wh, st.Name, "view"); err != nil {
		return nil, err
	}
	if st.IfNotExists {
		if v, err := s.Warehouse().LoadView(ctx, ns, name); err != nil {
			return nil, err
		} else if v != nil {
			return engine.Message("OK"), nil
		}
	}
	cols, err := s.DefineView(ctx, ns, name, false, st.Query)
	if err != nil {
		return nil, err
	}
	schema, err := viewSchema(cols, st)
	if err != nil {
		return nil, err
	}
	if err := s.Warehouse().CreateView(ctx, ns, name, sql.FormatQuery(st.Query), schema, st.OrReplace); err != nil {
		return nil, &planner.Error{Kind: err, Pos: st.Name.Pos, Msg: err.Error()}
	}
	return engine.Message("OK"), nil
}

func createTempView(ctx context.Context, s *engine.Session, st *sql.CreateView) (*engine.Result, error) {
	if len(st.Name.Parts) != 1 {
		return nil, &planner.Error{Pos: st.Name.Pos, Msg: fmt.Sprintf("temporary view %s: a temporary view's name has one part (it belongs to the session, not to a namespace)",
			strings.Join(st.Name.Parts, "."))}
	}
	name := st.Name.Parts[0]
	if s.TempViewExists(name) && !st.OrReplace {
		if st.IfNotExists {
			return engine.Message("OK"), nil
		}
		return nil, &planner.Error{Pos: st.Name.Pos, Msg: fmt.Sprintf("temporary view %s already exists (CREATE OR REPLACE TEMP VIEW replaces it)", name)}
	}
	cols, err := s.DefineView(ctx, s.Namespace(), name, true, st.Query)
	if err != nil {
		return nil, err
	}
	if _, err := viewSchema(cols, st); err != nil {
		return nil, err
	}
	s.SetTempView(name, st.Query, st.Columns)
	return engine.Message("OK"), nil
}

// viewSchema is the Iceberg schema of a view's columns: the query's, renamed
// by the view's column list when it has one.
func viewSchema(cols []planner.Column, st *sql.CreateView) (*iceberg.Schema, error) {
	if st.Columns != nil && len(st.Columns) != len(cols) {
		return nil, &planner.Error{Pos: st.Name.Pos, Msg: fmt.Sprintf("view %s names %d columns but its query gives %d", strings.Join(st.Name.Parts, "."), len(st.Columns), len(cols))}
	}
	seen := map[string]bool{}
	fields := make([]iceberg.NestedField, len(cols))
	for i, c := range cols {
		name := c.Name
		if st.Columns != nil {
			name = st.Columns[i]
		}
		if key := strings.ToLower(name); seen[key] {
			return nil, &planner.Error{Pos: st.Name.Pos, Msg: fmt.Sprintf("view %s has two columns named %s: give one an alias", strings.Join(st.Name.Parts, "."), name)}
		} else {
			seen[key] = true
		}
		t, err := planner.IcebergTypeOf(c.T)
		if err != nil {
			// Iceberg has no type for some values a query can compute (an
			// INTERVAL); the view's schema then records the column as the
			// text it shows as, since readers bind the SQL, not the schema.
			t = iceberg.PrimitiveTypes.String
		}
		fields[i] = iceberg.NestedField{ID: i + 1, Name: name, Type: t}
	}
	return iceberg.NewSchema(0, fields...), nil
}

// DropView runs DROP VIEW: a one-part name is first a temporary view.
func DropView(ctx context.Context, s *engine.Session, st *sql.DropView) (*engine.Result, error) {
	if len(st.Name.Parts) == 1 && s.DropTempView(st.Name.Parts[0]) {
		return engine.Message("OK"), nil
	}
	wh, ns, name, err := s.TableName(ctx, st.Name)
	if err != nil {
		return nil, err
	}
	if err := s.InDefaultCatalog(wh, st.Name, "view"); err != nil {
		return nil, err
	}
	if err := s.Warehouse().DropView(ctx, ns, name, st.IfExists); err != nil {
		return nil, &planner.Error{Kind: err, Pos: st.Name.Pos, Msg: err.Error()}
	}
	return engine.Message("OK"), nil
}

// ShowViews runs SHOW VIEWS [IN ns]: the views of the namespace (the
// current one, or every namespace when none is current) and the session's
// temporary views, as Spark lists them.
func ShowViews(ctx context.Context, s *engine.Session, st *sql.ShowViews) (*engine.Result, error) {
	ns := s.Namespace()
	if st.Namespace != nil {
		wh, n, err := s.NamespaceName(ctx, *st.Namespace)
		if err != nil {
			return nil, err
		}
		if err := s.InDefaultCatalog(wh, *st.Namespace, "views of namespace"); err != nil {
			return nil, err
		}
		ns = n
	}
	nss := []string{ns}
	if ns == "" {
		var err error
		if nss, err = s.Warehouse().Namespaces(ctx); err != nil {
			return nil, err
		}
	}
	var rows [][]string
	for _, n := range nss {
		views, err := s.Warehouse().Views(ctx, n)
		if err != nil {
			return nil, err
		}
		for _, v := range views {
			rows = append(rows, []string{n, v, "false"})
		}
	}
	for _, v := range s.TempViews() {
		rows = append(rows, []string{"", v, "true"})
	}
	return engine.TextRows([]string{"namespace", "view", "temporary"}, rows), nil
}
