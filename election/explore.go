package election

// exploreExample is a runnable `explore` line for each algorithm: the
// split-brain configurations for anonymous and bully, and each correct
// algorithm under its own assumptions (Franklin and YoYo need FIFO links:
// the simulator's fifo policy keeps them with a range of latencies).
func exploreExample(name string) string {
	switch name {
	case "anonymous":
		return "ringlab election explore anonymous --initiators all --schedules 100   (finds two leaders)"
	case "bully":
		return "ringlab election explore bully --initiators 4 --reply-timeout 3 --latency 1-4 --schedules 200   (finds split-brain)\n" +
			"   ringlab election explore bully --initiators 1 --latency 1-4 --schedules 500   (safe timeouts: none)"
	case "franklin", "yoyo":
		return "ringlab election explore " + name + " --nodes 8 --layout random --latency 1-5 --schedules 500"
	}
	return "ringlab election explore " + name + " --nodes 8 --layout random --initiators all --policy random --schedules 500"
}
