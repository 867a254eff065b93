package grade_test

import (
	"testing"

	"go.uber.org/goleak"
)

// The command reads its stream on a goroutine of its own: none may outlive
// a test.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
