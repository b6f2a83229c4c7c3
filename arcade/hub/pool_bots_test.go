package hub

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func botPerson(name string) Person { return Person{ID: "id-" + name, Name: name, Bot: true} }

func (e *penv) joinAs(p Person, want PoolWant) (*PoolMember, *prec) {
	e.t.Helper()
	r := newPrec()
	m, err := e.h.PlayNow(p, want, r.sink, r.seat)
	require.NoError(e.t, err)
	return m, r
}

// A bot waiting in the pool is seated with a person who allows bots, and
// never with one who refuses them: that person waits on, while the next
// person who allows bots takes the bot's table.
func TestPoolBotWithPeopleWhoAllowIt(t *testing.T) {
	e, _ := newPenv(t, PoolConfig{Wait: time.Hour})
	_, rbot := e.joinAs(botPerson("robo"), spiteNow)
	rbot.waiting(t, func(p PoolState) bool { return p.Waiting == 1 })
	_, rann := e.join("ann", PoolWant{Game: "spite", NoBots: true})
	rann.waiting(t, func(p PoolState) bool { return p.Waiting == 2 })
	e.clock.Advance(10 * time.Second) // windows widen; still nobody may sit together
	rann.waiting(t, func(p PoolState) bool { return p.Waited == 10*time.Second && p.Waiting == 2 })
	_, rbob := e.join("bob", spiteNow)
	a, b := rbot.seated(t), rbob.seated(t)
	require.Equal(t, a.Code, b.Code)
	require.Equal(t, []Person{{ID: "id-bob", Name: "bob"}}, a.With)
	require.Equal(t, []Person{{ID: "id-robo", Name: "robo", Bot: true}}, b.With)
	rann.waiting(t, func(p PoolState) bool { return p.Waiting == 1 })
}

// Two bots are never seated together by the pool, however long they wait.
func TestPoolNeverSeatsTwoBots(t *testing.T) {
	e, _ := newPenv(t, PoolConfig{Wait: time.Hour})
	_, r1 := e.joinAs(botPerson("robo"), spiteNow)
	_, r2 := e.joinAs(botPerson("droid"), spiteNow)
	e.clock.Advance(time.Minute)
	for _, r := range []*prec{r1, r2} {
		r.waiting(t, func(p PoolState) bool { return p.Waited == time.Minute && p.Waiting == 2 })
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	require.Empty(t, e.matches)
}

// At a bigger table everyone seated must allow the bot: a person who
// refuses bots is passed over for one who comes later.
func TestPoolBotAtKingsOfThree(t *testing.T) {
	e, _ := newPenv(t, PoolConfig{Wait: time.Hour})
	kings3 := PoolWant{Game: "kings", Players: 3}
	_, rbot := e.joinAs(botPerson("robo"), kings3)
	_, rann := e.join("ann", kings3)
	_, rcat := e.join("cat", PoolWant{Game: "kings", Players: 3, NoBots: true})
	rcat.waiting(t, func(p PoolState) bool { return p.Waiting == 3 })
	_, rdan := e.join("dan", kings3)
	code := rbot.seated(t).Code
	require.Equal(t, code, rann.seated(t).Code)
	require.Equal(t, code, rdan.seated(t).Code)
	rcat.waiting(t, func(p PoolState) bool { return p.Waiting == 1 })
}
