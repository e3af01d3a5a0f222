package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/apache/iceberg-go/view"

	"github.com/lakesql/lakesql/sql"
)

// Views are Iceberg views (format version 1 view metadata, written with
// iceberg-go's view package). iceberg-go's filesystem catalog cannot store
// views, so each view's metadata is one JSON file in its namespace's folder,
// <namespace>/<view>.view.metadata.json: a plain file, which the catalog's
// table and namespace listings pass over. Replacing a view adds a version to
// the same metadata, so its history is kept as the view spec intends.

// ErrNoSuchView and ErrViewExists are the kinds of view errors.
var (
	ErrNoSuchView = icecatalog.ErrNoSuchView
	ErrViewExists = icecatalog.ErrViewAlreadyExists
)

// viewSuffix ends the name of a view's metadata file.
const viewSuffix = ".view.metadata.json"

// viewDialect is the dialect lakesql records for its SQL: the Spark SQL its
// parser reads, printed back in canonical form.
const viewDialect = "spark"

// View is a stored view's current version.
type View struct {
	Namespace, Name string
	// SQL is the view's query in viewDialect.
	SQL string
	// DefaultNamespace is where the query's one-part table names are resolved.
	DefaultNamespace string
	// Columns are the view's column names.
	Columns []string
}

func (w *Warehouse) viewPath(ns, name string) string {
	return w.Path(ns, name+viewSuffix)
}

