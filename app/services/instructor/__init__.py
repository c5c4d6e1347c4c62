"""Instructors: packs published, self-tested and exported, cohorts and their dashboards."""
