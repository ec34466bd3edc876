// Package engine evaluates many inputs at once: a Hasher keys an input by what
// decides its verdict, Dedup and Run evaluate each distinct key once on bounded
// workers and fan the result out, Each runs bounded workers. lint --nodes and
// the cluster run share it; it imports only the standard library, so the folder
// run does not link the cluster's API client.
package engine
