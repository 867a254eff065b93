package amqp

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	amqp "github.com/rabbitmq/amqp091-go"
)

// Redact returns url with its password replaced by "xxx", for every text
// a run writes (messages, the replay command, logs, the browser page). It
// works on the text as given, so a URL that does not parse is masked too:
// the password is whatever follows the first ":" of the user information,
// the text between "://" (or the start) and the last "@".
func Redact(url string) string {
	from, to := password(url)
	if from < 0 {
		return url
	}
	return url[:from] + "xxx" + url[to:]
}

// password locates the password Redact hides: url[from:to], or -1, -1.
func password(url string) (from, to int) {
	start := 0
	if k := strings.Index(url, "://"); k >= 0 {
		start = k + len("://")
	}
	at := strings.LastIndexByte(url[start:], '@')
	if at < 0 {
		return -1, -1
	}
	colon := strings.IndexByte(url[start:start+at], ':')
	if colon < 0 {
		return -1, -1
	}
	return start + colon + 1, start + at
}

// CheckURL reports why url is not an AMQP URI a run can dial
// (amqp://USER:PASSWORD@HOST:PORT/VHOST), or nil. Its one-line error shows
// the URL redacted.
func CheckURL(raw string) error {
	bad := func(why string) error {
		if from, _ := password(raw); from >= 0 && strings.ContainsAny(why, "\"'`") {
			// a quoted part of the URL may be part of its password
			why = "it does not parse (a reserved character such as / ? # @ : in the password must be %-escaped)"
		}
		return fmt.Errorf("want amqp://USER:PASSWORD@HOST:PORT/VHOST, got %q: %s", Redact(raw), why)
	}
	if raw == "" {
		return bad("empty")
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) { // its text repeats the URL, password and all
			err = ue.Err
		}
		return bad(err.Error())
	}
	if u.Scheme != "amqp" && u.Scheme != "amqps" {
		return bad("the scheme must be amqp or amqps")
	}
	if u.Opaque != "" {
		return bad("no // after the scheme")
	}
	if port := u.Port(); port != "" {
		if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			return bad(fmt.Sprintf("port %q is not in 1..65535", port))
		}
	} else if strings.HasSuffix(u.Host, ":") {
		return bad("an empty port")
	}
	if _, err := amqp.ParseURI(raw); err != nil { // the library's own reading, which dialing uses
		return bad(err.Error())
	}
	return nil
}
