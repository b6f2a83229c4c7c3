package render

import (
	"strings"
	"sync"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// styleID names a cell style in the server-wide style table. Every session
// draws with the same few dozen styles, so a cell carries two bytes for its
// style and the table, the SGR transitions and their downsampled forms
// exist once for the whole server, not once per session.
type styleID uint16

// maxStyles bounds the table; a style past it draws plain. The screens use
// a few dozen.
const maxStyles = 1 << 14

type sgrKey struct {
	from styleID
	seq  string
}

type transKey struct {
	from, to styleID
	profile  colorprofile.Profile
}

// styles is the shared table. Reads take the read lock only; a miss (a
// style or transition never seen before) is rare after the first frames.
var styles = struct {
	sync.RWMutex
	list   []uv.Style
	byKey  map[string]styleID // uv.Style.String() -> id
	sgr    map[sgrKey]styleID // pen + SGR sequence -> new pen
	trans  map[transKey]string
	bgOnly map[transKey]bool
}{
	list:   []uv.Style{{}},
	byKey:  map[string]styleID{"": 0},
	sgr:    map[sgrKey]styleID{},
	trans:  map[transKey]string{},
	bgOnly: map[transKey]bool{},
}

// sgrMemo is a pen change a screen met: to is the pen after seq from.
type sgrMemo struct {
	seq      string
	from, to styleID
}

// sgrMemos is how many pen changes a screen remembers: more than a
// screen's styles meet one another in a frame, so that a frame's lines are
// parsed without the shared table's lock and map.
const sgrMemos = 32

// applySGR is applySGR, remembered by the screen.
func (s *Screen) applySGR(from styleID, seq string) styleID {
	h := (uint(from)*31 + uint(len(seq))*17 + uint(seq[2])*5 + uint(seq[len(seq)-2])) % sgrMemos
	m := &s.sgrSeen[h]
	if m.from == from && m.seq == seq && m.seq != "" {
		return m.to
	}
	to := applySGR(from, seq)
	// seq is a substring of a frame: keep a copy, not the frame.
	*m = sgrMemo{seq: strings.Clone(seq), from: from, to: to}
	return to
}

// applySGR is the pen after the SGR sequence seq (a whole "ESC [ ... m")
// is applied to pen from.
func applySGR(from styleID, seq string) styleID {
	k := sgrKey{from, seq}
	styles.RLock()
	id, ok := styles.sgr[k]
	styles.RUnlock()
	if ok {
		return id
	}
	styles.RLock()
	st := styles.list[from]
	styles.RUnlock()
	p := ansi.GetParser()
	ansi.DecodeSequence(seq, 0, p)
	uv.ReadStyle(p.Params(), &st)
	ansi.PutParser(p)
	// seq is a substring of a frame: keep a copy, not the frame.
	k.seq = string([]byte(seq))
	styles.Lock()
	defer styles.Unlock()
	id = internLocked(st)
	if len(styles.sgr) < 1<<16 {
		styles.sgr[k] = id
	}
	return id
}

func internLocked(st uv.Style) styleID {
	key := ""
	if !st.IsZero() {
		key = st.String()
	}
	if id, ok := styles.byKey[key]; ok {
		return id
	}
	if len(styles.list) >= maxStyles {
		return 0
	}
	id := styleID(len(styles.list))
	styles.list = append(styles.list, st)
	styles.byKey[key] = id
	return id
}

// transition is the SGR sequence that turns the terminal's pen from one
// style into another, with colours brought down to the client's profile.
func transition(from, to styleID, p colorprofile.Profile) string {
	if from == to {
		return ""
	}
	k := transKey{from, to, p}
	styles.RLock()
	s, ok := styles.trans[k]
	styles.RUnlock()
	if ok {
		return s
	}
	styles.RLock()
	a, b := uv.ConvertStyle(styles.list[from], p), uv.ConvertStyle(styles.list[to], p)
	styles.RUnlock()
	s = uv.StyleDiff(&a, &b)
	if !b.IsZero() {
		// From a pen far from the new one, a reset and the new style in
		// one sequence is shorter than undoing each difference ("22;39;49"
		// and the rest).
		if full := "\x1b[0;" + b.String()[2:]; len(full) < len(s) {
			s = full
		}
	}
	styles.Lock()
	styles.trans[k] = s
	styles.Unlock()
	return s
}

// erasable says whether a blank in style id, at profile p, is what the
// terminal leaves when it erases with the pen in that style: a style of a
// background colour alone (or none). Terminals differ in what else of the
// pen an erased cell keeps, so no other style is erased to.
func erasable(id styleID, p colorprofile.Profile) bool {
	if id == 0 {
		return true
	}
	k := transKey{id, id, p}
	styles.RLock()
	ok, known := styles.bgOnly[k]
	styles.RUnlock()
	if known {
		return ok
	}
	styles.RLock()
	st := uv.ConvertStyle(styles.list[id], p)
	styles.RUnlock()
	ok = st.Fg == nil && st.UnderlineColor == nil && st.Underline == uv.UnderlineNone && st.Attrs == 0
	styles.Lock()
	styles.bgOnly[k] = ok
	styles.Unlock()
	return ok
}
