package columnar

import (
	"bytes"
	"strings"
	"testing"
)

func TestParseUUID(t *testing.T) {
	const canon = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"
	for _, in := range []string{canon, strings.ToUpper(canon), "{" + canon + "}", strings.ReplaceAll(canon, "-", ""), "a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11"} {
		u, ok := ParseUUID(in)
		if !ok {
			t.Errorf("%q: not read", in)
			continue
		}
		if got := string(AppendUUID(nil, u[:])); got != canon {
			t.Errorf("%q printed %q", in, got)
		}
	}
	for _, in := range []string{"", "{}", canon[:35], canon + "1", " " + canon, "{" + canon, "g0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"} {
		if _, ok := ParseUUID(in); ok {
			t.Errorf("%q read as a UUID", in)
		}
	}
}

// TestUUIDOrder: the payloads order as the texts do (DuckDB orders UUIDs
// as their text; it flips the top bit of a signed HUGEINT for that).
func TestUUIDOrder(t *testing.T) {
	texts := []string{
		"00000000-0000-0000-0000-000000000001", "7fffffff-ffff-ffff-ffff-ffffffffffff",
		"80000000-0000-0000-0000-000000000000", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
		"ffffffff-0000-0000-0000-000000000000",
	}
	for i := range texts {
		for j := range texts {
			a, _ := ParseUUID(texts[i])
			b, _ := ParseUUID(texts[j])
			if got, want := bytes.Compare(a[:], b[:]), strings.Compare(texts[i], texts[j]); got != want {
				t.Errorf("%s vs %s: %d, want %d", texts[i], texts[j], got, want)
			}
		}
	}
}
