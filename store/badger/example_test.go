package badger_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"sshuffle/store"
	"sshuffle/store/badger"
)

func Example() {
	st, err := badger.OpenInMemory() // badger.Open(dir, logger) in the server
	if err != nil {
		panic(err)
	}
	defer st.Close()

	// Login: find or create the account for a key fingerprint.
	id := "SHA256:uY3mJ2example"
	acc, err := st.Account(context.Background(), id)
	if errors.Is(err, store.ErrNotFound) {
		acc, err = st.CreateAccount(context.Background(), id, "")
	}
	if err != nil {
		panic(err)
	}
	if _, err := st.ClaimName(context.Background(), acc.ID, "Ace_Of_Spades"); err != nil {
		fmt.Println(err) // store.ErrNameTaken, or a sentence from ValidName
	}

	now := time.Date(2026, 11, 30, 9, 30, 0, 0, time.UTC)
	today := store.Day(now)
	spec, _ := st.Daily(context.Background(), "klondike/draw1", today, func() (string, error) {
		return "klondike/draw1/w/4242", nil // the arcade asks the game for a winnable deal
	})
	_ = st.RecordResult(context.Background(), store.Result{
		Account: acc.ID, Name: "ace_of_spades", Spec: spec, Key: "klondike/draw1",
		Won: true, Score: 640, Moves: 112, Elapsed: 4 * time.Minute, Finished: now,
		Daily: true, Day: today, ByPoints: true, // the game registry says Klondike ranks by points
	})
	streak, _ := st.Streak(context.Background(), acc.ID, "klondike/draw1", now)
	board, _ := st.Board(context.Background(), "klondike/draw1", today, 10)
	stats, _ := st.StatsFor(context.Background(), acc.ID, "klondike/draw1")
	fmt.Println(spec, streak.Current, len(board), board[0].Name, stats.Won)
	// Output: klondike/draw1/w/4242 1 1 ace_of_spades 1
}
