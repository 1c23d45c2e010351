package integration

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// loopRecorder is the loopback API server a real agent is pointed at: it
// keeps the body of every POST to its path, lists any other request, and
// answers each with a 400 and refusal, so the agent gives up and exits.
// What the agent sent is then its model input, never a model's answer.
type loopRecorder struct {
	srv           *httptest.Server
	path, refusal string
	mu            sync.Mutex
	posts         [][]byte // the bodies of the POSTs to path, in order
	others        []string // the requests to anything else
}

// newLoopRecorder starts a recorder for agent what on 127.0.0.1, ended
// with the test.
func newLoopRecorder(t *testing.T, what, path, refusal string) *loopRecorder {
	t.Helper()
	rec := &loopRecorder{path: path, refusal: refusal}
	// 127.0.0.1 explicitly: httptest would fall back to [::1], and the
	// run must never be given any other address.
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("%s recorder: listen on 127.0.0.1: %v", what, err)
	}
	rec.srv = httptest.NewUnstartedServer(http.HandlerFunc(rec.serve))
	rec.srv.Listener.Close()
	rec.srv.Listener = l
	rec.srv.Start()
	t.Cleanup(rec.srv.Close)
	return rec
}

func (rec *loopRecorder) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec.mu.Lock()
	if r.Method == http.MethodPost && r.URL.Path == rec.path {
		rec.posts = append(rec.posts, body)
	} else {
		rec.others = append(rec.others, r.Method+" "+r.URL.Path)
	}
	rec.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	io.WriteString(w, rec.refusal)
}

// bodies are the POSTs' bodies and the other requests so far.
func (rec *loopRecorder) bodies() ([][]byte, []string) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([][]byte(nil), rec.posts...), append([]string(nil), rec.others...)
}
