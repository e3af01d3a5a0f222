package expr

import (
	"bytes"
	"fmt"
	"math"
	"regexp"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/lakesql/lakesql/planner"
)

// scalarFn is the executor side of a function of the planner's function
// registry. Its kernel gets the evaluated arguments; unless nullable is set,
// a NULL literal argument makes the result NULL before the kernel runs, so
// kernels only see NULLs through validity bitmaps.
type scalarFn struct {
	minArgs, maxArgs int // maxArgs < 0: any number
	nullable         bool
	kernel           func(ev *evaluator, c *planner.Call, ops []operand) (arrow.Array, error)
}

// scalarFns maps Call.Fn to its implementation.
var scalarFns = map[string]scalarFn{
	planner.FnLower:            {1, 1, false, lowerKernel},
	planner.FnUpper:            {1, 1, false, upperKernel},
	planner.FnReverse:          {1, 1, false, reverseKernel},
	planner.FnLength:           {1, 1, false, lengthKernel},
	planner.FnASCII:            {1, 1, false, asciiKernel},
	planner.FnChr:              {1, 1, false, chrKernel},
	planner.FnStrlen:           {1, 1, false, strlenKernel},
	planner.FnTrim:             {2, 2, false, trimKernel(true, true)},
	planner.FnLTrim:            {2, 2, false, trimKernel(true, false)},
	planner.FnRTrim:            {2, 2, false, trimKernel(false, true)},
	planner.FnSubstr:           {2, 3, false, substrKernel},
	planner.FnLeft:             {2, 2, false, leftRightKernel(true)},
	planner.FnRight:            {2, 2, false, leftRightKernel(false)},
	planner.FnLPad:             {3, 3, false, padKernel(true)},
	planner.FnRPad:             {3, 3, false, padKernel(false)},
	planner.FnReplace:          {3, 3, false, replaceKernel},
	planner.FnRepeat:           {2, 2, false, repeatKernel},
	planner.FnRegexpReplace:    {3, 3, false, regexpReplaceKernel},
	planner.FnRegexpLike:       {2, 2, false, regexpLikeKernel},
	planner.FnRegexpExtract:    {3, 3, false, regexpExtractKernel},
	planner.FnRegexpExtractAll: {3, 3, false, regexpExtractAllKernel},
	planner.FnRegexpCount:      {2, 2, false, regexpCountKernel},
	planner.FnConcatWS:         {1, -1, true, concatWSKernel},
	planner.FnSplitPart:        {3, 3, false, splitPartKernel},
	planner.FnStrpos:           {2, 2, false, strposKernel},
	planner.FnStartsWith:       {2, 2, false, bytesPredicate(bytes.HasPrefix)},
	planner.FnEndsWith:         {2, 2, false, bytesPredicate(bytes.HasSuffix)},
	planner.FnContains:         {2, 2, false, bytesPredicate(bytes.Contains)},
	planner.FnStrposNth:        {3, 3, false, strposNthKernel},
	planner.FnFromUTF8:         {1, 1, false, fromUTF8Kernel},
	planner.FnCodepoint:        {1, 1, false, codepointKernel},
	planner.FnURLExtract:       {2, 3, false, urlExtractKernel},
	planner.FnIsNaN:            {1, 1, false, doubleClassKernel(math.IsNaN)},
	planner.FnIsInfinite:       {1, 1, false, doubleClassKernel(isInfinite)},
	planner.FnIsFinite:         {1, 1, false, doubleClassKernel(isFinite)},

	planner.FnTranslate:          {3, 3, false, translateKernel},
	planner.FnLevenshtein:        {2, 2, false, levenshteinKernel},
	planner.FnDamerauLevenshtein: {2, 2, false, damerauLevenshteinKernel},
	planner.FnHamming:            {2, 2, false, hammingKernel},
	planner.FnJaro:               {2, 2, false, jaroKernel},
	planner.FnJaroWinkler:        {2, 2, false, jaroWinklerKernel},

	planner.FnHex:        {1, 1, false, hexKernel},
	planner.FnBin:        {1, 1, false, binKernel},
	planner.FnUnhex:      {1, 1, false, unhexKernel},
	planner.FnToBase64:   {1, 1, false, toBase64Kernel},
	planner.FnFromBase64: {1, 1, false, fromBase64Kernel},
	planner.FnBitCount:   {1, 1, false, bitCountKernel},
	planner.FnBitwiseAnd: {2, 2, false, bitwiseKernel},
	planner.FnBitwiseOr:  {2, 2, false, bitwiseKernel},
	planner.FnBitwiseXor: {2, 2, false, bitwiseKernel},
	planner.FnShiftLeft:  {2, 2, false, bitwiseKernel},
	planner.FnShiftRight: {2, 2, false, bitwiseKernel},
	planner.FnBitwiseNot: {1, 1, false, bitwiseKernel},

	planner.FnAbs:      {1, 1, false, absKernel},
	planner.FnSign:     {1, 1, false, signKernel},
	planner.FnFloor:    {1, 1, false, floorCeilKernel(true)},
	planner.FnCeil:     {1, 1, false, floorCeilKernel(false)},
	planner.FnRound:    {2, 2, false, roundKernel(false)},
	planner.FnBRound:   {2, 2, false, roundKernel(true)},
	planner.FnTrunc:    {2, 2, false, truncKernel},
	planner.FnSqrt:     {1, 1, false, doubleKernel(math.Sqrt, nonNegative)},
	planner.FnLn:       {1, 1, false, doubleKernel(math.Log, positive)},
	planner.FnLog10:    {1, 1, false, doubleKernel(math.Log10, positive)},
	planner.FnLog2:     {1, 1, false, doubleKernel(math.Log2, positive)},
	planner.FnExp:      {1, 1, false, doubleKernel(math.Exp, anyDouble)},
	planner.FnPower:    {2, 2, false, powerKernel},
	planner.FnCbrt:     {1, 1, false, doubleKernel(math.Cbrt, anyDouble)},
	planner.FnSignum:   {1, 1, false, doubleKernel(signum, anyDouble)},
	planner.FnDegrees:  {1, 1, false, doubleKernel(degrees, anyDouble)},
	planner.FnRadians:  {1, 1, false, doubleKernel(radians, anyDouble)},
	planner.FnCRC32:    {1, 1, false, crc32Kernel},
	planner.FnGreatest: {1, -1, true, extremeKernel(planner.FnGt)},
	planner.FnLeast:    {1, -1, true, extremeKernel(planner.FnLt)},

	planner.FnFactorial:    {1, 1, false, factorialKernel},
	planner.FnConv:         {3, 3, false, convKernel},
	planner.FnFormatNumber: {2, 2, false, formatNumberKernel},
	planner.FnFindInSet:    {2, 2, false, findInSetKernel},

	planner.FnSubstringIndex: {3, 3, false, substringIndexKernel},
	planner.FnInitcap:        {1, 1, false, initcapKernel},
	planner.FnLocate:         {3, 3, false, locateKernel},
	planner.FnDecodeUTF8:     {2, 2, false, decodeUTF8Kernel},

	planner.FnDatePart:      {2, 2, false, datePartKernel},
	planner.FnTZLocal:       {2, 2, false, tzLocalKernel},
	planner.FnTZAddInterval: {3, 3, false, tzAddIntervalKernel},
	planner.FnTZInstant:     {2, 2, false, tzInstantKernel},
	planner.FnTZParse:       {2, 2, false, tzParseKernel(false)},
	planner.FnTZTryParse:    {2, 2, false, tzParseKernel(true)},
	planner.FnTZFormat:      {2, 2, false, tzFormatKernel},
	planner.FnEpoch:         {1, 1, false, epochKernel},
	planner.FnDateTrunc:     {2, 2, false, dateTruncKernel},
	planner.FnDateDiff:      {3, 3, false, dateDiffKernel},
	planner.FnDateAdd:       {2, 2, false, dateAddKernel},
	planner.FnAddInterval:   {2, 2, false, addIntervalKernel},
	planner.FnMulInterval:   {2, 2, false, mulIntervalKernel},
	planner.FnTimestampSub:  {2, 2, false, timestampSubKernel},
	planner.FnIntervalKey:   {1, 1, false, intervalKeyKernel},
	planner.FnMakeDate:      {3, 3, false, makeDateKernel},
	planner.FnLastDay:       {1, 1, false, lastDayKernel},
	planner.FnRand:          {0, 0, false, randKernel},
	planner.FnUUID:          {0, 0, false, uuidKernel},
	planner.FnRaiseError:    {1, 1, true, raiseErrorKernel},
	planner.FnMD5:           {1, 1, false, md5Kernel},
	planner.FnSHA1:          {1, 1, false, sha1Kernel},
	planner.FnSHA224:        {1, 1, false, sha224Kernel},
	planner.FnSHA256:        {1, 1, false, sha256Kernel},
	planner.FnSHA384:        {1, 1, false, sha384Kernel},
	planner.FnSHA512:        {1, 1, false, sha512Kernel},
	planner.FnFormatTime:    {3, 3, false, formatTimeKernel},
	planner.FnParseTime:     {4, 4, false, parseTimeKernel},
	planner.FnFromUnixtime:  {1, 1, false, fromUnixtimeKernel},
	planner.FnUnixTimestamp: {1, 1, false, unixTimestampKernel},
	planner.FnEpochMillis:   {1, 1, false, epochUnitsKernel(1000, false)},
	planner.FnUnixMillis:    {1, 1, false, epochUnitsKernel(1000, true)},
	planner.FnEpochMicros:   {1, 1, false, epochUnitsKernel(1, false)},

	planner.FnMillisToTimestamp: {1, 1, false, millisToTimestampKernel},
	planner.FnMicrosToTimestamp: {1, 1, false, microsToTimestampKernel},
	planner.FnMonthsBetween:     {3, 3, false, monthsBetweenKernel},
	planner.FnNextDay:           {2, 2, false, nextDayKernel},
	planner.FnMakeTimestamp:     {6, 6, false, makeTimestampKernel},

	planner.FnArraySort:     {2, 3, false, arraySortKernel},
	planner.FnArrayDistinct: {1, 1, false, arrayDistinctKernel},
	planner.FnArrayJoin:     {2, 3, false, arrayJoinKernel},

	planner.FnListConcat:       {1, -1, true, listConcatKernel(false)},
	planner.FnListConcatStrict: {2, 2, false, listConcatKernel(true)},

	planner.FnConvertTZ:      {3, 3, false, convertTZKernel},
	planner.FnTimeDiff:       {2, 2, false, timeDiffKernel},
	planner.FnFormatDuration: {2, 2, false, formatDurationKernel},
}

