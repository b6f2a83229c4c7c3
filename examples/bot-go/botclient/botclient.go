// Package botclient is the example bot's whole client: it connects over
// SSH, speaks the bot protocol of docs/bots.md, and plays simple legal
// moves taken from the list the server sends with every state. The
// example's main (one directory up) reads flags and calls Run; the
// arcade's end-to-end test calls Run the same way.
package botclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// Config says where to connect and what to play.
type Config struct {
	Addr    string // host:port
	User    string // the bot account's name
	Signer  ssh.Signer
	HostKey ssh.HostKeyCallback
	// Seek, when set, opens a table for each match; else the bot waits
	// for challenges and accepts them.
	Seek *Seek
	// Matches is how many matches to play before hanging up; 0: forever.
	Matches int
	// Log gets a line for everything the bot is told and does; nil: none.
	Log io.Writer
	// Rotate, when set, replaces the seek's computer seats match by match
	// with each of these strengths in turn, so that one run meets every
	// built-in player (the seats given as "person" stay so).
	Rotate []string
}

// Seek is a table the bot opens.
type Seek struct {
	Game     string   `json:"game"`
	Settings string   `json:"settings,omitempty"`
	Against  []string `json:"against,omitempty"` // "person", or a computer's strength, per seat
	Pace     string   `json:"pace,omitempty"`    // the computers': steady, quick or instant
	Rated    bool     `json:"rated,omitempty"`   // a rated table: its games move the bot's rating
	// Pool waits in the play-now pool for people instead of opening a
	// table (its tables are rated, at the game's default settings: leave
	// Settings, Against and Pace empty).
	Pool bool `json:"pool,omitempty"`
}

// Summary is what the bot did.
type Summary struct {
	Matches  int
	Games    int
	Won      int      // games won (or gone out first)
	Rejected int      // actions the server refused
	Errors   int      // lines the server answered with an error
	Records  []string // the record (table/game) of every game
	// Histories are the stored games' history ids (ssh HOST replay ID),
	// in order; "" where the server could not say.
	Histories []string
	// Rating is the change the last rated game made to the bot's rating;
	// nil before any.
	Rating *RatingChange
}

// RatingChange is a rated game's effect on the bot's rating and its
// deviation.
type RatingChange struct {
	Before          int `json:"before"`
	After           int `json:"after"`
	DeviationBefore int `json:"deviationBefore"`
	DeviationAfter  int `json:"deviationAfter"`
}

// msg is any message from the server; the fields its type uses are set.
type msg struct {
	Type      string            `json:"type"`
	ID        uint64            `json:"id"`
	Table     string            `json:"table"`
	Game      string            `json:"game"`
	Seat      int               `json:"seat"`
	YourTurn  bool              `json:"yourTurn"`
	Legal     []json.RawMessage `json:"legal"`
	Version   uint64            `json:"version"`
	Winner    int               `json:"winner"`
	MatchOver bool              `json:"matchOver"`
	Record    string            `json:"record"`
	History   string            `json:"history"`
	Rating    *RatingChange     `json:"rating"`
	Reason    string            `json:"reason"`
	Error     string            `json:"error"`
	In        string            `json:"in"`
	Limits    struct {
		LinesPerSecond int `json:"linesPerSecond"`
	} `json:"limits"`
}

