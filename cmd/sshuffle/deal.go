package main

import (
	"fmt"
	"io"
	"strconv"

	"sshuffle/engine"
	"sshuffle/games"
)

func deal(args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 || len(args) > 3 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	entry, ok := games.Default().Game(args[0])
	ok = ok && entry.Text != nil // the table games have no deal to print yet
	if !ok {
		fmt.Fprintf(stderr, "sshuffle deal: unknown game %q\n", args[0])
		return 2
	}
	seed, err := strconv.ParseUint(args[1], 10, 64)
	if err != nil {
		fmt.Fprintf(stderr, "sshuffle deal: %q is not a deal number\n", args[1])
		return 2
	}
	spec := engine.Spec{Game: args[0], Seed: seed}
	if len(args) == 3 {
		spec.Variant = args[2]
	}
	out, err := entry.Text(spec)
	if err != nil {
		fmt.Fprintf(stderr, "sshuffle deal: %v\n", err)
		return 1
	}
	fmt.Fprint(stdout, out)
	return 0
}
