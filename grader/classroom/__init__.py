"""The class side: class grading, submissions, the gradebook and exports."""
