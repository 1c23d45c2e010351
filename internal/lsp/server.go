// Package lsp is `rivumi-lint lsp`, a Language Server (SPEC X4): JSON-RPC
// 2.0 over stdio with the base protocol's framing, on the standard
// library. Diagnostics, hover and code actions all come from the pipeline
// check runs (package project) over the worktree, with the texts the
// editor holds unsaved as an overlay; nothing here re-derives what the
// engine decided. docs/lsp.md says why and how to set editors up.
package lsp

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"sort"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/version"
)

// handler serves one method. A request's result is sent back; a
// notification's is dropped. An *rpcError is answered as it is.
type handler func(s *Server, params json.RawMessage) (any, error)

// Server is one language server session over one stream pair. Messages
// are served one at a time, in order: every diagnostics run sees the
// documents as the messages before it left them.
type Server struct {
	// Env is where the agents find their user files, as for check: the
	// command sets it before Serve.
	Env agent.Env

	in     *bufio.Reader
	out    *writer
	logw   io.Writer
	enc    encoding
	opts   InitOptions
	inited bool
	down   bool // shutdown received
	// folders are the workspace folders' paths; projects the roots found
	// for them and for documents outside them, by the path asked about.
	folders  []string
	roots    map[string]rootInfo
	docs     map[string]*document // by local path
	handlers map[string]handler
	// saidNotGit is set once the user was told a folder is not in a Git
	// repository (said once per session).
	saidNotGit bool
	// broken are the config files with a published error diagnostic, by
	// project root.
	broken map[string]string
	// lastErr is the last run error shown per project root, so a
	// keystroke does not repeat the same message.
	lastErr map[string]string
	watch   bool // the client registers file watchers dynamically
	nextID  int
}

// document is an open text document.
type document struct {
	uri, path string
	version   int
	text      []byte
	root      string // project root; "" outside a Git repository
	rel       string // slash path relative to root
	findings  []lint.Finding
	// disk is set when the last run judged the disk's bytes, whose
	// decoding the text is; the findings' positions are in those bytes.
	disk *diskView
}

// New returns a server reading requests from in and writing to out; log
// receives what the server cannot tell the client (standard error).
func New(in io.Reader, out, log io.Writer) *Server {
	s := &Server{in: bufio.NewReaderSize(in, 64<<10), out: &writer{w: out}, logw: log, enc: utf16,
		roots: map[string]rootInfo{}, docs: map[string]*document{}, broken: map[string]string{}, lastErr: map[string]string{}}
	s.handlers = map[string]handler{
		"initialize":                          (*Server).initialize,
		"initialized":                         (*Server).initialized,
		"shutdown":                            (*Server).shutdown,
		"textDocument/didOpen":                (*Server).didOpen,
		"textDocument/didChange":              (*Server).didChange,
		"textDocument/didSave":                (*Server).didSave,
		"textDocument/didClose":               (*Server).didClose,
		"textDocument/hover":                  (*Server).hover,
		"textDocument/codeAction":             (*Server).codeAction,
		"workspace/didChangeWatchedFiles":     (*Server).didChangeWatchedFiles,
		"workspace/didChangeWorkspaceFolders": (*Server).didChangeWorkspaceFolders,
	}
	return s
}

// Serve answers messages until exit or the end of the input. It returns
// the process's exit code: 0 after shutdown then exit, 1 for exit without
// shutdown or an input that ends without exit (the protocol's rule).
func (s *Server) Serve() int {
	for {
		m, err := readMessage(s.in)
		var bad *badMessage
		switch {
		case errors.Is(err, errTooLarge):
			// The client believes the server has the text: say so where
			// the user sees it, since diagnostics are stale from now on.
			s.logf("skipped a message of more than %d bytes", maxMessageBytes)
			s.showMessage(messageWarning, fmt.Sprintf("rivumi-lint: skipped a message of more than %d MiB (a document that large); "+
				"diagnostics may be stale until the document is smaller", maxMessageBytes>>20))
			continue
		case errors.As(err, &bad):
			// Answered with a null id (the id is unknown or unusable); a
			// client's own error response is never answered, so two
			// peers cannot echo errors at each other.
			null := json.RawMessage("null")
			if err := s.out.reply(&null, nil, bad.rerr); err != nil {
				s.logf("write error response: %v", err)
			}
			continue
		case errors.Is(err, io.EOF):
			return 1
		case err != nil:
			s.logf("%v; stopping", err)
			return 1
		}
		if m.Method == "" {
			continue // a response to one of the server's own requests
		}
		if m.Method == "exit" {
			if s.down {
				return 0
			}
			return 1
		}
		s.dispatch(m)
	}
}

