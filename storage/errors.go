package storage

import "fmt"

// locationError prefixes err with the location, the "where" of a storage
// error (the "what" comes from the request that failed).
func locationError(location string, err error) error {
	return fmt.Errorf("%s: %w", location, err)
}
