package executor

// Copies makes a PartitionMerge Parallel for EXPLAIN ANALYZE: its finals,
// one per partition, are copies of one aggregate. Under each final's
// PartitionSource the workers' partials are again copies (PartialCopies).
func (m *PartitionMerge) Copies() []Operator { return m.Finals }

// PartialCopies returns the workers' partial aggregates under source s of
// m (nil when s is not one of m's sources), for EXPLAIN ANALYZE to add up.
func (m *PartitionMerge) PartialCopies(s *PartitionSource) []Operator {
	for _, x := range m.Sources {
		if x == s {
			return m.Partials
		}
	}
	return nil
}
