package testutil

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
)

// azuriteVersion is the Azure Storage emulator the abfs:// tests run
// (Microsoft's Azurite, MIT): the last release that runs on Node.js 20
// (3.36 and later want Node 21+). .ci/run installs it with
//
//	npm install --prefix ~/.cache/lakesql-test/azurite-3.35.0 azurite@3.35.0
const azuriteVersion = "3.35.0"

// Azurite's well-known development account (its documentation publishes
// the key; it opens nothing but a local emulator).
const (
	azuriteAccount = "devstoreaccount1"
	azuriteKey     = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)

// Azure is a running Azurite blob service with one container, behind a
// proxy that logs its requests.
type Azure struct {
	Endpoint  string // the proxy's http://127.0.0.1:PORT
	Container string
	Requests  *RequestLog
}

// azuriteBlob finds Azurite's blob service: on PATH, else where .ci/run
// installs it.
func azuriteBlob() (string, error) {
	if bin, err := exec.LookPath("azurite-blob"); err == nil {
		return bin, nil
	}
	bin := filepath.Join(toolCache(), "azurite-"+azuriteVersion, "node_modules", ".bin", "azurite-blob")
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("azurite-blob is not on PATH nor in %s (npm install --prefix %s azurite@%s)", filepath.Dir(bin), filepath.Join(toolCache(), "azurite-"+azuriteVersion), azuriteVersion)
	}
	return bin, nil
}

// StartAzurite starts Azurite's blob service on 127.0.0.1 over a temporary
// folder with container "lakesql"; it is stopped when the test ends. The
// test is skipped, with the reason, when Azurite is not installed.
func StartAzurite(t testing.TB) *Azure {
	t.Helper()
	bin, err := azuriteBlob()
	if err != nil {
		t.Skipf("no Azure emulator for this test: %v", err)
	}
	dir := t.TempDir()
	addr := startServer(t, bin, func(host, port string) []string {
		return []string{"--blobHost", host, "--blobPort", port, "--location", dir, "--silent", "--skipApiVersionCheck"}
	})
	a := &Azure{Container: "lakesql", Requests: &RequestLog{}}
	a.Endpoint = countingProxy(t, "http://"+addr, a.Requests)
	c, err := container.NewClientFromConnectionString(a.ConnectionString(), a.Container, nil)
	if err == nil {
		_, err = c.Create(context.Background(), nil)
	}
	if err != nil {
		t.Fatalf("create container %s: %v", a.Container, err)
	}
	return a
}

// ConnectionString is the emulator's connection string, with the proxy as
// its blob endpoint.
func (a *Azure) ConnectionString() string {
	return "DefaultEndpointsProtocol=http;AccountName=" + azuriteAccount + ";AccountKey=" + azuriteKey +
		";BlobEndpoint=" + a.Endpoint + "/" + azuriteAccount + ";"
}

// Props are the Iceberg adls.* properties that point iceberg-go's Azure
// I/O at the emulator: the account's shared key, its endpoint and
// protocol (the account's name comes from the location's host).
func (a *Azure) Props() map[string]string {
	return map[string]string{
		"adls.auth.shared-key.account.name": azuriteAccount,
		"adls.auth.shared-key.account.key":  azuriteKey,
		"adls.endpoint":                     a.Endpoint[len("http://"):],
		"adls.protocol":                     "http",
	}
}

// Location is the abfs:// location of a key prefix in the container.
func (a *Azure) Location(prefix string) string {
	return "abfs://" + a.Container + "@" + azuriteAccount + ".dfs.core.windows.net/" + prefix
}
