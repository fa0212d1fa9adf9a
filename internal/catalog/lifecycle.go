package catalog

import (
	"context"
	"os"
	"slices"

	"github.com/b2sql/b2sql/planner"
)

// Acquire counts a statement in flight; it fails with ErrClosed once the
// catalog is closed. Every successful Acquire is paired with Release.
func (c *Catalog) Acquire() error {
	if c.base != nil {
		return c.base.Acquire()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.life.closed {
		return ErrClosed
	}
	c.life.active++
	return nil
}

// Release ends a statement; the last one after Close closes the tables.
// The last one in flight before that closes the tables replaced or
// dropped meanwhile: a statement finds its tables after its Acquire, so
// once none is in flight none holds a retired table, and its files,
// remote range caches and memory go.
func (c *Catalog) Release() {
	if c.base != nil {
		c.base.Release()
		return
	}
	c.mu.Lock()
	c.life.active--
	var orphans []planner.Table
	var tmp string
	if c.life.closed && c.life.active == 0 {
		orphans, c.life.orphans = c.life.orphans, nil
		tmp, c.life.tmpDir = c.life.tmpDir, ""
	}
	if !c.life.closed && c.life.active == 0 && len(c.life.retired) > 0 {
		orphans = c.unregisteredRetired()
	}
	c.mu.Unlock()
	closeTables(orphans, tmp)
}

// unregisteredRetired takes the retired tables no name registers any
// more (a table can be registered under two names and replaced under
// one); c.mu is held.
func (c *Catalog) unregisteredRetired() []planner.Table {
	live := map[planner.Table]bool{}
	for _, t := range c.tables {
		live[t] = true
	}
	var out, keep []planner.Table
	for _, t := range c.life.retired {
		if live[t] {
			keep = append(keep, t)
		} else if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	c.life.retired = keep
	return out
}

// Track registers an open result set r (holding its own Acquire) so that
// Close can cancel it.
func (c *Catalog) Track(r any, cancel context.CancelCauseFunc) error {
	if c.base != nil {
		return c.base.Track(r, cancel)
	}
	if err := c.Acquire(); err != nil {
		return err
	}
	c.mu.Lock()
	if c.life.running == nil {
		c.life.running = map[any]context.CancelCauseFunc{}
	}
	c.life.running[r] = cancel
	c.mu.Unlock()
	return nil
}

// Untrack undoes Track when the result set closes.
func (c *Catalog) Untrack(r any) {
	if c.base != nil {
		c.base.Untrack(r)
		return
	}
	c.mu.Lock()
	delete(c.life.running, r)
	c.mu.Unlock()
	c.Release()
}

// InFlight reports the statements planning or running.
func (c *Catalog) InFlight() int {
	if c.base != nil {
		return c.base.InFlight()
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.life.active
}

// Closed reports whether Close was called.
func (c *Catalog) Closed() bool {
	if c.base != nil {
		return c.base.Closed()
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.life.closed
}

// Close closes the catalog. Result sets still open are cancelled with
// ErrClosed, and the tables are released once the last statement in flight
// releases (Close does not wait for it). Safe to call twice.
func (c *Catalog) Close() error {
	if c.base != nil {
		return c.base.Close()
	}
	c.mu.Lock()
	if c.life.closed {
		c.mu.Unlock()
		return nil
	}
	c.life.closed = true
	tables := c.life.retired
	c.life.retired = nil
	for _, t := range c.tables {
		tables = append(tables, t)
	}
	tmp := c.tmpDir
	c.tmpDir = ""
	c.tables = map[string]planner.Table{}
	c.names = map[string]string{}
	cancels := make([]context.CancelCauseFunc, 0, len(c.life.running))
	for _, f := range c.life.running {
		cancels = append(cancels, f)
	}
	if c.life.active > 0 {
		c.life.orphans, c.life.tmpDir = tables, tmp
		tables, tmp = nil, ""
	}
	c.mu.Unlock()
	for _, f := range cancels {
		f(ErrClosed)
	}
	closeTables(tables, tmp)
	return nil
}

// closeTables closes ts, then removes the temporary directory tmp (if
// any) holding tables made by CREATE TABLE.
func closeTables(ts []planner.Table, tmp string) {
	for _, t := range ts {
		if c, ok := t.(interface{ Close() error }); ok {
			c.Close()
		}
	}
	if tmp != "" {
		os.RemoveAll(tmp)
	}
}
