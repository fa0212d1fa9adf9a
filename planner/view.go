package planner

// ViewCatalog is a Catalog that also has views: named queries, kept as SQL
// text and bound anew where they are used.
type ViewCatalog interface {
	Catalog
	// View returns the SQL of the view registered under name
	// (case-insensitive).
	View(name string) (sql string, ok bool)
}
