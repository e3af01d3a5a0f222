package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	icebergio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/io/gocloud/blobfs"
	icebergs3 "github.com/apache/iceberg-go/io/gocloud/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go/logging"
	"github.com/google/uuid"
	"gocloud.dev/blob"
	"gocloud.dev/blob/s3blob"
	"gocloud.dev/gcerrors"
)

// s3Schemes are the location schemes lakesql reads and writes through S3's
// API (s3a and s3n are how Hadoop and Spark spell it).
var s3Schemes = []string{"s3", "s3a", "s3n"}

// init puts lakesql's object store I/O in iceberg-go's registry in place of
// iceberg-go's own, so that every catalog iceberg-go runs for lakesql
// (filesystem, SQL, REST) reads and writes objects the same way:
//   - a file is opened without a request, and read with ranged GETs of
//     exactly what the reader asks (iceberg-go's Open starts a GET of the
//     whole object, which a pruned read must never pay);
//   - RenameNoReplace is a conditional write (If-None-Match: *), so the
//     filesystem catalog's claim-then-publish commit stays atomic on object
//     storage, where iceberg-go's copy-then-delete is not.
func init() {
	for _, scheme := range s3Schemes {
		icebergio.Unregister(scheme)
		icebergio.Register(scheme, openS3)
	}
}

// S3Endpoint is the S3 endpoint configured the way AWS tools are
// (AWS_ENDPOINT_URL_S3, then AWS_ENDPOINT_URL), or iceberg-go's
// AWS_S3_ENDPOINT; "" for AWS itself.
func S3Endpoint() string {
	for _, env := range []string{"AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_S3_ENDPOINT"} {
		if v := os.Getenv(env); v != "" {
			return v
		}
	}
	return ""
}

// openS3 opens the bucket of a location. Credentials and region come from
// the Iceberg s3.* properties, else from the AWS environment and files; an
// endpoint (property s3.endpoint or S3Endpoint) means an S3-compatible
// store, reached with path-style addressing.
func openS3(ctx context.Context, parsed *url.URL, props map[string]string) (icebergio.IO, error) {
	cfg, err := icebergs3.ParseAWSConfig(ctx, props)
	if err != nil {
		return nil, fmt.Errorf("s3 configuration: %w", err)
	}
	if cfg.Region == "" {
		// S3-compatible stores ignore the region but the SDK signs with one.
		cfg.Region = "us-east-1"
	}
	cfg.HTTPClient = &http.Client{Transport: countingTransport{http.DefaultTransport}}
	// Errors are returned, one line each; the SDK's own log lines (e.g.
	// its fall-back between credential sources) would interleave with
	// query output.
	cfg.Logger = logging.Nop{}
	endpoint := props[icebergio.S3EndpointURL]
	if endpoint == "" {
		endpoint = S3Endpoint()
	}
	pathStyle := endpoint != ""
	if v, err := strconv.ParseBool(props[icebergio.S3ForceVirtualAddressing]); err == nil {
		pathStyle = !v
	}
	client := s3.NewFromConfig(*cfg, func(o *s3.Options) {
		if endpoint != "" {
			o.BaseEndpoint = &endpoint
		}
		o.UsePathStyle = pathStyle
	})
	bucket, err := s3blob.OpenBucketV2(ctx, client, parsed.Host, nil)
	if err != nil {
		return nil, fmt.Errorf("open bucket %s: %w", parsed.Host, err)
	}
	extract := blobfs.DefaultObjectLocationExtractor(parsed.Host, s3Schemes...)
	return &ObjectIO{FileIO: blobfs.New(ctx, bucket, extract), extract: extract, ctx: ctx, bucket: parsed.Host}, nil
}

// ObjectIO is one bucket of an object store: iceberg-go's blob file system,
// with lazy ranged reads and conditional-write renames.
type ObjectIO struct {
	*blobfs.FileIO
	extract blobfs.ObjectLocationExtractor
	ctx     context.Context
	bucket  string // its name

	probeOnce sync.Once
	probeErr  error
}

// key is the object key of a location.
func (o *ObjectIO) key(location string) (string, error) {
	loc, err := o.extract(location)
	if err != nil {
		return "", err
	}
	return loc.Key(), nil
}

// Open opens an object for reading without a request: reads are ranged
// GETs (objectFile).
func (o *ObjectIO) Open(name string) (icebergio.File, error) {
	key, err := o.key(name)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &objectFile{bucket: o.Bucket, ctx: o.ctx, name: name, key: key, size: -1}, nil
}

// ErrNoConditionalWrites is the kind of error for a commit refused because
// the object store cannot create an object only if it is absent.
var ErrNoConditionalWrites = errors.New("object store has no conditional writes")

