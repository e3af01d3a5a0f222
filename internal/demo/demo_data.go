package demo

// Demo data: a synthetic but plausible clickstream of the fictional Oleander
// retail website, the running example of the tutorial that `lakesql demo`
// sets up. Every day is generated on its own from a PRNG seeded by (start
// date, day index), so days can be produced in any order, on any number of
// goroutines, and the same options always give the same rows.

import (
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Options configure the demo warehouse.
type Options struct {
	Warehouse    string
	CatalogURI   string            // an SQL or REST catalog (catalog.Config); "": the warehouse folder's
	Catalog      string            // the catalog's name, which an SQL catalog stores in its rows; default lakesql
	CatalogProps map[string]string // more catalog properties (catalog.Config.Props): gcs.*, adls.*
	Days         int               // default 7
	EventsPerDay int               // default 10000
	Start        time.Time         // default 2026-01-01 UTC
	Progress     io.Writer         // optional: progress lines
}

// withDefaults fills in the zero fields and moves Start to midnight UTC: the
// demo's days are the UTC calendar days the tutorial partitions by.
func (o Options) withDefaults() Options {
	if o.Days == 0 {
		o.Days = 7
	}
	if o.EventsPerDay == 0 {
		o.EventsPerDay = 10000
	}
	if o.Start.IsZero() {
		o.Start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	y, m, d := o.Start.UTC().Date()
	o.Start = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return o
}

// demoEventsSchema is the Arrow schema of tutorial.retail_clickstream_events.
// The product columns are NULL for events that concern no product, quantity
// is NULL for events that move no goods.
var demoEventsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "event_id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "event_time", Type: &arrow.TimestampType{Unit: arrow.Microsecond}},
	{Name: "session_id", Type: arrow.BinaryTypes.String},
	{Name: "user_id", Type: arrow.PrimitiveTypes.Int64},
	{Name: "event_type", Type: arrow.BinaryTypes.String},
	{Name: "product_id", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "category", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
	{Name: "quantity", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "device", Type: arrow.BinaryTypes.String},
	{Name: "country", Type: arrow.BinaryTypes.String},
}, nil)

// demoSummarySchema is the Arrow schema of
// tutorial.retail_daily_traffic_summary.
var demoSummarySchema = arrow.NewSchema([]arrow.Field{
	{Name: "event_date", Type: arrow.FixedWidthTypes.Date32},
	{Name: "event_type", Type: arrow.BinaryTypes.String},
	{Name: "event_count", Type: arrow.PrimitiveTypes.Int64},
	{Name: "unique_sessions", Type: arrow.PrimitiveTypes.Int64},
	{Name: "unique_users", Type: arrow.PrimitiveTypes.Int64},
}, nil)

// generateDemoDay produces the events of day index d (0-based from Start) as
// record batches of at most batchSize rows by calling emit for each batch
// (emit takes ownership and releases it), and returns the day's traffic
// summary rows as a record batch in demoSummarySchema (sorted by event_type).
//
// Events come out in event_time order, sessions interleaved, and event_id is
// d*EventsPerDay+1 … (d+1)*EventsPerDay, so ids are unique across days and
// increase with time.
func generateDemoDay(opts Options, d int, batchSize int, mem memory.Allocator, emit func(arrow.RecordBatch) error) (summary arrow.RecordBatch, err error) {
	opts = opts.withDefaults()
	switch {
	case opts.Days < 0 || opts.EventsPerDay < 0:
		return nil, errors.New("demo: days and events per day must not be negative")
	case d < 0 || d >= opts.Days:
		return nil, fmt.Errorf("demo: day %d out of range [0, %d)", d, opts.Days)
	case batchSize <= 0:
		return nil, fmt.Errorf("demo: batch size %d must be positive", batchSize)
	}
	g := newDemoDay(opts, d)
	b := newDemoBatchBuilder(mem, batchSize)
	defer b.release()
	if err := g.run(b, emit); err != nil {
		return nil, err
	}
	return g.stats.summary(mem, g.date), nil
}

// demoEventType is an event_type value. The constants are in alphabetical
// order so that the summary, which walks them in order, is sorted.
type demoEventType uint8

const (
	demoAddToCart demoEventType = iota
	demoCheckoutStart
	demoPageView
	demoProductView
	demoPurchase
	demoRemoveFromCart
	demoSearch
	demoEventTypes // number of event types
)

var demoEventTypeNames = [demoEventTypes]string{
	"add_to_cart", "checkout_start", "page_view", "product_view",
	"purchase", "remove_from_cart", "search",
}

// movesGoods reports whether events of type t carry a quantity.
func (t demoEventType) movesGoods() bool {
	return t == demoAddToCart || t == demoRemoveFromCart || t == demoPurchase
}

// demoWeights picks an index with probability proportional to its weight.
// It holds the cumulative weights.
type demoWeights []uint32

func newDemoWeights(weights ...uint32) demoWeights {
	cum := make(demoWeights, len(weights))
	var sum uint32
	for i, w := range weights {
		sum += w
		cum[i] = sum
	}
	return cum
}

func (w demoWeights) pick(r *rand.Rand) int {
	return w.at(r.Uint32N(w[len(w)-1]))
}

// hashed picks by a hash instead of a random draw, for attributes that must
// stay the same wherever the hashed key turns up.
func (w demoWeights) hashed(h uint64) int {
	return w.at(uint32(h % uint64(w[len(w)-1])))
}

// at maps x in [0, total weight) to its index; lists are short, so a linear
// scan beats a binary search.
func (w demoWeights) at(x uint32) int {
	for i, c := range w {
		if x < c {
			return i
		}
	}
	return len(w) - 1
}

// Shares of traffic.
var (
	demoCountries = []string{"US", "DE", "GB", "FR", "CA", "NL", "ES", "IT", "SE", "AU", "JP", "BR"}
	demoCountryW  = newDemoWeights(38, 12, 11, 8, 7, 5, 4, 4, 3, 3, 3, 2)

	demoDevices = []string{"mobile", "desktop", "tablet"}
	demoDeviceW = newDemoWeights(56, 37, 7)

	// Sessions per UTC hour: a quiet night, a morning ramp, a lunch bump
	// and an evening peak.
	demoHourW = newDemoWeights(
		2, 1, 1, 1, 1, 2, 3, 4, 5, 6, 6, 7,
		8, 7, 6, 6, 6, 7, 8, 9, 10, 9, 7, 4)

	// The first event of a session: most visitors land on a page, some
	// arrive on a product page from an ad or a search engine.
	demoLandingTypes = []demoEventType{demoPageView, demoProductView}
	demoLandingW     = newDemoWeights(80, 20)

	// The event mix is not drawn directly: sessions walk a small funnel
	// (nothing leaves a cart that was not put in it), and the weights of
	// its steps below are tuned so that the overall mix lands near
	// page_view 40%, product_view 25%, search 12%, add_to_cart 10%,
	// checkout_start 6%, purchase 4% and remove_from_cart 3%.
	//
	// Browsing: what a visitor does next when not checking out, with an
	// empty cart and with goods in it.
	demoBrowseTypes     = []demoEventType{demoPageView, demoSearch, demoProductView, demoAddToCart}
	demoBrowseW         = newDemoWeights(41, 17, 26, 16)
	demoBrowseCartTypes = []demoEventType{demoPageView, demoSearch, demoProductView, demoAddToCart, demoRemoveFromCart, demoCheckoutStart}
	demoBrowseCartW     = newDemoWeights(13, 5, 12, 7, 19, 44)

	// After checkout_start: most pay, the others go back to shopping.
	demoCheckoutTypes = []demoEventType{demoPurchase, demoPageView, demoProductView, demoRemoveFromCart}
	demoCheckoutW     = newDemoWeights(76, 8, 8, 8)

	// Quantities put into the cart.
	demoQuantityW = newDemoWeights(0, 72, 18, 6, 2, 2) // index = quantity
)

// demoCategories are the catalog's categories with their price ranges in
// whole currency units.
var demoCategories = []struct {
	name     string
	min, max float64
}{
	{"Apparel", 12, 140},
	{"Beauty", 6, 90},
	{"Books", 8, 45},
	{"Electronics", 19, 1200},
	{"Garden", 9, 350},
	{"Home", 10, 400},
	{"Kitchen", 7, 250},
	{"Toys", 8, 150},
}

// demoProduct is one article of the catalog.
type demoProduct struct {
	id       string // P00001 …
	category int    // index into demoCategories
	cents    int64  // price in cents
}

// demoCatalog is the fixed product catalog every day draws from.
type demoCatalog struct {
	products []demoProduct
	// byRank orders products by popularity: a Zipf draw of rank r views
	// byRank[r], so the bestsellers are spread over the catalog rather
	// than being P00001, P00002, ….
	byRank []int
	// byCategory lists the products of each category, for visitors who
	// keep browsing the category they are in.
	byCategory [][]int
}

const demoCatalogSize = 500

// demoProducts builds the catalog once; it does not depend on the options,
// so every demo warehouse sells the same articles at the same prices.
var demoProducts = sync.OnceValue(func() *demoCatalog {
	r := rand.New(rand.NewPCG(demoSeed, 0))
	c := &demoCatalog{
		products:   make([]demoProduct, demoCatalogSize),
		byCategory: make([][]int, len(demoCategories)),
	}
	for i := range c.products {
		cat := r.IntN(len(demoCategories))
		// Prices spread log-uniformly over the category's range and end in
		// .99 or .49, as shop prices do.
		lo, hi := demoCategories[cat].min, demoCategories[cat].max
		whole := int64(lo * math.Pow(hi/lo, r.Float64()))
		cents := whole*100 + 99
		if r.IntN(4) == 0 {
			cents -= 50
		}
		c.products[i] = demoProduct{id: fmt.Sprintf("P%05d", i+1), category: cat, cents: cents}
		c.byCategory[cat] = append(c.byCategory[cat], i)
	}
	c.byRank = r.Perm(demoCatalogSize)
	return c
})

const (
	demoMicrosPerSecond = int64(time.Second / time.Microsecond)
	demoMicrosPerHour   = 3600 * demoMicrosPerSecond
	demoMicrosPerDay    = 24 * demoMicrosPerHour
)

// demoEvent is the next event of a session, drawn ahead so that the session
// can wait in the heap ordered by its time.
type demoEvent struct {
	time    int64 // microseconds since the epoch
	typ     demoEventType
	product int // catalog index, -1 for none
	qty     int32
}

// demoCartLine is a product in a session's cart.
type demoCartLine struct {
	product int
	qty     int32
}

// demoSession is a visit in progress.
type demoSession struct {
	seq      int    // order of the session's start within the day
	id       []byte // session_id
	user     int64
	device   string
	country  string
	left     int // events still to emit, counting next
	next     demoEvent
	viewed   int // last product viewed, -1 for none
	cart     []demoCartLine
	checkout bool  // checkout started, not yet paid or given up
	buying   bool  // paying: one purchase event per cart line follows
	seen     uint8 // bit t is set once the session emitted an event of type t
}

// demoSessionHeap orders open sessions by the time of their next event, then
// by start order so that ties break deterministically.
type demoSessionHeap []*demoSession

func (h demoSessionHeap) Len() int { return len(h) }
func (h demoSessionHeap) Less(i, j int) bool {
	if h[i].next.time != h[j].next.time {
		return h[i].next.time < h[j].next.time
	}
	return h[i].seq < h[j].seq
}
func (h demoSessionHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *demoSessionHeap) Push(x any)   { *h = append(*h, x.(*demoSession)) }
func (h *demoSessionHeap) Pop() any {
	old := *h
	s := old[len(old)-1]
	*h = old[:len(old)-1]
	return s
}

// demoSessionPlan is when a session starts and how many events it has.
type demoSessionPlan struct {
	start  int64
	events int
}

// demoDay generates one day.
type demoDay struct {
	r        *rand.Rand
	popular  *rand.Zipf // popularity rank of a viewed product
	catalog  *demoCatalog
	users    int // user ids are 1 … users
	firstID  int64
	dayStart int64 // microseconds since the epoch
	dayEnd   int64
	date     int32  // days since the epoch
	idPrefix []byte // session ids are the prefix and a sequence number
	events   int
	stats    demoDayStats
	free     []*demoSession // ended sessions, reused to spare allocations
}

// demoSeed seeds the catalog and, mixed with the start date, every day, so
// that the demo's streams differ from those of code seeding a PCG with small
// numbers.
const demoSeed = 0x6f6c65616e646572 // "oleander"

func newDemoDay(opts Options, d int) *demoDay {
	day := opts.Start.AddDate(0, 0, d)
	start := day.UnixMicro()
	users := max(opts.EventsPerDay/2, 100)
	r := rand.New(rand.NewPCG(demoSeed^uint64(opts.Start.Unix()), uint64(d)))
	return &demoDay{
		r: r,
		// s=1.1, v=8 gives the head products a few percent of the views
		// each while the long tail still sells.
		popular:  rand.NewZipf(r, 1.1, 8, demoCatalogSize-1),
		catalog:  demoProducts(),
		users:    users,
		firstID:  int64(d)*int64(opts.EventsPerDay) + 1,
		dayStart: start,
		dayEnd:   start + demoMicrosPerDay,
		date:     int32(start / demoMicrosPerDay),
		idPrefix: day.AppendFormat(nil, "S20060102-"),
		events:   opts.EventsPerDay,
		stats:    newDemoDayStats(users),
	}
}

// run emits the day's events in time order: sessions start as planned and
// wait in a heap keyed by the time of their next event.
func (g *demoDay) run(b *demoBatchBuilder, emit func(arrow.RecordBatch) error) error {
	plan := g.plan()
	var open demoSessionHeap
	next := 0 // first plan entry not yet opened
	for id := g.firstID; next < len(plan) || len(open) > 0; id++ {
		for next < len(plan) && (len(open) == 0 || plan[next].start <= open[0].next.time) {
			heap.Push(&open, g.open(next, plan[next]))
			next++
		}
		s := open[0]
		b.append(id, s, g.catalog)
		g.stats.add(s)
		if g.advance(s) {
			heap.Fix(&open, 0)
		} else {
			heap.Pop(&open)
			g.free = append(g.free, s)
		}
		if b.rows() == b.size {
			if err := emit(b.rb.NewRecordBatch()); err != nil {
				return err
			}
		}
	}
	if b.rows() > 0 {
		return emit(b.rb.NewRecordBatch())
	}
	return nil
}

// plan draws the day's sessions, sorted by start, with exactly g.events
// events between them.
func (g *demoDay) plan() []demoSessionPlan {
	var plan []demoSessionPlan
	for left := g.events; left > 0; {
		n := min(g.sessionLength(), left)
		left -= n
		start := g.dayStart + int64(demoHourW.pick(g.r))*demoMicrosPerHour + g.r.Int64N(demoMicrosPerHour)
		plan = append(plan, demoSessionPlan{start: start, events: n})
	}
	slices.SortFunc(plan, func(a, b demoSessionPlan) int { return cmp.Compare(a.start, b.start) })
	return plan
}

// sessionLength draws a session's number of events: a quarter of the
// visitors bounce after one page, the others stay for about ten events.
func (g *demoDay) sessionLength() int {
	if g.r.IntN(4) == 0 {
		return 1
	}
	return min(2+int(g.r.ExpFloat64()*9), 80)
}

// open starts the seq-th session of the day with its landing event.
func (g *demoDay) open(seq int, p demoSessionPlan) *demoSession {
	var s *demoSession
	if n := len(g.free); n > 0 {
		s, g.free = g.free[n-1], g.free[:n-1]
	} else {
		s = new(demoSession)
	}
	*s = demoSession{
		seq:    seq,
		id:     demoAppendPadded(append(s.id[:0], g.idPrefix...), seq+1, 6),
		left:   p.events,
		viewed: -1,
		cart:   s.cart[:0],
	}
	g.visitor(s)
	s.next = g.event(s, demoLandingTypes[demoLandingW.pick(g.r)])
	s.next.time = p.start
	return s
}

// visitor draws who visits. Squaring the uniform draw makes low user ids,
// the loyal customers, come back often: half the sessions belong to the
// first quarter of the users. Each user lives in one country, on every day,
// and mostly uses one device.
func (g *demoDay) visitor(s *demoSession) {
	u := g.r.Float64()
	s.user = 1 + int64(float64(g.users)*u*u)
	h := demoMix64(uint64(s.user))
	s.country = demoCountries[demoCountryW.hashed(h)]
	s.device = demoDevices[demoDeviceW.hashed(h>>32)]
	if g.r.IntN(5) == 0 {
		s.device = demoDevices[demoDeviceW.pick(g.r)]
	}
}

// demoMix64 (SplitMix64's finalizer) scrambles a user id into stable
// per-user attributes.
func demoMix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// demoAppendPadded appends n in decimal, zero-padded to at least width digits.
func demoAppendPadded(b []byte, n, width int) []byte {
	var digits [20]byte
	i := len(digits)
	for n > 0 || i > len(digits)-width {
		i--
		digits[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, digits[i:]...)
}

// advance draws the session's next event after the one just emitted; it
// reports false when the session has ended.
func (g *demoDay) advance(s *demoSession) bool {
	s.left--
	if s.left == 0 {
		return false
	}
	prev := s.next
	s.next = g.event(s, g.nextType(s))
	s.next.time = g.after(prev.time, g.gap(prev.typ, s.next.typ))
	return true
}

// nextType walks the funnel: the checkout mix once checkout started,
// otherwise the browsing mix for the state of the cart.
func (g *demoDay) nextType(s *demoSession) demoEventType {
	if s.buying {
		return demoPurchase
	}
	var t demoEventType
	switch {
	case s.checkout:
		t = demoCheckoutTypes[demoCheckoutW.pick(g.r)]
	case len(s.cart) > 0:
		t = demoBrowseCartTypes[demoBrowseCartW.pick(g.r)]
	default:
		t = demoBrowseTypes[demoBrowseW.pick(g.r)]
	}
	if t == demoAddToCart && s.viewed < 0 {
		return demoProductView // nothing seen yet to add
	}
	return t
}

// event makes an event of type t and applies it to the session's cart.
func (g *demoDay) event(s *demoSession, t demoEventType) demoEvent {
	e := demoEvent{typ: t, product: -1}
	// Any step but paying leaves the checkout.
	s.checkout = false
	switch t {
	case demoProductView:
		e.product = g.product(s)
		s.viewed = e.product
	case demoAddToCart:
		e.product, e.qty = s.viewed, int32(demoQuantityW.pick(g.r))
		s.addToCart(e.product, e.qty)
	case demoRemoveFromCart:
		line := g.r.IntN(len(s.cart))
		e.product, e.qty = s.cart[line].product, s.cart[line].qty
		s.cart = slices.Delete(s.cart, line, line+1)
	case demoCheckoutStart:
		s.checkout = true
	case demoPurchase:
		// Each cart line is bought by its own purchase event; the
		// session pays for the rest of the cart before doing anything else.
		last := s.cart[len(s.cart)-1]
		e.product, e.qty = last.product, last.qty
		s.cart = s.cart[:len(s.cart)-1]
		s.buying = len(s.cart) > 0
	}
	return e
}

// product draws the product a session views: half the time one of the same
// category as the last one viewed, otherwise by popularity.
func (g *demoDay) product(s *demoSession) int {
	if s.viewed >= 0 && g.r.IntN(2) == 0 {
		same := g.catalog.byCategory[g.catalog.products[s.viewed].category]
		return same[g.r.IntN(len(same))]
	}
	return g.catalog.byRank[g.popular.Uint64()]
}

// addToCart adds qty of product to the cart, merging with a line of the same
// product so that each line is one product.
func (s *demoSession) addToCart(product int, qty int32) {
	for i := range s.cart {
		if s.cart[i].product == product {
			s.cart[i].qty += qty
			return
		}
	}
	s.cart = append(s.cart, demoCartLine{product: product, qty: qty})
}

// gap draws the microseconds between an event of type prev and the next of
// type next: seconds of reading while browsing, a minute or so to pay, and
// a blink between the lines of one order.
func (g *demoDay) gap(prev, next demoEventType) int64 {
	switch {
	case next == demoPurchase && prev == demoPurchase:
		return 20_000 + g.r.Int64N(300_000)
	case next == demoPurchase:
		return 15*demoMicrosPerSecond + int64(g.r.ExpFloat64()*float64(45*demoMicrosPerSecond))
	default:
		return 2*demoMicrosPerSecond + int64(g.r.ExpFloat64()*float64(30*demoMicrosPerSecond))
	}
}

// after returns t+gap, or, for the few sessions running into midnight, a
// time halfway to it: the table is partitioned by day, and a day's events
// stay in that day.
func (g *demoDay) after(t, gap int64) int64 {
	if t+gap < g.dayEnd {
		return t + gap
	}
	return t + (g.dayEnd-1-t)/2
}

// demoDayStats accumulates the traffic summary while events are emitted.
type demoDayStats struct {
	events   [demoEventTypes]int64
	sessions [demoEventTypes]int64
	users    [demoEventTypes]int64
	seen     [demoEventTypes][]uint64 // bitmap of user ids seen per type
}

func newDemoDayStats(users int) demoDayStats {
	var st demoDayStats
	for t := range st.seen {
		st.seen[t] = make([]uint64, users/64+1)
	}
	return st
}

// add counts the session's next event, which is being emitted.
func (st *demoDayStats) add(s *demoSession) {
	t := s.next.typ
	st.events[t]++
	if bit := uint8(1) << t; s.seen&bit == 0 {
		s.seen |= bit
		st.sessions[t]++
	}
	word, bit := s.user/64, uint64(1)<<(s.user%64)
	if st.seen[t][word]&bit == 0 {
		st.seen[t][word] |= bit
		st.users[t]++
	}
}

// summary returns the day's rows of retail_daily_traffic_summary, one per
// event type that occurred.
func (st *demoDayStats) summary(mem memory.Allocator, date int32) arrow.RecordBatch {
	rb := array.NewRecordBuilder(mem, demoSummarySchema)
	defer rb.Release()
	for t := range demoEventTypes {
		if st.events[t] == 0 {
			continue
		}
		rb.Field(0).(*array.Date32Builder).Append(arrow.Date32(date))
		rb.Field(1).(*array.StringBuilder).Append(demoEventTypeNames[t])
		rb.Field(2).(*array.Int64Builder).Append(st.events[t])
		rb.Field(3).(*array.Int64Builder).Append(st.sessions[t])
		rb.Field(4).(*array.Int64Builder).Append(st.users[t])
	}
	return rb.NewRecordBatch()
}

// demoBatchBuilder builds event batches through typed column builders.
type demoBatchBuilder struct {
	rb        *array.RecordBuilder
	size      int
	eventID   *array.Int64Builder
	eventTime *array.TimestampBuilder
	sessionID *array.StringBuilder
	userID    *array.Int64Builder
	eventType *array.StringBuilder
	productID *array.StringBuilder
	category  *array.StringBuilder
	price     *array.Decimal128Builder
	quantity  *array.Int32Builder
	device    *array.StringBuilder
	country   *array.StringBuilder
}

func newDemoBatchBuilder(mem memory.Allocator, size int) *demoBatchBuilder {
	rb := array.NewRecordBuilder(mem, demoEventsSchema)
	return &demoBatchBuilder{
		rb:        rb,
		size:      size,
		eventID:   rb.Field(0).(*array.Int64Builder),
		eventTime: rb.Field(1).(*array.TimestampBuilder),
		sessionID: rb.Field(2).(*array.StringBuilder),
		userID:    rb.Field(3).(*array.Int64Builder),
		eventType: rb.Field(4).(*array.StringBuilder),
		productID: rb.Field(5).(*array.StringBuilder),
		category:  rb.Field(6).(*array.StringBuilder),
		price:     rb.Field(7).(*array.Decimal128Builder),
		quantity:  rb.Field(8).(*array.Int32Builder),
		device:    rb.Field(9).(*array.StringBuilder),
		country:   rb.Field(10).(*array.StringBuilder),
	}
}

func (b *demoBatchBuilder) release() { b.rb.Release() }

func (b *demoBatchBuilder) rows() int { return b.eventID.Len() }

// reserve sizes the buffers for a whole batch up front instead of growing
// them by doubling: value counts exactly, string data by the longest value.
func (b *demoBatchBuilder) reserve(idLen int) {
	b.rb.Reserve(b.size)
	b.sessionID.ReserveData(b.size * idLen)
	b.eventType.ReserveData(b.size * len("remove_from_cart"))
	b.productID.ReserveData(b.size * len("P00000"))
	b.category.ReserveData(b.size * len("Electronics"))
	b.device.ReserveData(b.size * len("desktop"))
	b.country.ReserveData(b.size * len("US"))
}

// append adds the session's next event as row id.
func (b *demoBatchBuilder) append(id int64, s *demoSession, c *demoCatalog) {
	if b.rows() == 0 {
		b.reserve(len(s.id))
	}
	e := &s.next
	b.eventID.Append(id)
	b.eventTime.Append(arrow.Timestamp(e.time))
	b.sessionID.BinaryBuilder.Append(s.id)
	b.userID.Append(s.user)
	b.eventType.Append(demoEventTypeNames[e.typ])
	if e.product >= 0 {
		p := &c.products[e.product]
		b.productID.Append(p.id)
		b.category.Append(demoCategories[p.category].name)
		b.price.Append(decimal128.FromI64(p.cents))
	} else {
		b.productID.AppendNull()
		b.category.AppendNull()
		b.price.AppendNull()
	}
	if e.typ.movesGoods() {
		b.quantity.Append(e.qty)
	} else {
		b.quantity.AppendNull()
	}
	b.device.Append(s.device)
	b.country.Append(s.country)
}