// scalar runs a registry function's kernel.
func (ev *evaluator) scalar(fn scalarFn, c *planner.Call, ops []operand) (arrow.Array, error) {
	if len(ops) < fn.minArgs || fn.maxArgs >= 0 && len(ops) > fn.maxArgs {
		return nil, fmt.Errorf("%s: wrong number of arguments (%d)", c, len(ops))
	}
	if !fn.nullable {
		for _, o := range ops {
			if o.isNullLiteral() {
				return ev.allNull(c.T), nil
			}
		}
	}
	return fn.kernel(ev, c, ops)
}

// stringRows builds a STRING array: row appends the result of row i to dst
// for each row where every operand is valid.
func (ev *evaluator) stringRows(ops []operand, row func(dst []byte, i int) []byte) arrow.Array {
	return ev.nullableStringRows(ops, func(dst []byte, i int) ([]byte, bool) { return row(dst, i), true })
}

// nullableStringRows is stringRows for rows that may have no result: row
// reports false for a NULL.
func (ev *evaluator) nullableStringRows(ops []operand, row func(dst []byte, i int) ([]byte, bool)) arrow.Array {
	validity := ev.validity(ops...)
	if validity != nil {
		defer validity.Release()
	}
	b := array.NewStringBuilder(ev.mem)
	defer b.Release()
	b.Reserve(ev.n)
	var buf []byte
	for i := 0; i < ev.n; i++ {
		if validity != nil && !bitutil.BitIsSet(validity.Bytes(), i) {
			b.AppendNull()
			continue
		}
		var ok bool
		if buf, ok = row(buf[:0], i); !ok {
			b.AppendNull()
			continue
		}
		b.BinaryBuilder.Append(buf)
	}
	return b.NewArray()
}

