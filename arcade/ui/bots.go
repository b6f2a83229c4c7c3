package ui

import "sshuffle/arcade/hub"

// BotMark follows a bot's name wherever a person reads it, so that nobody
// mistakes a program for a person at a table, in the lobby or among
// friends.
const BotMark = " [bot]"

// maxMarked is the most a bot's name keeps before its mark, so that the
// two together take no more room than the longest name (store.MaxNameLen),
// which every screen's layout already leaves.
const maxMarked = 14

// BotName is a bot's name as shown: the name, cut short if need be, and
// the mark.
func BotName(name string) string {
	if len(name) > maxMarked {
		name = name[:maxMarked-1] + "~"
	}
	return name + BotMark
}

// ShownName is a person's name as screens show it: marked when the
// account is a bot's.
func ShownName(p hub.Person) string {
	if p.Bot && p.Name != "" {
		return BotName(p.Name)
	}
	return p.Name
}
