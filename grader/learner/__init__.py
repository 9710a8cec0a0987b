"""The learner's side: check output, hints and progress."""
