package backoff

// Doc is the reference of `kubeletcfg backoff` (its help and man page): the
// curve (Compute, Curve), the reset threshold (ResetAfter), the inputs and
// minors compared (Evaluate) and the exit codes.
const Doc = `Play out the crash-loop backoff the kubelet would apply with these files: the wait
before each restart of a container that keeps crashing (the first restart is
immediate, then the initial delay, doubling up to the cap), when the cap is
reached, how many restarts fit in the first 10 minutes and the first hour, and
after how long a container that runs cleanly starts again from the initial delay.

The initial delay and the cap are the kubelet's newCrashLoopBackOff for the
effective configuration (ReduceDefaultCrashLoopBackOffDecay,
KubeletCrashLoopBackOffMax, crashLoopBackOff.maxContainerRestartPeriod). The
curve assumes that the container exits as soon as it starts and that the kubelet
restarts it the moment a delay ends (sync latency ignored); it is checked against
each minor's real client-go Backoff.

The backoff is forgotten once more than the reset threshold (600s from 1.32,
twice the cap in 1.31) has passed since the last restart: a container that ran
that long restarts at once, and one that crashed a little earlier restarts when
the threshold passes (the kubelet's housekeeping, every 2s), from the initial
delay again.

--versions evaluates the files at several minors, --compare adds other --config
files (evaluated without drop-ins) at the same minors; the curves are shown side
by side, identical neighbours once.

Exit code 1 when the kubelet would not start with a file at a minor (it has no
curve then), 2 for usage and input errors.`
