"""Code that runs inside the sandbox: imports TensorFlow, runs one job, reports observations.

Bound read-only into the bubblewrap sandbox as a top-level package, so every import inside it
is relative and it may only use the stdlib, numpy, tensorflow, keras and seccomp. Importing
this `__init__` alone imports nothing heavy (the web side's tests import the package path).
"""
