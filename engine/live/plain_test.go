package live

import (
	"testing"
)

// TestPlain runs the package's tests on the plain scheduler (RunPlain),
// but the four that test what only the turn scheduler does: skip time
// when only scheduled actions are left, and let done nodes' goroutines
// go.
func TestPlain(t *testing.T) {
	runLive = runPlain
	defer func() { runLive = runTurns }()
	for _, tc := range []struct {
		name string
		f    func(*testing.T)
	}{
		{"NoEndWithARestartToCome", TestNoEndWithARestartToCome},
		{"ActionArg", TestActionArg},
		{"CancelStopsABigRunAtOnce", TestCancelStopsABigRunAtOnce},
		{"TimeoutBoundsABigRun", TestTimeoutBoundsABigRun},
		{"PassCountsEveryHop", TestPassCountsEveryHop},
		{"NothingToDoIsQuiescent", TestNothingToDoIsQuiescent},
		{"AllInitiatorsRing", TestAllInitiatorsRing},
		{"FIFOPerLinkUnderOverflow", TestFIFOPerLinkUnderOverflow},
		{"TimersAndScriptOnTheFakeClock", TestTimersAndScriptOnTheFakeClock},
		{"TimerReplaceAndCancel", TestTimerReplaceAndCancel},
		{"TimeoutIsExhausted", TestTimeoutIsExhausted},
		{"Stop", TestStop},
		{"CancelReturnsPartialResult", TestCancelReturnsPartialResult},
		{"CancelBusyRing", TestCancelBusyRing},
		{"Errors", TestErrors},
		{"SinkOrderAndLamport", TestSinkOrderAndLamport},
		{"CountsEveryMessageType", TestCountsEveryMessageType},
		{"SinkStops", TestSinkStops},
		{"NodesGetNow", TestNodesGetNow},
		{"ParkedNodesWakeForEveryMessage", TestParkedNodesWakeForEveryMessage},
		{"StopWithParkedNodes", TestStopWithParkedNodes},
		{"ProgressIsReported", TestProgressIsReported},
		{"ParkingWithTimersAndReactions", TestParkingWithTimersAndReactions},
		{"CrashAndRestartParkedNodes", TestCrashAndRestartParkedNodes},
		{"RunsEndedFromOutsideWithParkedNodes", TestRunsEndedFromOutsideWithParkedNodes},
		{"RunsEndAsTheLastMessageLands", TestRunsEndAsTheLastMessageLands},
		{"RestartedClockedNodeGetsNow", TestRestartedClockedNodeGetsNow},
		{"VectorClocks", TestVectorClocks},
		{"VectorClocksConcurrentAndOrdered", TestVectorClocksConcurrentAndOrdered},
	} {
		t.Run(tc.name, tc.f)
	}
}
