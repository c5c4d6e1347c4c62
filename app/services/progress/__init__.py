"""Progress: mastery per topic and misconception over time, history and spaced review."""
