package arcade

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/require"

	"sshuffle/arcade/hub"
	"sshuffle/internal/natstest"
	storenats "sshuffle/store/nats"
)

// On a store several nodes share, a node writes a table's snapshots at the
// revision it wrote last: once another node has written the table (it took
// the table over while this one was cut off), this node neither saves over
// the new owner's snapshot nor forgets it when its own copy ends.
func TestTableSnapshotsOfALostTable(t *testing.T) {
	c := natstest.Single(t)
	ctx := context.Background()
	open := func() *storenats.Store {
		st, err := storenats.Open(ctx, c.URL(), storenats.Options{Prefix: "tables"})
		require.NoError(t, err)
		t.Cleanup(func() { _ = st.Close() })
		return st
	}
	st, other := open(), open()
	s := &Server{store: st, log: slog.New(slog.DiscardHandler)}
	kept := func() hub.TableSnapshot {
		t.Helper()
		saved, err := st.SavedTables(ctx)
		require.NoError(t, err)
		var snap hub.TableSnapshot
		require.NoError(t, json.Unmarshal(saved["TTTTT"], &snap))
		return snap
	}

	s.saveTable("TTTTT", &hub.TableSnapshot{Code: "TTTTT", GameNo: 1})
	s.saveTable("TTTTT", &hub.TableSnapshot{Code: "TTTTT", GameNo: 2})
	require.Equal(t, 2, kept().GameNo, "this node's saves follow each other")

	// The other node takes the table over and saves it.
	rev, err := other.TableRevision(ctx, "TTTTT")
	require.NoError(t, err)
	theirs, err := json.Marshal(hub.TableSnapshot{Code: "TTTTT", GameNo: 7})
	require.NoError(t, err)
	_, err = other.PutTableAt(ctx, "TTTTT", theirs, rev)
	require.NoError(t, err)

	s.saveTable("TTTTT", &hub.TableSnapshot{Code: "TTTTT", GameNo: 3})
	require.Equal(t, 7, kept().GameNo, "the old owner's save does not land")
	s.saveTable("TTTTT", &hub.TableSnapshot{Code: "TTTTT", GameNo: 4})
	require.Equal(t, 7, kept().GameNo)
	s.saveTable("TTTTT", nil)
	require.Equal(t, 7, kept().GameNo, "nor does its end forget the new owner's")

	// Its copy ended, a later table of the code here is saved again.
	s.saveTable("TTTTT", &hub.TableSnapshot{Code: "TTTTT", GameNo: 9})
	require.Equal(t, 9, kept().GameNo)
	s.saveTable("TTTTT", nil)
	saved, err := st.SavedTables(ctx)
	require.NoError(t, err)
	require.Empty(t, saved)

}

// A snapshot is written as encoding/json writes it, its record put in
// whole: names and log lines that look like the record's key included.
func TestEncodeSnapshotIsMarshal(t *testing.T) {
	snaps := []hub.TableSnapshot{
		{Code: "AAAAA", Game: "kings", Seats: []hub.SnapshotSeat{{Person: hub.Person{ID: "a1", Name: `x"record":null`}}},
			Record: json.RawMessage(`{"seats":["person","normal"],"moves":[{"k":"play","c":"7H"}],"result":null}`),
			Log:    []string{`"record":null`, "ann played 7♥ <&>"}, Totals: []int{1, 2}},
		{Code: "BBBBB", Record: json.RawMessage(`[]`)},
		{Code: "CCCCC"},
	}
	for _, snap := range snaps {
		want, err := json.Marshal(&snap)
		require.NoError(t, err)
		got, err := encodeSnapshot(&snap)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	}
}

// BenchmarkEncodeSnapshot is a snapshot with a record of some 4 KB (a game
// well under way) written by encodeSnapshot and by json.Marshal.
func BenchmarkEncodeSnapshot(b *testing.B) {
	moves := make([]map[string]string, 120)
	for i := range moves {
		moves[i] = map[string]string{"k": "play", "c": "7H", "to": "N"}
	}
	rec, err := json.Marshal(map[string]any{"seats": []string{"person", "normal", "person", "normal"}, "moves": moves})
	if err != nil {
		b.Fatal(err)
	}
	snap := &hub.TableSnapshot{Code: "AAAAA", Game: "kings", Record: rec, Log: []string{"ann played 7♥", "bob drew"},
		Seats: make([]hub.SnapshotSeat, 4), Totals: []int{1, 2, 3, 4}}
	for _, name := range []string{"encodeSnapshot", "json.Marshal"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if name == "json.Marshal" {
					_, err = json.Marshal(snap)
				} else {
					_, err = encodeSnapshot(snap)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