// Run plays until cfg.Matches are done, ctx ends or the connection goes.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	var sum Summary
	conn, err := ssh.Dial("tcp", cfg.Addr, &ssh.ClientConfig{
		User: cfg.User, Auth: []ssh.AuthMethod{ssh.PublicKeys(cfg.Signer)}, HostKeyCallback: cfg.HostKey,
	})
	if err != nil {
		return sum, err
	}
	defer conn.Close()
	sess, err := conn.NewSession()
	if err != nil {
		return sum, err
	}
	defer sess.Close()
	in, err := sess.StdinPipe()
	if err != nil {
		return sum, err
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		return sum, err
	}
	var stderr strings.Builder
	sess.Stderr = &stderr
	if err := sess.Start("bot"); err != nil {
		return sum, err
	}
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()

	logf := func(format string, a ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", a...)
		}
	}
	// The server reads at most limits.linesPerSecond lines a second (its
	// hello says how many): lines are spaced to keep under it.
	var gap time.Duration
	var last time.Time
	send := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if wait := time.Until(last.Add(gap)); wait > 0 {
			time.Sleep(wait)
		}
		last = time.Now()
		_, err = in.Write(append(b, '\n'))
		return err
	}
	seeks := 0
	seek := func() error {
		sk := *cfg.Seek
		if len(cfg.Rotate) > 0 && !sk.Pool {
			strength := cfg.Rotate[seeks%len(cfg.Rotate)]
			sk.Against = nil
			for _, w := range cfg.Seek.Against {
				if w != "person" {
					w = strength
				}
				sk.Against = append(sk.Against, w)
			}
		}
		seeks++
		return send(struct {
			Type string `json:"type"`
			*Seek
		}{"seek", &sk})
	}
	games := map[string]string{} // table -> game
	seats := map[string]int{}    // table -> the bot's seat
	acted := map[string]uint64{} // table -> the state version last acted on

	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var m msg
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return sum, fmt.Errorf("a line from the server that is not JSON: %w", err)
		}
		switch m.Type {
		case "hello":
			logf("connected: %s", sc.Text())
			if n := m.Limits.LinesPerSecond; n > 0 {
				gap = time.Second/time.Duration(n) + time.Millisecond
			}
			if cfg.Seek != nil {
				err = seek()
			}
		case "ping":
			err = send(map[string]any{"type": "pong", "id": m.ID})
		case "challenge":
			logf("challenged: %s", sc.Text())
			err = send(map[string]any{"type": "accept", "id": m.ID})
		case "seeking":
			logf("seeking at table %s", m.Table)
		case "tableStart":
			games[m.Table], seats[m.Table] = m.Game, m.Seat
			logf("table %s deals game of %s; we sit in seat %d", m.Table, m.Game, m.Seat+1)
		case "state":
			if !m.YourTurn || len(m.Legal) == 0 || acted[m.Table] == m.Version {
				break
			}
			acted[m.Table] = m.Version
			a := Choose(games[m.Table], m.Legal)
			err = send(map[string]any{"type": "act", "table": m.Table, "action": a})
		case "rejected":
			sum.Rejected++
			logf("rejected: %s", m.Reason)
		case "gameOver":
			sum.Games++
			sum.Records = append(sum.Records, m.Record)
			sum.Histories = append(sum.Histories, m.History)
			if m.Rating != nil {
				sum.Rating = m.Rating
			}
			if m.Winner == seats[m.Table] {
				sum.Won++
			}
			logf("game over: %s", sc.Text())
			if !m.MatchOver {
				break
			}
			sum.Matches++
			if cfg.Matches > 0 && sum.Matches >= cfg.Matches {
				_ = in.Close()
				return sum, nil
			}
			if cfg.Seek != nil {
				err = seek()
			}
		case "tableEnd":
			logf("left table %s: %s", m.Table, m.Reason)
			delete(games, m.Table)
		case "error":
			sum.Errors++
			logf("the server says: %s", m.Error)
			if m.In == "seek" && cfg.Seek != nil {
				// Most likely the lobby's pace, or tables still closing:
				// try again in a moment.
				time.Sleep(time.Second)
				err = seek()
			}
		}
		if err != nil {
			return sum, err
		}
	}
	if err := sc.Err(); err != nil {
		return sum, err
	}
	if stderr.Len() > 0 {
		return sum, errors.New(strings.TrimSpace(stderr.String()))
	}
	return sum, io.ErrUnexpectedEOF
}

// Choose is the example's strategy, the simplest that plays whole games:
// of the legal actions, the first of the kind it likes best. In Spite and
// Malice it plays from the pay-off pile whenever it can (that wins the
// game), else any card to a centre stack, and discards only when nothing
// else goes; in Kings in the Corner it plays a card, else moves a pile,
// and ends the turn last.
func Choose(game string, legal []json.RawMessage) json.RawMessage {
	best, bestScore := legal[0], -1
	for _, a := range legal {
		var act struct {
			Do   string `json:"do"`
			From string `json:"from"`
		}
		if json.Unmarshal(a, &act) != nil {
			continue
		}
		score := 0
		switch {
		case game == "spite" && act.Do == "play" && act.From == "payoff":
			score = 3
		case act.Do == "play":
			score = 2
		case act.Do == "move" || act.Do == "discard":
			score = 1
		}
		if score > bestScore {
			best, bestScore = a, score
		}
	}
	return best
}
