// Package dict owns dictionary-encoded strings: a Dict (the distinct values
// of one Parquet column chunk or one CTable dictionary() column, in one
// immutable arena), code vectors (columnar.Vector.Codes indexing a Dict held
// in columnar.Vector.Dict), and the two translations that let the executor
// work on integer codes instead of strings:
//
//   - a predicate against constants (=, <>, <, IN, …) becomes a truth table
//     with one entry per code, computed once per dictionary (Match); a
//     literal absent from the dictionary simply has no true entry;
//   - codes of different dictionaries (each Parquet row group has its own)
//     are remapped (Remap) into one query-wide numbering, the group ids of
//     a hash aggregate, looked up once per code and dictionary; results are
//     translated back to strings once per group, not once per row.
//
// A coded vector has Type VARCHAR or BLOB, Dict set, Codes[i] valid for
// every non-NULL row, and Bytes unused (a format whose values are at hand
// anyway, like a CTable dictionary() column, may fill it too). Scans
// produce one only for columns the consumer asked for
// (index.ScanSpec.DictCols); every other consumer keeps receiving plain
// byte vectors.
package dict
