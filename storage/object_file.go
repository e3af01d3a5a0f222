package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"sync"
	"time"

	"gocloud.dev/blob"
	"golang.org/x/sync/errgroup"
)

// ByteRange is a span of a file: Len bytes from Off.
type ByteRange struct{ Off, Len int64 }

func (r ByteRange) end() int64 { return r.Off + r.Len }

// RangePrefetcher is a file that fetches byte ranges ahead of the reads
// that need them: an object on object storage, where every read is a
// request. Readers hand it what they will read (a footer, the column
// chunks of a row group) so that it costs one request per range, not one
// per small read; release drops the fetched bytes.
type RangePrefetcher interface {
	Prefetch(ranges []ByteRange) (release func(), err error)
}

// coalesceGap is the largest gap between two ranges fetched as one
// (Arrow's pre-buffering default "hole size limit"): wider gaps are the
// chunks of columns the query does not read, and the ranges on either side
// are fetched in parallel anyway.
const coalesceGap = 8 << 10

// prefetchParallelism bounds the concurrent GETs of one Prefetch.
const prefetchParallelism = 8

// objectFile is an object opened for reading. Opening it costs nothing;
// ReadAt is a ranged GET of exactly the bytes asked unless Prefetch fetched
// them, Read streams from the current offset, Stat is a HEAD.
type objectFile struct {
	bucket    *blob.Bucket
	ctx       context.Context
	name, key string

	mu      sync.Mutex
	size    int64 // -1 until Stat
	modTime time.Time
	fetched []*fetchedRange
	stream  io.ReadCloser // open sequential read, at pos
	pos     int64
}

type fetchedRange struct {
	off  int64
	data []byte
}

// Prefetch fetches ranges, those closer than coalesceGap as one, in
// parallel; reads inside them are then served from memory until release.
func (f *objectFile) Prefetch(ranges []ByteRange) (func(), error) {
	f.mu.Lock()
	ranges = slices.DeleteFunc(slices.Clone(ranges), f.holds)
	f.mu.Unlock()
	merged := coalesce(ranges)
	got := make([]*fetchedRange, len(merged))
	g, ctx := errgroup.WithContext(f.ctx)
	g.SetLimit(prefetchParallelism)
	for i, r := range merged {
		g.Go(func() error {
			data := make([]byte, r.Len)
			if err := f.get(ctx, data, r.Off); err != nil {
				return err
			}
			got[i] = &fetchedRange{off: r.Off, data: data}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return func() {}, err
	}
	f.mu.Lock()
	f.fetched = append(f.fetched, got...)
	f.mu.Unlock()
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.fetched = slices.DeleteFunc(f.fetched, func(r *fetchedRange) bool { return slices.Contains(got, r) })
	}, nil
}

// holds reports whether a fetched range holds all of r (f.mu held).
func (f *objectFile) holds(r ByteRange) bool {
	for _, got := range f.fetched {
		if r.Off >= got.off && r.end() <= got.off+int64(len(got.data)) {
			return true
		}
	}
	return false
}

// coalesce sorts ranges and merges those that overlap or lie closer than
// coalesceGap.
func coalesce(ranges []ByteRange) []ByteRange {
	rs := slices.Clone(ranges)
	rs = slices.DeleteFunc(rs, func(r ByteRange) bool { return r.Len <= 0 })
	slices.SortFunc(rs, func(a, b ByteRange) int { return int(min(max(a.Off-b.Off, -1), 1)) })
	var out []ByteRange
	for _, r := range rs {
		if n := len(out); n > 0 && r.Off <= out[n-1].end()+coalesceGap {
			out[n-1].Len = max(out[n-1].end(), r.end()) - out[n-1].Off
			continue
		}
		out = append(out, r)
	}
	return out
}

// ReadAt reads len(p) bytes at off: from a prefetched range when one holds
// them all, else with one ranged GET.
func (f *objectFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrInvalid}
	}
	f.mu.Lock()
	for _, r := range f.fetched {
		if off >= r.off && off+int64(len(p)) <= r.off+int64(len(r.data)) {
			n := copy(p, r.data[off-r.off:])
			f.mu.Unlock()
			return n, nil
		}
	}
	size := f.size
	f.mu.Unlock()
	want := p
	if size >= 0 && off+int64(len(p)) > size {
		want = p[:max(size-off, 0)]
	}
	if len(want) > 0 {
		if err := f.get(f.ctx, want, off); err != nil {
			return 0, err
		}
	}
	if len(want) < len(p) {
		return len(want), io.EOF
	}
	return len(p), nil
}

// get fills p from off with one ranged GET.
func (f *objectFile) get(ctx context.Context, p []byte, off int64) error {
	r, err := f.bucket.NewRangeReader(ctx, f.key, off, int64(len(p)), nil)
	if err != nil {
		return objectError("read", f.name, err)
	}
	defer r.Close()
	if _, err := io.ReadFull(r, p); err != nil {
		return &fs.PathError{Op: "read", Path: f.name, Err: fmt.Errorf("%d bytes at offset %d: %w", len(p), off, err)}
	}
	return nil
}

// Read reads on from the current offset, streaming the rest of the object
// with one GET.
func (f *objectFile) Read(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stream == nil {
		r, err := f.bucket.NewRangeReader(f.ctx, f.key, f.pos, -1, nil)
		if err != nil {
			return 0, objectError("read", f.name, err)
		}
		f.stream = r
	}
	n, err := f.stream.Read(p)
	f.pos += int64(n)
	return n, err
}

// Seek moves the offset Read continues from.
func (f *objectFile) Seek(offset int64, whence int) (int64, error) {
	var base int64
	switch whence {
	case io.SeekCurrent:
		f.mu.Lock()
		base = f.pos
		f.mu.Unlock()
	case io.SeekEnd:
		info, err := f.Stat()
		if err != nil {
			return 0, err
		}
		base = info.Size()
	}
	if base+offset < 0 {
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: fs.ErrInvalid}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pos != base+offset && f.stream != nil {
		f.stream.Close()
		f.stream = nil
	}
	f.pos = base + offset
	return f.pos, nil
}

// Stat reads the object's size and time (one HEAD, the first time).
func (f *objectFile) Stat() (fs.FileInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.size < 0 {
		attrs, err := f.bucket.Attributes(f.ctx, f.key)
		if err != nil {
			return nil, objectError("stat", f.name, err)
		}
		f.size, f.modTime = attrs.Size, attrs.ModTime
	}
	return objectInfo{name: f.name, size: f.size, modTime: f.modTime}, nil
}

// Close ends a streaming read and drops prefetched bytes.
func (f *objectFile) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fetched = nil
	if f.stream == nil {
		return nil
	}
	err := f.stream.Close()
	f.stream = nil
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// objectInfo is an object's fs.FileInfo.
type objectInfo struct {
	name    string
	size    int64
	modTime time.Time
}

func (i objectInfo) Name() string       { return i.name }
func (i objectInfo) Size() int64        { return i.size }
func (i objectInfo) Mode() fs.FileMode  { return 0o444 }
func (i objectInfo) ModTime() time.Time { return i.modTime }
func (i objectInfo) IsDir() bool        { return false }
func (i objectInfo) Sys() any           { return nil }
