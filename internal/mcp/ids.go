package mcp

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// The SDK decodes a request's id into a float64 and answers with its
// int64 conversion, so 7.5 came back as 7, 2^53+1 as 2^53 and 1e30 as
// -2^63; JSON-RPC 2.0 says the same id comes back. The filter therefore
// gives every call a serial id of its own before the SDK sees it and puts
// the client's id, as its raw JSON, back into the answer (M4).

// ids maps the serial ids the SDK sees to the clients' ids. Its methods
// run under lockedWriter's mutex.
type ids struct {
	next  int64
	raw   map[int64]json.RawMessage // serial id → the client's id, as sent
	byRaw map[string]int64          // the client's id → its latest serial id (for cancellation)
}

// add records a client's id and returns its serial id.
func (m *ids) add(raw json.RawMessage) int64 {
	if m.raw == nil {
		m.raw, m.byRaw = map[int64]json.RawMessage{}, map[string]int64{}
	}
	m.next++
	raw = bytes.Clone(raw)
	m.raw[m.next] = raw
	m.byRaw[string(raw)] = m.next
	return m.next
}

// done forgets serial id n once its answer is written; it returns the
// client's id.
func (m *ids) done(n int64) (json.RawMessage, bool) {
	raw, ok := m.raw[n]
	if ok {
		delete(m.raw, n)
		if m.byRaw[string(raw)] == n {
			delete(m.byRaw, string(raw))
		}
	}
	return raw, ok
}

// members are the byte spans [start, end) of the values of obj's
// top-level members named key (a repeated key: every one; the decoders
// take the last). ok is false when obj is no JSON object.
func members(obj []byte, key string) (spans [][2]int, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		if t == key {
			end := int(dec.InputOffset())
			spans = append(spans, [2]int{end - len(v), end})
		}
	}
	return spans, true
}

// splice replaces the spans of b (in order, not overlapping) by v.
func splice(b []byte, spans [][2]int, v []byte) []byte {
	out := make([]byte, 0, len(b)+len(spans)*len(v))
	at := 0
	for _, s := range spans {
		out = append(out, b[at:s[0]]...)
		out = append(out, v...)
		at = s[1]
	}
	return append(out, b[at:]...)
}

// isID says raw is a JSON-RPC id the filter maps: a string or a number
// (null is the SDK's notification, left as it is).
func isID(raw []byte) bool {
	return len(raw) > 0 && (raw[0] == '"' || raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9')
}

// inbound rewrites one message line before the SDK reads it: a call's id
// becomes a serial id, and a cancellation names the serial id of the call
// it cancels. drop says the line is a cancellation of no call in flight,
// which the SDK must not see: it could name another call's serial id.
func (m *ids) inbound(line []byte, call bool, method string) (out []byte, drop bool) {
	if call {
		spans, ok := members(line, "id")
		if !ok || len(spans) == 0 {
			return line, false
		}
		last := spans[len(spans)-1]
		raw := line[last[0]:last[1]]
		if !isID(raw) {
			return line, false
		}
		n := m.add(raw)
		return splice(line, spans, strconv.AppendInt(nil, n, 10)), false
	}
	if method != "notifications/cancelled" {
		return line, false
	}
	ps, ok := members(line, "params")
	if !ok || len(ps) == 0 {
		return line, false
	}
	p := ps[len(ps)-1]
	params := line[p[0]:p[1]]
	rs, ok := members(params, "requestId")
	if !ok || len(rs) == 0 {
		return line, false
	}
	r := rs[len(rs)-1]
	n, found := m.byRaw[string(params[r[0]:r[1]])]
	if !found {
		return nil, true
	}
	params = splice(params, rs, strconv.AppendInt(nil, n, 10))
	return splice(line, ps[len(ps)-1:], params), false
}

// outbound puts the client's id back into one of the SDK's answers.
func (m *ids) outbound(msg []byte) []byte {
	spans, ok := members(bytes.TrimSpace(msg), "id")
	if !ok || len(spans) != 1 {
		return msg
	}
	off := len(msg) - len(bytes.TrimLeft(msg, " \t\r\n"))
	s := [2]int{spans[0][0] + off, spans[0][1] + off}
	n, err := strconv.ParseInt(string(msg[s[0]:s[1]]), 10, 64)
	if err != nil {
		return msg
	}
	raw, ok := m.done(n)
	if !ok {
		return msg
	}
	return splice(msg, [][2]int{s}, raw)
}
