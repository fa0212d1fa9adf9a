package ctable

// indexDirOf is the sidecar directory of column name: _indexes/<name>,
// the name as it is (a dotted leaf's too: _indexes/trip.lon), which is
// what python-blosc2's index anchor resolves to.
func indexDirOf(name string) string {
	return "_indexes/" + name
}
