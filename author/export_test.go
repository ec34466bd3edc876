package author

// For the tests of package author_test, which see the command's words
// (kubeletcfg.CommandWords).
var (
	WriteFile        = writeFile
	NewRequestErrorf = newRequestErrorf
	DiffErrorf       = diffErrorf
)
