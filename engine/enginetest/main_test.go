package enginetest_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a test leaves a goroutine behind: the
// explorer's server must stop with the test's context.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
