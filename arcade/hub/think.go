package hub

import (
	"runtime"
	"time"

	"sshuffle/engine"
)

// A computer player's turn, off the room's goroutine. When the turn falls
// due at the table's pace, the room takes the seat's view and hands the
// thinking to the pace timer's goroutine; the room goes on answering its
// members and pushing states meanwhile, and takes the answer as a command
// of its own, playing it only if the game is still where it was when the
// thinking began.

// thinkers bounds the computer players thinking at once in the process to
// the processors Go runs goroutines on, so that the computers of hundreds
// of tables falling due together take turns at them rather than each
// crowding the rooms and sessions off the processors. A choice waiting its
// turn is a parked goroutine and nothing more.
var thinkers = make(chan struct{}, runtime.GOMAXPROCS(0))

// decision is one computer turn in the making.
type decision struct {
	// What the room looked at: the game, how far it had gone, and the
	// pace alarm's generation, which a stop moves on.
	game    engine.TableGame
	actions int
	seat    int
	gen     uint64
	standIn bool // a stand-in plays for a person
	think   func() []byte
	gone    <-chan struct{} // closed once the room has ended: no one awaits the answer
	action  []byte          // think's answer
	broke   bool            // think panicked: a bug in a game package
}

// run thinks on the calling goroutine, which is never the room's, once a
// place among the thinkers is free, unless the room ended meanwhile (a
// server shutting down has every table's computer waiting at once). A
// panic is caught here: no middleware watches this goroutine, and the
// table it broke is ended by the room.
func (d *decision) run() {
	thinkers <- struct{}{}
	defer func() {
		<-thinkers
		if r := recover(); r != nil {
			d.broke = true
		}
	}()
	select {
	case <-d.gone:
		return
	default:
	}
	d.action = d.think()
}

// setPace arms the computer's turn after d. Until its answer is in, the
// table has a choice in the making and arms no other (thinking): a player
// thinks for one turn at a time. Stopping the alarm meanwhile (the person
// came back, a pause, the end) turns the answer into nothing but a new
// look at whose turn it is.
func (t *Table) setPace(d time.Duration) {
	a := &t.pace
	a.stop()
	gen := a.gen
	a.t = t.h.clock.AfterFunc(d, func() {
		var job *decision
		err := t.loop.wait(func() {
			if a.gen != gen {
				return
			}
			a.t = nil
			_ = t.guarded(func() error {
				job = t.computerTurn(gen)
				return nil
			})
			t.thinking = job != nil
		})
		if err != nil || job == nil {
			return
		}
		job.run()
		_ = t.loop.wait(func() {
			t.thinking = false
			_ = t.guarded(func() error { return t.computerMove(job) })
		})
	})
}

// computerTurn takes what the thinking needs for the seat to act: its
// computer player, or for a person, the stand-in; nil when no computer is
// to act.
func (t *Table) computerTurn(gen uint64) *decision {
	if t.ended || t.phase != TablePlaying || t.paused {
		return nil
	}
	seat := t.game.Turn()
	if seat == engine.NoSeat {
		return nil
	}
	s := t.seats[seat]
	p := s.player
	standIn := s.computer == "" || s.gone
	if standIn {
		if s.standIn == nil {
			pl, err := t.kit.NewPlayer(t.kit.Info().StandInStrength(), playerSeed(t.spec.Seed, seat, 2))
			if err != nil {
				t.end(ErrTableBroke.Error(), true)
				return nil
			}
			s.standIn = pl
		}
		p = s.standIn
	}
	return &decision{game: t.game, actions: t.game.Actions(), seat: seat, gen: gen, standIn: standIn,
		think: t.game.Choice(seat, p), gone: t.loop.done}
}

// computerMove plays a computer's answer, if the table is still where it
// was when the thinking began; if not, the table looks again at whose
// turn it is, which asks again when it is still a computer's.
func (t *Table) computerMove(d *decision) error {
	if t.ended {
		return nil
	}
	if d.broke {
		t.broken = true
		t.end(ErrTableBroke.Error(), true)
		return nil
	}
	if d.gen != t.pace.gen || t.phase != TablePlaying || t.paused || t.game != d.game ||
		t.game.Actions() != d.actions || t.game.Turn() != d.seat {
		t.step()
		return nil
	}
	if d.standIn {
		t.seats[d.seat].stoodIn = true
	}
	// A computer player that chooses an illegal action is a bug in a game
	// package; PlayChosen makes a legal action instead rather than stall
	// the table with everyone waiting, and fails only when there is none.
	if err := t.game.PlayChosen(d.seat, d.action); err != nil {
		t.end(ErrTableBroke.Error(), true)
		return nil
	}
	t.acted()
	return nil
}
