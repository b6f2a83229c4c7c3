package arcade

import (
	"encoding/json"
	"errors"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"

	"sshuffle/internal/sshtest"
)

// offerOnly offers a public key it cannot sign for: the client asks the
// server whether the key would do (the server's public-key handler is
// consulted and says yes) and then fails to sign, so the key is offered and
// never proved. signs counts the signatures asked of it: one means the
// server accepted the offer.
type offerOnly struct {
	pub   gossh.PublicKey
	signs *atomic.Int32
}

func (o offerOnly) PublicKey() gossh.PublicKey { return o.pub }

func (o offerOnly) Sign(io.Reader, []byte) (*gossh.Signature, error) {
	o.signs.Add(1)
	return nil, errors.New("this client does not hold the key it offered")
}

// A client that offers account A's public key and then proves another key
// B (or no key at all) is B (or a guest), never A: the server's public-key
// handler is called for every key offered, and the identity must come from
// the key that signed. This is the pattern of CVE-2024-45337 in servers
// built on golang.org/x/crypto/ssh; soft-serve keeps the same regression
// test. Each case checks the account a text command sees and the one a
// playing session (which makes accounts) sees.
func TestOfferedKeyIsNotTheIdentity(t *testing.T) {
	ts := startServer(t)
	keyA := sshtest.NewClientKey(t)
	fpA := gossh.FingerprintSHA256(keyA.PublicKey())
	_, err := ts.store.CreateAccount(t.Context(), fpA, "alice")
	require.NoError(t, err)

	guest := gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })
	cases := []struct {
		name, user string
		// then is how the client comes in once the offer of A has failed.
		then func(keyB gossh.Signer) gossh.AuthMethod
		// screen is what the playing session shows.
		screen string
	}{
		{name: "offer A, sign with B", user: "mallory", screen: "Playing as mallory",
			then: func(keyB gossh.Signer) gossh.AuthMethod { return gossh.PublicKeys(keyB) }},
		// The user name of A's account as well: a name is no key.
		{name: "offer A as alice, sign with B", user: "alice", screen: `The name "alice" is taken.`,
			then: func(keyB gossh.Signer) gossh.AuthMethod { return gossh.PublicKeys(keyB) }},
		{name: "offer A, come in without a key", user: "mallory", screen: "Playing as guest",
			then: func(gossh.Signer) gossh.AuthMethod { return guest }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			keyB := sshtest.NewClientKey(t)
			fpB := gossh.FingerprintSHA256(keyB.PublicKey())
			isGuest := tc.screen == "Playing as guest"
			var signs atomic.Int32
			dial := func() *gossh.Client {
				// The client library tries each method name once, so the
				// callback picks the methods: A's offer, then the real one.
				steps := []gossh.AuthMethod{gossh.PublicKeys(offerOnly{keyA.PublicKey(), &signs}), tc.then(keyB)}
				c, err := gossh.Dial("tcp", ts.addr, &gossh.ClientConfig{
					User:            tc.user,
					HostKeyCallback: gossh.InsecureIgnoreHostKey(),
					Timeout:         5 * time.Second,
					AuthCallback: func(*gossh.ClientAuthContext) (gossh.AuthMethod, error) {
						if len(steps) == 0 {
							return nil, errors.New("no method left")
						}
						m := steps[0]
						steps = steps[1:]
						return m, nil
					},
				})
				require.NoError(t, err)
				t.Cleanup(func() { _ = c.Close() })
				return c
			}

			c := dial()
			require.Equal(t, int32(1), signs.Load(), "the server accepted the offer of A, and the client was asked to sign for it")
			var who struct {
				Guest, Account    bool
				Name, Fingerprint string
			}
			sess, err := c.NewSession()
			require.NoError(t, err)
			out, err := sess.Output("whoami --json")
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(out, &who), string(out))
			require.NotEqual(t, "alice", who.Name)
			require.NotEqual(t, fpA, who.Fingerprint)
			if isGuest {
				require.True(t, who.Guest, "no key proved: a guest")
			} else {
				require.Equal(t, fpB, who.Fingerprint, "the key that signed")
				require.False(t, who.Account, "B has no account yet")
			}

			// A playing session makes the account of the key it has, and
			// it must be B's.
			before := signs.Load()
			tm := sshtest.OpenTerm(t, dial(), nil)
			require.Equal(t, before+1, signs.Load(), "A was offered again")
			screen := tm.WaitFor(tc.screen)
			require.NotContains(t, screen, "Playing as alice")
			require.NotContains(t, screen, "Welcome back")
			acc, err := ts.store.Account(t.Context(), fpA)
			require.NoError(t, err)
			require.Equal(t, "alice", acc.Name, "A's account is as it was")
			if !isGuest {
				accB, err := ts.store.Account(t.Context(), fpB)
				require.NoError(t, err, "the session made B's account")
				require.NotEqual(t, "alice", accB.Name)
			}
		})
	}
}
