package ui

// PlayNowBotsSetting is the stored setting by which a player refuses to be
// seated with bots in play now ("off"); anything else, or none, allows
// them: a bot is a player like another, marked as one, and refusing is
// the choice to make.
const PlayNowBotsSetting = "playnow-bots"

// PlayNowNoBots says whether the player refused bots in play now.
func PlayNowNoBots(e *Env) bool {
	if e.Player == nil || e.Player.Guest || e.Player.ID == "" || e.Store == nil {
		return false
	}
	v, err := e.Store.Setting(e.Ctx(), e.Player.ID, PlayNowBotsSetting)
	return err == nil && v == "off"
}

// SetPlayNowNoBots keeps the player's choice; false when the store could
// not take it.
func SetPlayNowNoBots(e *Env, no bool) bool {
	if e.Player == nil || e.Player.Guest || e.Player.ID == "" || e.Store == nil {
		return false
	}
	v := "on"
	if no {
		v = "off"
	}
	return e.Store.PutSetting(e.Ctx(), e.Player.ID, PlayNowBotsSetting, v) == nil
}
