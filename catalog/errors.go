package catalog

import (
	"fmt"

	icecatalog "github.com/apache/iceberg-go/catalog"
)

// The kinds of catalog errors callers tell apart with errors.Is. They are
// iceberg-go's own sentinels, so an error from iceberg-go's catalog and one
// lakesql writes with a better message are the same kind.
var (
	ErrNoSuchNamespace   = icecatalog.ErrNoSuchNamespace
	ErrNoSuchTable       = icecatalog.ErrNoSuchTable
	ErrNamespaceExists   = icecatalog.ErrNamespaceAlreadyExists
	ErrTableExists       = icecatalog.ErrTableAlreadyExists
	ErrNamespaceNotEmpty = icecatalog.ErrNamespaceNotEmpty
)

// Error is a catalog error of a kind, with lakesql's one-line message.
type Error struct {
	Kind error
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

// Unwrap makes errors.Is(err, kind) hold.
func (e *Error) Unwrap() error { return e.Kind }

// Errorf is an error of kind with a formatted message.
func Errorf(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}
