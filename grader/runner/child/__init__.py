"""Child-side code: everything that runs next to learner code. It imports nothing else of the grader."""
