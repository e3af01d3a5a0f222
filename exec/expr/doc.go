// Package expr evaluates bound expressions over Arrow record batches:
// operators, casts, CASE, IN, and the scalar function kernels, vectorized
// by type. The operators of package exec call Eval; subqueries, which the
// executor runs, reach the evaluator as External expressions.
package expr
