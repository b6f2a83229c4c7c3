package solitaire

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"sshuffle/games"
)

// BenchmarkGameFrame is one frame of a Klondike game at 80x24 after a
// cursor move: the work every key press costs the server per session.
func BenchmarkGameFrame(b *testing.B) {
	for _, c := range []struct {
		name  string
		index int
	}{{"klondike", 0}, {"spider2", 4}} {
		b.Run(c.name, func(b *testing.B) {
			e, _ := testEnv(b)
			s, err := dealNew(e, games.Default().Entries()[c.index])
			if err != nil {
				b.Fatal(err)
			}
			a := drive(s)
			right := tea.KeyPressMsg{Code: tea.KeyRight}
			left := tea.KeyPressMsg{Code: tea.KeyLeft}
			b.ReportAllocs()
			for i := range b.N {
				if i%2 == 0 {
					a.Update(right)
				} else {
					a.Update(left)
				}
				_ = a.View()
			}
		})
	}
}
