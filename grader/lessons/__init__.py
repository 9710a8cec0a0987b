"""The author's side: the roadmap, lesson loading, the authoring API, prose, build and verify."""
