"""Running learner code: warm workers, the sandbox and one job; `child/` is the untrusted side."""
