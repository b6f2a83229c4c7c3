package hub

import (
	"strconv"
	"strings"
	"time"

	"sshuffle/engine"
)

// Play and the clock: dealing, a member's action, the computer players at
// the table's pace, the turn clock, the end of a game and of a match, and
// the room's own end. Everything here runs on the table's goroutine.

func (t *Table) start(me *tmember) error {
	if me.ID != t.host {
		return refuse(ErrNotHost, "Only the host, %s, can start the table.", t.hostName())
	}
	if t.phase != TableSeating {
		return refuse(ErrAlreadyStarted, "The table has already started.")
	}
	return t.dealWhenSeated()
}

// dealWhenSeated deals once every person's seat is taken by someone here,
// and otherwise says whom the table waits for.
func (t *Table) dealWhenSeated() error {
	var missing []string
	for i, s := range t.seats {
		switch {
		case s.computer != "":
		case s.person.ID == "" && s.plan.Reserved.ID != "":
			missing = append(missing, s.plan.Reserved.Name)
		case s.person.ID == "":
			missing = append(missing, "seat "+strconv.Itoa(i+1))
		case !s.here:
			missing = append(missing, s.person.Name)
		}
	}
	if len(missing) > 0 {
		return refuse(ErrSeatsOpen, "The table is waiting for %s.", strings.Join(missing, ", "))
	}
	return t.deal()
}

// deal starts a new match on a fresh seed. The seed is drawn from the
// hub's unpredictable source, not counted on from the last one: anyone who
// learnt a finished game's seed could otherwise work out the next deal.
func (t *Table) deal() error {
	t.h.mu.Lock()
	seed := t.h.rand.Uint64()
	t.h.mu.Unlock()
	spec := engine.Spec{Game: t.cfg.Game, Settings: t.cfg.Settings, Seed: seed}
	m, err := t.kit.NewMatch(spec, len(t.seats))
	if err != nil {
		return refuse(ErrBadTable, "The table cannot deal: %v.", err)
	}
	t.spec, t.match, t.gameNo = spec, m, 0
	for i, s := range t.seats {
		if s.gone {
			// A new match gives a lost seat back to its plan: a person's
			// seat is open again at the next seating.
			s.gone, s.person, s.computer = false, Person{}, s.plan.Computer
		}
		s.player, s.standIn = nil, nil
		if s.computer != "" {
			if s.player, err = t.kit.NewPlayer(s.computer, playerSeed(seed, i, 1)); err != nil {
				return refuse(ErrBadTable, "The table cannot seat a computer: %v.", err)
			}
		}
	}
	t.beginGame()
	return nil
}

func playerSeed(seed uint64, seat, kind int) uint64 {
	return engine.NewRNG(seed ^ uint64(seat+1)*0x9e3779b97f4a7c15 ^ uint64(kind)*0xd1b54a32d192ed03).Uint64()
}

func (t *Table) beginGame() {
	t.phase, t.game, t.result = TablePlaying, t.match.Game(), nil
	t.started = t.h.clock.Now()
	t.turnSeat, t.auto = engine.NoSeat, false
	for _, s := range t.seats {
		s.stoodIn, s.goneNow = false, false
	}
	t.addLog("game " + strconv.Itoa(t.gameNo+1) + " is dealt; " + t.name(t.game.Turn()) + " plays first")
	// step first: it starts the turn clock the states then show.
	t.step()
	t.publish()
	t.changed()
	t.save()
}

func (t *Table) act(me *tmember, a []byte) error {
	err := t.refusal(me)
	if err == nil {
		if err = t.game.Do(me.seat, a); err == nil {
			me.refused = ""
			t.acted()
			return nil
		}
		if t.game.NotYourTurn(err) {
			err = TurnOf(t.name(t.game.Turn()))
		}
	}
	// Only the one who tried hears of it; the table did not change.
	t.version++
	me.refused = err.Error()
	t.put(me, t.stateFor(me, t.shared()))
	return err
}

func (t *Table) refusal(me *tmember) error {
	if me.seat < 0 {
		return ErrNotSeated
	}
	switch t.phase {
	case TableSeating:
		return refuse(ErrNotPlaying, "The game has not started yet.")
	case TableBetween:
		return refuse(ErrNotPlaying, "That game is over; the next one is being dealt.")
	case TableFinished:
		return refuse(ErrNotPlaying, "The match is over.")
	}
	if t.paused {
		return refuse(ErrNotPlaying, "The table is waiting for everyone to come back.")
	}
	if turn := t.game.Turn(); turn != me.seat {
		return TurnOf(t.name(turn))
	}
	if t.auto {
		return refuse(ErrNotYourTurn, "Your time ran out: the computer is playing this turn for you.")
	}
	return nil
}

