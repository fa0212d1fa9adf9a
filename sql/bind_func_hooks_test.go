package sql

import (
	"testing"

	"github.com/b2sql/b2sql/function"
)

// TestBindHooks checks that the binder's hooks and the registry's
// CustomBind scalar functions are the same names: a CustomBind function
// without a hook would be typed by rules that only describe it, and a
// hook under a name the registry does not mark would never run.
func TestBindHooks(t *testing.T) {
	custom := map[string]bool{}
	for _, s := range function.All() {
		if s.Kind == function.Scalar && !s.Internal && s.CustomBind {
			custom[s.Name] = true
			if bindHooks[s.Name] == nil {
				t.Errorf("%s: CustomBind in the registry, no hook in bindHooks", s.Name)
			}
		}
	}
	for n := range bindHooks {
		if !custom[n] {
			t.Errorf("%s: a hook in bindHooks, not a CustomBind scalar function of the registry", n)
		}
	}
}