// boolRows builds a BOOLEAN array of row(i) for the rows where every operand
// is valid.
func (ev *evaluator) boolRows(ops []operand, row func(i int) bool) arrow.Array {
	validity := ev.validity(ops...)
	out := ev.newBitmap()
	bits := out.Bytes()
	for i := 0; i < ev.n; i++ {
		if (validity == nil || bitutil.BitIsSet(validity.Bytes(), i)) && row(i) {
			bitutil.SetBit(bits, i)
		}
	}
	return MakeArray(planner.TypeBoolean, ev.n, validity, out)
}

// fixedRows builds an array of type t from row(i) for the rows where every
// operand is valid; see fillRows for the outcomes.
func fixedRows[T FixedWidth](ev *evaluator, t arrow.DataType, ops []operand, row func(i int) (T, outcome), fail func(i int) error) (arrow.Array, error) {
	return mapRows(ev, t, ev.validity(ops...), row, fail)
}

// rowError reports that row i of c has no result, such as an invalid date.
// It names only the function: the operator reporting the error names the
// whole expression.
func rowError(c *planner.Call, what func(i int) string) func(i int) error {
	return func(i int) error { return fmt.Errorf("%s: %s", c.Fn, what(i)) }
}

// regexpCache compiles a row's pattern only when it differs from the
// previous row's, so a constant pattern compiles once per batch.
type regexpCache struct {
	pattern string
	re      *regexp.Regexp
	err     error
}

func (rc *regexpCache) get(pattern []byte) (*regexp.Regexp, error) {
	if rc.re == nil || string(pattern) != rc.pattern {
		rc.pattern = string(pattern)
		rc.re, rc.err = regexp.Compile(rc.pattern)
		if rc.err != nil {
			rc.err = fmt.Errorf("invalid regular expression %q: %w", rc.pattern, rc.err)
		}
	}
	return rc.re, rc.err
}

// releaseOnError drops arr when err is set, for kernels that detect errors
// while filling a result.
func releaseOnError(arr arrow.Array, err error) (arrow.Array, error) {
	if err != nil {
		arr.Release()
		return nil, err
	}
	return arr, nil
}

// wrapError names the call an error comes from; nil stays nil.
func wrapError(c *planner.Call, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", c, err)
}

// rangeError reports a date or timestamp result out of the type's range.
func rangeError(c *planner.Call) func(int) error {
	return rowError(c, func(int) string { return "result out of range" })
}
