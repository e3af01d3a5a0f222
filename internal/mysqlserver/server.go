// Package mysqlserver serves lakesql over the MySQL client/server protocol
// (lakesql serve --mysql), so that MySQL clients, language drivers and BI
// tools query the warehouse. The packet layer, handshake and authentication
// are github.com/dolthub/vitess/go/mysql's; this package answers the
// commands: each connection has its own lakesql session in the MySQL
// dialect (sql/mysqldialect), whose results stream back as MySQL result sets.
package mysqlserver

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/dolthub/vitess/go/mysql"

	"github.com/lakesql/lakesql"
	"github.com/lakesql/lakesql/sql/mysqldialect"
)

// Config configures a server.
type Config struct {
	// Addr is host:port to listen on; 127.0.0.1:3306 when empty.
	Addr string
	// Session holds the options of every connection's session (warehouse,
	// catalog, statement timeout); the dialect is always MySQL's.
	Session lakesql.Options
	// Users maps user names to passwords. Empty, the one user is root
	// without a password, which suits the loopback default.
	Users map[string]string
	// TLS, when set, is offered to clients that ask for it.
	TLS *tls.Config
	// DefaultAuth is the password method the handshake proposes:
	// mysql_native_password (when empty) or caching_sha2_password (used
	// over TLS; plain connections are switched to the native method).
	DefaultAuth string
}

// Server is a listening MySQL server.
type Server struct {
	listener *mysql.Listener
	handler  *handler
	done     chan struct{}
}

// Start listens on cfg.Addr and serves connections in the background until Close.
func Start(cfg Config) (*Server, error) {
	addr := cfg.Addr
	if addr == "" {
		addr = "127.0.0.1:3306"
	}
	auth, err := authServer(cfg.Users, cfg.DefaultAuth)
	if err != nil {
		return nil, err
	}
	h := newHandler(cfg.Session)
	l, err := mysql.NewListener("tcp", addr, auth, h, 0, 0)
	if err != nil {
		return nil, fmt.Errorf("serve --mysql %s: %w", addr, err)
	}
	l.ServerVersion = mysqldialect.ServerVersion
	l.TLSConfig = cfg.TLS
	s := &Server{listener: l, handler: h, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		l.Accept()
	}()
	return s, nil
}

// Addr is the address the server listens on (with the port chosen when
// cfg.Addr had port 0).
func (s *Server) Addr() net.Addr { return s.listener.Addr() }

// Wait blocks until the server stops listening.
func (s *Server) Wait() { <-s.done }

// Close stops listening and closes the open connections.
func (s *Server) Close() error {
	s.listener.Close()
	s.handler.closeAll()
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
	}
	return nil
}

// authServer checks logins against users with MySQL 8's two password
// methods, proposing defaultAuth first.
func authServer(users map[string]string, defaultAuth string) (mysql.AuthServer, error) {
	if len(users) == 0 {
		users = map[string]string{"root": ""}
	}
	entries := map[string][]*mysql.AuthServerStaticEntry{}
	for name, password := range users {
		entries[name] = []*mysql.AuthServerStaticEntry{{Password: password}}
	}
	config, err := json.Marshal(entries)
	if err != nil {
		return nil, err
	}
	static := mysql.NewAuthServerStatic("", string(config), 0)
	a := &passwordAuth{AuthServerStatic: static, methods: []mysql.AuthMethod{
		mysql.NewMysqlNativeAuthMethod(static, static),
		mysql.NewSha2CachingAuthMethod(static, static, static),
	}}
	switch defaultAuth {
	case "", string(mysql.MysqlNativePassword):
		a.proposed = mysql.MysqlNativePassword
	case string(mysql.CachingSha2Password):
		a.proposed = mysql.CachingSha2Password
	default:
		return nil, fmt.Errorf("unknown authentication method %q (methods: mysql_native_password, caching_sha2_password)", defaultAuth)
	}
	return a, nil
}

// passwordAuth is vitess's static user list with both password methods.
// vitess runs caching_sha2_password over TLS only; on a plain connection
// it switches the client to mysql_native_password, which clients follow.
type passwordAuth struct {
	*mysql.AuthServerStatic
	methods  []mysql.AuthMethod
	proposed mysql.AuthMethodDescription
}

func (a *passwordAuth) AuthMethods() []mysql.AuthMethod { return a.methods }

func (a *passwordAuth) DefaultAuthMethodDescription() mysql.AuthMethodDescription { return a.proposed }

// ReadUsers reads a users file: one "name:password" per line; lines that
// are empty or start with # are skipped.
func ReadUsers(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("users file: %w", err)
	}
	return parseUsers(path, string(data))
}
