// Package udiff writes unified diffs of text files, line by line, as diff -u and
// git diff print them, so that the output of kubeletcfg fix --diff can be
// reviewed and applied with patch -p1 or git apply.
package udiff
