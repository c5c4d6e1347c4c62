"""Resource limits and the seccomp filter the worker puts on itself before candidate code runs.

Two stages: `start_limits` at process start (address-space backstop, no core files, file
size, process count) and `lock` after TensorFlow is warm and the job is read (CPU budget
counted from now, few file descriptors, and a seccomp deny-list synchronised to every
thread, since TF's pool threads exist already and `tf.py_function` runs Python on them).
"""

from __future__ import annotations

import errno
import resource

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


def lock(cpu_seconds: int, open_files: int) -> None:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    budget = int(usage.ru_utime + usage.ru_stime) + 1 + cpu_seconds
    resource.setrlimit(resource.RLIMIT_CPU, (budget, budget + 1))  # SIGXCPU, then SIGKILL
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
    rules.load()
