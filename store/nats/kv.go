package nats

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"sshuffle/store"
)

// bucket is one KV-shaped stream.
type bucket struct {
	s      *Store
	name   string // <prefix>_<name>
	stream string // KV_<name>
	pre    string // $KV.<name>.
	st     jetstream.Stream
}

// openBucket makes the bucket's stream, or checks the one there: it must
// keep one value a key, answer reads from its leader only and take atomic
// batches. One made by an older version without the last two is updated.
func (s *Store) openBucket(ctx context.Context, name string) (*bucket, error) {
	b := &bucket{s: s, name: name, stream: "KV_" + name, pre: "$KV." + name + "."}
	cfg := jetstream.StreamConfig{
		Name:               b.stream,
		Subjects:           []string{b.pre + ">"},
		MaxMsgsPerSubject:  1,
		MaxMsgs:            -1,
		MaxBytes:           -1,
		MaxMsgSize:         -1,
		Discard:            jetstream.DiscardNew,
		Storage:            jetstream.FileStorage,
		Replicas:           s.opts.Replicas,
		AllowRollup:        true,
		DenyDelete:         true,
		AllowDirect:        false,
		AllowAtomicPublish: true,
		Duplicates:         2 * time.Minute,
	}
	// Servers that have just started take requests before their cluster
	// has a meta leader, and leave them unanswered: a node started with
	// them asks again until it is answered.
	createStream := func() (jetstream.Stream, error) {
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		return s.js.CreateStream(ctx, cfg)
	}
	st, err := createStream()
	for err != nil && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) && ctx.Err() == nil {
		s.log.Info("store: waiting for JetStream to make a bucket", "bucket", name, "error", err.Error())
		select {
		case <-ctx.Done():
		case <-time.After(250 * time.Millisecond):
		}
		st, err = createStream()
	}
	if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		st, err = s.js.Stream(ctx, b.stream)
		if err == nil {
			info := st.CachedInfo()
			if info.Config.AllowDirect || !info.Config.AllowAtomicPublish || info.Config.MaxMsgsPerSubject != 1 {
				c := info.Config
				c.AllowDirect, c.AllowAtomicPublish, c.MaxMsgsPerSubject = false, true, 1
				st, err = s.js.UpdateStream(ctx, c)
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("store: bucket %s on NATS: %w", name, err)
	}
	b.st = st
	return b, nil
}

// tok makes one part of a key from any string: KV keys allow only
// [-/_=.A-Za-z0-9] and no empty token, so parts are base64url, and the
// empty string (never base64's output) is "=".
func tok(s string) string {
	if s == "" {
		return "="
	}
	return base64.RawURLEncoding.EncodeToString([]byte(s))
}

// untok undoes tok.
func untok(t string) (string, error) {
	if t == "=" {
		return "", nil
	}
	b, err := base64.RawURLEncoding.DecodeString(t)
	return string(b), err
}

// hash is a fixed-length token naming one item among an account's (a
// result, a race, a table game) by what makes it that item.
func hash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(strconv.Itoa(len(p))))
		h.Write([]byte{':'})
		h.Write([]byte(p))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

func key(parts ...string) string { return strings.Join(parts, ".") }

func validToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// attemptTimeout bounds one request. A request sent to a stream leader
// that has just died is never answered; asked again, the servers route it
// to the new leader (or say there is none yet), so a request is tried
// again until the caller's context ends.
var attemptTimeout = 2 * time.Second

// writeAttemptTimeout is attemptTimeout for a write, longer: a write sent
// again may find itself applied, which the caller must then tell (see
// writeQuiet), and a slow machine must not make that common.
var writeAttemptTimeout = 5 * time.Second

// retryable: the request may be answered if asked again.
func retryable(err error) bool {
	var api *jetstream.APIError
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) ||
		errors.Is(err, nats.ErrNoResponders) || errors.Is(err, jetstream.ErrNoStreamResponse) ||
		errors.Is(err, errUnavailable) ||
		// 503: "JetStream system temporarily unavailable", while a leader
		// is elected.
		(errors.As(err, &api) && api.Code == 503)
}

