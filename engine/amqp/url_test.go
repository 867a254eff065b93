package amqp

import (
	"strings"
	"testing"
	"unicode/utf8"

	amqp "github.com/rabbitmq/amqp091-go"
)

func TestRedact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"amqp://guest:guest@localhost:5672/", "amqp://guest:xxx@localhost:5672/"},
		{"amqps://u:p%40ss@h/vh", "amqps://u:xxx@h/vh"},
		{"amqp://u:pa/ss@h/", "amqp://u:xxx@h/"},    // an unescaped "/" in the password
		{"amqp://u:p@ss@h:1/", "amqp://u:xxx@h:1/"}, // an unescaped "@"
		{"amqp://u:s3cret@h:x/", "amqp://u:xxx@h:x/"},
		{"guest:s3cret@localhost", "guest:xxx@localhost"}, // no scheme
		{"amqp://user@h/", "amqp://user@h/"},              // no password
		{"amqp://localhost/", "amqp://localhost/"},
		{"", ""},
	} {
		if got := Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for _, ok := range []string{DefaultURL, "amqp://", "amqp://localhost", "amqps://u:p@h:5671/vh", "amqp://u:p%40ss@h/", "amqp:///vh"} {
		if err := CheckURL(ok); err != nil {
			t.Errorf("CheckURL(%q): %v", ok, err)
		}
	}
	for _, tc := range []struct{ url, want string }{
		{"", "empty"},
		{"http://h/", "the scheme must be amqp or amqps"},
		{"localhost:5672", "the scheme must be amqp or amqps"},
		{"amqp:localhost", "no // after the scheme"},
		{"amqp://h:x/", `invalid port ":x" after host`},
		{"amqp://h:0/", `port "0" is not in 1..65535`},
		{"amqp://u@h:65536/", `port "65536" is not in 1..65535`},
		{"amqp://u:s3cret@h:/", "an empty port"},
		{"amqp://u:s3 cret@h/", "invalid userinfo"},
		// a reason quoting a part of the URL that may be the password
		{"amqp://u:s3cret@h:x/", "it does not parse (a reserved character"},
		{"amqp://u:s3/cret@h/", "it does not parse (a reserved character"},
		{"amqp://u:s3%zzcret@h/", "it does not parse (a reserved character"},
		{"amqp://u:s3@h:65536/", "it does not parse (a reserved character"},
		{"amqp://h/?heartbeat=x", "heartbeat"},
		{"amqp://h/\x00", "invalid control character"},
	} {
		err := CheckURL(tc.url)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "s3") {
			t.Errorf("CheckURL(%q) = %v, want an error with %q and no password", tc.url, err, tc.want)
		}
	}
}

// FuzzCheckURL: a URL CheckURL accepts is one the library dials with a
// port in range; a refused one gets one line that never shows a password
// given after "user:".
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{DefaultURL, "amqp://u:p@h:x/", "http://h/", "", "amqp:h", "amqp://[::1]:5672/", "amqp://u:p@[::1/", "amqps://h/?channel_max=70000"} {
		f.Add(s, "s3cret")
	}
	f.Fuzz(func(t *testing.T, url, password string) {
		err := CheckURL(url)
		if err == nil {
			u, perr := amqp.ParseURI(url)
			if perr != nil || u.Port < 1 || u.Port > 65535 {
				t.Fatalf("%q accepted: %+v %v", url, u, perr)
			}
		} else if strings.ContainsAny(err.Error(), "\n\r") {
			t.Fatalf("%q: a message of several lines: %q", url, err)
		}
		// a URL with a password: neither Redact nor CheckURL shows it
		// (unless the password is a word of their own texts)
		if len(password) < 4 || strings.ContainsAny(password, "@:") || !utf8.ValidString(password) ||
			strings.Contains(fixedTexts, password) {
			return
		}
		for _, withPW := range []string{"amqp://guest:" + password + "@localhost:5672/", "amqp://guest:" + password + "@h:x/"} {
			if r := Redact(withPW); strings.Contains(r, password) && !strings.Contains(withPW[strings.Index(withPW, "@")+1:], password) {
				t.Fatalf("Redact(%q) = %q", withPW, r)
			}
			if err := CheckURL(withPW); err != nil && strings.Contains(err.Error(), password) &&
				!strings.Contains(withPW[strings.Index(withPW, "@")+1:], password) {
				t.Fatalf("CheckURL(%q) shows the password: %v", withPW, err)
			}
		}
	})
}

// fixedTexts are the words of CheckURL's own messages.
const fixedTexts = `want amqp://USER:PASSWORD@HOST:PORT/VHOST, got "amqp://guest:xxx@localhost:5672/": ` +
	"empty the scheme must be amqp or amqps no // after the scheme an empty port is not in 1..65535 " +
	"it does not parse (a reserved character such as / ? # @ : in the password must be %-escaped)"
