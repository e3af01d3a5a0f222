package demo

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// demoRow is one generated event, read back from the Arrow batches.
type demoRow struct {
	id       int64
	time     int64
	session  string
	user     int64
	typ      string
	product  *string
	category *string
	cents    *int64
	quantity *int32
	device   string
	country  string
}

// demoTestDay generates day d, checks the batches' shape and returns the
// rows and the summary batch, which the caller releases.
func demoTestDay(t *testing.T, opts Options, d, batchSize int) ([]demoRow, arrow.RecordBatch) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	var rows []demoRow
	summary, err := generateDemoDay(opts, d, batchSize, mem, func(rec arrow.RecordBatch) error {
		defer rec.Release()
		if !rec.Schema().Equal(demoEventsSchema) {
			t.Fatalf("batch schema %v, want %v", rec.Schema(), demoEventsSchema)
		}
		if rec.NumRows() == 0 || rec.NumRows() > int64(batchSize) {
			t.Fatalf("batch of %d rows, want 1…%d", rec.NumRows(), batchSize)
		}
		rows = append(rows, demoRows(t, rec)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !summary.Schema().Equal(demoSummarySchema) {
		t.Fatalf("summary schema %v, want %v", summary.Schema(), demoSummarySchema)
	}
	return rows, summary
}

func demoRows(t *testing.T, rec arrow.RecordBatch) []demoRow {
	t.Helper()
	for c, f := range demoEventsSchema.Fields() {
		if !f.Nullable && rec.Column(c).NullN() > 0 {
			t.Fatalf("NULL in required column %s", f.Name)
		}
	}
	ids := rec.Column(0).(*array.Int64)
	times := rec.Column(1).(*array.Timestamp)
	sessions := rec.Column(2).(*array.String)
	users := rec.Column(3).(*array.Int64)
	types := rec.Column(4).(*array.String)
	products := rec.Column(5).(*array.String)
	categories := rec.Column(6).(*array.String)
	prices := rec.Column(7).(*array.Decimal128)
	quantities := rec.Column(8).(*array.Int32)
	devices := rec.Column(9).(*array.String)
	countries := rec.Column(10).(*array.String)
	rows := make([]demoRow, rec.NumRows())
	for i := range rows {
		r := demoRow{
			id:      ids.Value(i),
			time:    int64(times.Value(i)),
			session: sessions.Value(i),
			user:    users.Value(i),
			typ:     types.Value(i),
			device:  devices.Value(i),
			country: countries.Value(i),
		}
		if products.IsValid(i) {
			r.product = demoPtr(products.Value(i))
		}
		if categories.IsValid(i) {
			r.category = demoPtr(categories.Value(i))
		}
		if prices.IsValid(i) {
			r.cents = demoPtr(int64(prices.Value(i).LowBits()))
		}
		if quantities.IsValid(i) {
			r.quantity = demoPtr(quantities.Value(i))
		}
		rows[i] = r
	}
	return rows
}

func demoPtr[T any](v T) *T { return &v }

// hashDemoRows hashes every value of the rows, NULLs included, but not how
// they were split into batches.
func hashDemoRows(rows []demoRow) string {
	h := sha256.New()
	for _, r := range rows {
		fmt.Fprintf(h, "%d|%d|%s|%d|%s|%v|%v|%v|%v|%s|%s\n", r.id, r.time, r.session, r.user, r.typ,
			demoDeref(r.product), demoDeref(r.category), demoDeref(r.cents), demoDeref(r.quantity), r.device, r.country)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func demoDeref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestDemoDefaults(t *testing.T) {
	o := Options{Start: time.Date(2026, 3, 5, 17, 30, 0, 0, time.FixedZone("X", 3600))}.withDefaults()
	if o.Days != 7 || o.EventsPerDay != 10000 {
		t.Errorf("defaults: %+v", o)
	}
	if want := time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC); !o.Start.Equal(want) {
		t.Errorf("start %v, want %v", o.Start, want)
	}
	if o := (Options{}).withDefaults(); !o.Start.Equal(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("default start %v", o.Start)
	}
}

func TestDemoDeterministic(t *testing.T) {
	opts := Options{Days: 4, EventsPerDay: 3000}
	// Sequential with one batch size, then concurrently with another: the
	// rows must not depend on either.
	sequential := make([]string, opts.Days)
	for d := range opts.Days {
		rows, summary := demoTestDay(t, opts, d, 1000)
		summary.Release()
		sequential[d] = hashDemoRows(rows)
	}
	concurrent := make([]string, opts.Days)
	var wg sync.WaitGroup
	for d := range opts.Days {
		wg.Go(func() {
			rows, summary := demoTestDay(t, opts, d, 777)
			summary.Release()
			concurrent[d] = hashDemoRows(rows)
		})
	}
	wg.Wait()
	if !slices.Equal(sequential, concurrent) {
		t.Errorf("hashes differ:\n%v\n%v", sequential, concurrent)
	}
	if sequential[0] == sequential[1] {
		t.Error("day 0 and day 1 are identical")
	}
	other, summary := demoTestDay(t, Options{Days: 4, EventsPerDay: 3000, Start: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)}, 0, 1000)
	summary.Release()
	if hashDemoRows(other) == sequential[0] {
		t.Error("another start date gives the same rows")
	}
}

func TestDemoRows(t *testing.T) {
	opts := Options{Days: 3, EventsPerDay: 5000}.withDefaults()
	eventTypes := map[string]bool{}
	for _, n := range demoEventTypeNames {
		eventTypes[n] = true
	}
	productEvent := map[string]bool{"product_view": true, "add_to_cart": true, "remove_from_cart": true, "purchase": true}
	quantityEvent := map[string]bool{"add_to_cart": true, "remove_from_cart": true, "purchase": true}
	lastID := int64(0)
	sessionDay := map[string]int{}
	for d := range opts.Days {
		rows, summary := demoTestDay(t, opts, d, 4096)
		summary.Release()
		if len(rows) != opts.EventsPerDay {
			t.Fatalf("day %d: %d rows, want %d", d, len(rows), opts.EventsPerDay)
		}
		dayStart := opts.Start.AddDate(0, 0, d).UnixMicro()
		sessionUser := map[string]int64{}
		for i, r := range rows {
			// event_id is unique and increasing across days.
			if r.id != lastID+1 {
				t.Fatalf("day %d row %d: event_id %d after %d", d, i, r.id, lastID)
			}
			lastID = r.id
			if r.time < dayStart || r.time >= dayStart+demoMicrosPerDay {
				t.Fatalf("event %d at %v is not in day %d", r.id, time.UnixMicro(r.time).UTC(), d)
			}
			if i > 0 && r.time < rows[i-1].time {
				t.Fatalf("event %d goes back in time", r.id)
			}
			if !eventTypes[r.typ] {
				t.Fatalf("event %d: event_type %q", r.id, r.typ)
			}
			if (r.product != nil) != productEvent[r.typ] || (r.category != nil) != productEvent[r.typ] || (r.cents != nil) != productEvent[r.typ] {
				t.Fatalf("event %d (%s): product %v, category %v, price %v", r.id, r.typ, demoDeref(r.product), demoDeref(r.category), demoDeref(r.cents))
			}
			if (r.quantity != nil) != quantityEvent[r.typ] || r.quantity != nil && *r.quantity <= 0 {
				t.Fatalf("event %d (%s): quantity %v", r.id, r.typ, demoDeref(r.quantity))
			}
			if r.cents != nil && *r.cents <= 0 {
				t.Fatalf("event %d: price %d cents", r.id, *r.cents)
			}
			if !slices.Contains(demoDevices, r.device) || !slices.Contains(demoCountries, r.country) {
				t.Fatalf("event %d: device %q, country %q", r.id, r.device, r.country)
			}
			// A session belongs to one user and one day.
			if u, ok := sessionUser[r.session]; ok && u != r.user {
				t.Fatalf("session %s has users %d and %d", r.session, u, r.user)
			}
			sessionUser[r.session] = r.user
			if sd, ok := sessionDay[r.session]; ok && sd != d {
				t.Fatalf("session %s on days %d and %d", r.session, sd, d)
			}
			sessionDay[r.session] = d
		}
	}
}

// TestDemoCarts checks the funnel: goods leave a cart only after they were
// put in it, and are bought only after a checkout started.
func TestDemoCarts(t *testing.T) {
	rows, summary := demoTestDay(t, Options{EventsPerDay: 20000}, 0, 8192)
	summary.Release()
	carts := map[string]map[string]int32{}
	checkout := map[string]bool{}
	for _, r := range rows {
		cart := carts[r.session]
		if cart == nil {
			cart = map[string]int32{}
			carts[r.session] = cart
		}
		switch r.typ {
		case "add_to_cart":
			cart[*r.product] += *r.quantity
		case "remove_from_cart", "purchase":
			if cart[*r.product] != *r.quantity {
				t.Fatalf("event %d: %s of %d × %s, cart holds %d", r.id, r.typ, *r.quantity, *r.product, cart[*r.product])
			}
			if r.typ == "purchase" && !checkout[r.session] {
				t.Fatalf("event %d: purchase without checkout", r.id)
			}
			delete(cart, *r.product)
		case "checkout_start":
			if len(cart) == 0 {
				t.Fatalf("event %d: checkout of an empty cart", r.id)
			}
			checkout[r.session] = true
		}
	}
}

// TestDemoMix checks that the funnel lands near the intended event mix.
func TestDemoMix(t *testing.T) {
	rows, summary := demoTestDay(t, Options{EventsPerDay: 100000}, 0, 1<<16)
	summary.Release()
	want := map[string]float64{
		"page_view": 40, "product_view": 25, "search": 12, "add_to_cart": 10,
		"checkout_start": 6, "purchase": 4, "remove_from_cart": 3,
	}
	count := map[string]int{}
	for _, r := range rows {
		count[r.typ]++
	}
	for typ, pct := range want {
		got := 100 * float64(count[typ]) / float64(len(rows))
		if got < pct*0.75 || got > pct*1.25 {
			t.Errorf("%s: %.1f%% of events, want about %.0f%%", typ, got, pct)
		}
	}
}

func TestDemoSummary(t *testing.T) {
	opts := Options{Days: 2, EventsPerDay: 7000}.withDefaults()
	for d := range opts.Days {
		rows, summary := demoTestDay(t, opts, d, 2500)
		type counts struct {
			events          int64
			sessions, users map[any]bool
		}
		want := map[string]*counts{}
		for _, r := range rows {
			c := want[r.typ]
			if c == nil {
				c = &counts{sessions: map[any]bool{}, users: map[any]bool{}}
				want[r.typ] = c
			}
			c.events++
			c.sessions[r.session] = true
			c.users[r.user] = true
		}
		dates := summary.Column(0).(*array.Date32)
		types := summary.Column(1).(*array.String)
		events := summary.Column(2).(*array.Int64)
		sessions := summary.Column(3).(*array.Int64)
		users := summary.Column(4).(*array.Int64)
		if int(summary.NumRows()) != len(want) {
			t.Errorf("day %d: %d summary rows, want %d", d, summary.NumRows(), len(want))
		}
		wantDate := opts.Start.AddDate(0, 0, d)
		for i := range int(summary.NumRows()) {
			typ := types.Value(i)
			if i > 0 && types.Value(i-1) >= typ {
				t.Errorf("day %d: summary not sorted by event_type at %q", d, typ)
			}
			if got := dates.Value(i).ToTime(); !got.Equal(wantDate) {
				t.Errorf("day %d: event_date %v, want %v", d, got, wantDate)
			}
			c := want[typ]
			if c == nil {
				t.Errorf("day %d: summary row for %q, which has no events", d, typ)
				continue
			}
			if events.Value(i) != c.events || sessions.Value(i) != int64(len(c.sessions)) || users.Value(i) != int64(len(c.users)) {
				t.Errorf("day %d %s: counts %d/%d/%d, want %d/%d/%d", d, typ,
					events.Value(i), sessions.Value(i), users.Value(i), c.events, len(c.sessions), len(c.users))
			}
		}
		summary.Release()
	}
}

func TestDemoOptionErrors(t *testing.T) {
	emit := func(rec arrow.RecordBatch) error { rec.Release(); return nil }
	for _, tc := range []struct {
		opts      Options
		d, batch  int
		wantError bool
	}{
		{Options{Days: 2}, 2, 10, true},
		{Options{Days: 2}, -1, 10, true},
		{Options{Days: 2}, 0, 0, true},
		{Options{EventsPerDay: -5}, 0, 10, true},
		{Options{EventsPerDay: 3}, 6, 10, false},
	} {
		summary, err := generateDemoDay(tc.opts, tc.d, tc.batch, memory.DefaultAllocator, emit)
		if (err != nil) != tc.wantError {
			t.Errorf("%+v day %d batch %d: error %v", tc.opts, tc.d, tc.batch, err)
		}
		if summary != nil {
			summary.Release()
		}
	}
}

func BenchmarkGenerateDemoDay(b *testing.B) {
	opts := Options{EventsPerDay: 100000}.withDefaults()
	emit := func(rec arrow.RecordBatch) error { rec.Release(); return nil }
	b.ReportAllocs()
	for d := 0; b.Loop(); d++ {
		summary, err := generateDemoDay(opts, d%opts.Days, 1<<16, memory.DefaultAllocator, emit)
		if err != nil {
			b.Fatal(err)
		}
		summary.Release()
	}
	b.ReportMetric(float64(opts.EventsPerDay)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
