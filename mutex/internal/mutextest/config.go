package mutextest

import (
	"fmt"
	"strings"
	"testing"

	"ringlab/engine/node"
)

// ConfigCase is a config and what its package's Factory must say of it:
// Want is a part of the error, or "" for a valid config.
type ConfigCase[C any] struct {
	Name string // the subtest's name; "" names it by its place in the list
	Cfg  C
	Want string
}

// CheckConfigs runs factory on each case's config, in a subtest each, and
// reports an error that is missing, unexpected, or says something else.
func CheckConfigs[C any](t *testing.T, factory func(C) (node.Factory, error), cases []ConfigCase[C]) {
	t.Helper()
	for i, tc := range cases {
		name := tc.Name
		if name == "" {
			name = fmt.Sprint(i)
		}
		t.Run(name, func(t *testing.T) {
			_, err := factory(tc.Cfg)
			if tc.Want == "" && err != nil || tc.Want != "" && (err == nil || !strings.Contains(err.Error(), tc.Want)) {
				t.Errorf("Factory(%+v) = %v, want %s", tc.Cfg, err, wantText(tc.Want))
			}
		})
	}
}

func wantText(want string) string {
	if want == "" {
		return "no error"
	}
	return fmt.Sprintf("an error containing %q", want)
}
