// Command bot-go is an example bot for sshuffle: it connects over SSH with
// its own key, speaks the bot protocol (docs/bots.md) and plays simple
// legal moves. Make its account a bot once, then run it:
//
//	ssh-keygen -t ed25519 -N '' -f bot_key
//	ssh -i bot_key mybot@HOST -p 2222 bot register
//	go run ./examples/bot-go -addr HOST:2222 -user mybot -key bot_key -seek spite -against easy -pace quick -matches 3
//
// Without -seek it waits for people to challenge it from the table lobby.
// -rated seeks rated tables (the last game's rating change is printed at
// the end); -pool waits in the play-now pool for people instead of opening
// tables; -rotate meets each of the given computer strengths in turn.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"sshuffle/examples/bot-go/botclient"
)

func main() {
	addr := flag.String("addr", "localhost:2222", "the server, host:port")
	user := flag.String("user", "", "the bot account's name")
	keyFile := flag.String("key", "bot_key", "the bot's private key (no passphrase)")
	seek := flag.String("seek", "", "open tables of this game (spite or kings); empty: wait for challenges")
	settings := flag.String("settings", "", "the table's settings, e.g. payoff=13")
	against := flag.String("against", "person", "the other seats, comma-separated: person, easy, normal or hard")
	pace := flag.String("pace", "", "the computers' pace: steady, quick or instant")
	pool := flag.Bool("pool", false, "wait in the play-now pool for people (rated, default settings) instead of opening tables")
	rated := flag.Bool("rated", false, "seek rated tables: their games move the bot's rating (ssh HOST stats shows it)")
	rotate := flag.String("rotate", "", "computer strengths to meet in turn, one a match, e.g. easy,normal,hard (replaces the computers of -against)")
	matches := flag.Int("matches", 0, "matches to play before hanging up; 0: forever")
	anyHost := flag.Bool("any-host-key", false, "trust whatever host key the server shows (for a server on your own machine)")
	quiet := flag.Bool("quiet", false, "print only the summary")
	flag.Parse()

	pem, err := os.ReadFile(*keyFile)
	if err != nil {
		fail(err)
	}
	signer, err := ssh.ParsePrivateKey(pem)
	if err != nil {
		fail(err)
	}
	hostKey := ssh.InsecureIgnoreHostKey()
	if !*anyHost {
		home, _ := os.UserHomeDir()
		if hostKey, err = knownhosts.New(filepath.Join(home, ".ssh", "known_hosts")); err != nil {
			fail(fmt.Errorf("%w (connect once with ssh to learn the host key, or pass -any-host-key)", err))
		}
	}
	cfg := botclient.Config{Addr: *addr, User: *user, Signer: signer, HostKey: hostKey, Matches: *matches, Log: os.Stderr}
	if *quiet {
		cfg.Log = nil
	}
	if *seek != "" && *pool {
		cfg.Seek = &botclient.Seek{Game: *seek, Pool: true}
	} else if *seek != "" {
		cfg.Seek = &botclient.Seek{Game: *seek, Settings: *settings, Against: strings.Split(*against, ","), Pace: *pace,
			Rated: *rated}
		if *rotate != "" {
			cfg.Rotate = strings.Split(*rotate, ",")
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	sum, err := botclient.Run(ctx, cfg)
	fmt.Printf("matches %d, games %d, won %d, rejected %d, errors %d\n", sum.Matches, sum.Games, sum.Won, sum.Rejected, sum.Errors)
	if r := sum.Rating; r != nil {
		fmt.Printf("rating %d (deviation %d), from %d (deviation %d) before the last game\n", r.After, r.DeviationAfter, r.Before, r.DeviationBefore)
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bot-go:", err)
	os.Exit(1)
}
