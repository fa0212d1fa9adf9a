package sql

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/function"
	"github.com/b2sql/b2sql/planner"
	"github.com/b2sql/b2sql/sql/internal/callexpr"
)

// current_setting(name) and duckdb_settings() read the session's settings
// through the catalog, which the engine makes a SettingsReader: the binder
// knows no setting itself. Both are constants of the statement, folded
// here as DuckDB folds them: current_setting is the setting's value (of
// the setting's type: threads is a BIGINT, memory_limit a VARCHAR such as
// '4.0 GiB'); duckdb_settings() is one row per setting.

// current_setting is registered here, as the table functions are
// (bind_func_table.go): the binder computes it, no kernel does.
func init() {
	function.Register(&function.Set{Name: "current_setting", Kind: function.Scalar, Categories: []string{"system"}, CustomBind: true,
		Description: "The current value of the session's setting", Examples: []string{"current_setting('threads')"},
		Overloads: []function.Overload{{Params: []string{"setting_name"}, Args: []function.Arg{function.Str}, Returns: columnar.TNull}}})
}

// SettingsReader is a catalog that can show the session's settings.
type SettingsReader interface {
	// CurrentSetting is the value of a setting, by name or alias (any
	// case); the error names the known settings.
	CurrentSetting(name string) (columnar.Value, error)
	// SettingRows lists every setting, in the order duckdb_settings()
	// shows them.
	SettingRows() []SettingRow
}

// SettingRow is one row of duckdb_settings().
type SettingRow struct {
	Name        string
	Value       string // as text, as DuckDB shows it
	Description string
	InputType   string // the SQL type SET takes: BIGINT, BOOLEAN, VARCHAR
	Scope       string // GLOBAL or LOCAL
	Aliases     []string
}

// bindCurrentSetting binds current_setting('name') to the setting's value.
func (b *binder) bindCurrentSetting(args []callexpr.Expr, at int, c ectx) (planner.Expr, error) {
	if len(args) != 1 {
		return nil, b.arity(at, "current_setting", "1")
	}
	x, err := b.bindExpr(args[0], c)
	if err != nil {
		return nil, err
	}
	k, ok := planner.FoldExpr(x).(*planner.Const)
	if !ok || k.Val.Null || k.Val.Type.Phys() != columnar.PhysBytes {
		return nil, b.typeErr(args[0], c, "current_setting expects a constant setting name")
	}
	sr, ok := b.cat.(SettingsReader)
	if !ok {
		return nil, b.errAt(at, ErrUnsupported, "current_setting: no session settings here")
	}
	v, err := sr.CurrentSetting(k.Val.S)
	if err != nil {
		return nil, b.typeErr(args[0], c, "%s", err.Error())
	}
	return &planner.Const{Val: v}, nil
}

// settingsColumns are duckdb_settings()' columns, as DuckDB 1.5 has them.
var settingsColumns = []tableColumn{
	{"name", columnar.TVarchar}, {"value", columnar.TVarchar}, {"description", columnar.TVarchar},
	{"input_type", columnar.TVarchar}, {"scope", columnar.TVarchar}, {"aliases", columnar.ListOf(columnar.TVarchar)},
}

// bindSettingsTable binds FROM duckdb_settings() to the rows of the
// session's settings, as constants.
func (b *binder) bindSettingsTable(args callexpr.SelectExprs, alias string, at int) (*fromItem, error) {
	if len(args) != 0 {
		return nil, b.arity(at, "duckdb_settings", "0")
	}
	sr, ok := b.cat.(SettingsReader)
	if !ok {
		return nil, b.errAt(at, ErrUnsupported, "duckdb_settings: no session settings here")
	}
	if alias == "" {
		alias = "duckdb_settings"
	}
	var rows [][]columnar.Value
	for _, s := range sr.SettingRows() {
		aliases := columnar.Value{Type: settingsColumns[5].typ, Elems: []columnar.Value{}}
		for _, a := range s.Aliases {
			aliases.Elems = append(aliases.Elems, columnar.StringValue(strings.ToLower(a)))
		}
		rows = append(rows, []columnar.Value{columnar.StringValue(s.Name), columnar.StringValue(s.Value),
			columnar.StringValue(s.Description), columnar.StringValue(s.InputType), columnar.StringValue(s.Scope), aliases})
	}
	return b.constTable(alias, "session settings", settingsColumns, rows) // bind_func_table.go
}

// bindCurrentSettingCall is current_setting's hook (bind_func_hooks.go).
func bindCurrentSettingCall(b *binder, name string, args []callexpr.Expr, at int, c ectx) (planner.Expr, bool, error) {
	x, err := b.bindCurrentSetting(args, at, c)
	return x, true, err
}

// settingOn is the session's value of the boolean setting name, def when
// the catalog shows no settings (a binder without a session).
func (b *binder) settingOn(name string, def bool) bool {
	if sr, ok := b.cat.(SettingsReader); ok {
		if v, err := sr.CurrentSetting(name); err == nil && !v.Null && v.Type.ID == columnar.Bool {
			return v.Bool()
		}
	}
	return def
}