// acted follows every accepted action: the log, the views, the snapshot,
// and the next thing the table waits for.
func (t *Table) acted() {
	t.addLog(t.game.Describe(t.names())...)
	if _, over := t.game.Over(); over {
		t.gameOver()
		return
	}
	t.step()
	t.changed()
	t.saveAction()
}

func (t *Table) addLog(lines ...string) {
	if len(lines) == 0 {
		return
	}
	// A new slice each time: the old one is shared by states already out.
	n := min(len(t.log)+len(lines), MaxLog)
	log := make([]string, 0, n)
	// The last n of the log and the lines, in order.
	if skip := len(t.log) + len(lines) - n; skip < len(t.log) {
		log = append(append(log, t.log[skip:]...), lines...)
	} else {
		log = append(log, lines[skip-len(t.log):]...)
	}
	t.log = log
}

// step sets the one timer the table waits on: a computer's next action at
// the table's pace, or the turn clock of the person to act.
func (t *Table) step() {
	if t.ended || t.phase != TablePlaying || t.paused {
		t.pace.stop()
		t.clock.stop()
		return
	}
	turn := t.game.Turn()
	if turn == engine.NoSeat {
		return
	}
	s := t.seats[turn]
	if turn != t.turnSeat {
		t.turnSeat, t.auto = turn, false
		t.deadline = time.Time{}
		if s.computer == "" && t.cfg.TurnClock > 0 {
			t.deadline = t.h.clock.Now().Add(t.cfg.TurnClock)
		}
		t.pace.stop()
	}
	if s.computer != "" || !s.here || t.auto {
		t.clock.stop()
		if !t.pace.pending() && !t.thinking {
			t.setPace(t.cfg.Speed.gap(t.cfg.Pace))
		}
		return
	}
	t.pace.stop()
	if t.deadline.IsZero() {
		t.clock.stop()
		return
	}
	if !t.clock.pending() {
		t.clock.set(&t.loop, t.h.clock, t.deadline.Sub(t.h.clock.Now()), func() {
			t.auto = true
			t.seats[t.turnSeat].stoodIn = true
			t.addLog(t.name(t.turnSeat) + "'s time ran out; the computer plays the turn")
			t.changed()
			t.step()
		})
	}
}

// guarded runs f so that a panic in a game package (its rules or a
// computer player) ends this table and not the server: the room's
// goroutine is no session's, so no middleware would recover it.
func (t *Table) guarded(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			t.broken = true
			err = ErrTableBroke
			t.end(ErrTableBroke.Error(), true)
		}
	}()
	return f()
}

func (t *Table) gameOver() {
	t.pace.stop()
	t.clock.stop()
	res, _ := t.game.Over()
	t.result = &res
	t.turnSeat, t.auto, t.deadline = engine.NoSeat, false, time.Time{}
	seats := make([]string, len(t.seats))
	rs := make([]ResultSeat, len(t.seats))
	for i, s := range t.seats {
		switch {
		case s.plan.Computer != "":
			rs[i] = ResultSeat{Name: t.name(i), Strength: s.plan.Computer}
		case s.gone && !s.goneNow:
			// Lost in an earlier game of the match: a computer's all along.
			rs[i] = ResultSeat{Name: t.name(i), Strength: s.computer}
		default:
			rs[i] = ResultSeat{Person: s.person, Name: t.name(i), Strength: PersonSeat, StoodIn: s.stoodIn, Gone: s.goneNow}
		}
		seats[i] = rs[i].Strength
	}
	rec, err := recordJSON(t.game.Record(seats))
	more := t.match.Next()
	out := TableResult{
		Code: t.code, Spec: t.spec, GameNo: t.gameNo, Seats: rs, Record: rec, Outcome: res,
		Totals: t.match.Totals(), MatchEnd: !more, MatchWinner: engine.NoSeat, Started: t.started, Ended: t.h.clock.Now(),
		Rated: t.cfg.Rated,
	}
	if !more {
		out.MatchWinner = t.match.Winner()
	}
	t.addLog(t.outcomeWords(res))
	if more {
		t.phase = TableBetween
		t.brk.set(&t.loop, t.h.clock, t.cfg.Break, func() {
			t.gameNo++
			t.beginGame()
		})
		t.save()
	} else {
		t.phase = TableFinished
		t.offerRematch()
		t.unsave()
	}
	t.publish()
	t.changed()
	if err == nil && t.h.onTableResult != nil && t.stillOurs() {
		t.h.onTableResult(out)
		if t.cfg.Rated {
			t.rerate()
		}
	}
}

