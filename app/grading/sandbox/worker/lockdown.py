"""Resource limits and the seccomp filter the worker puts on itself before candidate code runs.

Two stages: `start_limits` at process start (address-space backstop, no core files, file
size, process count) and `lock` after TensorFlow is warm and the job is read (CPU budget
counted from now, few file descriptors, and a seccomp deny-list synchronised to every
thread, since TF's pool threads exist already and `tf.py_function` runs Python on them).

A forked worker runs as pid 1 of its own pid namespace, and the kernel ignores a signal an init
sends itself: `os.kill(os.getpid(), 9)` after a correct step did nothing, and the step was
graded correct. So the filter ends the process (SIGSYS, which the supervisor names) on any
signal the code sends, to itself or anyone, on every worker: a training step sends none. It
also ends it on an exit status from 128 up (which reads like a death by a signal, the mark of
a kill from outside), and refuses to change a resource limit (a lowered CPU limit would make
the kernel SIGKILL it early, again like a kill from outside).
"""

from __future__ import annotations

import errno
import resource
from typing import Any

GIB = 1024**3
CLONE_THREAD = 0x00010000

# Denied with EPERM: network, process creation and exec, debugging, namespaces and mounts,
# kernel attack surface a training step never needs.
DENIED = (
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    "execve", "execveat", "fork", "vfork",
    "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_open", "pidfd_getfd",
    "mount", "umount2", "pivot_root", "chroot", "unshare", "setns", "mount_setattr",
    "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick",
    "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter",
    "io_uring_register", "keyctl", "add_key", "request_key", "kexec_load",
    "init_module", "finit_module", "delete_module", "personality", "acct", "swapon",
    "swapoff", "reboot", "syslog", "quotactl",
)  # fmt: skip


def start_limits(nproc: int, file_size: int) -> None:
    _set(resource.RLIMIT_AS, 4 * GIB)  # a backstop only: the cgroup is the memory limit
    _set(resource.RLIMIT_CORE, 0)
    _set(resource.RLIMIT_FSIZE, file_size)
    _set(resource.RLIMIT_NPROC, nproc)


# Syscalls that send a signal, and the argument that holds the signal (0 only probes a pid).
SIGNALLING = (
    ("kill", 1), ("tkill", 1), ("tgkill", 2), ("rt_sigqueueinfo", 1), ("rt_tgsigqueueinfo", 2),
)  # fmt: skip
SIGNAL_STATUS = 0x80  # exit statuses 128-255 (in the low byte the kernel keeps)


def lock(cpu_seconds: int, open_files: int, *, init: bool = False) -> None:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    budget = int(usage.ru_utime + usage.ru_stime) + 1 + cpu_seconds
    # SIGXCPU, then SIGKILL a second later; a pid namespace's init ignores SIGXCPU, so a
    # forked worker gets the SIGKILL at the soft limit instead (the same CPU budget).
    resource.setrlimit(resource.RLIMIT_CPU, (budget, budget if init else budget + 1))
    _set(resource.RLIMIT_NOFILE, open_files)
    load_seccomp()


def _set(limit: int, value: int) -> None:
    resource.setrlimit(limit, (value, value))


def load_seccomp() -> None:
    import seccomp  # Debian's python3-seccomp, bound into the sandbox by the launcher

    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    rules.set_attr(seccomp.Attr.CTL_TSYNC, 1)
    for name in DENIED:
        try:
            rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
        except (RuntimeError, ValueError, OSError):
            continue  # a syscall this kernel/arch does not know cannot be called either
    # Threads are fine; a new process is not. clone3 hides its flags in memory, so refuse it
    # with ENOSYS and glibc falls back to clone, whose flags we can inspect.
    rules.add_rule(
        seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0)
    )
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    _add_self_harm_rules(seccomp, rules)
    rules.load()


def _add_self_harm_rules(seccomp: Any, rules: Any) -> None:
    """What only the code itself can do to look killed from outside, or to end its worker by
    a signal: any signal sent, an exit status from 128 up, a lowered resource limit."""
    for name, position in SIGNALLING:
        rules.add_rule(seccomp.KILL_PROCESS, name, seccomp.Arg(position, seccomp.NE, 0))
    rules.add_rule(seccomp.KILL_PROCESS, "pidfd_send_signal")
    for name in ("exit_group", "exit"):
        status = seccomp.Arg(0, seccomp.MASKED_EQ, SIGNAL_STATUS, SIGNAL_STATUS)
        rules.add_rule(seccomp.KILL_PROCESS, name, status)
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "prlimit64", seccomp.Arg(2, seccomp.NE, 0))
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "setrlimit")
    _add_delayed_signal_rules(seccomp, rules)


# Ways to have the kernel send the process a signal later (a timer, I/O readiness), which a
# send-time rule cannot see. An exec-spawned worker is not an init, so a timer armed with
# SIGKILL (timer_create, mq_notify; the signal lies in memory a filter cannot read) or an
# F_SETSIG of SIGKILL ended it as if killed from outside (run again, then "interrupted");
# SIGALRM, SIGIO and the rest read as a crash of the interpreter. A step arms none of them.
TIMERS = ("timer_create", "mq_notify", "setitimer", "alarm")
F_SETOWN, F_SETSIG, F_SETOWN_EX, F_SETLEASE, F_NOTIFY = 8, 10, 15, 1024, 1026
FIOSETOWN, SIOCSPGRP = 0x8901, 0x8902


def _add_delayed_signal_rules(seccomp: Any, rules: Any) -> None:
    for name in TIMERS:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
    for command in (F_SETOWN, F_SETSIG, F_SETOWN_EX, F_SETLEASE, F_NOTIFY):  # set an owner
        rules.add_rule(seccomp.ERRNO(errno.EPERM), "fcntl", seccomp.Arg(1, seccomp.EQ, command))
    for request in (FIOSETOWN, SIOCSPGRP):
        rules.add_rule(seccomp.ERRNO(errno.EPERM), "ioctl", seccomp.Arg(1, seccomp.EQ, request))
