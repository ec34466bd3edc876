package optionerr

import "testing"

// TestWordsFromFormatOnly: a field named in the format is written in the
// caller's words; text an argument brings that reads like a field is not.
func TestWordsFromFormatOnly(t *testing.T) {
	names := map[string]string{"Versions": "--versions", "ConfigDir": "-d"}
	for _, tt := range []struct {
		name       string
		err        error
		lib, flags string
	}{
		{"field in the format", Errorf("{Versions} %q is not a range", "1.40"),
			`Options.Versions "1.40" is not a range`, `--versions "1.40" is not a range`},
		{"braces in an argument", Errorf("%s is a folder: use {ConfigDir}", "/tmp/{Versions}"),
			"/tmp/{Versions} is a folder: use Options.ConfigDir", "/tmp/{Versions} is a folder: use -d"},
		{"a request's field", In("NewRequest").Errorf("{Sets}: none given"),
			"NewRequest.Sets: none given", "NewRequest.Sets: none given"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.lib {
				t.Errorf("library words %q, want %q", got, tt.lib)
			}
			if got := tt.err.(*Error).Words(names); got != tt.flags {
				t.Errorf("command words %q, want %q", got, tt.flags)
			}
		})
	}
}
