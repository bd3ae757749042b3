package jsruntime

import (
	"encoding/binary"
	"strings"
)

// A small DNS message codec for dns.resolve*: one question out, the
// answer section back. It is ours rather than x/net's dnsmessage because
// that package builds lookup tables in its init, which every start of pi
// would pay for; this one costs nothing until a query is made.

// DNS record types Node's resolve* ask for.
const (
	dnsA     uint16 = 1
	dnsNS    uint16 = 2
	dnsCNAME uint16 = 5
	dnsSOA   uint16 = 6
	dnsPTR   uint16 = 12
	dnsMX    uint16 = 15
	dnsTXT   uint16 = 16
	dnsAAAA  uint16 = 28
	dnsSRV   uint16 = 33
	dnsNAPTR uint16 = 35
	dnsTLSA  uint16 = 52
	dnsANY   uint16 = 255
	dnsCAA   uint16 = 257
)

// dnsTypeOf maps resolve's rrtype to its number (a switch, not a map, so
// nothing is built at start).
func dnsTypeOf(name string) (uint16, bool) {
	switch name {
	case "A":
		return dnsA, true
	case "AAAA":
		return dnsAAAA, true
	case "ANY":
		return dnsANY, true
	case "CAA":
		return dnsCAA, true
	case "CNAME":
		return dnsCNAME, true
	case "MX":
		return dnsMX, true
	case "NAPTR":
		return dnsNAPTR, true
	case "NS":
		return dnsNS, true
	case "PTR":
		return dnsPTR, true
	case "SOA":
		return dnsSOA, true
	case "SRV":
		return dnsSRV, true
	case "TXT":
		return dnsTXT, true
	case "TLSA":
		return dnsTLSA, true
	}
	return 0, false
}

func dnsTypeName(t uint16) string {
	for _, n := range []string{"A", "AAAA", "CAA", "CNAME", "MX", "NAPTR", "NS", "PTR", "SOA", "SRV", "TXT", "TLSA"} {
		if v, _ := dnsTypeOf(n); v == t {
			return n
		}
	}
	return ""
}

// dnsAnyRank is the order in which Node lists resolveAny's records: by
// type, in the order of its parsers, then as the server sent them.
func dnsAnyRank(t uint16) int {
	for i, v := range []uint16{dnsA, dnsCNAME, dnsAAAA, dnsMX, dnsNS, dnsTXT, dnsSRV, dnsPTR, dnsNAPTR, dnsSOA, dnsCAA, dnsTLSA} {
		if v == t {
			return i
		}
	}
	return 99
}

// dnsRR is one answer record; data is its RDATA within msg (names in it
// may point anywhere in the message).
type dnsRR struct {
	typ  uint16
	ttl  uint32
	msg  []byte
	off  int // start of the RDATA in msg
	data []byte
}

type dnsMsg struct {
	id        uint16
	response  bool
	truncated bool
	rcode     int
	answers   []dnsRR
}

// dnsFormatError is a message that does not parse (a type, so that no
// error value is built at start).
type dnsFormatError struct{}

func (dnsFormatError) Error() string { return "malformed DNS message" }

var errDNSFormat error = dnsFormatError{}

// packQuery builds a recursive query for name (absolute or not) and type.
func packQuery(id uint16, name string, qt uint16) ([]byte, error) {
	b := make([]byte, 12, 12+len(name)+6)
	binary.BigEndian.PutUint16(b[0:], id)
	binary.BigEndian.PutUint16(b[2:], 0x0100) // RD
	binary.BigEndian.PutUint16(b[4:], 1)
	name = strings.TrimSuffix(name, ".")
	if name != "" {
		for _, l := range strings.Split(name, ".") {
			if len(l) == 0 || len(l) > 63 {
				return nil, errDNSFormat
			}
			b = append(b, byte(len(l)))
			b = append(b, l...)
		}
	}
	if len(b)-12 > 254 {
		return nil, errDNSFormat
	}
	b = append(b, 0, byte(qt>>8), byte(qt), 0, 1)
	return b, nil
}

// readName decodes the (possibly compressed) name at off and returns it
// without the final dot, and the offset after it in the original place.
func readName(msg []byte, off int) (string, int, error) {
	var labels []string
	end := -1
	for hops := 0; hops < 64; hops++ {
		if off >= len(msg) {
			return "", 0, errDNSFormat
		}
		n := int(msg[off])
		switch {
		case n == 0:
			if end < 0 {
				end = off + 1
			}
			return strings.Join(labels, "."), end, nil
		case n&0xc0 == 0xc0:
			if off+1 >= len(msg) {
				return "", 0, errDNSFormat
			}
			if end < 0 {
				end = off + 2
			}
			off = int(binary.BigEndian.Uint16(msg[off:]) & 0x3fff)
		default:
			if off+1+n > len(msg) {
				return "", 0, errDNSFormat
			}
			labels = append(labels, string(msg[off+1:off+1+n]))
			off += 1 + n
		}
	}
	return "", 0, errDNSFormat
}

func parseMsg(b []byte) (*dnsMsg, error) {
	if len(b) < 12 {
		return nil, errDNSFormat
	}
	flags := binary.BigEndian.Uint16(b[2:])
	m := &dnsMsg{id: binary.BigEndian.Uint16(b), response: flags&0x8000 != 0, truncated: flags&0x0200 != 0, rcode: int(flags & 0xf)}
	qd, an := int(binary.BigEndian.Uint16(b[4:])), int(binary.BigEndian.Uint16(b[6:]))
	off := 12
	for range qd {
		_, next, err := readName(b, off)
		if err != nil || next+4 > len(b) {
			return nil, errDNSFormat
		}
		off = next + 4
	}
	for range an {
		_, next, err := readName(b, off)
		if err != nil || next+10 > len(b) {
			return nil, errDNSFormat
		}
		rr := dnsRR{typ: binary.BigEndian.Uint16(b[next:]), ttl: binary.BigEndian.Uint32(b[next+4:]), msg: b}
		rdlen := int(binary.BigEndian.Uint16(b[next+8:]))
		rr.off = next + 10
		if rr.off+rdlen > len(b) {
			return nil, errDNSFormat
		}
		rr.data = b[rr.off : rr.off+rdlen]
		m.answers = append(m.answers, rr)
		off = rr.off + rdlen
	}
	return m, nil
}

// name reads a domain name at rel bytes into the RDATA.
func (rr dnsRR) name(rel int) (string, int, error) {
	s, next, err := readName(rr.msg, rr.off+rel)
	return s, next - rr.off, err
}
