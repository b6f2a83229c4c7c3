package arcade

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"github.com/charmbracelet/colorprofile"
	"github.com/stretchr/testify/require"

	"sshuffle/arcade/render"
)

// countingWriter counts the writes that reach it, and the longest.
type countingWriter struct {
	bytes.Buffer
	writes  int
	longest int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	w.longest = max(w.longest, len(p))
	return w.Buffer.Write(p)
}

// Whatever is written, the client receives what the SSH library's pty
// writer would have sent.
func TestFrameWriterSendsWhatThePtyWriterWould(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []byte("\r\n\x1bab")
	for i := range 5000 {
		p := make([]byte, rng.IntN(12))
		for j := range p {
			p[j] = alphabet[rng.IntN(len(alphabet))]
		}
		var want, got bytes.Buffer
		_, err := ssh.NewPtyWriter(&want).Write(p)
		require.NoError(t, err)
		w := frameWriter{ch: &got, sess: ssh.NewPtyWriter(&got)}
		n, err := w.Write(p)
		require.NoError(t, err)
		require.Equal(t, len(p), n)
		require.Equal(t, want.String(), got.String(), "case %d: %q", i, p)
	}
}

// The frames of a game go past the pty writer: none has a bare "\n".
func TestGameFramesSkipThePtyWriter(t *testing.T) {
	r, clk := klondikeRouter(t)
	direct, viaPty := &countingWriter{}, &countingWriter{}
	scr := render.NewScreen(frameWriter{ch: direct, sess: viaPty}, 80, 24, colorprofile.ANSI256)
	var pieces []string
	draw := func() {
		var v tea.View
		v, pieces = r.ViewPieces(pieces[:0])
		require.NoError(t, scr.Send(scr.FramePieces(v, pieces)))
	}
	draw()
	for i := range 40 {
		switch i % 4 {
		case 0:
			r.Update(tea.KeyPressMsg{Code: tea.KeyRight})
		case 1:
			clk.t = clk.t.Add(time.Second)
		case 2:
			r.Update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
		default:
			r.Update(tea.KeyPressMsg{Code: tea.KeyDown})
		}
		draw()
	}
	r.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	scr.Resize(100, 30)
	draw()
	require.NoError(t, scr.Close())
	require.Zero(t, viaPty.writes, "a frame went through the pty writer:\n%q", viaPty.String())
	require.Greater(t, direct.writes, 20, "the frames were written")
	require.LessOrEqual(t, direct.longest, maxChannelWrite, "a write the SSH library keeps a buffer of")
}

// A frame longer than the channel takes at once arrives whole, in order,
// in writes of at most maxChannelWrite.
func TestFrameWriterCutsLongFrames(t *testing.T) {
	for _, n := range []int{0, 1, maxChannelWrite - 1, maxChannelWrite, maxChannelWrite + 1, 5*maxChannelWrite + 17} {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte('a' + i%26)
		}
		var got countingWriter
		m, err := frameWriter{ch: &got, sess: &got}.Write(p)
		require.NoError(t, err)
		require.Equal(t, n, m)
		require.Equal(t, string(p), got.String())
		require.LessOrEqual(t, got.longest, maxChannelWrite)
		require.Equal(t, (n+maxChannelWrite-1)/maxChannelWrite, got.writes, "%d bytes", n)
	}
}
