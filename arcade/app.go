package arcade

import (
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"charm.land/ssh"
	"github.com/charmbracelet/colorprofile"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/store"
)

// player is who is on the other end of a session.
type player struct {
	ID    string // key fingerprint; empty for a guest
	Name  string
	Guest bool
}

// env is what every screen of one session shares.
type env struct {
	store   *store.Store
	pools   *Pools
	log     *slog.Logger
	now     func() time.Time
	player  *player
	unicode bool
	color   bool // false: the client has no colour, so shapes must carry meaning
	width   int
	height  int
	idle    time.Duration
	bg      *searches     // the server's cap on background searches; nil: none
	done    chan struct{} // closed when the session ends; nil: never
	bgState *background
	metrics *metrics // nil in model tests
}

// screen is one page of the UI. Each screen is its own small model; the app
// routes messages to the current one and switches on the msgs they return.
type screen interface {
	update(msg tea.Msg) (screen, tea.Cmd)
	view() string
	// minSize is the smallest window the screen can be drawn in.
	minSize() (w, h int)
}

// Messages screens use to ask the app for a change of screen.
type (
	gotoMenuMsg    struct{}
	gotoScreenMsg  struct{ s screen }
	shutdownMsg    struct{}
	idleCheckMsg   struct{}
	quitRequestMsg struct{}
)

// saver is a screen holding something that must be kept when the session
// ends (a game in progress).
type saver interface{ save() }

type app struct {
	env       *env
	cur       screen
	lastInput time.Time
	notice    string
	quitting  bool
	drawn     atomic.Int64  // width<<32 | height, readable from other goroutines
	firstSize chan struct{} // closed by the first size message
	sizeOnce  sync.Once
}

func (s *Server) newApp(sess ssh.Session, pty ssh.Pty) *app {
	e := &env{
		store:   s.store,
		pools:   s.pools,
		log:     s.log,
		now:     s.cfg.Now,
		unicode: wantsUnicode(clientEnv(sess)),
		color:   true,
		width:   pty.Window.Width,
		height:  pty.Window.Height,
		idle:    s.cfg.IdleTimeout,
		bg:      s.searches,
		done:    make(chan struct{}),
		metrics: s.metrics,
	}
	a := &app{env: e, lastInput: e.now(), firstSize: make(chan struct{})}
	a.drawn.Store(int64(e.width)<<32 | int64(e.height))
	p, first, err := s.identify(sess)
	e.player = p
	switch {
	case err != nil:
		s.log.Error("account lookup failed", "error", err.Error())
		a.notice = "Your account could not be loaded right now; you are playing as a guest."
		e.player = &player{Name: "guest", Guest: true}
		a.cur = newMenu(e)
	case p.Guest:
		a.notice = "Guest: nothing is saved. Connect with a key (ssh-keygen -t ed25519) to keep stats."
		a.cur = newMenu(e)
	case first && p.Name == "":
		a.cur = newNamePicker(e, sess.User())
	default:
		if first {
			a.notice = fmt.Sprintf("Welcome, %s! Your key is your account: no sign-up needed.", p.Name)
		} else {
			a.notice = fmt.Sprintf("Welcome back, %s.", p.Name)
		}
		a.cur = newMenu(e)
	}
	return a
}

// identify finds or creates the account of the session's key.
func (s *Server) identify(sess ssh.Session) (p *player, first bool, err error) {
	k := sess.PublicKey()
	if k == nil {
		return &player{Name: "guest", Guest: true}, false, nil
	}
	id := gossh.FingerprintSHA256(k)
	acc, err := s.store.Account(id)
	if err == nil {
		_ = s.store.Touch(id, s.cfg.Now())
		return &player{ID: id, Name: acc.Name}, false, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return nil, false, err
	}
	name := strings.ToLower(sess.User())
	if store.ValidName(name) != nil {
		name = ""
	}
	acc, err = s.store.CreateAccount(id, name)
	if errors.Is(err, store.ErrNameTaken) {
		name = "" // taken: the player picks another
		acc, err = s.store.CreateAccount(id, "")
	}
	if errors.Is(err, store.ErrExists) {
		// Two connections with one new key raced; the other one made it.
		return &player{ID: id, Name: acc.Name}, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	name = acc.Name
	return &player{ID: id, Name: name}, true, nil
}

// wantsUnicode reads the client's locale. OpenSSH sends LANG and LC_* when
// the client is configured to (Debian and macOS are); with none sent we
// assume UTF-8, which nearly every terminal of today speaks.
func wantsUnicode(environ []string) bool {
	vals := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vals[k] = v
		}
	}
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v, ok := vals[k]; ok && v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return true
}

func idleTick(idle time.Duration) tea.Cmd {
	every := min(30*time.Second, max(idle/4, 100*time.Millisecond))
	return tea.Tick(every, func(time.Time) tea.Msg { return idleCheckMsg{} })
}

