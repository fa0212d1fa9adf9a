package engine

import (
	"strings"

	"github.com/b2sql/b2sql/columnar"
	"github.com/b2sql/b2sql/sql"
)

// The binder reads the session's settings through its catalog
// (sql.SettingsReader): current_setting('name') and duckdb_settings().

var _ sql.SettingsReader = (*bindCatalog)(nil)

// RandomToken names the session's random engine (sql.RandomSession).
func (c *bindCatalog) RandomToken() int64 { return c.sess.random }

// CurrentSetting is the session's value of a setting.
func (c *bindCatalog) CurrentSetting(name string) (columnar.Value, error) {
	return c.sess.Setting(name)
}

// SettingRows lists the session's settings, by name, then the rule
// switches; every b2sql setting is the session's own (LOCAL), but those
// that Global marks.
func (c *bindCatalog) SettingRows() []sql.SettingRow {
	list := c.sess.SettingsList()
	rows := make([]sql.SettingRow, len(list))
	for i, r := range list {
		scope := "LOCAL"
		if r.Global {
			scope = "GLOBAL"
		}
		aliases := make([]string, len(r.Aliases))
		for k, a := range r.Aliases {
			aliases[k] = strings.ToLower(a)
		}
		rows[i] = sql.SettingRow{Name: r.Name, Value: settingText(r.Value), Description: r.Description,
			InputType: r.Type, Scope: scope, Aliases: aliases}
	}
	return rows
}

// settingText is a setting's value as duckdb_settings() shows it: text,
// NULL as empty.
func settingText(v columnar.Value) string {
	if v.Null {
		return ""
	}
	if v.Type.Phys() == columnar.PhysBytes {
		return v.S
	}
	return v.String()
}
