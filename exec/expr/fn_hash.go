package expr

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/lakesql/lakesql/planner"
)

// The digest functions' kernels.
var (
	md5Kernel    = digestKernel(md5.New)
	sha1Kernel   = digestKernel(sha1.New)
	sha224Kernel = digestKernel(sha256.New224)
	sha256Kernel = digestKernel(sha256.New)
	sha384Kernel = digestKernel(sha512.New384)
	sha512Kernel = digestKernel(sha512.New)
)

// digestKernel is the kernel of a digest function: the lower-case hex
// digest of each row's bytes.
func digestKernel(newHash func() hash.Hash) func(*evaluator, *planner.Call, []operand) (arrow.Array, error) {
	return func(ev *evaluator, _ *planner.Call, ops []operand) (arrow.Array, error) {
		s := newBytesVec(ops[0])
		h := newHash()
		var sum []byte
		return ev.stringRows(ops, func(dst []byte, i int) []byte {
			h.Reset()
			h.Write(s.At(i))
			sum = h.Sum(sum[:0])
			return hex.AppendEncode(dst, sum)
		}), nil
	}
}
