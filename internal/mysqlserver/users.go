package mysqlserver

import (
	"fmt"
	"strings"
)

// parseUsers parses the lines of a users file ("name:password").
func parseUsers(path, text string) (map[string]string, error) {
	users := map[string]string{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		name, password, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("%s:%d: want name:password", path, i+1)
		}
		users[strings.TrimSpace(name)] = password
	}
	if len(users) == 0 {
		return nil, fmt.Errorf("%s: no users", path)
	}
	return users, nil
}
