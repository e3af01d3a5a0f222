package catalog

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"

	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	"github.com/apache/iceberg-go/table"
	"github.com/apache/iceberg-go/view"

	"github.com/lakesql/lakesql/storage"
)

// Views in an SQL or REST catalog are kept by the catalog, through
// iceberg-go's view APIs, which differ between the two: the REST client
// sends the view version lakesql builds and commits replacements as
// updates; the SQL catalog (iceberg-go v0.7.0) takes only a query text,
// which it records in the dialect "default", and has no update, so a
// replacement there drops the view and creates it again with the new
// current version (its history is not kept, and another session may see
// no view for that moment).

// sqlCatalogDialect is the dialect iceberg-go's SQL catalog records a
// view's SQL in.
const sqlCatalogDialect = "default"

// dropDialectAllowed is the view property that lets a new version leave
// out a dialect the current one has.
const dropDialectAllowed = "replace.drop-dialect.allowed"

// managedViewMetadata loads a view of an SQL or REST catalog; nil when
// there is none, or when the catalog keeps no views (a REST server that
// does not serve them, an SQL catalog of the schema before views).
func (w *Warehouse) managedViewMetadata(ctx context.Context, ns, name string) (view.Metadata, string, error) {
	ident := table.Identifier{ns, name}
	switch c := w.cat.(type) {
	case *rest.Catalog:
		v, err := c.LoadView(ctx, ident)
		if errors.Is(err, icecatalog.ErrNoSuchView) || errors.Is(err, rest.ErrEndpointNotSupported) {
			return nil, "", nil
		}
		if err != nil {
			return nil, "", w.viewError("read", ns, name, err)
		}
		return v.Metadata(), v.MetadataLocation(), nil
	case *sqlcat.Catalog:
		// CheckViewExists, unlike LoadView, answers on the schema before
		// views (no view).
		exists, err := c.CheckViewExists(ctx, ident)
		if err != nil {
			return nil, "", w.viewError("read", ns, name, err)
		}
		if !exists {
			return nil, "", nil
		}
		meta, err := c.LoadView(ctx, ident)
		if errors.Is(err, icecatalog.ErrNoSuchView) {
			return nil, "", nil // dropped meanwhile
		}
		if err != nil {
			return nil, "", w.viewError("read", ns, name, err)
		}
		return meta, "", nil
	}
	return nil, "", nil
}

// createManagedView creates a view in an SQL or REST catalog.
func (w *Warehouse) createManagedView(ctx context.Context, ns, name string, version *view.Version, schema *iceberg.Schema, props iceberg.Properties) (view.Metadata, string, error) {
	ident := table.Identifier{ns, name}
	switch c := w.cat.(type) {
	case *rest.Catalog:
		v, err := c.CreateView(ctx, ident, version, schema, icecatalog.WithViewProperties(props))
		if err != nil {
			return nil, "", w.viewError("create", ns, name, err)
		}
		return v.Metadata(), v.MetadataLocation(), nil
	case *sqlcat.Catalog:
		sqlText, err := viewSQL(version)
		if err != nil {
			return nil, "", w.viewError("create", ns, name, err)
		}
		if err := c.CreateView(ctx, ident, schema, sqlText, props); err != nil {
			return nil, "", w.viewError("create", ns, name, err)
		}
		return w.managedViewMetadata(ctx, ns, name)
	}
	return nil, "", w.viewError("create", ns, name, errors.ErrUnsupported)
}

// commitManagedView commits updates to a view of an SQL or REST catalog.
func (w *Warehouse) commitManagedView(ctx context.Context, ns, name string, base view.Metadata, reqs []view.Requirement, updates []view.Update) (view.Metadata, string, error) {
	ident := table.Identifier{ns, name}
	switch c := w.cat.(type) {
	case *rest.Catalog:
		v, err := c.UpdateView(ctx, ident, reqs, updates)
		if err != nil {
			return nil, "", w.viewError("replace", ns, name, err)
		}
		return v.Metadata(), v.MetadataLocation(), nil
	case *sqlcat.Catalog:
		// The catalog recorded base's SQL in its dialect and records the
		// new version's so too: a change of dialect is none there.
		allow := append([]view.Update{view.NewSetPropertiesUpdate(iceberg.Properties{dropDialectAllowed: "true"})}, updates...)
		meta, err := applyViewUpdates(base, reqs, allow)
		if err != nil {
			return nil, "", w.viewError("replace", ns, name, err)
		}
		props := maps.Clone(meta.Properties())
		if v, ok := base.Properties()[dropDialectAllowed]; ok {
			props[dropDialectAllowed] = v
		} else {
			delete(props, dropDialectAllowed)
		}
		if err := c.DropView(ctx, ident); err != nil {
			return nil, "", w.viewError("replace", ns, name, err)
		}
		return w.createManagedView(ctx, ns, name, meta.CurrentVersion(), meta.CurrentSchema(), props)
	}
	return nil, "", w.viewError("replace", ns, name, errors.ErrUnsupported)
}

// dropManagedView drops a view of an SQL or REST catalog (an error
// matching ErrNoSuchView when there is none).
func (w *Warehouse) dropManagedView(ctx context.Context, ns, name string) error {
	var err error
	switch c := w.cat.(type) {
	case *rest.Catalog:
		err = c.DropView(ctx, table.Identifier{ns, name})
		if errors.Is(err, rest.ErrEndpointNotSupported) {
			err = icecatalog.ErrNoSuchView
		}
	case *sqlcat.Catalog:
		err = c.DropView(ctx, table.Identifier{ns, name})
	default:
		err = icecatalog.ErrNoSuchView
	}
	if err != nil && !errors.Is(err, icecatalog.ErrNoSuchView) {
		return w.viewError("drop", ns, name, err)
	}
	return err
}

// managedViews lists the views of ns in an SQL or REST catalog, sorted
// (none when the catalog keeps no views).
func (w *Warehouse) managedViews(ctx context.Context, ns string) ([]string, error) {
	var views iter.Seq2[table.Identifier, error]
	switch c := w.cat.(type) {
	case *rest.Catalog:
		views = c.ListViews(ctx, table.Identifier{ns})
	case *sqlcat.Catalog:
		views = c.ListViews(ctx, table.Identifier{ns})
	default:
		return nil, nil
	}
	var names []string
	for ident, err := range views {
		if err != nil {
			return nil, fmt.Errorf("list views of %s: %s", ns, storage.OneLine(err))
		}
		names = append(names, ident[len(ident)-1])
	}
	slices.Sort(names)
	return names, nil
}

// viewSQL is the SQL of a view version that lakesql reads.
func viewSQL(version *view.Version) (string, error) {
	for _, r := range version.Representations {
		if r.Type == "sql" && readsDialect(r.Dialect) {
			return r.Sql, nil
		}
	}
	return "", fmt.Errorf("the view has no SQL in the %s dialect", viewDialect)
}

// viewError is a failed view operation in an SQL or REST catalog, on one
// line, of the kind iceberg-go reported.
func (w *Warehouse) viewError(op, ns, name string, err error) error {
	msg := fmt.Sprintf("%s view %s.%s in the %s catalog: %s", op, ns, name, w.cat.CatalogType(), storage.OneLine(err))
	for _, kind := range []error{ErrNoSuchNamespace, ErrNoSuchView, ErrViewExists, ErrTableExists, table.ErrCommitFailed, rest.ErrCommitFailed} {
		if errors.Is(err, kind) {
			return Errorf(kind, "%s", msg)
		}
	}
	return errors.New(msg)
}
