// Command sshuffle serves the card arcade over SSH, and prints deals, solves
// and replays from the command line.
package main

import (
	"fmt"
	"io"
	"os"

	"sshuffle/games"
	"sshuffle/internal/solve"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(args, stderr)
	case "deal":
		return deal(args, stdout, stderr)
	case "solve":
		return solve.Run(args, stdout, stderr)
	case "replay":
		if len(args) > 0 {
			if kit, ok := games.Default().TableKit(args[0]); ok {
				return replayTable(kit.Replay, os.Stdin, stdout, stderr)
			}
		}
		return replay(args, os.Stdin, stdout, stderr)
	case "selfplay":
		return selfplay(args, games.Default(), stdout, stderr)
	case "strengths":
		return strengths(args, games.Default(), stdout, stderr)
	case "ratings":
		return ratings(args, games.Default(), stdout, stderr)
	case "backup":
		return backup(args, stdout, stderr)
	case "restore":
		return restore(args, os.Stdin, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "sshuffle: unknown command %q\n\n%s", cmd, usage)
	return 2
}

const usage = `usage:
  sshuffle [serve] [--addr HOST:PORT] [--data DIR] [--idle 30m] [--max-sessions N] [--max-per-addr N]
        [--metrics-addr 127.0.0.1:9100] [--min-free-mb 256] [--accept-store] [--start-timeout 30s]
        [--max-channels-per-conn 4] [--max-window 400x200] [--max-searches N] [--max-startups 10:30:100]
        [--store badger:DIR | --store nats://HOST:PORT,... --node NAME [--nats-prefix sshuffle]]
        [--host-key FILE] [--trust-proxy CIDR,...] [--invite-host HOST] [--invite-port PORT]
        serve the arcade (env SSHUFFLE_ADDR, SSHUFFLE_DATA, SSHUFFLE_STORE, SSHUFFLE_NODE,
        SSHUFFLE_HOST_KEY); exit 3: the store is damaged, not the one last written, or the disk is
        below the free-space floor (the log says which)
  sshuffle backup --data DIR > FILE
        write a backup of the store (from the running server, or from the store when none runs)
  sshuffle restore --data DIR < FILE
        restore a backup into DIR, whose store must not exist yet
  sshuffle deal freecell N
  sshuffle deal klondike|spider|tripeaks|pyramid SEED [draw1|draw3|1suit|2suit|4suit]
        print a deal's opening layout
  sshuffle solve freecell|klondike|spider|tripeaks|pyramid [DEAL] [--deals A-B] [--draw 1|3] [--suits 1|2|4]
        [--nodes N] [--workers N] [--threads N] [--moves] [--list-won]
        solve deals with the game's solver and report solved / impossible / undecided and the time taken
  sshuffle replay freecell DEAL < moves.txt
        check a FreeCell solution in standard notation (3a a8 2h 86 ...)
  sshuffle selfplay spite|kings [--players N] --seats hard,easy,... --games N [--seed S] [--settings k=v,...]
        [--records FILE] [--json]
        computer players play each other; wins with 95% intervals, scores, decision times
  sshuffle strengths spite|kings [--players N] [--pairs hard:easy,...] [--games N] [--settings k=v,...] [--json]
        each strength against another, in every seat on the same deals: win rates with 95% intervals
  sshuffle ratings spite|kings [--players N] [--games N] [--seed S] [--settings k=v,...] [--json]
        the computer strengths' fixed ratings: each against each other in every seat, fitted (Glicko scale)
  sshuffle replay spite|kings < records.jsonl
        check table-game records (one JSON line a game) with the rules; exit 1 on any failure
`