func (a *app) Init() tea.Cmd { return idleTick(a.env.idle) }

// Update guards the screens: a panic in one is logged with its stack, the
// player is told, and the session ends; the server and everyone else go on.
func (a *app) Update(msg tea.Msg) (model tea.Model, cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			a.env.log.Error("session panic", "player", a.env.player.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			a.quitting = true
			a.notice = "Sorry: sshuffle hit an internal error and closed this session. Your finished games are kept."
			model, cmd = a, tea.Quit
		}
	}()
	return a.update(msg)
}

func (a *app) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case tea.WindowSizeMsg:
		if a.firstSize != nil {
			a.sizeOnce.Do(func() { close(a.firstSize) })
		}
		if m.Width > 0 && m.Height > 0 {
			a.env.width, a.env.height = m.Width, m.Height
			a.drawn.Store(int64(m.Width)<<32 | int64(m.Height))
		}
	case tea.ColorProfileMsg:
		a.env.color = m.Profile > colorprofile.Ascii
	case tea.KeyPressMsg, tea.MouseClickMsg, tea.PasteMsg:
		a.lastInput = a.env.now()
		if k, ok := m.(tea.KeyPressMsg); ok && k.String() == "ctrl+c" {
			return a.quit("")
		}
	case idleCheckMsg:
		if a.env.now().Sub(a.lastInput) >= a.env.idle {
			return a.quit(fmt.Sprintf("Closed after %s without a key press. Your game is saved.", a.env.idle))
		}
		return a, idleTick(a.env.idle)
	case shutdownMsg:
		return a.quit("The server is restarting. Your game is saved; connect again in a minute.")
	case quitRequestMsg:
		return a.quit("")
	case gotoMenuMsg:
		a.cur = newMenu(a.env)
		return a, nil
	case gotoScreenMsg:
		a.cur = m.s
		if i, ok := m.s.(interface{ init() tea.Cmd }); ok {
			return a, i.init()
		}
		return a, nil
	}
	if a.quitting {
		return a, nil
	}
	var cmd tea.Cmd
	a.cur, cmd = a.cur.update(msg)
	if _, isKey := msg.(tea.KeyPressMsg); isKey {
		a.notice = ""
	}
	return a, cmd
}

func (a *app) quit(why string) (tea.Model, tea.Cmd) {
	a.close()
	a.quitting = true
	a.notice = why
	return a, tea.Quit
}

// close keeps whatever the current screen holds. It runs on quit and again
// when the connection drops, so it must be safe to call twice.
func (a *app) close() {
	if sv, ok := a.cur.(saver); ok {
		sv.save()
	}
}

var noticeStyle = lipgloss.NewStyle().Faint(true)

func (a *app) View() (v tea.View) {
	defer func() {
		if r := recover(); r != nil {
			a.env.log.Error("view panic", "player", a.env.player.Name, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			v = tea.NewView("Sorry: sshuffle hit an internal error drawing this screen. Press q to leave.")
			a.cur = newMenu(a.env)
		}
	}()
	var body string
	w, h := a.cur.minSize()
	switch {
	case a.quitting:
		body = a.notice + "\n"
		if a.notice == "" {
			body = "Thanks for playing sshuffle.\n"
		}
	case a.env.width < w || a.env.height < h:
		// Wrapped to the window: a narrow one would cut the sizes off.
		msg := fmt.Sprintf("Make the window at least %dx%d (it is %dx%d now).", w, h, a.env.width, a.env.height)
		body = strings.Join(fitLines(msg, a.env.width, max(a.env.height, 1)), "\n")
	default:
		body = a.cur.view()
		if a.notice != "" {
			body = placeNotice(body, a.notice, a.env.width, a.env.height)
		}
	}
	if !a.env.unicode {
		body = asciiReplacer.Replace(body)
	}
	v = tea.NewView(body)
	if !a.quitting {
		v.AltScreen = true
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = "sshuffle"
	return v
}

// placeNotice puts a one-line notice on the screen's last line.
func placeNotice(body, notice string, width, height int) string {
	lines := strings.Split(body, "\n")
	for len(lines) < height {
		lines = append(lines, "")
	}
	if l := fitLines(notice, width, 1); len(l) > 0 {
		lines[height-1] = noticeStyle.Render(l[0])
	}
	return strings.Join(lines[:height], "\n")
}

// asciiReplacer turns the few non-ASCII marks of the UI into plain text for
// clients whose locale is not UTF-8 (cards already use letters there).
var asciiReplacer = strings.NewReplacer(
	"←↓↑→", "arrows", "↑↓", "up/down", "·", "-", "…", "...",
	"♠ ", "", " ♥", "", "♠", "S", "♥", "H", "♦", "D", "♣", "C", "✗", "x",
)
