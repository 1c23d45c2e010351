package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
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

// readMessage reads one framed message. A message too large is read past
// and reported as errTooLarge; the stream stays usable.
func readMessage(r *bufio.Reader) (*message, error) {
	hdr, err := textproto.NewReader(r).ReadMIMEHeader()
	if err != nil {
		if errors.Is(err, io.EOF) && len(hdr) == 0 {
			return nil, io.EOF
		}
		return nil, fmt.Errorf("read header: %w", err)
	}
	v := strings.TrimSpace(hdr.Get("Content-Length"))
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("bad Content-Length %q: the base protocol needs one on every message", v)
	}
	if n > maxMessageBytes {
		if _, err := io.CopyN(io.Discard, r, n); err != nil {
			return nil, fmt.Errorf("read body: %w", err)
		}
		return nil, errTooLarge
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		return &message{Error: &rpcError{Code: codeParseError, Message: err.Error()}}, nil
	}
	return &m, nil
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
