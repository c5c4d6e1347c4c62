"""The sandbox for candidate code: the launcher (web side, stdlib only) and the worker package.

`launcher` builds the cgroup + setpriv + bubblewrap chain that starts a worker; `worker/` is
the only code bound into the sandbox, runs under its own uid with TensorFlow imported, and
imports nothing from the web side. Importing this package imports neither.
"""
