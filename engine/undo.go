package engine

// UndoStack is what a game keeps for Undo and History: for each successful
// action, the action and the game's state from just before it. Games whose
// state is a plain value (arrays, no slices or maps) get an exact undo by
// copying, and a save, which is the action list, comes from the same place.
// The zero value is an empty stack.
type UndoStack[S any] struct {
	before  []S
	actions []Action
}

// Push records action a and the state before it; call it only once a is
// known to succeed, so that every entry is one the player can step back.
func (u *UndoStack[S]) Push(before S, a Action) {
	u.before = append(u.before, before)
	u.actions = append(u.actions, a)
}

// Pop forgets the last action and writes the state from before it into st.
// It reports false, leaving st alone, when there is nothing to undo.
func (u *UndoStack[S]) Pop(st *S) bool {
	n := len(u.before)
	if n == 0 {
		return false
	}
	*st = u.before[n-1]
	u.before = u.before[:n-1]
	u.actions = u.actions[:n-1]
	return true
}

// Len is how many actions can be undone, which is every action since the
// deal: the move count of a game where each action is one move.
func (u *UndoStack[S]) Len() int { return len(u.actions) }

// History is a copy of the actions, oldest first, so that the caller may keep
// it while play goes on.
func (u *UndoStack[S]) History() []Action { return append([]Action(nil), u.actions...) }

// Clone is a stack that shares no memory with u: without it a Push on one
// copy after a Pop would overwrite an entry the other still holds.
func (u *UndoStack[S]) Clone() UndoStack[S] {
	return UndoStack[S]{
		before:  append([]S(nil), u.before...),
		actions: append([]Action(nil), u.actions...),
	}
}
