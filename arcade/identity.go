package arcade

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/arcade/command"
	"sshuffle/arcade/ui"
	"sshuffle/arcade/ui/menu"
	"sshuffle/store"
)

// identity is who a session is, resolved once by identityMiddleware and
// kept in the session's context for everything after it.
type identity struct {
	ID    string // key fingerprint; "" for a guest
	Name  string
	Guest bool
	Bot   bool  // the account is marked as a bot
	First bool  // this session made the account
	Err   error // the account could not be read or made: play as a guest
}

type identityKey struct{}

// identityOf is the session's identity; a guest if none was resolved.
func identityOf(sess ssh.Session) identity {
	if id, ok := sess.Context().Value(identityKey{}).(identity); ok {
		return id
	}
	return identity{Name: "guest", Guest: true}
}

// identityMiddleware resolves the session's key to its account. A session
// that will play makes the account on its first visit; a command only
// looks it up (whoami says "you have not played yet").
func (s *Server) identityMiddleware() wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			_, _, pty := sess.Pty()
			// RawCommand, not Command: the splitter is slow on long input,
			// and the command middleware refuses that after this one.
			raw := sess.RawCommand()
			// Fields, not Command: the library's splitter is slow on long
			// input, and the command middleware refuses that after this one.
			play := pty && (strings.TrimSpace(raw) == "" || (len(raw) <= MaxCommandLen && command.IsPlay(strings.Fields(raw))))
			sess.Context().SetValue(identityKey{}, s.identify(sess, play))
			next(sess)
		}
	}
}

// identify finds the account of the session's key, making it when create
// is set.
func (s *Server) identify(sess ssh.Session, create bool) identity {
	k := sess.PublicKey()
	if k == nil {
		return identity{Name: "guest", Guest: true}
	}
	id := gossh.FingerprintSHA256(k)
	ctx := sess.Context()
	acc, err := s.store.Account(ctx, id)
	switch {
	case err == nil:
		if create {
			_ = s.store.Touch(ctx, id, s.cfg.Now())
		}
		bot, _ := s.store.IsBot(ctx, id)
		return identity{ID: id, Name: acc.Name, Bot: bot}
	case !create && errors.Is(err, store.ErrNotFound):
		return identity{ID: id}
	case !errors.Is(err, store.ErrNotFound):
		return identity{ID: id, Err: err}
	}
	name := strings.ToLower(sess.User())
	if store.ClaimableName(name) != nil {
		name = ""
	}
	acc, err = s.store.CreateAccount(ctx, id, name)
	if errors.Is(err, store.ErrNameTaken) {
		acc, err = s.store.CreateAccount(ctx, id, "") // taken: the player picks another
	}
	if errors.Is(err, store.ErrExists) {
		// Two connections with one new key raced; the other one made it.
		return identity{ID: id, Name: acc.Name}
	}
	if err != nil {
		return identity{ID: id, Err: err}
	}
	return identity{ID: id, Name: acc.Name, First: true}
}

// newApp is the session's router, on the screen its identity calls for.
func (s *Server) newApp(sess ssh.Session, pty ssh.Pty) *ui.Router {
	e := &ui.Env{
		Games:        s.games,
		Store:        s.store,
		Pools:        s.pools,
		Log:          s.log,
		Now:          s.cfg.Now,
		Unicode:      wantsUnicode(clientEnv(sess)),
		Color:        true,
		Width:        pty.Window.Width,
		Height:       pty.Window.Height,
		Idle:         s.cfg.IdleTimeout,
		Searches:     s.searches,
		Names:        s.names,
		Holds:        s.holds,
		Done:         make(chan struct{}),
		GameFinished: s.metrics.gameFinished,
		Hub:          s.hub,
	}
	e.InviteHost, e.InvitePort = s.inviteAddr(sess.LocalAddr())
	e.Prepare()
	id := identityOf(sess)
	e.Player = &ui.Player{ID: id.ID, Name: id.Name, Guest: id.Guest, Bot: id.Bot, Addr: addrKey(sess.RemoteAddr())}
	first, notice := ui.Route{Page: ui.Menu}, ""
	then, refused := s.firstRoute(sess.Command())
	switch {
	case id.Err != nil:
		s.log.Error("account lookup failed", "error", id.Err.Error())
		notice = "Your account could not be loaded right now; you are playing as a guest."
		e.Player = &ui.Player{Name: "guest", Guest: true, Addr: addrKey(sess.RemoteAddr())}
	case id.Guest:
		notice = "Guest: nothing is saved. Connect with a key (ssh-keygen -t ed25519) to keep stats."
	case id.First && id.Name == "":
		first = ui.Route{Page: ui.Name, Tried: sess.User(), Then: then}
		then = nil // after the name
	case id.Name == "":
		// The name picker was skipped (esc, or a dropped first session):
		// ask again, or the boards show this player as "(no name)".
		first = ui.Route{Page: ui.Name, Then: then}
		then = nil
	case id.First:
		notice = fmt.Sprintf("Welcome, %s! Your key is your account: no sign-up needed.", id.Name)
	default:
		notice = fmt.Sprintf("Welcome back, %s.", id.Name)
	}
	e.Connect()
	if then != nil {
		first = *then
	}
	if refused != "" {
		notice = refused
	}
	scr, err := s.build(e, first)
	if err != nil {
		if then == nil {
			s.log.Error("first screen", "error", err.Error())
		}
		// A wrong or expired code, or a race that cannot be opened: the
		// menu says why.
		scr, notice = menu.New(e, ""), err.Error()
	}
	return ui.NewRouter(e, s.build, scr, notice)
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