// checkViewName refuses names that would put a view's file outside its
// namespace's folder.
func checkViewName(ns, name string) error {
	for _, part := range []string{ns, name} {
		if part == "" || part == "." || part == ".." || strings.ContainsAny(part, `/\`) || strings.ContainsRune(part, 0) {
			return Errorf(ErrNoSuchView, "invalid view name %q.%q: names cannot be empty, . or .., or hold / or \\", ns, name)
		}
	}
	return nil
}

// LoadView reads the view ns.name; it returns nil and no error when there is
// no such view.
func (w *Warehouse) LoadView(ctx context.Context, ns, name string) (*View, error) {
	if checkViewName(ns, name) != nil {
		return nil, nil // no view can have the name
	}
	meta, _, err := w.ViewMetadata(ctx, ns, name)
	if err != nil || meta == nil {
		return nil, err
	}
	cur := meta.CurrentVersion()
	v := &View{Namespace: ns, Name: name, DefaultNamespace: strings.Join(cur.DefaultNamespace, ".")}
	for _, r := range cur.Representations {
		if r.Type == "sql" && readsDialect(r.Dialect) {
			v.SQL = r.Sql
		}
	}
	if v.SQL == "" {
		dialects := make([]string, len(cur.Representations))
		for i, r := range cur.Representations {
			dialects[i] = r.Dialect
		}
		return nil, fmt.Errorf("view %s.%s has no SQL in the %s dialect lakesql reads (it has: %s)", ns, name, viewDialect, strings.Join(dialects, ", "))
	}
	if sc := meta.CurrentSchema(); sc != nil {
		for _, f := range sc.Fields() {
			v.Columns = append(v.Columns, f.Name)
		}
	}
	return v, nil
}

// readsDialect reports whether lakesql reads a view's SQL of dialect: its
// own, and "default", the only dialect iceberg-go's SQL catalog records
// (lakesql's views there are stored so).
func readsDialect(dialect string) bool {
	return strings.EqualFold(dialect, viewDialect) || strings.EqualFold(dialect, sqlCatalogDialect)
}

// ViewMetadata is the metadata of the view ns.name and where it is kept;
// nil and no error when there is no such view.
func (w *Warehouse) ViewMetadata(ctx context.Context, ns, name string) (view.Metadata, string, error) {
	if err := checkViewName(ns, name); err != nil {
		return nil, "", err
	}
	if w.managed {
		return w.managedViewMetadata(ctx, ns, name)
	}
	path := w.viewPath(ns, name)
	data, err := w.readFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("read view %s.%s: %w", ns, name, err)
	}
	meta, err := view.ParseMetadataBytes(data)
	if err != nil {
		return nil, "", fmt.Errorf("read view %s.%s (%s): %w", ns, name, path, err)
	}
	return meta, path, nil
}

// CreateView stores the view ns.name with query text sqlText and schema
// (its columns' names and types). With replace an existing view gets a new
// current version; without it an existing view is an error.
func (w *Warehouse) CreateView(ctx context.Context, ns, name, sqlText string, schema *iceberg.Schema, replace bool) error {
	version, err := view.NewVersion(1, view.LastAddedID, []view.Representation{view.NewRepresentation(sqlText, viewDialect)},
		table.Identifier{ns}, view.WithVersionSummary(view.VersionSummary{"engine-name": "lakesql"}))
	if err != nil {
		return fmt.Errorf("create view %s.%s: %w", ns, name, err)
	}
	old, _, err := w.ViewMetadata(ctx, ns, name)
	switch {
	case err != nil:
		return err
	case old == nil:
		_, _, err = w.CreateViewVersion(ctx, ns, name, version, schema, nil)
		return err
	case !replace:
		return Errorf(ErrViewExists, "view %s.%s already exists (CREATE OR REPLACE VIEW replaces it)", ns, name)
	}
	_, _, err = w.CommitView(ctx, ns, name, []view.Requirement{view.AssertViewUUID(old.ViewUUID())}, []view.Update{
		view.NewAddSchemaUpdate(schema), view.NewAddViewVersionUpdate(version), view.NewSetCurrentVersionUpdate(view.LastAddedID),
	})
	return err
}

// CreateViewVersion creates the view ns.name with version as its first
// version, returning its metadata and where it is kept.
func (w *Warehouse) CreateViewVersion(ctx context.Context, ns, name string, version *view.Version, schema *iceberg.Schema, props iceberg.Properties) (view.Metadata, string, error) {
	if err := checkViewName(ns, name); err != nil {
		return nil, "", err
	}
	if exists, err := w.NamespaceExists(ctx, ns); err != nil {
		return nil, "", err
	} else if !exists {
		return nil, "", w.NoSuchNamespace(ctx, ns)
	}
	if exists, err := w.TableExists(ctx, ns, name); err != nil {
		return nil, "", err
	} else if exists {
		return nil, "", Errorf(ErrTableExists, "%s.%s is a table, not a view", ns, name)
	}
	if w.managed {
		return w.createManagedView(ctx, ns, name, version, schema, props)
	}
	meta, err := view.NewMetadata(version, schema, w.Path(ns), props)
	if err != nil {
		return nil, "", fmt.Errorf("create view %s.%s: %w", ns, name, err)
	}
	path, err := w.writeView(ns, name, meta, true)
	return meta, path, err
}

// CommitView checks requirements against the view's metadata and applies
// updates to it as its new metadata.
func (w *Warehouse) CommitView(ctx context.Context, ns, name string, reqs []view.Requirement, updates []view.Update) (view.Metadata, string, error) {
	base, _, err := w.ViewMetadata(ctx, ns, name)
	if err != nil {
		return nil, "", err
	}
	if base == nil {
		return nil, "", w.noSuchView(ctx, ns, name)
	}
	if w.managed {
		return w.commitManagedView(ctx, ns, name, base, reqs, updates)
	}
	meta, err := applyViewUpdates(base, reqs, updates)
	if err != nil {
		return nil, "", fmt.Errorf("replace view %s.%s: %w", ns, name, err)
	}
	path, err := w.writeView(ns, name, meta, false)
	return meta, path, err
}

// applyViewUpdates is base with the requirements checked and the updates
// applied.
func applyViewUpdates(base view.Metadata, reqs []view.Requirement, updates []view.Update) (view.Metadata, error) {
	for _, r := range reqs {
		if err := r.Validate(base); err != nil {
			return nil, fmt.Errorf("%w: %w", table.ErrCommitFailed, err)
		}
	}
	b, err := view.MetadataBuilderFromBase(base)
	if err != nil {
		return nil, err
	}
	if updates, err = readdedSchemas(base, updates); err != nil {
		return nil, err
	}
	for _, u := range updates {
		if err := u.Apply(b); err != nil {
			return nil, err
		}
	}
	res, err := b.Build()
	if err != nil {
		return nil, err
	}
	return res.Metadata, nil
}

// readdedSchemas rewrites an add-view-version of the last added schema
// (schema-id -1) that follows an add-schema of a schema the view already
// has, as one of that schema's id. Iceberg's Java view builder, and so
// Spark and Trino replacing a view without changing its columns, takes a
// re-added schema as the last added one; iceberg-go's builder does not,
// and would refuse the version.
func readdedSchemas(base view.Metadata, updates []view.Update) ([]view.Update, error) {
	out := slices.Clone(updates)
	readded := view.LastAddedID // the id of the re-added schema, if the last add-schema was one
	for i, u := range updates {
		switch u.Action() {
		case view.UpdateAddSchema:
			var add struct {
				Schema *iceberg.Schema `json:"schema"`
			}
			if err := roundTrip(u, &add); err != nil {
				return nil, err
			}
			readded = view.LastAddedID
			for _, sc := range base.Schemas() {
				if add.Schema != nil && sc.Equals(add.Schema) {
					readded = sc.ID
				}
			}
		case view.UpdateAddViewVersion:
			var add struct {
				Version *view.Version `json:"view-version"`
			}
			if err := roundTrip(u, &add); err != nil {
				return nil, err
			}
			if readded != view.LastAddedID && add.Version != nil && add.Version.SchemaID == view.LastAddedID {
				add.Version.SchemaID = readded
				out[i] = view.NewAddViewVersionUpdate(add.Version)
			}
		}
	}
	return out, nil
}

// roundTrip reads an update's fields, which iceberg-go keeps unexported,
// from its JSON form.
func roundTrip(u view.Update, fields any) error {
	data, err := json.Marshal(u)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, fields)
}

// writeView writes a view's metadata to its file in the warehouse and
// returns the file's path.
func (w *Warehouse) writeView(ns, name string, meta view.Metadata, isNew bool) (string, error) {
	data, err := json.MarshalIndent(meta, "", "  ")
	if err != nil {
		return "", fmt.Errorf("write view %s.%s: %w", ns, name, err)
	}
	path := w.viewPath(ns, name)
	if w.object {
		return path, w.writeObjectView(path, data, isNew)
	}
	return path, writeViewFile(path, data, isNew)
}

// writeViewFile writes a view's metadata atomically: to a temporary file,
// then linked into place when the view is new (so that of two sessions
// creating it one fails) or renamed over the old file when it is replaced.
func writeViewFile(path string, data []byte, isNew bool) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".view-*.tmp")
	if err != nil {
		return fmt.Errorf("write view metadata %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write view metadata %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write view metadata %s: %w", path, err)
	}
	if isNew {
		err = os.Link(tmp.Name(), path)
		if errors.Is(err, os.ErrExist) {
			return Errorf(ErrViewExists, "view %s was created by another session meanwhile", strings.TrimSuffix(filepath.Base(path), viewSuffix))
		}
	} else {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("write view metadata %s: %w", path, err)
	}
	return nil
}

// DropView removes the view ns.name; ifExists makes a missing view no error.
func (w *Warehouse) DropView(ctx context.Context, ns, name string, ifExists bool) error {
	if err := checkViewName(ns, name); err != nil {
		return err
	}
	var err error
	switch {
	case w.managed:
		err = w.dropManagedView(ctx, ns, name)
	case w.object:
		err = w.removeObjectView(w.viewPath(ns, name))
	default:
		err = os.Remove(w.viewPath(ns, name))
	}
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, ErrNoSuchView) {
		if ifExists {
			return nil
		}
		return w.noSuchView(ctx, ns, name)
	}
	if err != nil {
		return fmt.Errorf("drop view %s.%s: %w", ns, name, err)
	}
	return nil
}

// Views lists the views of ns, sorted.
func (w *Warehouse) Views(ctx context.Context, ns string) ([]string, error) {
	if exists, err := w.NamespaceExists(ctx, ns); err != nil {
		return nil, err
	} else if !exists {
		return nil, w.NoSuchNamespace(ctx, ns)
	}
	if w.managed {
		return w.managedViews(ctx, ns)
	}
	files, err := w.children(w.Path(ns))
	if err != nil {
		return nil, fmt.Errorf("list views of %s: %w", ns, err)
	}
	var names []string
	for _, f := range files {
		if name, ok := strings.CutSuffix(f, viewSuffix); ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names, nil
}

func (w *Warehouse) noSuchView(ctx context.Context, ns, name string) error {
	if exists, _ := w.TableExists(ctx, ns, name); exists {
		return Errorf(ErrNoSuchView, "%s.%s is a table, not a view (DROP TABLE drops it)", ns, name)
	}
	known, _ := w.Views(ctx, ns)
	if near := sql.Closest(name, known); near != "" {
		return Errorf(ErrNoSuchView, "view %s.%s does not exist (did you mean %s.%s?)", ns, name, ns, near)
	}
	return Errorf(ErrNoSuchView, "view %s.%s does not exist", ns, name)
}
