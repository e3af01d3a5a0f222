package sql

import (
	"maps"
	"slices"
	"strings"
)

// namedWindows holds, while one SELECT block is parsed, the windows its
// WINDOW clause defines and the OVER w or OVER (w …) calls that refer to
// one. The select list comes before the WINDOW clause, so the calls are
// completed when the block ends: each copies what its window defines,
// the way DuckDB's and PostgreSQL's parsers do, and the tree after parsing
// holds only complete window specifications.
type namedWindows struct {
	defs map[string]*WindowSpec
	refs []windowRef
}

// windowRef is a call's reference to a named window: spec is the call's
// own specification, which the named one completes.
type windowRef struct {
	name string
	tok  token
	spec *WindowSpec
}

// over parses what follows OVER: a window name or a specification.
func (p *parser) over() *WindowSpec {
	if t := p.tok(); t.isName() {
		p.advance()
		spec := &WindowSpec{}
		p.referWindow(t, spec)
		return spec
	}
	return p.windowSpec()
}

// windowSpec parses ([window name] [PARTITION BY …] [ORDER BY …] [frame]).
func (p *parser) windowSpec() *WindowSpec {
	p.expectOp("(")
	w := &WindowSpec{}
	if t := p.tok(); t.isName() && !t.isWord("partition") && !t.isWord("rows") && !t.isWord("range") && !t.isWord("groups") {
		p.advance()
		p.referWindow(t, w)
	}
	if p.acceptWord("partition") {
		p.expectWord("by")
		w.PartitionBy = p.exprList()
	}
	if p.acceptWord("order") {
		p.expectWord("by")
		w.OrderBy = p.orderItems()
	}
	if t := p.tok(); p.acceptWord("rows") || p.acceptWord("range") || p.acceptWord("groups") {
		w.Frame = &Frame{Unit: strings.ToUpper(t.text), End: FrameBound{Kind: CurrentRow}}
		if p.acceptWord("between") {
			w.Frame.Start = p.frameBound()
			p.expectWord("and")
			w.Frame.End = p.frameBound()
		} else {
			w.Frame.Start = p.frameBound()
		}
		if p.acceptWord("exclude") {
			w.Frame.Exclude = p.frameExclusion()
		}
	}
	p.expectOp(")")
	return w
}

func (p *parser) frameBound() FrameBound {
	switch {
	case p.acceptWord("unbounded"):
		if p.acceptWord("preceding") {
			return FrameBound{Kind: UnboundedPreceding}
		}
		p.expectWord("following")
		return FrameBound{Kind: UnboundedFollowing}
	case p.acceptWord("current"):
		p.expectWord("row")
		return FrameBound{Kind: CurrentRow}
	}
	offset := p.concat()
	if p.acceptWord("preceding") {
		return FrameBound{Kind: Preceding, Offset: offset}
	}
	p.expectWord("following")
	return FrameBound{Kind: Following, Offset: offset}
}

// frameExclusion parses what follows EXCLUDE.
func (p *parser) frameExclusion() FrameExclusion {
	switch {
	case p.acceptWord("current"):
		p.expectWord("row")
		return ExcludeCurrentRow
	case p.acceptWord("group"):
		return ExcludeGroup
	case p.acceptWord("ties"):
		return ExcludeTies
	}
	p.expectWord("no")
	p.expectWord("others")
	return ExcludeNoOthers
}

// referWindow records that spec, written at t, refers to the window named
// t: the block being parsed must define it.
func (p *parser) referWindow(t token, spec *WindowSpec) {
	if p.windows == nil {
		panic(errorAt(t, "window %s is not defined: only a SELECT can define one (WINDOW %s AS (…))", quoteIdent(t.text), quoteIdent(t.text)))
	}
	p.windows.refs = append(p.windows.refs, windowRef{name: t.text, tok: t, spec: spec})
}

// windowClause parses WINDOW name AS (specification), …. A definition may
// refer to one defined before it in the clause.
func (p *parser) windowClause() {
	for {
		t := p.tok()
		name := p.ident()
		if _, dup := p.windows.defs[name]; dup {
			panic(errorAt(t, "window %s is defined twice", quoteIdent(name)))
		}
		p.expectWord("as")
		// The select list's references wait for the whole clause; this
		// definition's may only refer to the ones before it.
		pending := p.windows.refs
		p.windows.refs = nil
		spec := p.windowSpec()
		p.completeWindowRefs()
		p.windows.refs = pending
		if p.windows.defs == nil {
			p.windows.defs = map[string]*WindowSpec{}
		}
		p.windows.defs[name] = spec
		if !p.acceptOp(",") {
			return
		}
	}
}

// completeWindowRefs completes every specification that refers to a named
// window with that window's definition (CompleteWindow).
func (p *parser) completeWindowRefs() {
	w := p.windows
	for _, ref := range w.refs {
		def, ok := w.defs[ref.name]
		if !ok {
			msg := "window " + quoteIdent(ref.name) + " is not defined"
			if near := Closest(ref.name, slices.Sorted(maps.Keys(w.defs))); near != "" {
				msg += "; did you mean " + quoteIdent(near) + "?"
			}
			panic(errorAt(ref.tok, "%s", msg))
		}
		if msg := CompleteWindow(ref.spec, def, ref.name); msg != "" {
			panic(errorAt(ref.tok, "%s", msg))
		}
	}
	w.refs = w.refs[:0]
}

// CompleteWindow completes spec, which refers to the window named name,
// with that window's definition def, as the SQL standard says: spec keeps
// def's PARTITION BY, may add an ORDER BY only where def has none, and a
// frame where def has none. It returns what is wrong when spec breaks
// those rules, "" otherwise.
func CompleteWindow(spec, def *WindowSpec, name string) string {
	switch {
	case len(spec.PartitionBy) > 0:
		return "a window that refers to window " + quoteIdent(name) + " takes its PARTITION BY and cannot have its own"
	case len(spec.OrderBy) > 0 && len(def.OrderBy) > 0:
		return "window " + quoteIdent(name) + " has an ORDER BY already; a window that refers to it cannot add one"
	case spec.Frame != nil && def.Frame != nil:
		return "window " + quoteIdent(name) + " has a frame already; a window that refers to it cannot add one"
	}
	spec.PartitionBy = def.PartitionBy
	if len(spec.OrderBy) == 0 {
		spec.OrderBy = def.OrderBy
	}
	if spec.Frame == nil {
		spec.Frame = def.Frame
	}
	return ""
}

// inWindowScope parses, with parse, the part of a query whose OVER w calls
// refer to the windows in defs, and completes them.
func (p *parser) inWindowScope(defs map[string]*WindowSpec, parse func()) map[string]*WindowSpec {
	outer := p.windows
	p.windows = &namedWindows{defs: defs}
	parse()
	p.completeWindowRefs()
	defs = p.windows.defs
	p.windows = outer
	return defs
}
