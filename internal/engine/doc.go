// Package engine runs statements: a Session (one connection's settings:
// threads, pruning, switched-off rules, memory limit) over the Engine of
// one database (its catalog, the warnings given) takes a parsed statement
// through parse → bind → optimize → build and dispatches it by kind:
// queries become a plan to stream, SET/RESET change the session,
// SHOW/DESCRIBE/EXPLAIN return rows at hand, views and ATTACH go to the
// catalog, and every statement that writes goes to internal/dml.
//
// SET changes only the session it runs on: the module root gives the DB's
// own methods one session and each database/sql connection a clone of it.
//
// Direction: the module root → engine → dml → catalog → planner, executor,
// sql. The engine never imports the root and opens no file itself.
package engine
