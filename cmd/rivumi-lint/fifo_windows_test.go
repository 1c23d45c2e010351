package main

import "errors"

// makeFIFO fails: Windows file systems have no FIFOs, so §10's FIFO cases
// do not exist there (C2 holds by construction).
func makeFIFO(p string) error {
	return errors.New("cannot make FIFO " + p + ": Windows file systems have no FIFOs; the FIFO cases of §10 run on Unix")
}
