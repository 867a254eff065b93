package live

// SetParking turns parking (peer.park) on or off for the runs that start
// afterwards, and returns the previous setting.
func SetParking(on bool) (was bool) {
	was, parking = parking, on
	return was
}
