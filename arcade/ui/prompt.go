package ui

import (
	tea "charm.land/bubbletea/v2"

	"sshuffle/store"
)

// EditLine applies one key to a one-line prompt that *line points to: esc
// drops the prompt (line becomes nil), backspace takes a byte back, enter
// drops the prompt and returns what was typed with true, and any other
// one-byte key is added when accept gives it back (possibly changed, e.g. in
// capitals) with true. Screens keep a *string so that nil means no prompt.
func EditLine(line **string, k tea.KeyPressMsg, accept func(text, key string) (string, bool)) (string, bool) {
	switch k.String() {
	case "esc":
		*line = nil
	case "backspace":
		if p := **line; p != "" {
			**line = p[:len(p)-1]
		}
	case "enter":
		text := **line
		*line = nil
		return text, true
	default:
		if t := k.Text; len(t) == 1 {
			if add, ok := accept(**line, t); ok {
				**line += add
			}
		}
	}
	return "", false
}

// NameKey accepts the characters of an account name, up to its length.
func NameKey(text, key string) (string, bool) {
	return key, len(text) < store.MaxNameLen && store.ValidName("abc"+key) == nil
}
