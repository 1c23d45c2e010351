package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// This file is JSON-RPC 2.0 with the base protocol's framing: a header
// block (Content-Length, optionally Content-Type) and a JSON body.

// maxMessageBytes bounds one message: an editor never sends more than a
// document's text, and a larger body is read past, not buffered (C2's
// spirit for the server itself).
const maxMessageBytes = 64 << 20

// JSON-RPC and LSP error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
	codeNotInitialized = -32002
	codeRequestFailed  = -32803
)

// message is any JSON-RPC message: a request (ID and Method), a
// notification (Method only) or a response (ID, Result or Error).
type message struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      *json.RawMessage `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *rpcError        `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (code %d)", e.Message, e.Code) }

// errTooLarge is a message over maxMessageBytes, skipped.
var errTooLarge = errors.New("message over the size limit, skipped")

// maxHeaderBytes bounds a message's header block: the base protocol has
// two short fields, and a client that sends an endless header line must
// not make the server buffer it.
const maxHeaderBytes = 8 << 10

// badMessage is a framed message the server cannot serve (not JSON, a
// batch, an id that is neither a number nor a string): it is answered
// with rerr and an id of null, and the stream stays usable.
type badMessage struct{ rerr *rpcError }

func (b *badMessage) Error() string { return b.rerr.Error() }

// incoming is message as read: a raw id, so that "id": null is told
// apart from no id (a null request id would otherwise look like a
// notification and never be answered).
type incoming struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// readMessage reads one framed message. A message too large is read past
// and reported as errTooLarge, one that is not a request, notification
// or response as a *badMessage; the stream stays usable after both.
func readMessage(r *bufio.Reader) (*message, error) {
	v, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("bad Content-Length %q: the base protocol needs one on every message", v)
	}
	if n > maxMessageBytes {
		if _, err := io.CopyN(io.Discard, r, n); err != nil {
			return nil, bodyError(err)
		}
		return nil, errTooLarge
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, bodyError(err)
	}
	var in incoming
	if err := json.Unmarshal(body, &in); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, &badMessage{&rpcError{Code: codeParseError, Message: "the body is not JSON: " + err.Error()}}
		}
		return nil, &badMessage{&rpcError{Code: codeInvalidRequest, Message: "not a JSON-RPC message (LSP sends one object at a time, no batches): " + err.Error()}}
	}
	m := &message{Method: in.Method, Params: in.Params, Result: in.Result, Error: in.Error}
	if len(in.ID) > 0 {
		if in.Method != "" && !validID(in.ID) {
			return nil, &badMessage{&rpcError{Code: codeInvalidRequest, Message: "the id of request " + strconv.Quote(in.Method) + " is " + string(in.ID) + ": it must be a number or a string"}}
		}
		id := in.ID
		m.ID = &id
	}
	return m, nil
}

// bodyError is an error reading a body: the input ending inside it is
// not the clean end of the session between messages.
func bodyError(err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("read body: %w (the input ended inside a message)", io.ErrUnexpectedEOF)
	}
	return fmt.Errorf("read body: %w", err)
}

// validID reports whether a request id is a number or a string, the two
// kinds LSP allows (JSON-RPC's null cannot be told apart in the answer).
func validID(id json.RawMessage) bool {
	switch c := id[0]; {
	case c == '"':
		return true
	case c == '-' || c >= '0' && c <= '9':
		return true
	}
	return false
}

// readHeader reads a message's header block up to its empty line and
// returns the Content-Length field. Lines may end in "\r\n" (the
// protocol) or a bare "\n" (lenient, as net/textproto is).
func readHeader(r *bufio.Reader) (string, error) {
	var length string
	seen, total := false, 0
	for {
		line, err := r.ReadSlice('\n')
		total += len(line)
		switch {
		case total > maxHeaderBytes || errors.Is(err, bufio.ErrBufferFull):
			return "", fmt.Errorf("read header: over %d bytes without the empty line that ends it: the base protocol frames each message as headers, \"\\r\\n\\r\\n\", body", maxHeaderBytes)
		case errors.Is(err, io.EOF) && total == 0:
			return "", io.EOF
		case err != nil:
			return "", fmt.Errorf("read header: %w", err)
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte{'\n'}), []byte{'\r'})
		if len(line) == 0 {
			if !seen && total <= len("\r\n") {
				total = 0
				continue // a blank line between messages
			}
			return length, nil
		}
		key, val, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			return "", fmt.Errorf("read header: line %q is not a \"Name: value\" field", line)
		}
		if strings.EqualFold(string(bytes.TrimSpace(key)), "Content-Length") && !seen {
			seen, length = true, string(bytes.TrimSpace(val))
		}
	}
}

// writer frames messages onto one stream; it may be used from several
// goroutines.
type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *writer) write(m *message) error {
	m.JSONRPC = "2.0"
	body, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := fmt.Fprintf(w.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		return err
	}
	_, err = w.w.Write(body)
	return err
}

func (w *writer) notify(method string, params any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return err
	}
	return w.write(&message{Method: method, Params: raw})
}

func (w *writer) reply(id *json.RawMessage, result any, rerr *rpcError) error {
	m := &message{ID: id}
	if rerr != nil {
		m.Error = rerr
	} else {
		raw, err := json.Marshal(result)
		if err != nil {
			return err
		}
		m.Result = raw
	}
	return w.write(m)
}
