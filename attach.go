package b2sql

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/b2sql/b2sql/sql"
)

// attachDir runs ATTACH 'dir' [AS name]: every table file in dir is
// registered (as Open does for a directory) and dir becomes where
// CREATE TABLE writes (a missing directory is created). Tables keep unqualified names: the alias is
// accepted for DuckDB compatibility but does not prefix them.
//
// ATTACH of one table ('events.b2d', 'x.parquet', …: what a DuckDB user
// attaches is one file) registers that table under the alias, or under
// the file's name without its extension, and leaves the directory alone.
func (db *DB) attachDir(s *sql.Attach) (*Rows, error) {
	at := Pos{s.PathPos.Line, s.PathPos.Col}
	path, err := db.confine(s.Path)
	if err != nil {
		return nil, err
	}
	if tableKind(path) != "" {
		name := s.Alias
		if name == "" {
			base := filepath.Base(strings.TrimRight(path, `/\`))
			name = strings.TrimSuffix(base, filepath.Ext(base))
		}
		if err := db.RegisterTable(name, path); err != nil {
			return nil, &Error{Pos: at, Kind: ErrUnknownTable, Msg: fmt.Sprintf("ATTACH: %v", err)}
		}
		return valueRows(nil, nil), nil
	}
	st, err := os.Stat(path)
	if os.IsNotExist(err) && !db.settings.readOnly {
		// A new database, as DuckDB's ATTACH of a missing file makes one.
		if err = os.MkdirAll(path, 0o755); err == nil {
			st, err = os.Stat(path)
		}
	}
	if err != nil {
		return nil, &Error{Pos: at, Kind: ErrUnknownTable, Msg: fmt.Sprintf("ATTACH: %v", err)}
	}
	if !st.IsDir() {
		return nil, &Error{Pos: at, Kind: ErrUnsupported, Msg: fmt.Sprintf("ATTACH: %s is not a directory (query a file with FROM '%s')", s.Path, s.Path)}
	}
	if err := db.registerDir(path); err != nil {
		return nil, err
	}
	db.mu.Lock()
	db.dir = path
	db.mu.Unlock()
	return valueRows(nil, nil), nil
}

// Attach makes dir the DB's directory, as the ATTACH statement does.
func (db *DB) Attach(dir string) error {
	_, err := db.attachDir(&sql.Attach{Path: dir})
	return apiError(err)
}
