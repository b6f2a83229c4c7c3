package main

import (
	"fmt"
	"io"
	"strconv"

	"sshuffle/engine"
	"sshuffle/games/freecell"
)

// replay checks a FreeCell solution in standard notation read from in:
// one of ours, or what fc-solve -m -snx prints.
func replay(args []string, in io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 2 || args[0] != "freecell" {
		fmt.Fprint(stderr, "usage: sshuffle replay freecell DEAL < moves.txt\n")
		return 2
	}
	n, err := strconv.ParseUint(args[1], 10, 64)
	if err != nil {
		fmt.Fprintf(stderr, "sshuffle replay: %q is not a deal number\n", args[1])
		return 2
	}
	text, err := io.ReadAll(in)
	if err != nil {
		fmt.Fprintln(stderr, "sshuffle replay:", err)
		return 2
	}
	// Our own lists and fc-solve's whole output (fc-solve -m -snx) alike.
	moves := freecell.MovesOf(string(text))
	spec := engine.Spec{Game: "freecell", Seed: n}
	won, at, err := freecell.Replay(spec, moves)
	switch {
	case err != nil:
		fmt.Fprintf(stdout, "deal %d: move %d (%q) fails: %v\n", n, at+1, moveAt(moves, at), err)
		return 1
	case !won:
		fmt.Fprintf(stdout, "deal %d: all %d moves are legal, but the game is not won\n", n, len(moves))
		return 1
	}
	fmt.Fprintf(stdout, "deal %d: won in %d moves\n", n, len(moves))
	return 0
}

func moveAt(moves []string, i int) string {
	if i >= 0 && i < len(moves) {
		return moves[i]
	}
	return ""
}
