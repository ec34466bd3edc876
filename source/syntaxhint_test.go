package source

import "testing"

// TestSyntaxHint: invalid UTF-8 is named, with its line and byte, before any
// tab; a tab is mentioned only when there is one.
func TestSyntaxHint(t *testing.T) {
	for _, tt := range []struct {
		data, want string
	}{
		{"kind: KubeletConfiguration\nmaxPods: 10\t# ten\nclusterDomain: \"ab\xff\"\n", "fix the encoding: the file is not valid UTF-8 (line 3, byte 19); save it as UTF-8"},
		{"# caf\xe9\nkind: x\n", "fix the encoding: the file is not valid UTF-8 (line 1, byte 6); save it as UTF-8"},
		{"kind: x\n\tmaxPods: 1\n", "fix the syntax: the file has a tab, and YAML indents with spaces, never tabs"},
		{"kind: [x\n", "fix the syntax"},
		{"\xff\xfek\x00i\x00", "fix the syntax"}, // UTF-16 with a byte order mark: yaml reads it
		{"clusterDomain: café\n", "fix the syntax"},
	} {
		if got := SyntaxHint([]byte(tt.data)); got != tt.want {
			t.Errorf("SyntaxHint(%q) = %q, want %q", tt.data, got, tt.want)
		}
	}
}
