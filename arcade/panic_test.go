package arcade

import (
	"testing"

	"sshuffle/engine"
	"sshuffle/games"
	"sshuffle/internal/sshtest"
)

// boom is a game whose every draw panics: a stand-in for any bug in a
// screen or a rules package.
type boom struct{ engine.Solitaire }

func (boom) Do(engine.Action) error { panic("boom") }

// A panic inside one session ends that session only: the server goes on
// serving others, and the player who hit it is told.
func TestPanicEndsOnlyThatSession(t *testing.T) {
	klondike, _ := games.Default().Game("klondike")
	boomGame := *klondike
	boomGame.Variants = []games.Variant{{Name: "draw1", Title: "Boom"}}
	boomGame.New = func(s engine.Spec, o games.Options) (engine.Solitaire, error) {
		g, err := klondike.New(s, o)
		return boom{g}, err
	}
	cat := games.NewCatalogue(append([]*games.Game{&boomGame}, games.Default().Games()...)...)

	ts := startServerWith(t, Config{Games: cat})
	other := sshtest.Dial(t, ts.addr, "olive", sshtest.NewClientKey(t))
	defer other.Close()
	bystander := sshtest.OpenTerm(t, other, nil)
	bystander.WaitFor("Playing as olive")

	c := sshtest.Dial(t, ts.addr, "pat", sshtest.NewClientKey(t))
	defer c.Close()
	tm := sshtest.OpenTerm(t, c, nil)
	tm.WaitFor("Playing as pat")
	tm.Send("1") // Boom
	tm.WaitFor("Moves 0")
	tm.Send("d") // panics inside Update
	tm.WaitFor("internal error")
	tm.WaitExit()

	// The bystander still plays, and new players still get in.
	bystander.Send("2")
	bystander.WaitFor("Moves 0")
	c2 := sshtest.Dial(t, ts.addr, "quinn", sshtest.NewClientKey(t))
	defer c2.Close()
	sshtest.OpenTerm(t, c2, nil).WaitFor("Playing as quinn")
}