// RenameNoReplace moves oldpath to newpath unless newpath exists: newpath
// is written with If-None-Match: *, so of two writers racing for it exactly
// one succeeds (fs.ErrExist for the other). A store that ignores the
// condition would let both succeed, so it is probed first and a commit on
// it is refused.
func (o *ObjectIO) RenameNoReplace(oldpath, newpath string) error {
	if err := o.checkConditionalWrites(newpath); err != nil {
		return err
	}
	oldKey, err := o.key(oldpath)
	if err != nil {
		return &fs.PathError{Op: "rename", Path: oldpath, Err: err}
	}
	newKey, err := o.key(newpath)
	if err != nil {
		return &fs.PathError{Op: "rename", Path: newpath, Err: err}
	}
	data, err := o.ReadAll(o.ctx, oldKey)
	if err != nil {
		return objectError("rename", oldpath, err)
	}
	if err := o.WriteAll(o.ctx, newKey, data, &blob.WriterOptions{IfNotExist: true}); err != nil {
		return objectError("rename", newpath, err)
	}
	if err := o.Delete(o.ctx, oldKey); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return objectError("rename", oldpath, err)
	}
	return nil
}

// checkConditionalWrites probes, once per bucket, that the store refuses a
// second If-None-Match: * write of the same key; near is a location in the
// bucket, next to which the probe object is written and deleted.
func (o *ObjectIO) checkConditionalWrites(near string) error {
	o.probeOnce.Do(func() {
		key, err := o.key(near)
		if err != nil {
			o.probeErr = err
			return
		}
		probe := key[:strings.LastIndex(key, "/")+1] + ".lakesql-conditional-write-probe-" + uuid.NewString()
		defer o.Delete(o.ctx, probe)
		opts := &blob.WriterOptions{IfNotExist: true}
		if err := o.WriteAll(o.ctx, probe, nil, opts); err != nil {
			o.probeErr = fmt.Errorf("probe conditional writes at %s: %w", near, err)
			return
		}
		err = o.WriteAll(o.ctx, probe, nil, opts)
		if gcerrors.Code(err) != gcerrors.FailedPrecondition {
			o.probeErr = fmt.Errorf("%w: commits to %s could silently lose one another, so lakesql does not write there; use a SQL or REST catalog (--catalog-uri) for this bucket", ErrNoConditionalWrites, near)
		}
	})
	return o.probeErr
}

// objectError turns a blob error into the fs error iceberg-go's catalogs
// test for.
func objectError(op, name string, err error) error {
	switch gcerrors.Code(err) {
	case gcerrors.NotFound:
		err = fs.ErrNotExist
	case gcerrors.FailedPrecondition:
		err = fs.ErrExist
	}
	return oneLine(&fs.PathError{Op: op, Path: name, Err: err})
}

var _ interface {
	icebergio.ReadFileIO
	icebergio.WriteFileIO
	icebergio.ListableIO
	icebergio.RenameNoReplaceIO
} = (*ObjectIO)(nil)

// location is the location of key in o's bucket, spelled like near.
func (o *ObjectIO) location(near, key string) (string, error) {
	loc, err := o.extract(near)
	if err != nil {
		return "", err
	}
	return loc.Scheme() + "://" + loc.Authority() + "/" + key, nil
}

// List returns the locations of the objects below the folder dir (a key
// prefix), at any depth, with their sizes and times; folder markers are
// left out.
func (o *ObjectIO) List(dir string) ([]ObjectEntry, error) {
	key, err := o.key(strings.TrimRight(dir, "/"))
	if err != nil {
		return nil, &fs.PathError{Op: "list", Path: dir, Err: err}
	}
	var out []ObjectEntry
	it := o.Bucket.List(&blob.ListOptions{Prefix: key + "/"})
	for {
		obj, err := it.Next(o.ctx)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, objectError("list", dir, err)
		}
		if strings.HasSuffix(obj.Key, "/") {
			continue
		}
		loc, err := o.location(dir, obj.Key)
		if err != nil {
			return nil, err
		}
		out = append(out, ObjectEntry{Location: loc, Size: obj.Size, ModTime: obj.ModTime})
	}
}

// ObjectEntry is an object List found.
type ObjectEntry struct {
	Location string
	Size     int64
	ModTime  time.Time
}

// WriteNew writes an object only if none exists at name (If-None-Match:
// *): fs.ErrExist if one does.
func (o *ObjectIO) WriteNew(name string, data []byte) error {
	if err := o.checkConditionalWrites(name); err != nil {
		return err
	}
	key, err := o.key(name)
	if err != nil {
		return &fs.PathError{Op: "write", Path: name, Err: err}
	}
	if err := o.WriteAll(o.ctx, key, data, &blob.WriterOptions{IfNotExist: true}); err != nil {
		return objectError("write", name, err)
	}
	return nil
}

// ObjectEntry is also the fs.DirEntry of the object, for walks.
var _ fs.DirEntry = ObjectEntry{}

func (e ObjectEntry) Name() string      { return e.Location[strings.LastIndex(e.Location, "/")+1:] }
func (e ObjectEntry) IsDir() bool       { return false }
func (e ObjectEntry) Type() fs.FileMode { return 0 }
func (e ObjectEntry) Info() (fs.FileInfo, error) {
	return objectInfo{name: e.Name(), size: e.Size, modTime: e.ModTime}, nil
}
