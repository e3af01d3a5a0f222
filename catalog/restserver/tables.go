package restserver

import (
	"net/http"
	"strconv"

	"github.com/apache/iceberg-go"
	icecatalog "github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
)

// identifier is a table's name in requests and responses.
type identifier struct {
	Namespace []string `json:"namespace"`
	Name      string   `json:"name"`
}

func (s *Server) listTables(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	names, err := s.wh.Tables(r.Context(), ns)
	if err != nil {
		return err
	}
	ids := make([]identifier, len(names))
	for i, n := range names {
		ids[i] = identifier{Namespace: []string{ns}, Name: n}
	}
	return writeJSON(w, http.StatusOK, map[string]any{"identifiers": ids})
}

// writeTable writes a LoadTableResult.
func writeTable(w http.ResponseWriter, tbl *table.Table) error {
	return writeJSON(w, http.StatusOK, map[string]any{
		"metadata-location": tbl.MetadataLocation(),
		"metadata":          tbl.Metadata(),
		"config":            map[string]string{},
	})
}

func (s *Server) createTable(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	var req struct {
		Name          string                 `json:"name"`
		Schema        *iceberg.Schema        `json:"schema"`
		Location      string                 `json:"location"`
		PartitionSpec *iceberg.PartitionSpec `json:"partition-spec"`
		WriteOrder    *table.SortOrder       `json:"write-order"`
		StageCreate   bool                   `json:"stage-create"`
		Properties    iceberg.Properties     `json:"properties"`
	}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if req.Name == "" || req.Schema == nil {
		return badRequest("create table: name and schema are required")
	}
	if req.StageCreate {
		return badRequest("create table %s.%s: staged creates are not supported", ns, req.Name)
	}
	opts := []icecatalog.CreateTableOpt{icecatalog.WithProperties(req.Properties)}
	if req.PartitionSpec != nil {
		opts = append(opts, icecatalog.WithPartitionSpec(req.PartitionSpec))
	}
	if req.WriteOrder != nil {
		opts = append(opts, icecatalog.WithSortOrder(*req.WriteOrder))
	}
	if req.Location != "" {
		opts = append(opts, icecatalog.WithLocation(req.Location))
	}
	tbl, err := s.wh.Catalog().CreateTable(r.Context(), table.Identifier{ns, req.Name}, req.Schema, opts...)
	if err != nil {
		return err
	}
	return writeTable(w, tbl)
}

func (s *Server) loadTable(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	tbl, err := s.wh.LoadTable(r.Context(), ns, r.PathValue("table"))
	if err != nil {
		return err
	}
	return writeTable(w, tbl)
}

func (s *Server) tableExists(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	exists, err := s.wh.TableExists(r.Context(), ns, r.PathValue("table"))
	return writeExists(w, exists, err)
}

// commitTable applies a CommitTableRequest: its requirements are checked
// against the current metadata and its updates committed as one new
// metadata version, or 409 CommitFailedException when another commit got
// there first.
func (s *Server) commitTable(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	name := r.PathValue("table")
	var req struct {
		Requirements table.Requirements `json:"requirements"`
		Updates      table.Updates      `json:"updates"`
	}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	lock := s.commitLock(ns, name)
	lock.Lock()
	defer lock.Unlock()
	meta, location, err := s.wh.CommitTable(r.Context(), table.Identifier{ns, name}, req.Requirements, req.Updates)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"metadata-location": location, "metadata": meta})
}

func (s *Server) dropTable(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	purge, _ := strconv.ParseBool(r.URL.Query().Get("purgeRequested"))
	if _, err := s.wh.DropTable(r.Context(), ns, r.PathValue("table"), purge); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (s *Server) registerTable(w http.ResponseWriter, r *http.Request) error {
	ns, err := namespace(r)
	if err != nil {
		return err
	}
	var req struct {
		Name             string `json:"name"`
		MetadataLocation string `json:"metadata-location"`
	}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	if req.Name == "" || req.MetadataLocation == "" {
		return badRequest("register table: name and metadata-location are required")
	}
	tbl, err := s.wh.RegisterTable(r.Context(), ns, req.Name, req.MetadataLocation)
	if err != nil {
		return err
	}
	return writeTable(w, tbl)
}

func (s *Server) renameTable(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Source      identifier `json:"source"`
		Destination identifier `json:"destination"`
	}
	if err := readJSON(r, &req); err != nil {
		return err
	}
	from := table.Identifier(append(append([]string{}, req.Source.Namespace...), req.Source.Name))
	to := table.Identifier(append(append([]string{}, req.Destination.Namespace...), req.Destination.Name))
	if _, err := s.wh.Catalog().RenameTable(r.Context(), from, to); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
