package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Peak RSS comes from wait4's rusage. On Linux a child started with
// vfork (as Go's os/exec does) shares its parent's memory until exec, and
// its ru_maxrss includes the parent's high-water mark: a driver that has
// held a generated 400,000-file repository in memory would report every
// command at hundreds of MiB. So every timed command is started by a
// spawner: this same program re-executed before it allocates anything,
// whose own high-water mark (reported as the RSS floor) stays a few MiB.

const spawnerEnv = "RIVUMI_BENCH_SPAWNER"

type spawnReq struct {
	Dir    string   `json:"dir"`
	Env    []string `json:"env"`
	Argv   []string `json:"argv"`
	Stderr bool     `json:"stderr"`
}

type spawnResp struct {
	Wall   int64  `json:"wall"` // ns
	CPU    int64  `json:"cpu"`  // ns
	RSS    int64  `json:"rss"`  // KiB
	Exit   int    `json:"exit"`
	Err    string `json:"err"`
	Stderr string `json:"stderr"`
}

// spawnerMain serves requests on standard input until it closes.
func spawnerMain() int {
	dec := json.NewDecoder(bufio.NewReader(os.Stdin))
	enc := json.NewEncoder(os.Stdout)
	for {
		var req spawnReq
		if err := dec.Decode(&req); err != nil {
			return 0
		}
		cmd := exec.Command(req.Argv[0], req.Argv[1:]...)
		cmd.Dir, cmd.Env, cmd.Stdout = req.Dir, req.Env, io.Discard
		var stderr bytes.Buffer
		if req.Stderr {
			cmd.Stderr = &stderr
		}
		t0 := time.Now()
		err := cmd.Run()
		resp := spawnResp{Wall: int64(time.Since(t0))}
		var ee *exec.ExitError
		switch {
		case err == nil:
		case errors.As(err, &ee):
			resp.Exit = ee.ExitCode()
		default:
			resp.Exit, resp.Err = -1, err.Error()
		}
		if cmd.ProcessState != nil {
			if rss, cpu, ok := usage(cmd.ProcessState); ok {
				resp.RSS, resp.CPU = rss, cpu
			}
		}
		resp.Stderr = stderr.String()
		if err := enc.Encode(resp); err != nil {
			return 1
		}
	}
}

// spawner is the driver's end of the spawner process.
type spawner struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	enc *json.Encoder
	dec *json.Decoder
}

func startSpawner() (*spawner, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), spawnerEnv+"=1")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &spawner{cmd: cmd, in: in, enc: json.NewEncoder(in), dec: json.NewDecoder(bufio.NewReader(out))}, nil
}

func (s *spawner) run(dir string, env, argv []string, wantStderr bool) (spawnResp, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.enc.Encode(spawnReq{dir, env, argv, wantStderr}); err != nil {
		return spawnResp{}, fmt.Errorf("spawner: %w", err)
	}
	var resp spawnResp
	if err := s.dec.Decode(&resp); err != nil {
		return spawnResp{}, fmt.Errorf("spawner: %w", err)
	}
	if resp.Err != "" {
		return resp, errors.New(resp.Err)
	}
	return resp, nil
}

// floor returns the spawner's own peak RSS (KiB), the least any command
// it starts can report, after it exits.
func (s *spawner) close() int64 {
	s.in.Close()
	s.cmd.Wait()
	if s.cmd.ProcessState != nil {
		if rss, _, ok := usage(s.cmd.ProcessState); ok {
			return rss
		}
	}
	return 0
}
