package natstest

import (
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// A value written through one server is read back through another: the
// cluster really is one, with three replicas.
func TestThreeServersShareAStream(t *testing.T) {
	c := Three(t)
	js, err := c.Connect(0).JetStream()
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.CreateKeyValue(&nats.KeyValueConfig{Bucket: "probe", Replicas: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put("k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	js2, err := c.Connect(2).JetStream()
	if err != nil {
		t.Fatal(err)
	}
	kv2, err := js2.KeyValue("probe")
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		e, err := kv2.Get("k")
		if err == nil && string(e.Value()) == "v" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the other server never saw the value: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestSingleServer(t *testing.T) {
	c := Single(t)
	js, err := c.Connect(-1).JetStream()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateKeyValue(&nats.KeyValueConfig{Bucket: "probe"}); err != nil {
		t.Fatal(err)
	}
}
