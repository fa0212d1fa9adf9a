package sql

// nullsMode is a window call's IGNORE NULLS (ignore) or RESPECT NULLS;
// at is the token index of IGNORE or RESPECT, for errors.
type nullsMode struct {
	ignore bool
	at     int
}
