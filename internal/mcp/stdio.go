package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLine bounds one inbound message, as the SDK's own stdio transport
// does (sdk.DefaultMaxLineLength).
const maxLine = sdk.DefaultMaxLineLength

// Stdio is the SDK's stdio transport over in and out with one difference
// (M4): a line that is no JSON-RPC message (not JSON, no message, over
// maxLine bytes) is answered with JSON-RPC's parse or invalid-request
// error and skipped. The SDK reads the stream with one JSON decoder, so
// such a line would end the session.
func Stdio(in io.Reader, out io.Writer) sdk.Transport {
	return stdio{in: in, out: out, max: maxLine}
}

type stdio struct {
	in  io.Reader
	out io.Writer
	max int
}

func (s stdio) Connect(ctx context.Context) (sdk.Connection, error) {
	w := &lockedWriter{w: s.out}
	pr, pw := io.Pipe()
	go func() {
		err := filterLines(s.in, pw, w, s.max)
		// At the end of the input the calls already read are still
		// answered (`rivumi-lint mcp < requests`), then the session ends.
		w.drain(drainWait)
		pw.CloseWithError(err)
	}()
	return (&sdk.IOTransport{Reader: pr, Writer: w, MaxLineLength: -1}).Connect(ctx)
}

// drainWait bounds the wait for the answers at the end of the input: a
// request the client cancelled is never answered.
const drainWait = time.Minute

// lockedWriter writes each message whole (the SDK writes one message a
// Write, and so do the filter's answers) and counts the requests passed to
// the SDK that it has not answered yet.
type lockedWriter struct {
	mu      sync.Mutex
	w       io.Writer
	pending int
	idle    chan struct{} // closed by the answer that makes pending 0
	ids     ids           // the clients' ids behind the SDK's serial ones
}

// expect counts one request passed to the SDK.
func (l *lockedWriter) expect() {
	l.mu.Lock()
	l.pending++
	l.mu.Unlock()
}

// inbound rewrites one line for the SDK (see ids.inbound).
func (l *lockedWriter) inbound(line []byte, call bool, method string) ([]byte, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ids.inbound(line, call, method)
}

// Write writes one message of the SDK's, an answer with the client's id;
// an answer counts off a request.
func (l *lockedWriter) Write(b []byte) (int, error) {
	var head struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	json.Unmarshal(b, &head)
	l.mu.Lock()
	defer l.mu.Unlock()
	msg := b
	if head.Method == "" && head.ID != nil {
		msg = l.ids.outbound(b)
	}
	_, err := l.w.Write(msg)
	n := len(b)
	if err != nil {
		n = 0
	}
	if head.Method == "" && head.ID != nil && l.pending > 0 {
		if l.pending--; l.pending == 0 && l.idle != nil {
			close(l.idle)
			l.idle = nil
		}
	}
	return n, err
}

// answer writes one of the filter's own answers.
func (l *lockedWriter) answer(b []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err := l.w.Write(b)
	return err
}

// drain waits until every request passed is answered, or d has passed.
func (l *lockedWriter) drain(d time.Duration) {
	l.mu.Lock()
	if l.pending == 0 {
		l.mu.Unlock()
		return
	}
	idle := make(chan struct{})
	l.idle = idle
	l.mu.Unlock()
	select {
	case <-idle:
	case <-time.After(d):
	}
}

// Close leaves the stream open: the command owns it.
func (*lockedWriter) Close() error { return nil }

// filterLines copies the messages of in, a line each, to pass, and answers
// every other line on out. It returns nil at the end of in.
func filterLines(in io.Reader, pass io.Writer, out *lockedWriter, max int) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, over, err := readLine(r, max)
		if len(bytes.TrimSpace(line)) > 0 || over {
			if reply := judge(line, over, max); reply != nil {
				if werr := out.answer(reply); werr != nil {
					return werr
				}
			} else {
				m, _ := jsonrpc.DecodeMessage(line)
				if r, ok := m.(*jsonrpc.Request); ok {
					var drop bool
					if line, drop = out.inbound(line, isCall(m), r.Method); drop {
						line = nil
					} else if isCall(m) {
						out.expect()
					}
				}
				if line != nil {
					if _, werr := pass.Write(append(line, '\n')); werr != nil {
						return werr
					}
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line without its newline; over says it was longer
// than max bytes, whose rest was read and dropped.
func readLine(r *bufio.Reader, max int) (line []byte, over bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !over {
			if len(line)+len(chunk) > max+1 {
				over, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), over, err
	}
}

// judge is the answer to a line that is no message, or nil for a message.
// A malformed response (no method, a result or an error) is not answered,
// so that two peers cannot echo errors at each other.
func judge(line []byte, over bool, max int) []byte {
	if over {
		return errorLine(nil, -32700, fmt.Sprintf("parse error: a message over %d bytes was skipped", max))
	}
	if !json.Valid(line) {
		return errorLine(nil, -32700, "parse error: the line is not JSON")
	}
	if bytes.TrimSpace(line)[0] == '[' {
		// Batches were JSON-RPC's only in protocol 2025-03-26, and the
		// SDK ends the session on one under a later version.
		return errorLine(nil, -32600, "invalid request: batches are not served; send one message a line")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		var head struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		json.Unmarshal(line, &head)
		if head.Method == nil && (head.Result != nil || head.Error != nil) {
			return []byte{} // a response gone wrong: dropped, not answered
		}
		return errorLine(head.ID, -32600, "invalid request: "+err.Error())
	}
	return nil
}

// isCall says m is a request that expects an answer.
func isCall(m jsonrpc.Message) bool {
	r, ok := m.(*jsonrpc.Request)
	return ok && r.ID.IsValid()
}

func errorLine(id json.RawMessage, code int, msg string) []byte {
	if len(id) == 0 || !(id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9') {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
	return append(b, '\n')
}
