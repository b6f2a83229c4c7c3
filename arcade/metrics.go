package arcade

import (
	"errors"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"sshuffle/store"
)

// metrics are the server's Prometheus families. Each Server has its own
// registry, so tests that start many servers never collide.
type metrics struct {
	reg          *prometheus.Registry
	sessions     *prometheus.GaugeVec     // by state
	refusedC     *prometheus.CounterVec   // by reason
	closedC      *prometheus.CounterVec   // connections the server closed, by reason
	starts       prometheus.Counter       //
	ends         prometheus.Counter       //
	keyToFrame   prometheus.Histogram     // seconds from a key's arrival to the next frame written
	searchTime   *prometheus.HistogramVec // seconds of background search, by kind
	searchQueue  prometheus.Gauge         // searches waiting for a slot
	searchActive prometheus.Gauge         // searches running
	gamesDone    *prometheus.CounterVec   // by game and outcome
	storeWrite   prometheus.Histogram     // seconds a store write took
	storeErrs    prometheus.Counter       // store writes that failed
	inputDropped *prometheus.CounterVec   // session input dropped past its bounds, by kind (events, bytes)
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		sessions: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "sshuffle_sessions", Help: "Live sessions by state (playing: a Bubble Tea program; command: a text command).",
		}, []string{"state"}),
		refusedC: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sshuffle_refused_total", Help: "Connections and session channels refused, by reason.",
		}, []string{"reason"}),
		closedC: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sshuffle_connections_closed_total", Help: "Connections the server closed for holding a slot unused, by reason.",
		}, []string{"reason"}),
		starts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sshuffle_session_starts_total", Help: "Sessions started (shell or exec).",
		}),
		ends: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "sshuffle_session_ends_total", Help: "Sessions ended.",
		}),
		keyToFrame: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "sshuffle_key_to_frame_seconds",
			Help:    "Time from a key read off the wire to the next screen bytes written for that session.",
			Buckets: []float64{.002, .005, .01, .02, .035, .05, .1, .25, .5, 1, 2.5},
		}),
		searchTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "sshuffle_search_seconds",
			Help:    "Background search time (hints, stuck checks, deal pools), waiting excluded.",
			Buckets: []float64{.001, .01, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"kind"}),
		searchQueue: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "sshuffle_search_queue", Help: "Background searches waiting for a slot.",
		}),
		searchActive: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "sshuffle_search_running", Help: "Background searches running.",
		}),
		gamesDone: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "sshuffle_games_finished_total", Help: "Games finished and recorded, by game and outcome.",
		}, []string{"game", "outcome"}),
	}
	m.storeWrite = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "sshuffle_store_write_seconds",
		Help:    "Time a store write took (with its fsync), successful or not.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1},
	})
	m.storeErrs = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "sshuffle_store_write_errors_total", Help: "Store writes that failed (not saved).",
	})
	m.inputDropped = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "sshuffle_input_dropped_total", Help: "Session input dropped past its bounds: events past the rate a session hands its program, bytes past a paste's bound.",
	}, []string{"kind"})
	m.reg.MustRegister(m.storeWrite, m.storeErrs, m.inputDropped)
	m.reg.MustRegister(m.sessions, m.refusedC, m.closedC, m.starts, m.ends, m.keyToFrame,
		m.searchTime, m.searchQueue, m.searchActive, m.gamesDone,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) refused(reason string)    { m.refusedC.WithLabelValues(reason).Inc() }
func (m *metrics) closedIdle(reason string) { m.closedC.WithLabelValues(reason).Inc() }

func (m *metrics) gameFinished(game string, won bool) {
	outcome := "lost"
	if won {
		outcome = "won"
	}
	m.gamesDone.WithLabelValues(game, outcome).Inc()
}

// MetricsHandler serves the Prometheus metrics; store families are added
// by whoever registers them with Register.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{})
}

// observeWrite feeds the store's write metrics; expected refusals (a name
// taken, an account that exists) are not failures.
func (m *metrics) observeWrite(d time.Duration, err error) {
	m.storeWrite.Observe(d.Seconds())
	if err != nil && !errors.Is(err, store.ErrNameTaken) && !errors.Is(err, store.ErrExists) &&
		!errors.Is(err, store.ErrNotFound) && !errors.Is(err, store.ErrInvalid) {
		m.storeErrs.Inc()
	}
}

// Health is nil while the server accepts players.
func (s *Server) Health() error {
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing {
		return errClosing
	}
	return s.store.Health()
}

// since is seconds from t to now, for histograms.
func since(t time.Time) float64 { return time.Since(t).Seconds() }
