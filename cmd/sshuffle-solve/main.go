// Command sshuffle-solve is `sshuffle solve` in a binary of its own: the
// games and their solvers with nothing of the server (SSH, screens, the
// store, metrics). Comparing our solvers' memory with another solver's
// whole process is fair only without the arcade's code and its packages'
// start-up in the count.
//
//	sshuffle-solve freecell --deals 1-32000 --workers 1
package main

import (
	"os"

	"sshuffle/internal/solve"
)

func main() {
	os.Exit(solve.Run(os.Args[1:], os.Stdout, os.Stderr))
}
