package executor

import (
	"strings"
	"unicode"

	"github.com/b2sql/b2sql/columnar"
	"golang.org/x/text/unicode/norm"
)

// Unicode normalization (registered in func_*.go):
//
//	nfc_normalize(s)   VARCHAR  canonical composition: 'e' + U+0301 becomes 'é'
//	strip_accents(s)   VARCHAR  decomposed, combining marks dropped: 'héllo' is 'hello' ('ß' stays)

func fnNFC(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	return columnar.StringValue(norm.NFC.String(a[0].S)), nil
}

func fnStripAccents(a []columnar.Value, t columnar.Type) (columnar.Value, error) {
	d := norm.NFD.String(a[0].S)
	s := strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, d)
	return columnar.StringValue(norm.NFC.String(s)), nil
}
