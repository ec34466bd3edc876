package report

import "testing"

func TestColorEnv(t *testing.T) {
	for _, tt := range []struct {
		noColor, term string
		want          bool
	}{
		{"", "xterm-256color", true},
		{"1", "xterm-256color", false},
		{"", "dumb", false},
	} {
		t.Setenv("NO_COLOR", tt.noColor)
		t.Setenv("TERM", tt.term)
		if got := ColorEnv(); got != tt.want {
			t.Errorf("NO_COLOR=%q TERM=%q: colour %v, want %v", tt.noColor, tt.term, got, tt.want)
		}
	}
}