func (s *Server) dispatch(m *message) {
	isRequest := m.ID != nil
	answer := func(result any, rerr *rpcError) {
		if isRequest {
			if err := s.out.reply(m.ID, result, rerr); err != nil {
				s.logf("write response to %s: %v", m.Method, err)
			}
		}
	}
	switch {
	case !s.inited && m.Method != "initialize":
		answer(nil, &rpcError{Code: codeNotInitialized, Message: "the server is not initialized: send initialize first"})
		return
	case s.inited && m.Method == "initialize":
		answer(nil, &rpcError{Code: codeInvalidRequest, Message: "initialize was already received: a session is initialized once"})
		return
	case s.down:
		answer(nil, &rpcError{Code: codeInvalidRequest, Message: "the server is shut down: only exit is served"})
		return
	}
	h, ok := s.handlers[m.Method]
	if !ok {
		answer(nil, &rpcError{Code: codeMethodNotFound, Message: "method not served: " + m.Method})
		return
	}
	result, err := s.call(h, m.Method, m.Params)
	if err == nil {
		answer(result, nil)
		return
	}
	var rerr *rpcError
	if !errors.As(err, &rerr) {
		rerr = &rpcError{Code: codeRequestFailed, Message: err.Error()}
	}
	if !isRequest {
		s.logf("%s: %s", m.Method, rerr.Message)
	}
	answer(nil, rerr)
}

// call runs a handler; a panic becomes an InternalError for that message
// alone, and the server goes on.
func (s *Server) call(h handler, method string, params json.RawMessage) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.logf("panic in %s: %v\n%s", method, p, debug.Stack())
			result, err = nil, &rpcError{Code: codeInternalError, Message: fmt.Sprintf("internal error in %s: %v (please report it with the server's standard error)", method, p)}
		}
	}()
	return h(s, params)
}

func (s *Server) logf(format string, args ...any) {
	if s.logw != nil {
		fmt.Fprintf(s.logw, "rivumi-lint lsp: "+format+"\n", args...)
	}
}

func decode(params json.RawMessage, v any) error {
	if err := json.Unmarshal(params, v); err != nil {
		return &rpcError{Code: codeInvalidParams, Message: "invalid params: " + err.Error()}
	}
	return nil
}

func (s *Server) initialize(params json.RawMessage) (any, error) {
	var p initializeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if len(p.InitializationOptions) > 0 && string(p.InitializationOptions) != "null" {
		if err := json.Unmarshal(p.InitializationOptions, &s.opts); err != nil {
			return nil, &rpcError{Code: codeInvalidParams, Message: "initializationOptions: " + err.Error() + ` (want {"userInstructions": PATH, "memory": PATH})`}
		}
	}
	s.opts.UserInstructions = expandHome(s.opts.UserInstructions)
	s.opts.Memory = expandHome(s.opts.Memory)
	s.enc = negotiate(p.Capabilities.General.PositionEncodings)
	s.watch = p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration
	for _, f := range p.WorkspaceFolders {
		if path, err := pathOf(f.URI); err == nil {
			s.folders = append(s.folders, path)
		}
	}
	if len(s.folders) == 0 && p.RootURI != "" {
		if path, err := pathOf(p.RootURI); err == nil {
			s.folders = append(s.folders, path)
		}
	}
	s.inited = true
	return map[string]any{
		"capabilities": map[string]any{
			"positionEncoding": string(s.enc),
			// Full sync: an instruction file is small, and the pipeline
			// reads the whole text anyway.
			"textDocumentSync": map[string]any{
				"openClose": true,
				"change":    1,
				"save":      map[string]any{"includeText": false},
			},
			"hoverProvider":      true,
			"codeActionProvider": map[string]any{"codeActionKinds": []string{"quickfix"}},
			"workspace": map[string]any{
				"workspaceFolders": map[string]any{"supported": true, "changeNotifications": true},
			},
		},
		"serverInfo": map[string]any{"name": "rivumi-lint", "version": version.String()},
	}, nil
}

func (s *Server) initialized(json.RawMessage) (any, error) {
	for _, f := range s.folders {
		s.rootOf(f) // says so once when a folder is outside Git
	}
	if s.watch {
		// Changes made outside the editor (git checkout, another tool)
		// reach open documents' chains too (R7).
		s.nextID++
		id := json.RawMessage(fmt.Sprintf(`"rivumi-lint-%d"`, s.nextID))
		params, _ := json.Marshal(map[string]any{"registrations": []any{map[string]any{
			"id": "rivumi-lint-watch", "method": "workspace/didChangeWatchedFiles",
			"registerOptions": map[string]any{"watchers": []any{map[string]any{"globPattern": "**/*"}}},
		}}})
		if err := s.out.write(&message{ID: &id, Method: "client/registerCapability", Params: params}); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

func (s *Server) shutdown(json.RawMessage) (any, error) {
	s.down = true
	return nil, nil
}

func (s *Server) didChangeWorkspaceFolders(params json.RawMessage) (any, error) {
	var p didChangeWorkspaceFoldersParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	for _, f := range p.Event.Removed {
		if path, err := pathOf(f.URI); err == nil {
			for i, have := range s.folders {
				if have == path {
					s.folders = append(s.folders[:i], s.folders[i+1:]...)
					break
				}
			}
		}
	}
	for _, f := range p.Event.Added {
		if path, err := pathOf(f.URI); err == nil {
			s.folders = append(s.folders, path)
			s.rootOf(path)
		}
	}
	return nil, nil
}

// openIn returns the open documents of the project at root, by path.
func (s *Server) openIn(root string) []*document {
	var out []*document
	for _, d := range s.docs {
		if d.root == root {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

func (s *Server) showMessage(typ int, msg string) {
	if err := s.out.notify("window/showMessage", showMessageParams{Type: typ, Message: msg}); err != nil {
		s.logf("show message: %v", err)
	}
}
