package arcade

import (
	"context"
	"fmt"
	"sync"

	"charm.land/ssh"

	"sshuffle/arcade/bot"
	"sshuffle/arcade/hub"
)

// botSessions are the bot protocol's sessions, which no Bubble Tea program
// runs: Shutdown ends them itself, before it closes the rooms they sit in.
type botSessions struct {
	mu      sync.Mutex
	stopped bool
	cancels map[*context.CancelFunc]struct{}
	wg      sync.WaitGroup
	// shared holds each bot account's limits over all its sessions.
	shared bot.Shared
	// stored are the table games stored lately, for the gameOver.
	stored storedGames
}

// start counts a session in; false once the server is stopping.
func (b *botSessions) start(cancel *context.CancelFunc) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped {
		return false
	}
	if b.cancels == nil {
		b.cancels = map[*context.CancelFunc]struct{}{}
	}
	b.cancels[cancel] = struct{}{}
	b.wg.Add(1)
	return true
}

func (b *botSessions) done(cancel *context.CancelFunc) {
	b.mu.Lock()
	delete(b.cancels, cancel)
	b.mu.Unlock()
	b.wg.Done()
}

// stop ends every bot session and waits for each to leave its tables.
func (b *botSessions) stop() {
	b.mu.Lock()
	b.stopped = true
	for c := range b.cancels {
		(*c)()
	}
	b.mu.Unlock()
	b.wg.Wait()
}

// isBotCommand: the session asks for the bot protocol (ssh HOST bot).
func isBotCommand(args []string) bool { return len(args) == 1 && args[0] == "bot" }

// runBot speaks the bot protocol (docs/bots.md) to a session of an account
// marked as a bot. Refusals are one line on stderr with exit status 1,
// like a bad command's.
func (s *Server) runBot(sess ssh.Session) {
	refuse := func(format string, a ...any) {
		_, _ = fmt.Fprintf(sess.Stderr(), format+"\n", a...)
		_ = sess.Exit(1)
	}
	id := identityOf(sess)
	if _, _, pty := sess.Pty(); pty {
		refuse("sshuffle: a bot speaks JSON Lines without a terminal: connect with ssh -T.")
		return
	}
	if id.Guest || id.ID == "" {
		refuse("sshuffle: a bot connects with a key; register it first: ssh NAME@HOST bot register")
		return
	}
	if id.Err != nil || id.Name == "" {
		refuse("sshuffle: this key has no bot account yet; register it first: ssh NAME@HOST bot register")
		return
	}
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	isBot, err := s.store.IsBot(ctx, id.ID)
	switch {
	case err != nil:
		s.log.Error("reading a bot mark", "error", err.Error())
		refuse("sshuffle: the server cannot check this account right now; try again in a minute.")
		return
	case !isBot:
		refuse("sshuffle: %s is not a bot account; a key becomes one with: ssh HOST bot register", id.Name)
		return
	}
	if !s.bots.start(&cancel) {
		refuse("sshuffle: the server is shutting down.")
		return
	}
	defer s.bots.done(&cancel)
	s.metrics.sessions.WithLabelValues("bot").Inc()
	defer s.metrics.sessions.WithLabelValues("bot").Dec()
	p := hub.Person{ID: id.ID, Name: id.Name, Addr: addrKey(sess.RemoteAddr()), Bot: true}
	err = bot.Serve(ctx, bot.Config{
		Hub: s.hub, Kit: s.games.TableKit, Person: p,
		TurnClock: s.cfg.TableClock, Pace: s.cfg.TablePace, Hold: s.cfg.TableHold, Break: s.cfg.TableBreak,
		Shared: &s.bots.shared, Rated: true, Stored: s.botStored,
	}, sess, sess)
	if err != nil {
		_ = sess.Exit(1)
		return
	}
	_ = sess.Exit(0)
}
