package planner

import "github.com/apache/arrow-go/v18/arrow"

// Digest functions: each hashes a string's UTF-8 bytes, or a binary's
// bytes, and gives the digest in lower-case hex (DuckDB, Spark, MySQL).
const (
	FnMD5    = "md5"
	FnSHA1   = "sha1"
	FnSHA224 = "sha224"
	FnSHA256 = "sha256"
	FnSHA384 = "sha384"
	FnSHA512 = "sha512"
)

// bytesArg takes a string or a binary as it is; NULL becomes a string.
func bytesArg(e Expr) (Expr, bool) {
	switch t := e.Type(); {
	case t.ID() == arrow.NULL:
		return castFolded(e, TypeVarchar), true
	case isString(t), t.ID() == arrow.BINARY, t.ID() == arrow.LARGE_BINARY:
		return e, true
	}
	return nil, false
}

// sha2Digests maps the bit lengths of Spark's sha2(x, bits) to digests; 0
// means 256.
var sha2Digests = map[int64]string{0: FnSHA256, 224: FnSHA224, 256: FnSHA256, 384: FnSHA384, 512: FnSHA512}

// bindSHA2 binds Spark's sha2(x, bits), whose bit length must be a constant;
// one Spark does not know gives NULL, as in Spark.
func bindSHA2(b *binder, c *funcCall) (Expr, error) {
	lit, ok := c.args[1].(*Literal)
	bits, isInt := int64(0), false
	if ok {
		bits, isInt = literalInt(lit.Value)
	}
	if !ok || !isInt && lit.Value != nil {
		return nil, errorf(c.pos, "sha2's bit length must be a constant integer: 224, 256, 384, 512 or 0 (256)")
	}
	fn, known := sha2Digests[bits]
	if !isInt || !known {
		return &Literal{Value: nil, T: TypeVarchar}, nil
	}
	return typed(fn, TypeVarchar, bytesArg)(b, &funcCall{name: c.name, pos: c.pos, args: c.args[:1], spec: c.spec})
}

// bindTypeOf binds typeof(x) (DuckDB, Spark, Trino): the name of x's type,
// as DESCRIBE and CAST write it.
func bindTypeOf(_ *binder, c *funcCall) (Expr, error) {
	return stringLit(TypeString(c.args[0].Type())), nil
}
