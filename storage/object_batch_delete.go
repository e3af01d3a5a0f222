package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// s3DeleteBatch is the most keys one S3 DeleteObjects request takes.
const s3DeleteBatch = 1000

// DeleteFiles deletes objects and returns the locations deleted, with
// the failures joined (iceberg-go's io.BulkRemovableIO, which its orphan
// cleanup uses). On S3 they go s3DeleteBatch keys per DeleteObjects
// request; on other stores, whose gocloud buckets have no batch delete, one
// request per object, in parallel (iceberg-go's blobfs).
func (o *ObjectIO) DeleteFiles(ctx context.Context, names []string) ([]string, error) {
	var client *s3.Client
	if !o.Bucket.As(&client) {
		return o.FileIO.DeleteFiles(ctx, names)
	}
	var deleted []string
	var errs []error
	for start := 0; start < len(names); start += s3DeleteBatch {
		batch := names[start:min(start+s3DeleteBatch, len(names))]
		done, err := o.deleteObjects(ctx, client, batch)
		deleted = append(deleted, done...)
		errs = append(errs, err)
	}
	return deleted, errors.Join(errs...)
}

// RemoveFiles is DeleteFiles in the bucket's context.
func (o *ObjectIO) RemoveFiles(names []string) ([]string, error) {
	return o.DeleteFiles(o.ctx, names)
}

// deleteObjects deletes up to s3DeleteBatch objects of o's bucket with one
// DeleteObjects request. S3 reports a missing key as deleted; a key it
// could not delete fails the batch, after the others are gone.
func (o *ObjectIO) deleteObjects(ctx context.Context, client *s3.Client, names []string) ([]string, error) {
	location := make(map[string]string, len(names))
	objects := make([]types.ObjectIdentifier, len(names))
	for i, name := range names {
		key, err := o.key(name)
		if err != nil {
			return nil, fmt.Errorf("delete %s: %w", name, err)
		}
		location[key] = name
		objects[i] = types.ObjectIdentifier{Key: aws.String(key)}
	}
	out, err := client.DeleteObjects(ctx, &s3.DeleteObjectsInput{
		Bucket: aws.String(o.bucket),
		Delete: &types.Delete{Objects: objects},
	})
	if err != nil {
		return nil, fmt.Errorf("delete %d objects of s3://%s: %s", len(names), o.bucket, OneLine(err))
	}
	deleted := make([]string, 0, len(out.Deleted))
	for _, d := range out.Deleted {
		deleted = append(deleted, location[aws.ToString(d.Key)])
	}
	if len(out.Errors) > 0 {
		e := out.Errors[0]
		return deleted, fmt.Errorf("delete %s: %s: %s (and %d more failed)", location[aws.ToString(e.Key)], aws.ToString(e.Code), aws.ToString(e.Message), len(out.Errors)-1)
	}
	return deleted, nil
}
