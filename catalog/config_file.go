package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/apache/iceberg-go/config"
	"gopkg.in/yaml.v3"

	"github.com/lakesql/lakesql/storage"
)

// ErrNoSuchCatalog is the kind of error for a catalog name that is neither
// the session's catalog nor declared in iceberg-go's configuration file.
var ErrNoSuchCatalog = errors.New("no such catalog")

// ConfigFile is iceberg-go's configuration file, which declares catalogs
// by name: $GOICEBERG_HOME/.iceberg-go.yaml, else ~/.iceberg-go.yaml.
func ConfigFile() string {
	if home := os.Getenv("GOICEBERG_HOME"); home != "" {
		return filepath.Join(home, ".iceberg-go.yaml")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".iceberg-go.yaml")
	}
	return "~/.iceberg-go.yaml"
}

// configFile is iceberg-go's configuration file as lakesql reads it.
type configFile struct {
	Catalogs map[string]declaredCatalog `yaml:"catalog"`
}

// declaredCatalog is a catalog of the configuration file: iceberg-go's
// keys, and properties, which lakesql passes to that catalog and its
// storage (s3.endpoint, s3.access-key-id, s3.region, …, as Spark's and
// PyIceberg's catalog properties). iceberg-go's own reader has no key for
// them and ignores the map.
type declaredCatalog struct {
	config.CatalogConfig `yaml:",inline"`
	Properties           map[string]string `yaml:"properties"`
}

// readConfigFile reads iceberg-go's configuration file, now (iceberg-go's
// own copy is read once at start); nil when there is none.
func readConfigFile() (*configFile, error) {
	path := ConfigFile()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read iceberg-go configuration: %w", err)
	}
	var conf configFile
	if err := yaml.Unmarshal(data, &conf); err != nil {
		return nil, fmt.Errorf("iceberg-go configuration %s: %s", path, storage.OneLine(err))
	}
	return &conf, nil
}

// configuredCatalog is the catalog name declares in iceberg-go's
// configuration file; nil when there is none.
func configuredCatalog(name string) (*declaredCatalog, error) {
	conf, err := readConfigFile()
	if err != nil || conf == nil {
		return nil, err
	}
	if c, ok := conf.Catalogs[name]; ok {
		return &c, nil
	}
	return nil, nil
}

// DeclaredCatalogs lists, sorted, the names of the catalogs iceberg-go's
// configuration file declares.
func DeclaredCatalogs() ([]string, error) {
	conf, err := readConfigFile()
	if err != nil || conf == nil {
		return nil, err
	}
	names := make([]string, 0, len(conf.Catalogs))
	for name := range conf.Catalogs {
		names = append(names, name)
	}
	slices.Sort(names)
	return names, nil
}

// OpenDeclared opens the catalog name declared in iceberg-go's
// configuration file: its type, uri and warehouse say where it is, as
// for --catalog. remaps are the session's location remaps. Errors are one
// line naming the catalog and the file; an undeclared name is of kind
// ErrNoSuchCatalog.
func OpenDeclared(ctx context.Context, name string, remaps []storage.Remap) (*Warehouse, error) {
	conf, err := configuredCatalog(name)
	if err != nil {
		return nil, err
	}
	if conf == nil {
		return nil, Errorf(ErrNoSuchCatalog, "catalog %s is not declared in %s", name, ConfigFile())
	}
	if conf.CatalogType == "" && conf.URI == "" && conf.Warehouse == "" {
		return nil, fmt.Errorf("catalog %s (declared in %s): give it a uri, a type or a warehouse", name, ConfigFile())
	}
	w, err := OpenConfig(ctx, Config{Name: name, Remaps: remaps})
	if err != nil {
		return nil, fmt.Errorf("catalog %s (declared in %s): %w", name, ConfigFile(), err)
	}
	return w, nil
}
