package catalog

import (
	"context"
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	_ "github.com/apache/iceberg-go/catalog/rest" // registers type "rest"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	_ "modernc.org/sqlite"             // database/sql driver "sqlite", pure Go

	"github.com/lakesql/lakesql/storage"
)

// Config selects a warehouse's catalog and where its tables' files go.
type Config struct {
	// Name is the catalog's name: the first part of three-part names, and
	// the catalog_name an SQL catalog stores in every row (Spark's and
	// Trino's JDBC catalogs see the tables under that name).
	Name string
	// Warehouse is where new tables' files go: a folder or s3://bucket/prefix.
	Warehouse string
	// URI selects the catalog: "" is the filesystem catalog in Warehouse;
	// sqlite:PATH (or sqlite:///PATH) an SQL catalog in an embedded SQLite
	// file; postgres://… or postgresql://… an SQL catalog in PostgreSQL;
	// http(s)://… an Iceberg REST catalog.
	URI string
	// Props are more catalog properties, as iceberg-go names them
	// (credential, token, oauth2-server-uri, scope, s3.*).
	Props map[string]string
	// Remaps are location remaps for this session only.
	Remaps []storage.Remap
}

// OpenConfig opens the warehouse cfg describes. Without a URI, a catalog
// of cfg.Name declared in iceberg-go's configuration file
// (~/.iceberg-go.yaml, or $GOICEBERG_HOME/.iceberg-go.yaml) is used when
// there is one; else the filesystem catalog in cfg.Warehouse.
func OpenConfig(ctx context.Context, cfg Config) (*Warehouse, error) {
	props := iceberg.Properties{}
	maps.Copy(props, cfg.Props)
	catType := ""
	if cfg.URI == "" {
		conf, err := configuredCatalog(cfg.Name)
		if err != nil {
			return nil, err
		}
		if conf == nil {
			return openFolderWarehouse(cfg.Warehouse, cfg.Remaps, props)
		}
		cfg.URI, catType = conf.URI, conf.CatalogType
		if conf.Warehouse != "" {
			cfg.Warehouse = conf.Warehouse
		}
		setIfEmpty(props, "credential", conf.Credential)
		setIfEmpty(props, sqlcat.DriverKey, conf.SQLDriver)
		setIfEmpty(props, sqlcat.DialectKey, conf.SQLDialect)
		for k, v := range conf.Properties {
			setIfEmpty(props, k, v)
		}
		if catType == "" && cfg.URI == "" {
			return openFolderWarehouse(cfg.Warehouse, cfg.Remaps, props)
		}
	}
	warehouse, err := warehouseLocation(cfg.Warehouse)
	if err != nil {
		return nil, err
	}
	props["warehouse"] = warehouse
	if err := catalogProps(props, catType, cfg.URI); err != nil {
		return nil, err
	}
	cat, err := icecatalog.Load(ctx, cfg.Name, props)
	if err != nil {
		return nil, fmt.Errorf("open catalog %s (%s): %w", cfg.Name, redact(cfg.URI), err)
	}
	w := &Warehouse{dir: warehouse, cat: cat, object: storage.IsObjectLocation(warehouse), managed: true}
	root := warehouse
	if !w.object {
		if err := os.MkdirAll(warehouse, 0o755); err != nil {
			return nil, fmt.Errorf("open warehouse %s: %w", warehouse, err)
		}
		if root, err = storage.RealDir(warehouse); err != nil {
			return nil, fmt.Errorf("open warehouse %s: %w", warehouse, err)
		}
	}
	w.fs = &storage.RemapIO{Remaps: cfg.Remaps, Root: root, Props: props}
	return w, nil
}

// openFolderWarehouse opens the filesystem catalog in dir, with props
// for its object storage when dir is there.
func openFolderWarehouse(dir string, remaps []storage.Remap, props iceberg.Properties) (*Warehouse, error) {
	if storage.IsObjectLocation(dir) {
		return openObjectWarehouse(dir, remaps, props)
	}
	return Open(dir, remaps)
}

// catalogProps sets the type, URI and driver properties iceberg-go's
// catalog registry needs for a catalog URI.
func catalogProps(props iceberg.Properties, catType, uri string) error {
	scheme, rest, _ := strings.Cut(uri, ":")
	if catType == "" {
		catType = scheme
	}
	switch strings.ToLower(catType) {
	case "sqlite":
		path := strings.TrimPrefix(rest, "//")
		if path == "" {
			return fmt.Errorf("catalog URI %s: want sqlite:PATH or sqlite:///ABSOLUTE/PATH", uri)
		}
		// Several processes share the file: wait for locks instead of
		// failing, and let readers run beside a writer.
		props["type"], props["uri"] = "sql", path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)"
		setIfEmpty(props, sqlcat.DriverKey, "sqlite")
		setIfEmpty(props, sqlcat.DialectKey, string(sqlcat.SQLite))
	case "postgres", "postgresql":
		props["type"], props["uri"] = "sql", uri
		setIfEmpty(props, sqlcat.DriverKey, "pgx")
		setIfEmpty(props, sqlcat.DialectKey, string(sqlcat.Postgres))
	case "sql":
		if s := strings.ToLower(scheme); s == "sqlite" || s == "postgres" || s == "postgresql" {
			return catalogProps(props, "", uri) // the URI says which database
		}
		props["type"], props["uri"] = "sql", uri
	case "http", "https", "rest":
		props["type"], props["uri"] = "rest", uri
	default:
		return fmt.Errorf("catalog URI %s: unknown kind %q (want sqlite:PATH, postgres://…, http(s)://… or a catalog of ~/.iceberg-go.yaml)", redact(uri), catType)
	}
	return nil
}

// warehouseLocation is the absolute form of a warehouse folder, or an
// object storage location as given.
func warehouseLocation(dir string) (string, error) {
	if dir == "" {
		return "", fmt.Errorf("a catalog needs a warehouse location for new tables (--warehouse DIR or s3://bucket/prefix)")
	}
	if storage.IsObjectLocation(dir) {
		return strings.TrimRight(dir, "/"), nil
	}
	abs, err := filepath.Abs(storage.LocalPath(dir))
	if err != nil {
		return "", fmt.Errorf("warehouse %s: %w", dir, err)
	}
	return abs, nil
}

func setIfEmpty(props iceberg.Properties, key, value string) {
	if props[key] == "" && value != "" {
		props[key] = value
	}
}

// redact drops the password of a URI for messages.
func redact(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.User == nil {
		return uri
	}
	return u.Redacted()
}

// Close releases the catalog's connections (an SQL catalog's database).
func (w *Warehouse) Close() error {
	if c, ok := w.cat.(icecatalog.Closer); ok && w.managed {
		return c.Close()
	}
	return nil
}
