package restserver

import (
	"net/http"

	"github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/view"

	"github.com/lakesql/lakesql/catalog"
)

// Views are served from the warehouse's catalog as tables are: its
// filesystem catalog's view files, or the views of its SQL or REST catalog.

func (s *Server) listViews(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	names, err := s.wh.Views(r.Context(), ns)
	if err != nil {
		return err
	}
	ids := make([]identifier, len(names))
	for i, n := range names {
		ids[i] = identifier{Namespace: []string{ns}, Name: n}
	}
	return writeJSON(w, http.StatusOK, map[string]any{"identifiers": ids})
}

// writeView writes a LoadViewResult.
func writeView(w http.ResponseWriter, meta view.Metadata, location string) error {
	return writeJSON(w, http.StatusOK, map[string]any{
		"metadata-location": location,
		"metadata":          meta,
		"config":            map[string]string{},
	})
}

func (s *Server) createView(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	var req struct {
		Name        string             `json:"name"`
		Location    string             `json:"location"`
		Schema      *iceberg.Schema    `json:"schema"`
		ViewVersion *view.Version      `json:"view-version"`
		Properties  iceberg.Properties `json:"properties"`
	}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if req.Name == "" || req.Schema == nil || req.ViewVersion == nil {
		return badRequest("create view: name, schema and view-version are required")
	}
	if req.Location != "" {
		return badRequest("create view %s.%s: lakesql chooses where views are kept; leave location out", ns, req.Name)
	}
	meta, location, err := s.wh.CreateViewVersion(r.Context(), ns, req.Name, req.ViewVersion, req.Schema, req.Properties)
	if err != nil {
		return err
	}
	return writeView(w, meta, location)
}

func (s *Server) loadView(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	name := r.PathValue("view")
	meta, location, err := s.wh.ViewMetadata(r.Context(), ns, name)
	if err != nil {
		return err
	}
	if meta == nil {
		return catalog.Errorf(catalog.ErrNoSuchView, "view %s.%s does not exist", ns, name)
	}
	return writeView(w, meta, location)
}

func (s *Server) viewExists(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	meta, _, err := s.wh.ViewMetadata(r.Context(), ns, r.PathValue("view"))
	return writeExists(w, meta != nil, err)
}

// commitView applies a CommitViewRequest (a replace): its requirements are
// checked against the view's current metadata, then its updates applied,
// one commit at a time per view.
func (s *Server) commitView(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	name := r.PathValue("view")
	var req struct {
		Requirements view.Requirements `json:"requirements"`
		Updates      view.Updates      `json:"updates"`
	}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	lock := s.commitLock(ns, name)
	lock.Lock()
	defer lock.Unlock()
	meta, location, err := s.wh.CommitView(r.Context(), ns, name, req.Requirements, req.Updates)
	if err != nil {
		return err
	}
	return writeView(w, meta, location)
}

func (s *Server) dropView(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	if err := s.wh.DropView(r.Context(), ns, r.PathValue("view"), false); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
