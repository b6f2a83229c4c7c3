package table

import (
	"os"
	"testing"

	"sshuffle/arcade/ui"
	"sshuffle/engine"
	"sshuffle/games/kings"
	"sshuffle/games/spite"
)

func TestLook(t *testing.T) {
	if os.Getenv("LOOK") == "" {
		t.Skip()
	}
	for _, color := range []bool{true, false} {
		e, _ := testEnv(color)
		g := kingsGame(t, 7, 4)
		seats := []Seat{{Name: "ann"}, {Name: "bob", Computer: true, Strength: "hard"}, {Name: "cy"}, {Name: "dee", Away: true}}
		st := KingsState{Common: Common{Table: "ABCDE", Seats: seats, Clock: 42e9, Log: []string{"bob played 7♣ on the 8♦ (N)", "cy moved W onto N", "dee ended the turn"}}, View: g.View(g.Turn())}
		s := NewKings(e, Config[kings.Action]{Table: "ABCDE", Act: func(kings.Action) {}}, st)
		r := ui.NewRouter(e, build, s, "")
		press(r, "space", "right")
		t.Log("\n" + plainView(r))
		sg := spiteGame(t, 3)
		ss := SpiteState{Common: Common{Table: "X", Seats: seats[:2], Clock: 42e9, Log: []string{"bob played 7♣ on the 6 stack"}}, View: sg.View(sg.Turn())}
		sp := NewSpite(e, Config[spite.Action]{Table: "X", Act: func(spite.Action) {}}, ss)
		r = ui.NewRouter(e, build, sp, "")
		press(r, "space", "up")
		t.Log("\n" + plainView(r))
		ss.View = sg.View(engine.Spectator)
		sp = NewSpite(e, Config[spite.Action]{Table: "X"}, ss)
		r = ui.NewRouter(e, build, sp, "")
		t.Log("\n" + plainView(r))
	}
}
