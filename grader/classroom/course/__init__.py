"""A course around the class grading: its roster, its points and scoring rules, due dates and late
work, the instructor's overrides and comments, and exports for learning-management systems."""
