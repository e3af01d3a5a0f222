// Package restserver serves a lakesql warehouse's catalog over the Iceberg
// REST catalog API (the OpenAPI spec's /v1 routes), so that Spark, Trino,
// PyIceberg, DuckDB and iceberg-go can attach to the tables lakesql
// manages. Metadata stays where the warehouse's catalog keeps it; the
// server reads and commits through that catalog, which makes each commit
// atomic across processes, and serializes its own clients' commits per
// table.
package restserver

import (
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"

	"github.com/lakesql/lakesql/catalog"
)

// Server is the REST catalog of one warehouse.
type Server struct {
	wh    *catalog.Warehouse
	token string // "" : no authentication

	mu      sync.Mutex
	commits map[string]*sync.Mutex // by table, serializing this server's commits
}

// New returns the server of wh. A non-empty token is the bearer token every
// request must carry.
func New(wh *catalog.Warehouse, token string) *Server {
	return &Server{wh: wh, token: token, commits: map[string]*sync.Mutex{}}
}

// endpoints are the routes served, as the config response advertises them
// (clients call no others).
var endpoints = []struct {
	method, path string
	handle       func(*Server, http.ResponseWriter, *http.Request) error
}{
	{"GET", "/v1/namespaces", (*Server).listNamespaces},
	{"POST", "/v1/namespaces", (*Server).createNamespace},
	{"GET", "/v1/namespaces/{namespace}", (*Server).loadNamespace},
	{"HEAD", "/v1/namespaces/{namespace}", (*Server).namespaceExists},
	{"DELETE", "/v1/namespaces/{namespace}", (*Server).dropNamespace},
	{"GET", "/v1/namespaces/{namespace}/tables", (*Server).listTables},
	{"POST", "/v1/namespaces/{namespace}/tables", (*Server).createTable},
	{"GET", "/v1/namespaces/{namespace}/tables/{table}", (*Server).loadTable},
	{"HEAD", "/v1/namespaces/{namespace}/tables/{table}", (*Server).tableExists},
	{"POST", "/v1/namespaces/{namespace}/tables/{table}", (*Server).commitTable},
	{"DELETE", "/v1/namespaces/{namespace}/tables/{table}", (*Server).dropTable},
	{"POST", "/v1/namespaces/{namespace}/register", (*Server).registerTable},
	{"POST", "/v1/tables/rename", (*Server).renameTable},
	{"GET", "/v1/namespaces/{namespace}/views", (*Server).listViews},
	{"POST", "/v1/namespaces/{namespace}/views", (*Server).createView},
	{"GET", "/v1/namespaces/{namespace}/views/{view}", (*Server).loadView},
	{"HEAD", "/v1/namespaces/{namespace}/views/{view}", (*Server).viewExists},
	{"POST", "/v1/namespaces/{namespace}/views/{view}", (*Server).commitView},
	{"DELETE", "/v1/namespaces/{namespace}/views/{view}", (*Server).dropView},
}

// Handler routes the REST API.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/config", s.serve(func(s *Server, w http.ResponseWriter, r *http.Request) error {
		// Advertised as the spec writes them; with no prefix configured,
		// clients call them without one.
		var eps []string
		for _, e := range endpoints {
			eps = append(eps, e.method+" "+strings.Replace(e.path, "/v1/", "/v1/{prefix}/", 1))
		}
		return writeJSON(w, http.StatusOK, map[string]any{
			"defaults": map[string]string{}, "overrides": map[string]string{}, "endpoints": eps,
		})
	}))
	for _, e := range endpoints {
		mux.HandleFunc(e.method+" "+e.path, s.serve(e.handle))
	}
	mux.HandleFunc("/", s.serve(func(*Server, http.ResponseWriter, *http.Request) error {
		return &apiError{http.StatusNotFound, "NotFoundException", "no such REST catalog route"}
	}))
	return mux
}

// serve checks the bearer token, runs h and writes its error as the spec's
// error response.
func (s *Server) serve(h func(*Server, http.ResponseWriter, *http.Request) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(s.token)) != 1 {
				writeError(w, &apiError{http.StatusUnauthorized, "NotAuthorizedException", "a valid bearer token is required"})
				return
			}
		}
		if err := h(s, w, r); err != nil {
			writeError(w, err)
		}
	}
}

// apiError is an error response: HTTP status, the spec's error type.
type apiError struct {
	code int
	kind string
	msg  string
}

func (e *apiError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &apiError{http.StatusBadRequest, "BadRequestException", fmt.Sprintf(format, args...)}
}

// writeError writes err as {"error": {message, type, code}}, with the
// status and type its kind calls for.
func writeError(w http.ResponseWriter, err error) {
	var api *apiError
	if !errors.As(err, &api) {
		api = &apiError{http.StatusInternalServerError, "ServiceFailureException", err.Error()}
		switch {
		case errors.Is(err, icecatalog.ErrNoSuchNamespace):
			api.code, api.kind = http.StatusNotFound, "NoSuchNamespaceException"
		case errors.Is(err, icecatalog.ErrNoSuchTable):
			api.code, api.kind = http.StatusNotFound, "NoSuchTableException"
		case errors.Is(err, icecatalog.ErrNoSuchView):
			api.code, api.kind = http.StatusNotFound, "NoSuchViewException"
		case errors.Is(err, icecatalog.ErrNamespaceAlreadyExists), errors.Is(err, icecatalog.ErrTableAlreadyExists),
			errors.Is(err, icecatalog.ErrViewAlreadyExists):
			api.code, api.kind = http.StatusConflict, "AlreadyExistsException"
		case errors.Is(err, icecatalog.ErrNamespaceNotEmpty):
			api.code, api.kind = http.StatusConflict, "NamespaceNotEmptyException"
		case errors.Is(err, table.ErrCommitFailed), strings.Contains(err.Error(), "equirement failed"):
			api.code, api.kind = http.StatusConflict, "CommitFailedException"
		}
	}
	writeJSON(w, api.code, map[string]any{"error": map[string]any{"message": api.msg, "type": api.kind, "code": api.code}})
}

func writeJSON(w http.ResponseWriter, code int, v any) error {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	return json.NewEncoder(w).Encode(v)
}

// readJSON decodes a request body into v.
func readJSON(r *http.Request, v any) error {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		return badRequest("malformed request body: %v", err)
	}
	return nil
}

// namespace is the {namespace} of a route: its levels are separated by the
// unit separator (0x1F); lakesql's namespaces have one level.
func namespace(r *http.Request) (string, error) {
	ns := r.PathValue("namespace")
	if ns == "" || strings.ContainsRune(ns, 0x1f) {
		return "", badRequest("namespace %q: lakesql namespaces have exactly one level", ns)
	}
	return ns, nil
}

// commitLock is the lock serializing this server's commits to a table.
func (s *Server) commitLock(ns, name string) *sync.Mutex {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := ns + "\x1f" + name
	if s.commits[key] == nil {
		s.commits[key] = &sync.Mutex{}
	}
	return s.commits[key]
}
