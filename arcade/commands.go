package arcade

import (
	"fmt"
	"strings"

	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"
)

const usage = `sshuffle: card games over SSH

  ssh -p 2222 HOST            play (needs a terminal)
  ssh -p 2222 HOST help       this text
  ssh -p 2222 HOST health     "ok" while the server takes players
  ssh -p 2222 HOST whoami     your account name and key fingerprint
  ssh -p 2222 HOST stats      your stats for every game
  ssh -p 2222 HOST top GAME   the all-time leaderboard of GAME
                              (klondike/draw1, klondike/draw3, freecell,
                               spider/1suit, spider/2suit, spider/4suit,
                               tripeaks, pyramid)
`

// commandMiddleware answers sessions that name a command, and sessions with
// no terminal, in plain text.
func (s *Server) commandMiddleware() wish.Middleware {
	return func(next ssh.Handler) ssh.Handler {
		return func(sess ssh.Session) {
			_, _, pty := sess.Pty()
			if raw := sess.RawCommand(); len(raw) > MaxCommandLen {
				// Refused before splitting: the library's splitter is
				// quadratic in the length.
				_, _ = fmt.Fprintf(sess.Stderr(), "sshuffle: that command is %d bytes long; commands are at most %d bytes. Try: ssh HOST help\n", len(raw), MaxCommandLen)
				_ = sess.Exit(1)
				return
			}
			args := sess.Command()
			if len(args) == 0 && pty {
				next(sess)
				return
			}
			s.metrics.sessions.WithLabelValues("command").Inc()
			out, code := s.runCommand(sess, args)
			s.metrics.sessions.WithLabelValues("command").Dec()
			if pty {
				out = strings.ReplaceAll(out, "\n", "\r\n")
			}
			if code == 0 {
				_, _ = fmt.Fprint(sess, out)
			} else {
				_, _ = fmt.Fprint(sess.Stderr(), out)
			}
			_ = sess.Exit(code)
		}
	}
}

func (s *Server) runCommand(sess ssh.Session, args []string) (string, int) {
	if len(args) == 0 {
		return "sshuffle needs a terminal to play: connect with ssh -t, or run a command:\n\n" + usage, 1
	}
	var id string
	if k := sess.PublicKey(); k != nil {
		id = gossh.FingerprintSHA256(k)
	}
	switch args[0] {
	case "help", "--help", "-h":
		return usage, 0
	case "health":
		if err := s.Health(); err != nil {
			return "not ok: " + err.Error() + "\n", 1
		}
		return "ok\n", 0
	case "whoami":
		if id == "" {
			return "You are a guest (no key). Make one with ssh-keygen -t ed25519 to keep your stats.\n", 0
		}
		acc, err := s.store.Account(id)
		if err != nil {
			return "You have not played yet: connect with a terminal to create your account.\n", 0
		}
		name := acc.Name
		if name == "" {
			name = "(no name yet)"
		}
		return fmt.Sprintf("%s\n%s\n", name, id), 0
	case "stats":
		if id == "" {
			return "Guests have no stats.\n", 0
		}
		st, err := s.store.Stats(id)
		if err != nil {
			return "Stats are not available right now.\n", 1
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%-22s %6s %6s %10s %10s\n", "game", "played", "won", "best score", "best time")
		for _, g := range s.games.Entries() {
			x := st[g.Key()]
			fmt.Fprintf(&b, "%-22s %6d %6d %10d %10s\n", g.Key(), x.Played, x.Won, x.BestScore, fmtDuration(x.BestTime))
		}
		return b.String(), 0
	case "top":
		if len(args) != 2 {
			return "usage: top GAME (for example: top klondike/draw1)\n", 1
		}
		g, ok := s.games.Entry(args[1])
		if !ok {
			return fmt.Sprintf("unknown game %q\n\n%s", sanitize(args[1], 40), usage), 1
		}
		rows, err := s.store.Board(g.Key(), "", 20)
		if err != nil {
			return "The leaderboard is not available right now.\n", 1
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s: all time\n", g.Title())
		for i, r := range rows {
			won := "lost"
			if r.Won {
				won = "won"
			}
			fmt.Fprintf(&b, "%3d. %-20s %-4s %6d pts %8s %5d moves\n", i+1, sanitize(r.Name, 20), won, r.Score, fmtDuration(r.Elapsed), r.Moves)
		}
		if len(rows) == 0 {
			b.WriteString("  nobody yet\n")
		}
		return b.String(), 0
	}
	return fmt.Sprintf("unknown command %q\n\n%s", sanitize(strings.Join(args, " "), 60), usage), 1
}
