"""Mock interviews: the plan, the clock, answers graded in silence, red flags and the report."""
