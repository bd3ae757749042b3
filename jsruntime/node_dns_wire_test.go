package jsruntime

import (
	"math/rand/v2"
	"testing"
)

// TestDNSWireHostileInput feeds the decoder truncated and random replies:
// a server's bytes reach it on a goroutine, where a panic would end pi.
func TestDNSWireHostileInput(t *testing.T) {
	t.Parallel()
	good, err := packQuery(7, "a.test", dnsA)
	if err != nil {
		t.Fatal(err)
	}
	// A reply with one compressed MX answer, then every truncation of it.
	reply := append(append([]byte(nil), good...), 0xc0, 12, 0, byte(dnsMX), 0, 1, 0, 0, 0, 60, 0, 4, 0, 10, 0xc0, 12)
	reply[2] |= 0x80
	reply[7] = 1
	m, err := parseMsg(reply)
	if err != nil || len(m.answers) != 1 {
		t.Fatalf("parse: %v %+v", err, m)
	}
	if rec, ok := dnsRecord(m.answers[0], dnsMX, false, false); !ok || rec.(jsObj)[0].v != "a.test" {
		t.Fatalf("MX record: %v %v", rec, ok)
	}
	inputs := [][]byte{}
	for i := range reply {
		inputs = append(inputs, reply[:i])
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		b := make([]byte, rng.IntN(80))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		if len(b) > 12 {
			b[7] = byte(rng.IntN(4)) // a few answers, so records get decoded
		}
		inputs = append(inputs, b)
	}
	types := []uint16{dnsA, dnsAAAA, dnsCNAME, dnsMX, dnsNS, dnsPTR, dnsSOA, dnsSRV, dnsTXT, dnsCAA, dnsNAPTR, dnsTLSA}
	for _, in := range inputs {
		m, err := parseMsg(in)
		if err != nil {
			continue
		}
		for _, rr := range m.answers {
			for _, typ := range types {
				rr.typ = typ
				_, _ = dnsRecord(rr, dnsANY, true, true)
			}
		}
	}
	if _, err := packQuery(1, string(make([]byte, 64))+".x", dnsA); err == nil {
		t.Error("a 64-byte label was accepted")
	}
}
