"""The sandbox for candidate code: launcher and backends (web side, stdlib only), worker package.

`launcher` builds the bubblewrap command that starts a worker; `backends` decide, per host,
how that worker's process tree is started, limited, measured and killed (cgroup v1, cgroup
v2, or rootless user namespaces), chosen once at start-up; `doctor` explains the choice.
`worker/` is the only code bound into the sandbox, runs with TensorFlow imported, and imports
nothing from the web side. Importing this package imports none of them.
"""
