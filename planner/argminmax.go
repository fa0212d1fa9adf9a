package planner

// arg_max(arg, val) / arg_min(arg, val): Arg is the arg, Arg2 the val
// compared (executor/aggstate_argminmax.go has the semantics). The numbers
// match executor.AggArgMax/AggArgMin, above every holistic kind; unlike
// those, a partial arg_max plus its best val merges into a final one, so
// they run as parallel partial aggregates (parallel.go).
const (
	AggArgMax AggFunc = 100
	AggArgMin AggFunc = 101
)

func init() {
	holisticNames[AggArgMax] = "arg_max"
	holisticNames[AggArgMin] = "arg_min"
}

// ArgMinMax reports whether f is arg_max or arg_min.
func (f AggFunc) ArgMinMax() bool { return f == AggArgMax || f == AggArgMin }
