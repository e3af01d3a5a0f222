// Package procedures runs CALL system.* procedures — one file per
// procedure, registered by name in the table below, with the arguments and
// result columns of Spark's Iceberg procedures — and the statements that are
// sugar over them: OPTIMIZE (rewrite_data_files) and VACUUM
// (expire_snapshots and remove_orphan_files). Each procedure changes a
// table in one catalog commit where it can, so it lands whole or not at all.
package procedures

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/internal/engine"
	"github.com/lakesql/lakesql/planner"
	"github.com/lakesql/lakesql/sql"
)

// procedure is a CALL system.NAME procedure: its parameters in positional
// order, and the function that runs it with arguments by name.
type procedure struct {
	params []string
	run    func(ctx context.Context, s *engine.Session, args map[string]*planner.Literal) (*engine.Result, error)
}

// procedures are the procedures CALL knows, by name.
var procedures = map[string]procedure{
	"register_table":        {params: []string{"table", "metadata_file"}, run: registerTable},
	"rewrite_data_files":    {params: []string{"table", "strategy", "sort_order", "options", "where"}, run: rewriteDataFiles},
	"rewrite_manifests":     {params: []string{"table", "spec_id"}, run: rewriteManifests},
	"expire_snapshots":      {params: []string{"table", "older_than", "retain_last", "snapshot_ids", "max_concurrent_deletes", "stream_results"}, run: expireSnapshots},
	"remove_orphan_files":   {params: []string{"table", "older_than", "location", "dry_run"}, run: removeOrphanFiles},
	"rollback_to_snapshot":  {params: []string{"table", "snapshot_id"}, run: rollbackToSnapshot},
	"rollback_to_timestamp": {params: []string{"table", "timestamp"}, run: rollbackToTimestamp},
	"set_current_snapshot":  {params: []string{"table", "snapshot_id", "ref"}, run: setCurrentSnapshot},
	"suggest_partitioning":  {params: []string{"table", "columns", "target_file_size_bytes", "min_partition_size_bytes"}, run: suggestPartitioning},
}

// Call runs CALL [catalog.]system.name(args): positional or named
// arguments (name => value), which must be constants.
func Call(ctx context.Context, s *engine.Session, st *sql.Call) (*engine.Result, error) {
	parts := st.Name.Parts
	if len(parts) == 3 {
		if !strings.EqualFold(parts[0], s.CatalogName()) {
			return nil, fmt.Errorf("CALL %s: procedures run on the default catalog %s only", strings.Join(parts, "."), s.CatalogName())
		}
		parts = parts[1:]
	}
	if len(parts) != 2 || !strings.EqualFold(parts[0], "system") {
		return nil, fmt.Errorf("unknown procedure %s: procedures are called as [catalog.]system.name(…)", strings.Join(st.Name.Parts, "."))
	}
	name := strings.ToLower(parts[1])
	proc, ok := procedures[name]
	if !ok {
		return nil, fmt.Errorf("unknown procedure system.%s", name)
	}
	args, err := callArgs(ctx, s, name, proc, st.Args)
	if err != nil {
		return nil, err
	}
	return proc.run(ctx, s, args)
}

// callArgs binds positional and named arguments to the procedure's parameters.
func callArgs(ctx context.Context, s *engine.Session, name string, proc procedure, exprs []sql.Expr) (map[string]*planner.Literal, error) {
	args := map[string]*planner.Literal{}
	for i, e := range exprs {
		param := ""
		if named, ok := e.(*sql.NamedArg); ok {
			param, e = named.Name, named.Value
		} else if i < len(proc.params) {
			param = proc.params[i]
		} else {
			return nil, fmt.Errorf("system.%s takes %d arguments, got %d", name, len(proc.params), len(exprs))
		}
		known := false
		for _, p := range proc.params {
			known = known || p == param
		}
		if !known {
			return nil, fmt.Errorf("system.%s has no argument %q (its arguments: %s)", name, param, strings.Join(proc.params, ", "))
		}
		var lit *planner.Literal
		var err error
		if arr, ok := e.(*sql.FuncCall); ok && arr.Name == "array" {
			lit, err = arrayArg(ctx, s, name, param, arr)
		} else if m, ok := e.(*sql.FuncCall); ok && m.Name == "map" {
			lit, err = mapArg(ctx, s, name, param, m)
		} else {
			lit, err = constantArg(ctx, s, name, param, e)
		}
		if err != nil {
			return nil, err
		}
		args[param] = lit
	}
	return args, nil
}

// constantArg binds one constant procedure argument.
func constantArg(ctx context.Context, s *engine.Session, proc, param string, e sql.Expr) (*planner.Literal, error) {
	x, err := planner.BindExpr(ctx, s, e, nil)
	if err != nil {
		return nil, err
	}
	lit, ok := x.(*planner.Literal)
	if !ok {
		return nil, fmt.Errorf("argument %s of system.%s must be a constant", param, proc)
	}
	return lit, nil
}

// arrayArg binds array(e1, e2, …), which has no SQL type of its own here, as
// a literal of type LIST whose Value is the []*planner.Literal of its
// elements, so procedures keep each element's own type.
func arrayArg(ctx context.Context, s *engine.Session, proc, param string, arr *sql.FuncCall) (*planner.Literal, error) {
	elems := make([]*planner.Literal, len(arr.Args))
	var elemType arrow.DataType = arrow.Null
	for i, e := range arr.Args {
		lit, err := constantArg(ctx, s, proc, param, e)
		if err != nil {
			return nil, err
		}
		elems[i], elemType = lit, lit.T
	}
	return &planner.Literal{Value: elems, T: arrow.ListOf(elemType)}, nil
}

// mapArg binds map('k1', 'v1', …) as a literal of type MAP whose Value is a
// map[string]string: procedures take options this way, as Spark's do, and
// non-string keys and values are read as their text.
func mapArg(ctx context.Context, s *engine.Session, proc, param string, m *sql.FuncCall) (*planner.Literal, error) {
	if len(m.Args)%2 != 0 {
		return nil, fmt.Errorf("argument %s of system.%s: map(…) takes keys and values in pairs, got %d arguments", param, proc, len(m.Args))
	}
	values := map[string]string{}
	var key string
	for i, e := range m.Args {
		lit, err := constantArg(ctx, s, proc, param, e)
		if err != nil {
			return nil, err
		}
		if lit.Value == nil {
			return nil, fmt.Errorf("argument %s of system.%s: map(…) cannot hold NULL", param, proc)
		}
		if i%2 == 0 {
			key = fmt.Sprint(lit.Value)
		} else {
			values[key] = fmt.Sprint(lit.Value)
		}
	}
	return &planner.Literal{Value: values, T: arrow.MapOf(arrow.BinaryTypes.String, arrow.BinaryTypes.String)}, nil
}

// stringArg returns a required string argument.
func stringArg(args map[string]*planner.Literal, name string) (string, error) {
	lit, ok := args[name]
	if !ok || lit.Value == nil {
		return "", fmt.Errorf("argument %s is required", name)
	}
	v, ok := lit.Value.(string)
	if !ok {
		return "", fmt.Errorf("argument %s must be a string", name)
	}
	return v, nil
}
