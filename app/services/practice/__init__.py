"""Practice: a learner's quiz sessions, answering, Run and resubmits, and what they see after."""
