package restserver

import (
	"net/http"

	"github.com/apache/iceberg-go/table"
)

func (s *Server) listNamespaces(w http.ResponseWriter, r *http.Request) error {
	if parent := r.URL.Query().Get("parent"); parent != "" {
		// One level: no namespace has children.
		if _, err := s.wh.NamespaceExists(r.Context(), parent); err != nil {
			return err
		}
		return writeJSON(w, http.StatusOK, map[string]any{"namespaces": [][]string{}})
	}
	names, err := s.wh.Namespaces(r.Context())
	if err != nil {
		return err
	}
	out := make([][]string, len(names))
	for i, n := range names {
		out[i] = []string{n}
	}
	return writeJSON(w, http.StatusOK, map[string]any{"namespaces": out})
}

func (s *Server) createNamespace(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Namespace  []string          `json:"namespace"`
		Properties map[string]string `json:"properties"`
	}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if len(req.Namespace) != 1 || req.Namespace[0] == "" {
		return badRequest("namespace %v: lakesql namespaces have exactly one level", req.Namespace)
	}
	if err := s.wh.Catalog().CreateNamespace(r.Context(), table.Identifier(req.Namespace), req.Properties); err != nil {
		return err
	}
	props := req.Properties
	if props == nil {
		props = map[string]string{}
	}
	return writeJSON(w, http.StatusOK, map[string]any{"namespace": req.Namespace, "properties": props})
}

func (s *Server) loadNamespace(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	if exists, err := s.wh.NamespaceExists(r.Context(), ns); err != nil {
		return err
	} else if !exists {
		return s.wh.NoSuchNamespace(r.Context(), ns)
	}
	props, err := s.wh.Catalog().LoadNamespaceProperties(r.Context(), table.Identifier{ns})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"namespace": []string{ns}, "properties": props})
}

func (s *Server) namespaceExists(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	exists, err := s.wh.NamespaceExists(r.Context(), ns)
	return writeExists(w, exists, err)
}

// writeExists answers a HEAD request: 204 when the object exists, 404 when
// it does not.
func writeExists(w http.ResponseWriter, exists bool, err error) error {
	switch {
	case err != nil:
		return err
	case exists:
		w.WriteHeader(http.StatusNoContent)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
	return nil
}

func (s *Server) dropNamespace(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	if err := s.wh.DropNamespace(r.Context(), ns, false, false); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
