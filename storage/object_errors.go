package storage

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	icebergio "github.com/apache/iceberg-go/io"
)

// lineError is an object store's error said on one line. The cloud SDKs'
// span several: Azure's repeat the request, the response's status and
// code between rules and then its XML body, its credential chain lists
// every source it tried. Unwrap keeps the error's kinds (fs.ErrNotExist,
// gcerrors codes) for the callers that test them.
type lineError struct {
	msg string
	err error
}

func (e *lineError) Error() string { return e.msg }
func (e *lineError) Unwrap() error { return e.err }

// oneLine returns err, said on one line (OneLine) if it is not.
func oneLine(err error) error {
	if err == nil || !strings.Contains(err.Error(), "\n") {
		return err
	}
	return &lineError{msg: OneLine(err), err: err}
}

// azureResponseLine says an Azure response error as its request and
// status: the URL without its query, which may hold a SAS token; the
// service's error code. (The SDK's own message adds rules, the response's
// XML body and the request ID, on a dozen lines.)
func azureResponseLine(resp *azcore.ResponseError) (string, bool) {
	if resp.RawResponse == nil || resp.RawResponse.Request == nil {
		return "", false
	}
	req := resp.RawResponse.Request
	u := *req.URL
	u.RawQuery = ""
	msg := fmt.Sprintf("%s %s: %s", req.Method, u.String(), resp.RawResponse.Status)
	if resp.ErrorCode != "" {
		msg += " (" + resp.ErrorCode + ")"
	}
	return msg, true
}

// The ObjectIO methods that iceberg-go's blob file system implements
// return its errors on one line (Open, List and the rest are lakesql's
// own, through objectError).

func (o *ObjectIO) Stat(name string) (fs.FileInfo, error) {
	info, err := o.FileIO.Stat(name)
	return info, oneLine(err)
}

func (o *ObjectIO) ReadFile(name string) ([]byte, error) {
	data, err := o.FileIO.ReadFile(name)
	return data, oneLine(err)
}

func (o *ObjectIO) WriteFile(name string, data []byte) error {
	if err := o.FileIO.WriteFile(name, data); err != nil {
		return oneLine(&fs.PathError{Op: "write", Path: name, Err: err})
	}
	return nil
}

func (o *ObjectIO) Remove(name string) error { return oneLine(o.FileIO.Remove(name)) }

func (o *ObjectIO) Create(name string) (icebergio.FileWriter, error) {
	w, err := o.FileIO.Create(name)
	if err != nil {
		return nil, oneLine(err)
	}
	return objectWriter{FileWriter: w, name: name}, nil
}

// objectWriter is an object being written (uploaded when it is closed),
// with one-line errors naming it.
type objectWriter struct {
	icebergio.FileWriter
	name string
}

func (w objectWriter) Write(p []byte) (int, error) {
	n, err := w.FileWriter.Write(p)
	if err != nil {
		return n, oneLine(&fs.PathError{Op: "write", Path: w.name, Err: err})
	}
	return n, nil
}

func (w objectWriter) Close() error {
	if err := w.FileWriter.Close(); err != nil {
		return oneLine(&fs.PathError{Op: "write", Path: w.name, Err: err})
	}
	return nil
}