// errUnavailable: JetStream refused a write for now (no leader yet).
var errUnavailable = errors.New("JetStream is temporarily unavailable")

// again runs one request under attemptTimeout, again while it is not
// answered and ctx lasts.
func again[T any](ctx context.Context, request func(ctx context.Context) (T, error)) (T, error) {
	return againEvery(ctx, attemptTimeout, request)
}

func againEvery[T any](ctx context.Context, every time.Duration, request func(ctx context.Context) (T, error)) (T, error) {
	for {
		actx, cancel := context.WithTimeout(ctx, every)
		v, err := request(actx)
		cancel()
		if err == nil || !retryable(err) || ctx.Err() != nil {
			if err != nil && ctx.Err() != nil {
				err = errors.Join(err, ctx.Err())
			}
			return v, err
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// lastMsg is the last message of subject (a key or a pattern), from the
// stream's leader.
func (b *bucket) lastMsg(ctx context.Context, subject string) (*jetstream.RawStreamMsg, error) {
	return again(ctx, func(ctx context.Context) (*jetstream.RawStreamMsg, error) {
		return b.st.GetLastMsgForSubject(ctx, subject)
	})
}

// entry is a key as read: rev is the revision of its last message (0: never
// written), gone says that message deletes it.
type entry struct {
	key  string
	val  []byte
	rev  uint64
	gone bool
}

func (e entry) found() bool { return e.rev > 0 && !e.gone }

func deleted(h nats.Header) bool {
	if h == nil {
		return false
	}
	op := h.Get("KV-Operation")
	return op == "DEL" || op == "PURGE"
}

// get reads one key from the stream's leader.
func (b *bucket) get(ctx context.Context, k string) (entry, error) {
	m, err := b.lastMsg(ctx, b.pre+k)
	switch {
	case errors.Is(err, jetstream.ErrMsgNotFound):
		return entry{key: k}, nil
	case err != nil:
		return entry{}, b.s.failed("read "+k, err)
	}
	return entry{key: k, val: m.Data, rev: m.Sequence, gone: deleted(m.Header)}, nil
}

// getAll reads several keys at once (each from the leader), in the
// order given.
func (b *bucket) getAll(ctx context.Context, keys ...string) ([]entry, error) {
	out := make([]entry, len(keys))
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Go(func() { out[i], errs[i] = b.get(ctx, k) })
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// getJSON reads k into v: found false (v untouched) when it is missing.
// what names the record in errors.
func (b *bucket) getJSON(ctx context.Context, k, what string, v any) (entry, error) {
	e, err := b.get(ctx, k)
	if err != nil || !e.found() {
		return e, err
	}
	return e, decode(e.val, what, v)
}

func decode(val []byte, what string, v any) error {
	if err := json.Unmarshal(val, v); err != nil {
		return fmt.Errorf("%w: %s: %v", store.ErrCorrupt, what, err)
	}
	return nil
}

func encode(what string, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("store: encode %s: %w", what, err)
	}
	return b, nil
}

// list reads every key matching pattern (a key with * or > for parts)
// that is not deleted, with its value, in no particular order.
//
// A consumer streams them, and the replica serving it may be
// behind the leader; so the leader is asked first for the last revision
// matching pattern, and the listing goes on until it has seen that
// revision: what was written before the call is in it.
func (b *bucket) list(ctx context.Context, pattern string) ([]entry, error) {
	subject := b.pre + pattern
	last, err := b.lastSeq(ctx, subject)
	if err != nil || last == 0 {
		return nil, err
	}
	// A plain pull consumer, made once (an ordered one is made again at
	// each fetch), in memory on one server, gone a moment after its last
	// fetch.
	cons, err := again(ctx, func(ctx context.Context) (jetstream.Consumer, error) {
		return b.s.js.CreateConsumer(ctx, b.stream, jetstream.ConsumerConfig{
			FilterSubjects:    []string{subject},
			DeliverPolicy:     jetstream.DeliverLastPerSubjectPolicy,
			AckPolicy:         jetstream.AckNonePolicy,
			InactiveThreshold: 3 * time.Second,
			MemoryStorage:     true,
			Replicas:          1,
		})
	})
	if err != nil {
		return nil, b.s.failed("list "+pattern, err)
	}
	seen := map[string]entry{}
	for {
		wait := time.Second
		if dl, ok := ctx.Deadline(); ok {
			wait = min(max(time.Until(dl), 10*time.Millisecond), wait)
		}
		batch, err := cons.Fetch(500, jetstream.FetchMaxWait(wait))
		if errors.Is(err, nats.ErrNoResponders) && ctx.Err() == nil {
			// In a cluster the consumer may be a moment from serving.
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if err != nil {
			return nil, b.s.failed("list "+pattern, err)
		}
		reached := false
		for msg := range batch.Messages() {
			md, err := msg.Metadata()
			if err != nil {
				continue
			}
			k := strings.TrimPrefix(msg.Subject(), b.pre)
			seen[k] = entry{key: k, val: msg.Data(), rev: md.Sequence.Stream, gone: deleted(msg.Headers())}
			if md.Sequence.Stream >= last {
				reached = true
				break
			}
		}
		if reached {
			break
		}
		if err := batch.Error(); errors.Is(err, nats.ErrNoResponders) && ctx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
		} else if err != nil && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
			return nil, b.s.failed("list "+pattern, err)
		}
		if err := ctx.Err(); err != nil {
			return nil, b.s.failed("list "+pattern, err)
		}
	}
	out := make([]entry, 0, len(seen))
	for _, e := range seen {
		if !e.gone {
			out = append(out, e)
		}
	}
	return out, nil
}

// op is one key's change in a batch. With cond, the key must still be at
// rev (0: never written) or the whole batch is refused.
type op struct {
	key  string
	val  []byte
	del  bool
	rev  uint64
	cond bool
}

// put writes k whatever it holds.
func put(k string, v []byte) op { return op{key: k, val: v} }

// create writes k only if nothing was ever written there.
func create(k string, v []byte) op { return op{key: k, val: v, cond: true} }

// set writes e's key only if it is still as read.
func (e entry) set(v []byte) op { return op{key: e.key, val: v, rev: e.rev, cond: true} }

// del deletes e's key only if it is still as read.
func (e entry) del() op { return op{key: e.key, del: true, rev: e.rev, cond: true} }

// errConflict: a key of the batch was written since it was read.
var errConflict = errors.New("store: a key changed since it was read")

type pubAck struct {
	Stream string `json:"stream"`
	Seq    uint64 `json:"seq"`
	Error  *struct {
		Code        int    `json:"code"`
		ErrCode     int    `json:"err_code"`
		Description string `json:"description"`
	} `json:"error"`
}

// write publishes ops as one atomic batch (one message alone is no
// batch) and returns the stream sequence of the last one; the observer
// (ObserveWrites) hears of it.
func (b *bucket) write(ctx context.Context, ops []op) (uint64, error) {
	if len(ops) == 0 {
		return 0, nil
	}
	start := time.Now()
	seq, err := b.writeQuiet(ctx, ops)
	if fn := b.s.observe.Load(); fn != nil {
		// A conflict is the write working: it runs again.
		if errors.Is(err, errConflict) {
			(*fn)(time.Since(start), nil)
		} else {
			(*fn)(time.Since(start), err)
		}
	}
	return seq, err
}

// writeQuiet is write, unobserved (the health probe's). A batch that is
// not answered is sent again, as a new batch: one that was applied after
// all makes the conditions of its copy fail (errConflict, and update reads
// again and finds it done), and the unconditional keys are written twice
// with the same values.
func (b *bucket) writeQuiet(ctx context.Context, ops []op) (uint64, error) {
	seq, _, err := b.writeTrying(ctx, ops)
	return seq, err
}

// writeTrying is writeQuiet that also says whether the batch was sent
// more than once.
func (b *bucket) writeTrying(ctx context.Context, ops []op) (seq uint64, again bool, err error) {
	tries := 0
	seq, err = againEvery(ctx, writeAttemptTimeout, func(ctx context.Context) (uint64, error) {
		tries++
		return b.writeOnce(ctx, ops)
	})
	return seq, tries > 1, err
}

func (b *bucket) writeOnce(ctx context.Context, ops []op) (uint64, error) {
	if len(ops) == 0 {
		return 0, nil
	}
	if len(ops) > 1000 {
		return 0, fmt.Errorf("%w: %d keys in one write (at most 1,000)", store.ErrInvalid, len(ops))
	}
	id := ""
	if len(ops) > 1 {
		id = nuid.Next()
	}
	var reply *nats.Msg
	for i, o := range ops {
		m := nats.NewMsg(b.pre + o.key)
		m.Data = o.val
		if o.del {
			m.Header.Set("KV-Operation", "DEL")
		}
		if o.cond {
			m.Header.Set(jetstream.ExpectedLastSubjSeqHeader, strconv.FormatUint(o.rev, 10))
		}
		if id != "" {
			m.Header.Set("Nats-Batch-Id", id)
			m.Header.Set("Nats-Batch-Sequence", strconv.Itoa(i+1))
		}
		if i < len(ops)-1 {
			if err := b.s.nc.PublishMsg(m); err != nil {
				return 0, b.s.failed("write", err)
			}
			continue
		}
		if id != "" {
			m.Header.Set("Nats-Batch-Commit", "1")
		}
		var err error
		if reply, err = b.s.nc.RequestMsgWithContext(ctx, m); err != nil {
			return 0, b.s.failed("write", err)
		}
	}
	var ack pubAck
	if err := json.Unmarshal(reply.Data, &ack); err != nil {
		return 0, fmt.Errorf("store: JetStream's answer to a write does not read: %v", err)
	}
	if ack.Error != nil {
		switch ack.Error.ErrCode {
		case int(jetstream.JSErrCodeStreamWrongLastSequence), int(jetstream.JSErrCodeStreamWrongLastSequenceConstant):
			return 0, errConflict
		}
		if ack.Error.Code == 503 {
			return 0, b.s.failed("write", fmt.Errorf("%w: %s (%d)", errUnavailable, ack.Error.Description, ack.Error.ErrCode))
		}
		return 0, b.s.failed("write", fmt.Errorf("%s (%d)", ack.Error.Description, ack.Error.ErrCode))
	}
	return ack.Seq, nil
}

// maxAttempts bounds the runs of one update under contention.
const maxAttempts = 200

// update runs read (which reads and says what to write) and writes its
// ops in one batch to b, again from read while another write gets in
// between. It returns the sequence of the batch's last message (0 when
// read wrote nothing).
func (s *Store) update(ctx context.Context, b *bucket, read func() ([]op, error)) (uint64, error) {
	for attempt := 0; ; attempt++ {
		ops, err := read()
		if err != nil {
			return 0, err
		}
		seq, err := b.write(ctx, ops)
		if !errors.Is(err, errConflict) {
			return seq, err
		}
		s.retries.Add(1)
		if attempt >= maxAttempts {
			return 0, fmt.Errorf("store: gave up after %d conflicting writes", maxAttempts)
		}
		if attempt > 1 {
			// Spread the writers that keep meeting.
			d := time.Duration(rand.IntN(attempt*500)) * time.Microsecond
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return 0, ctx.Err()
			}
		}
	}
}

// failed words an error from NATS for the log and the caller.
func (s *Store) failed(what string, err error) error {
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("store: %s: JetStream did not answer in time: %w", what, err)
	case errors.Is(err, nats.ErrNoResponders):
		return fmt.Errorf("store: %s: no JetStream server answers (is a stream leader being elected?): %w", what, err)
	case errors.Is(err, nats.ErrConnectionClosed):
		return fmt.Errorf("store: %s: %w", what, store.ErrClosed)
	}
	return fmt.Errorf("store: %s: %w", what, err)
}
