package table

import "sshuffle/arcade/ui"

// The quick phrases and the pace as the table screen shows them: kept
// apart from the drawing of the message lines and the header, which only
// ask these.

// phraseKey gives the key to the quick phrases first; true when they took
// it (p opens them; with the list open a digit says one, m mutes).
func (c *core) phraseKey(key string) bool {
	ok, note := c.phrases.Key(key)
	if ok {
		c.confirm = false
		c.setMsg(ui.ToneInfo, note)
	}
	return ok
}

// phraseLines is the open list of quick phrases as the message's two
// lines, each within w cells; nil while the list is closed.
func (c *core) phraseLines(w int) []string {
	if !c.phrases.Open() {
		return nil
	}
	// Cut, not wrapped: the list's double spaces set the phrases apart.
	return []string{fit(c.phrases.Line(), w), fit("Press a phrase's number to say it to everyone here; esc closes.", w)}
}

// said is the quick phrase someone said, as one line within w cells, or
// "" (none, or the player muted them).
func (c *core) said(w int) string {
	if s := c.phrases.Said(c.common.Said); s != "" {
		return fit(s, w)
	}
	return ""
}

// paceWord is the header's word for a pace other than the default, or "".
func (c *core) paceWord() string {
	if c.common.Pace == "" {
		return ""
	}
	return " · " + fit(c.common.Pace, 8)
}
