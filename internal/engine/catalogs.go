package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/lakesql/lakesql/catalog"
	"github.com/lakesql/lakesql/sql"
)

// catalogs are the session's catalogs by name: the default one
// (Options.Catalog), opened with the session, which serves one- and
// two-part names; and those declared in iceberg-go's configuration file,
// reached by three-part names and each opened at its first use, so that a
// session that names none of them never connects to them.
type catalogs struct {
	mu   sync.Mutex
	open map[string]*catalog.Warehouse // by lower-case name, the default's included
}

// Catalog is the warehouse of the catalog name: the default's, or a
// declared catalog's, opened now if it is not yet. A name neither is has
// an error of kind catalog.ErrNoSuchCatalog naming those that exist.
func (s *Session) Catalog(ctx context.Context, name string) (*catalog.Warehouse, error) {
	if strings.EqualFold(name, s.opts.Catalog) {
		return s.wh, nil
	}
	c := s.catalogs
	c.mu.Lock()
	defer c.mu.Unlock()
	if wh, ok := c.open[strings.ToLower(name)]; ok {
		return wh, nil
	}
	declared, err := catalog.DeclaredCatalogs()
	if err != nil {
		return nil, err
	}
	// A YAML key is case-sensitive; names in SQL are not.
	i := slices.IndexFunc(declared, func(d string) bool { return strings.EqualFold(d, name) })
	if i < 0 {
		return nil, s.noSuchCatalog(name, declared)
	}
	wh, err := catalog.OpenDeclared(ctx, declared[i], s.opts.Remaps)
	if err != nil {
		return nil, err
	}
	wh.SetNotices(s.opts.Notices)
	if c.open == nil {
		c.open = map[string]*catalog.Warehouse{}
	}
	c.open[strings.ToLower(name)] = wh
	return wh, nil
}

// isCatalog reports whether name is the default catalog or one declared in
// iceberg-go's configuration file (an unreadable file declares none).
func (s *Session) isCatalog(name string) bool {
	if strings.EqualFold(name, s.opts.Catalog) {
		return true
	}
	declared, _ := catalog.DeclaredCatalogs()
	return slices.ContainsFunc(declared, func(d string) bool { return strings.EqualFold(d, name) })
}

func (s *Session) noSuchCatalog(name string, declared []string) error {
	known := append([]string{s.opts.Catalog}, declared...)
	if near := sql.Closest(name, known); near != "" {
		return catalog.Errorf(catalog.ErrNoSuchCatalog, "unknown catalog %s (did you mean %s?)", name, near)
	}
	return catalog.Errorf(catalog.ErrNoSuchCatalog, "unknown catalog %s (catalogs: %s; declare others in %s)", name, strings.Join(known, ", "), catalog.ConfigFile())
}

// Catalogs lists the catalog names three-part names may start with: the
// default one first, then those declared in iceberg-go's configuration file.
func (s *Session) Catalogs() ([]string, error) {
	declared, err := catalog.DeclaredCatalogs()
	if err != nil {
		return nil, err
	}
	names := []string{s.opts.Catalog}
	for _, d := range declared {
		if !strings.EqualFold(d, s.opts.Catalog) {
			names = append(names, d)
		}
	}
	return names, nil
}

// Close releases the connections of every catalog the session opened.
func (s *Session) Close() error {
	errs := []error{s.wh.Close()}
	s.catalogs.mu.Lock()
	defer s.catalogs.mu.Unlock()
	for name, wh := range s.catalogs.open {
		if err := wh.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close catalog %s: %w", name, err))
		}
	}
	s.catalogs.open = nil
	return errors.Join(errs...)
}

// InDefaultCatalog refuses, for what (a statement or object kind), a name
// resolved to wh in a catalog other than the default one: views (whose
// queries name tables relative to the default catalog), procedures and
// exports work in the default catalog only.
func (s *Session) InDefaultCatalog(wh *catalog.Warehouse, name sql.ObjectName, what string) error {
	if wh == s.wh {
		return nil
	}
	return fmt.Errorf("%s %s: only the default catalog %s has these; name it without %s", what, strings.Join(name.Parts, "."), s.opts.Catalog, name.Parts[0])
}
