"""Evidence of shared work for the instructor's eyes only: identical files, and rare wrong outputs
two learners share on every hidden case they fail. Evidence, never a verdict."""
