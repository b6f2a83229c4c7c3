package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The lines a view keeps are the emulator's screen, after writes that move
// the cursor, colour, erase and scroll, and only the touched lines are
// reported changed.
func TestViewKeepsTheScreensLines(t *testing.T) {
	v := newView(20, 4)
	require.Equal(t, uint64(0b11), v.write([]byte("\x1b[2J\x1b[Hab's turn 0:42\r\nsecond")))
	require.Equal(t, uint64(0b1), v.write([]byte("\x1b[1;13H\x1b[48;5;220m41\x1b[m")))
	require.Equal(t, "ab's turn 0:41", v.lines[0])
	require.Equal(t, uint64(0b100), v.write([]byte("\x1b[3;1H🂡 x")))
	require.Equal(t, uint64(0), v.write([]byte("\x1b[3;1H🂡")), "the same text again changes nothing")
	require.Equal(t, uint64(0b10), v.write([]byte("\x1b[2;1H\x1b[K")))
	require.Equal(t, strings.TrimRight(v.emu.String(), "\n"), v.String())
	v.write([]byte("\x1b[4;1Hlast\n\nscrolled"))
	require.Equal(t, strings.TrimRight(v.emu.String(), "\n"), v.String())
}

func TestClockTick(t *testing.T) {
	require.True(t, clockTick(1, "Kings  bob's turn 0:42", "Kings  bob's turn 0:41"))
	require.False(t, clockTick(1, "Kings  bob's turn 0:42", "Kings  ann's turn 0:59"), "a new turn is not a tick")
	require.False(t, clockTick(0b11, "Kings  bob's turn 0:42", "Kings  bob's turn 0:41"), "more than the header changed")
	require.False(t, clockTick(1, "Kings  bob's turn", "Kings  your turn"))
	require.False(t, clockTick(1, "a 1:00", "a 1:00"))
}

// A cond is answered by the write that satisfies it, with the time since
// it was sent, and the others are kept.
func TestSettleConds(t *testing.T) {
	sent := time.Now().Add(-time.Second)
	a, b := newCond(containsLine("ann"), sent), newCond(lineHas(0, "bob", false), sent)
	left := settleConds([]*cond{a, b}, []string{"bob", "ann"}, sent.Add(5*time.Millisecond))
	require.Equal(t, []*cond{b}, left)
	require.Equal(t, 5*time.Millisecond, <-a.seen)
	require.Empty(t, settleConds(left, []string{strings.Repeat(" ", 3), ""}, sent.Add(time.Second)))
	require.Equal(t, time.Second, <-b.seen)
}
