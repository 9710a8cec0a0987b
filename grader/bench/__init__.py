"""`make bench`: how class grading scales with the class, against nbgrader on the same files."""
