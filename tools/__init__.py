"""Developer tools kept outside the runtime package ``pairing``: the conformance replay, the
benchmarks, the synthetic tournament writer and the tie-break cross-check. Run them from the
repository root, e.g. ``python -m tools.conformance DIR``; ``make conformance`` and ``make bench``
call them."""
