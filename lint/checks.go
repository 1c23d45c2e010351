package lint

type checkFunc func(p *pass)

// pass is the state one rule sees while it runs.
type pass struct{}

func checkRejected(id string) checkFunc { return func(*pass) {} }
func checkOverride(*pass)               {}
func checkBudget(*pass)                 {}
func checkShadowed(*pass)               {}
func checkMarkers(*pass)                {}
func checkEmpty(*pass)                  {}
func checkHidden(*pass)                 {}
func checkNearMiss(*pass)               {}
