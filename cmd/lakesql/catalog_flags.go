package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// catalogFlags select an SQL or REST catalog instead of the warehouse
// folder's filesystem catalog.
type catalogFlags struct {
	uri   string            // --catalog-uri
	props map[string]string // --catalog-property KEY=VALUE, repeatable
}

// addCatalogFlags declares the catalog flags on fs. The URI defaults to
// $LAKESQL_CATALOG_URI; a bearer token or OAuth2 client credential for a
// REST catalog may come from $LAKESQL_CATALOG_TOKEN and
// $LAKESQL_CATALOG_CREDENTIAL, so that secrets stay out of shell history.
func addCatalogFlags(fs *flag.FlagSet, c *catalogFlags) {
	c.props = map[string]string{}
	for env, key := range map[string]string{"LAKESQL_CATALOG_TOKEN": "token", "LAKESQL_CATALOG_CREDENTIAL": "credential"} {
		if v := os.Getenv(env); v != "" {
			c.props[key] = v
		}
	}
	fs.StringVar(&c.uri, "catalog-uri", os.Getenv("LAKESQL_CATALOG_URI"), "")
	fs.Func("catalog-property", "", func(kv string) error {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return fmt.Errorf("--catalog-property %q: want KEY=VALUE", kv)
		}
		c.props[k] = v
		return nil
	})
}
