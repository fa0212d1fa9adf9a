package sql

// CopySource is the file a COPY … FROM query reads (nil for any other
// query), for the caller to complete its options (the target's types).
func CopySource(q *Query) *FileCall {
	if q == nil {
		return nil
	}
	return q.copyFrom
}
