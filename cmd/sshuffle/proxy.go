package main

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/pires/go-proxyproto"
)

// parseTrusted reads --trust-proxy: addresses and CIDR prefixes,
// comma-separated.
func parseTrusted(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !strings.Contains(part, "/") {
			a, err := netip.ParseAddr(part)
			if err != nil {
				return nil, fmt.Errorf("--trust-proxy: %q is not an address or a CIDR prefix", part)
			}
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			return nil, fmt.Errorf("--trust-proxy: %q is not an address or a CIDR prefix", part)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// proxyListener reads the PROXY protocol (v1 or v2) on connections from
// the trusted balancers, so that the server sees, limits and logs the
// client's own address. A trusted connection without a header (the
// balancer's health check) is taken as it is. A connection from anywhere
// else that sends a header is refused: it is someone claiming to be a
// balancer, and taking the address it gives would let it dodge the
// per-address limits.
func proxyListener(l net.Listener, trusted []netip.Prefix) net.Listener {
	return &proxyproto.Listener{
		Listener:          l,
		ReadHeaderTimeout: 10 * time.Second,
		ConnPolicy: func(o proxyproto.ConnPolicyOptions) (proxyproto.Policy, error) {
			if isTrusted(o.Upstream, trusted) {
				return proxyproto.USE, nil
			}
			return proxyproto.REJECT, nil
		},
	}
}

func isTrusted(a net.Addr, trusted []netip.Prefix) bool {
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return false
	}
	ip := ap.Addr().Unmap()
	for _, p := range trusted {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}
