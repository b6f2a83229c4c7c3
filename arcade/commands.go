package arcade

import (
	"fmt"
	"strings"

	"charm.land/ssh"
	"charm.land/wish/v2"

	"sshuffle/arcade/command"
	"sshuffle/arcade/hub"
)

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
			if isBotCommand(args) {
				s.runBot(sess)
				return
			}
			if pty && (len(args) == 0 || command.IsPlay(args)) {
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
	return command.Run(command.Request{
		Ctx: sess.Context(), Args: args, ID: identityOf(sess).ID, Store: s.store, Games: s.games, Pools: s.pools,
		Health: s.Health, Log: s.log, Now: s.cfg.Now, Host: sess.LocalAddr().String(),
		Presence: s.hub.Presence, Tables: s.hub.Tables,
		Addr: addrKey(sess.RemoteAddr()), Names: s.names, User: sess.User(),
		InviteLine: func(code string) string {
			host, port := s.inviteAddr(sess.LocalAddr())
			return hub.InviteLine(host, port, code)
		},
	})
}