// stillOurs says whether this node may record the table's result: on a
// node of several, only while it holds the room's lease, so that a copy
// cut off from the others (which another node may have taken over) never
// records a game the taken-over table will record too.
func (t *Table) stillOurs() bool {
	if t.h.relay == nil {
		return true
	}
	if err := t.h.hold(t.code); err != nil {
		t.h.log.Warn("table result not recorded: the room is no longer this node's", "code", t.code, "err", err)
		return false
	}
	return true
}

func (t *Table) outcomeWords(res engine.TableResult) string {
	switch {
	case res.Winner == engine.NoSeat && res.LowWins:
		return "the hand ends with nobody out"
	case res.Winner == engine.NoSeat:
		return "the game ends in a draw"
	case res.LowWins:
		return t.name(res.Winner) + " went out and wins the hand"
	}
	return t.name(res.Winner) + " wins the game"
}

// checkPaused resumes a restored table once its people are back or their
// hold has run out.
func (t *Table) checkPaused() {
	if !t.paused {
		return
	}
	for _, s := range t.seats {
		if s.computer == "" && !s.here && !s.gone {
			return
		}
	}
	t.paused = false
	t.turnSeat = engine.NoSeat
	t.step()
	// step set a full clock for the new turn; the person to act gets what
	// they had left when the table was saved.
	if !t.deadline.IsZero() {
		t.clock.stop()
		if t.left > 0 {
			t.deadline = t.h.clock.Now().Add(t.left)
		} else {
			t.auto = true
		}
		t.step()
	}
}

// checkEmpty ends a table nobody is at after the grace period. A seat held
// for a dropped person counts as someone there: they may still come back.
// Watchers count only at a table planned for computers alone, which its
// host watches; elsewhere a table with no person seated is not kept for
// them.
func (t *Table) checkEmpty() {
	if t.deserted() {
		t.end("Every player has left, so the table has closed.", true)
		return
	}
	busy := t.occupied()
	if busy {
		t.empty.stop()
		return
	}
	if !t.empty.pending() {
		t.empty.set(&t.loop, t.h.clock, t.h.grace, func() {
			t.empty.stop()
			t.checkEmptyNow()
		})
	}
}

func (t *Table) checkEmptyNow() {
	if t.occupied() {
		return
	}
	reason := ""
	if len(t.members) > 0 {
		reason = "Nobody sat at the table, so it has closed."
	}
	t.end(reason, true)
}

// occupied: someone is at the table for the grace period to wait on.
func (t *Table) occupied() bool {
	people := false
	for i, s := range t.seats {
		if s.hold.pending() || t.seatedPerson(i) {
			return true
		}
		people = people || s.plan.Computer == ""
	}
	return !people && len(t.members) > 0
}

// end closes the room. gone says the table is over for good, so its saved
// snapshot goes too; a shutdown keeps it, to be restored at the next start.
func (t *Table) end(reason string, gone bool) {
	if t.ended {
		return
	}
	if !gone && t.unsaved {
		// Kept for the next start with the actions of the turn in play,
		// and the turn clock as it stands (before it is stopped below).
		t.save()
	}
	t.ended = true
	t.pace.stop()
	t.clock.stop()
	t.brk.stop()
	t.empty.stop()
	t.lapse.stop()
	t.talk.shown.stop()
	for _, s := range t.seats {
		s.hold.stop()
	}
	// No clock runs and no offer stands at a closed table.
	t.offer, t.deadline = nil, time.Time{}
	t.version++
	sh := t.shared()
	for _, m := range t.members {
		st := t.stateFor(m, sh)
		st.Phase, st.Reason = TableClosed, reason
		m.out.Put(st)
		m.out.Close()
	}
	t.members = nil
	if gone {
		t.unsave()
	}
	t.h.unlist(t.code)
	t.h.unregister(t.code)
}
